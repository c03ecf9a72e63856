"""Raspberry Pi backend (CPython, RPi.GPIO): the sync station's LEDs and buzzer."""
