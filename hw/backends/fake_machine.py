"""A fake of MicroPython's `machine` module (RP2040 port) for tests on any interpreter.

The unix port has no Pin, I2C or PWM. This module has them, enforces what the real library
and the parts accept, and records what the drivers did:

- Pin: GPIO 0..29 or "LED"; modes IN, OUT, OPEN_DRAIN; pulls PULL_UP, PULL_DOWN or None. An
  input's level comes from an electrical model: pins joined by pressed keys of a KeyMatrix
  share a net; a net driven both low and high is a short (ContractError), a net driven by
  nothing reads its pull resistor, and with no pull either the read is floating
  (ContractError). A pin that an I2C or PWM owns cannot be reused as GPIO.
- I2C: bus 0 or 1 on the SDA/SCL pins the RP2040 routes to that bus (ValueError otherwise,
  as the port raises); writeto/writevto need buffer-protocol objects and a 7-bit address; a
  missing device raises OSError(EIO). Attached devices get each transaction's bytes.
- PWM: freq 8 Hz..62.5 MHz and duty_u16 0..65535 (ValueError otherwise); every change is
  logged with the time of a settable fake clock.
- WDT: the RP2040's watchdog: id 0, a timeout of 1..8388 ms (ValueError otherwise, as the
  port raises); it cannot be stopped, and a feed() later than the timeout after the last one
  (or the start) is a ContractError: the real board would have reset in between. The clock
  is hw.ticks' unless a test sets world.clock.
- unique_id(): the flash chip's 8-byte id.
- SSD1306Device: the display controller on the bus. It decodes control bytes and commands
  per the datasheet (unknown commands and invalid arguments are ContractErrors), keeps the
  command log and the 1 KB GDDRAM, and says whether the panel would actually light.

Call reset() before each test: it forgets every pin, bus and device.
"""

EIO = 5


class ContractError(Exception):
    """Something the real hardware or library would reject, or that would damage or
    mislead it (a floating input, two outputs shorted, a pin used twice)."""


class _World:
    def __init__(self):
        self.pins = {}  # gpio -> Pin
        self.owner = {}  # gpio -> "I2C0", "PWM" ...
        self.i2c_devices = ({}, {})  # per bus: address -> device
        self.matrices = []
        self.now = 0  # the fake clock used in logs (tests set fake_machine.world.now)
        self.clock = None  # the watchdog's milliseconds: None for hw.ticks.ticks_ms
        self.watchdog = None  # the WDT, once started


world = _World()


def reset():
    global world
    world = _World()


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x5a\x2d"


class WDT:
    MAX_MS = 8388  # the RP2040 port's limit (its 24-bit counter at 2 ticks per microsecond)

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%r): the RP2040 has watchdog 0 only" % (id,))
        if not isinstance(timeout, int) or not 1 <= timeout <= self.MAX_MS:
            raise ValueError("WDT timeout %r is not 1..%d ms" % (timeout, self.MAX_MS))
        self.timeout = timeout
        self.feeds = 0
        self._last = self._now()
        world.watchdog = self

    @staticmethod
    def _now():
        if world.clock is not None:
            return world.clock()
        from hw.ticks import ticks_ms

        return ticks_ms()

    def feed(self):
        from hw.ticks import ticks_diff

        now = self._now()
        late = ticks_diff(now, self._last)
        if late > self.timeout:
            raise ContractError("watchdog fed %d ms after the last feed (timeout %d): the "
                                "board would have reset" % (late, self.timeout))
        self._last = now
        self.feeds += 1


def _gpio(pin_id):
    if isinstance(pin_id, Pin):
        return pin_id.id
    if pin_id == "LED":
        return 25
    if isinstance(pin_id, int) and not isinstance(pin_id, bool) and 0 <= pin_id <= 29:
        return pin_id
    raise ValueError("invalid pin %r" % (pin_id,))


def _check_buffer(buf):
    if not isinstance(buf, (bytes, bytearray, memoryview)):
        raise TypeError("object with buffer protocol required")
    return bytes(buf)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = _gpio(pin_id)
        if self.id in world.owner:
            raise ContractError("GP%d is in use by %s" % (self.id, world.owner[self.id]))
        old = world.pins.get(self.id)
        self.mode = old.mode if old else self.IN
        self.pull = old.pull if old else None
        self.latch = old.latch if old else 0
        world.pins[self.id] = self
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            if mode not in (self.IN, self.OUT, self.OPEN_DRAIN):
                raise ValueError("invalid pin mode %r" % (mode,))
            self.mode = mode
        if pull != -1:
            if pull not in (None, self.PULL_UP, self.PULL_DOWN):
                raise ValueError("invalid pull %r" % (pull,))
            self.pull = pull
        if value is not None:
            self.latch = 1 if value else 0
        world.pins[self.id] = self

    def value(self, x=None):
        if x is None:
            if self.mode == self.OUT:
                return self.latch
            return _level(self.id)
        self.latch = 1 if x else 0
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.latch = 1

    def off(self):
        self.latch = 0

    def toggle(self):
        self.latch ^= 1

    def drive(self):
        """What this pin forces onto its net: 0, 1 or None (high impedance)."""
        if self.mode == self.OUT:
            return self.latch
        if self.mode == self.OPEN_DRAIN and self.latch == 0:
            return 0
        return None


