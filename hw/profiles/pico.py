"""Raspberry Pi Pico (RP2040) pin map of the table terminal.

GP0/GP1 stay free for UART0, the wired alternative to the USB link. The display is on I2C0
at its GP4/GP5 pair. The 5x5 key matrix takes GP6..GP15, ten pins in a row along one edge
of the Pico (physical pins 9-20), rows driven open-drain and columns read with pull-ups.
The buzzer has PWM slice 0 to itself (GP16, channel A; GP17's channel B only ever drives
an LED as plain GPIO, so no second PWM frequency can fight it). GP25 is the Pico's own LED.
"""

NAME = "pico"

I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400000  # SSD1306 fast mode
DISPLAY_ADDRESS = 0x3C

KEYPAD_ROWS = (6, 7, 8, 9, 10)
KEYPAD_COLS = (11, 12, 13, 14, 15)

BUZZER = 16

LEDS = (("green", 17), ("red", 18), ("board", 25))
