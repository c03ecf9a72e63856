"""The Laws core: pure, portable code shared by the terminal (MicroPython) and the host.

Nothing here does I/O or touches hardware, so the same files run on the board, under the
`micropython` unix port in tests, and under CPython as the host's package `bridge`.
"""
