"""`host-sync demo`: a whole simulated session (run.py). The club and its deals (players,
hands), the simulated players and director (bidders, board, table), the terminals as real
`micropython` processes on pseudo-terminals (terminals, ptys), and the check of the scoring
database against the simulated truth (truth)."""