def _net(gpio):
    """Every GPIO joined to this one through pressed keys."""
    net = {gpio}
    grew = True
    while grew:
        grew = False
        for matrix in world.matrices:
            for a, b in matrix.closed():
                if (a in net) != (b in net):
                    net.add(a)
                    net.add(b)
                    grew = True
    return net


def _level(gpio):
    drives = set()
    pulls = set()
    for g in _net(gpio):
        pin = world.pins.get(g)
        if pin is None:
            continue
        d = pin.drive()
        if d is not None:
            drives.add(d)
        if pin.pull is not None:
            pulls.add(1 if pin.pull == Pin.PULL_UP else 0)
    if len(drives) > 1:
        raise ContractError("short circuit: GP%d's net is driven both high and low" % gpio)
    if drives:
        return drives.pop()
    if len(pulls) == 1:
        return pulls.pop()
    raise ContractError("GP%d reads a floating net (no driver, %s pull)"
                        % (gpio, "conflicting" if pulls else "no"))


class KeyMatrix:
    """Switches between row and column GPIOs, without diodes (so ghosts happen)."""

    def __init__(self, row_gpios, col_gpios):
        self.rows = tuple(row_gpios)
        self.cols = tuple(col_gpios)
        self.pressed = set()  # (row index, column index)
        world.matrices.append(self)

    def press(self, r, c):
        self.pressed.add((r, c))

    def release(self, r, c):
        self.pressed.discard((r, c))

    def closed(self):
        return [(self.rows[r], self.cols[c]) for r, c in self.pressed]


# RP2040 datasheet, GPIO function table: the pins each I2C block can use.
_I2C_SDA = ((0, 4, 8, 12, 16, 20, 24, 28), (2, 6, 10, 14, 18, 22, 26))
_I2C_SCL = ((1, 5, 9, 13, 17, 21, 25, 29), (3, 7, 11, 15, 19, 23, 27))


class I2C:
    def __init__(self, bus_id, scl=None, sda=None, freq=400000, timeout=50000):
        if bus_id not in (0, 1):
            raise ValueError("I2C(%r) doesn't exist" % (bus_id,))
        scl, sda = _gpio(scl), _gpio(sda)
        if scl not in _I2C_SCL[bus_id]:
            raise ValueError("bad SCL pin")
        if sda not in _I2C_SDA[bus_id]:
            raise ValueError("bad SDA pin")
        if not (isinstance(freq, int) and 0 < freq <= 1000000):
            raise ValueError("bad I2C frequency %r" % (freq,))
        for g in (scl, sda):
            if g in world.owner:
                raise ContractError("GP%d is in use by %s" % (g, world.owner[g]))
            world.owner[g] = "I2C%d" % bus_id
        self.bus_id = bus_id
        self.freq = freq
        self.transactions = []  # (address, bytes) as they went on the wire

    def _device(self, addr):
        if not (isinstance(addr, int) and 0 <= addr <= 0x7F):
            raise ValueError("I2C address must be 7-bit, not %r" % (addr,))
        device = world.i2c_devices[self.bus_id].get(addr)
        if device is None:
            raise OSError(EIO)
        return device

    def scan(self):
        return sorted(world.i2c_devices[self.bus_id])

    def writeto(self, addr, buf, stop=True):
        data = _check_buffer(buf)
        device = self._device(addr)
        self.transactions.append((addr, data))
        device.receive(data, self.freq)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        if not isinstance(vector, (tuple, list)):
            raise TypeError("writevto needs a tuple or list of buffers")
        data = b"".join(_check_buffer(b) for b in vector)
        device = self._device(addr)
        self.transactions.append((addr, data))
        device.receive(data, self.freq)
        return len(data)


def attach_i2c(bus_id, addr, device):
    world.i2c_devices[bus_id][addr] = device
    return device


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        if not isinstance(pin, Pin):
            raise TypeError("PWM needs a Pin")
        self.gpio = pin.id
        if self.gpio in world.owner:
            raise ContractError("GP%d is in use by %s" % (self.gpio, world.owner[self.gpio]))
        world.owner[self.gpio] = "PWM"
        self._freq = 0
        self._duty = 0
        self.log = []  # (fake time, "freq" or "duty", value)
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not (isinstance(value, int) and 8 <= value <= 62500000):
            raise ValueError("freq out of range: %r" % (value,))
        self._freq = value
        self.log.append((world.now, "freq", value))
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not (isinstance(value, int) and 0 <= value <= 65535):
            raise ValueError("duty_u16 must be 0..65535, not %r" % (value,))
        self._duty = value
        self.log.append((world.now, "duty", value))
        return None

    def deinit(self):
        world.owner.pop(self.gpio, None)
        self._duty = 0


