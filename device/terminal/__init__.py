"""The terminal application: link (COBS frames of CBOR), power-safe journal, screens, config.

Everything here runs on the board (MicroPython) and under CPython in tests.
"""
