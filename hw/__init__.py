"""The terminal's hardware layer: keypad, display, text, buzzer and LEDs, with backends.

Drivers are small and take their pins or buses as arguments; hw.backends.machine_backend
wires them to a board profile (hw.profiles) on MicroPython's `machine`, hw.backends.sim
gives the same Board without hardware for tests and the desktop simulator.
"""