# SSD1306 commands: byte -> number of argument bytes (datasheet section 9, table 9-1)
_ARGS = {0x81: 1, 0x8D: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1,
         0xD9: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
_SINGLE = (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3, 0x2E, 0x2F)


class SSD1306Device:
    """The controller as the driver sees it over I2C (128x64, at most 400 kHz)."""

    MAX_FREQ = 400000

    def __init__(self, width=128, height=64):
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.commands = []  # tuples: (command byte, arguments...)
        self.data_bytes = 0
        self._pending = None  # a command still waiting for argument bytes
        # reset values (datasheet section 10)
        self.display_on = False
        self.charge_pump = False
        self.charge_pump_at_on = False
        self.addressing = 2
        self.col_range = (0, width - 1)
        self.page_range = (0, self.pages - 1)
        self.col = 0
        self.page = 0
        self.mux = 63
        self.com_pins = 0x12
        self.contrast = 0x7F
        self.entire_on = False
        self.inverse = False
        self.seg_remap = False
        self.com_reversed = False

    @property
    def lit(self):
        """Whether the panel shows the RAM: on, with the charge pump on when it was
        switched on, all 64 rows multiplexed with the COM wiring of a 128x64 module."""
        return (self.display_on and self.charge_pump_at_on and self.mux == 63
                and self.com_pins == 0x12 and not self.entire_on)

    def receive(self, data, freq):
        if freq > self.MAX_FREQ:
            raise ContractError("SSD1306 bus clock %d Hz exceeds 400 kHz" % freq)
        if not data:
            raise ContractError("empty I2C write: the first byte must be a control byte")
        i = 0
        while i < len(data):
            control = data[i]
            if control & 0x3F:
                raise ContractError("bad control byte 0x%02X" % control)
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: one byte follows, then another control byte
                if i + 1 >= len(data):
                    raise ContractError("control byte 0x%02X with nothing after it" % control)
                self._byte(data[i + 1], is_data)
                i += 2
            else:  # Co=0: the rest of the transaction is one stream
                for b in data[i + 1:]:
                    self._byte(b, is_data)
                return

    def _byte(self, b, is_data):
        if is_data:
            if self._pending is not None:
                raise ContractError("data byte while command 0x%02X awaits arguments"
                                    % self._pending[0])
            self._write_ram(b)
            return
        if self._pending is not None:
            self._pending.append(b)
            if len(self._pending) == 1 + _ARGS[self._pending[0]]:
                self._execute(tuple(self._pending))
                self._pending = None
        elif b in _ARGS:
            self._pending = [b]
        elif b in _SINGLE or b < 0x20 or 0x40 <= b <= 0x7F or 0xB0 <= b <= 0xB7:
            self._execute((b,))
        else:
            raise ContractError("0x%02X is not an SSD1306 command" % b)

    def _execute(self, cmd):
        self.commands.append(cmd)
        op = cmd[0]
        if op == 0xAE or op == 0xAF:
            self.display_on = op == 0xAF
            if self.display_on:
                self.charge_pump_at_on = self.charge_pump
        elif op == 0x8D:
            _require(cmd[1] in (0x10, 0x14), cmd)
            self.charge_pump = cmd[1] == 0x14
        elif op == 0x20:
            _require(cmd[1] <= 2, cmd)
            self.addressing = cmd[1]
        elif op == 0x21:
            _require(cmd[1] <= cmd[2] < self.width, cmd)
            self.col_range = (cmd[1], cmd[2])
            self.col = cmd[1]
        elif op == 0x22:
            _require(cmd[1] <= cmd[2] < self.pages, cmd)
            self.page_range = (cmd[1], cmd[2])
            self.page = cmd[1]
        elif op == 0xA8:
            _require(15 <= cmd[1] <= 63, cmd)
            self.mux = cmd[1]
        elif op == 0xDA:
            _require(cmd[1] in (0x02, 0x12, 0x22, 0x32), cmd)
            self.com_pins = cmd[1]
        elif op == 0xD9:
            _require(cmd[1] & 0x0F and cmd[1] & 0xF0, cmd)
        elif op == 0xDB:
            _require(cmd[1] in (0x00, 0x20, 0x30), cmd)
        elif op == 0xD3:
            _require(cmd[1] <= 63, cmd)
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_reversed = op == 0xC8
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)

    def _write_ram(self, b):
        self.ram[self.page * self.width + self.col] = b
        self.data_bytes += 1
        c0, c1 = self.col_range
        p0, p1 = self.page_range
        if self.addressing == 0:  # horizontal: next column, wrap to the next page
            if self.col < c1:
                self.col += 1
            else:
                self.col = c0
                self.page = self.page + 1 if self.page < p1 else p0
        elif self.addressing == 1:  # vertical: next page, wrap to the next column
            if self.page < p1:
                self.page += 1
            else:
                self.page = p0
                self.col = self.col + 1 if self.col < c1 else c0
        else:  # page addressing: the column wraps within the page
            self.col = self.col + 1 if self.col < self.width - 1 else 0


def _require(ok, cmd):
    if not ok:
        raise ContractError("invalid SSD1306 command " + " ".join("%02X" % b for b in cmd))
