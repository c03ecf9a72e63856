"""The station's GPIO outputs through RPi.GPIO: LEDs and an active buzzer, by BCM number.

`GpioOutputs(pins)` sets every pin up as an output, low; `set(pin, on)` drives one; `close()`
hands the pins back (GPIO.cleanup). Anything above this (which LED means what) is
host_sync.station.indicators's business.
"""


class GpioMissing(RuntimeError):
    """RPi.GPIO cannot be loaded here: this machine is not a Raspberry Pi station."""


class GpioOutputs:
    def __init__(self, pins, gpio=None):
        if gpio is None:
            try:
                import RPi.GPIO as gpio  # only on the Pi
            except (ImportError, RuntimeError) as e:  # RuntimeError: installed, not a Pi
                raise GpioMissing("RPi.GPIO cannot be loaded (%s); on the Raspberry Pi: "
                                  "apt install python3-rpi.gpio" % e) from e
        self.gpio = gpio
        self.pins = tuple(pins)
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        gpio.setup(list(self.pins), gpio.OUT, initial=gpio.LOW)

    def set(self, pin, on):
        if pin not in self.pins:
            raise ValueError("GPIO %r is not one of the station's outputs %s" % (pin, self.pins))
        self.gpio.output(pin, self.gpio.HIGH if on else self.gpio.LOW)

    def close(self):
        self.gpio.cleanup(list(self.pins))
