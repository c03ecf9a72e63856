"""Backends build a hw.board.Board: `machine_backend` on MicroPython's machine module (or
fake_machine in tests), `sim` without hardware. pyframebuf and png are host-side helpers."""
