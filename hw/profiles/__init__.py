"""Board profiles: which GPIO each device of the terminal is wired to, one module per board."""
