"""SSD1306 128x64 monochrome OLED over I2C: the display (hw.display) on the board.

The driver object IS the framebuffer, so screens draw on it and then call show() to send the
1024 bytes. Command values and the power-on order are the SSD1306 datasheet's (rev 1.1,
section 9 command table and the "software initialization" flow chart); tests check them
against a simulated controller.
"""

from hw.display import HEIGHT, WIDTH, const, framebuf

ADDRESS = const(0x3C)  # SA0 low; 0x3D with SA0 high

# Fundamental, addressing, hardware-configuration and timing commands (datasheet section 9)
_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)  # | 1: all pixels on regardless of RAM
_SET_NORM_INV = const(0xA6)  # | 1: inverse
_SET_DISP = const(0xAE)  # | 1: display on
_SET_MEM_ADDR = const(0x20)  # 0 horizontal, 1 vertical, 2 page addressing
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)  # | 1: column 127 is SEG0 (the usual module wiring)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)  # | 8: scan from COM[N-1] to COM0
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)

# I2C control bytes: Co=1 D/C#=0 (one command byte follows); Co=0 D/C#=1 (data stream)
_CONTROL_COMMAND = const(0x80)
_CONTROL_DATA = const(0x40)


def init_sequence(width=WIDTH, height=HEIGHT, external_vcc=False):
    """The power-on command bytes, in the datasheet's order; display ON comes last, after the
    charge pump is enabled (datasheet application note: 8Dh 14h, then AFh)."""
    return (
        _SET_DISP,  # display off while configuring
        _SET_MEM_ADDR, 0x00,  # horizontal addressing: show() streams all pages in one write
        _SET_DISP_START_LINE | 0x00,
        _SET_SEG_REMAP | 0x01,
        _SET_MUX_RATIO, height - 1,
        _SET_COM_OUT_DIR | 0x08,
        _SET_DISP_OFFSET, 0x00,
        _SET_COM_PIN_CFG, 0x02 if width > 2 * height else 0x12,  # 0x12: alternative, 64 rows
        _SET_DISP_CLK_DIV, 0x80,  # reset-value divide ratio and oscillator frequency
        _SET_PRECHARGE, 0x22 if external_vcc else 0xF1,
        _SET_VCOM_DESEL, 0x30,  # 0.83 x Vcc
        _SET_CONTRAST, 0xFF,
        _SET_ENTIRE_ON,  # follow RAM content
        _SET_NORM_INV,  # not inverted
        _SET_CHARGE_PUMP, 0x10 if external_vcc else 0x14,
        _SET_DISP | 0x01,
    )


class SSD1306(framebuf.FrameBuffer):
    """The display: draw on it as a FrameBuffer, then show().

    i2c is a machine.I2C (or anything with writeto/writevto of the same contract).
    """

    def __init__(self, i2c, addr=ADDRESS, width=WIDTH, height=HEIGHT, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._size = (width, height, external_vcc)
        self._cmd = bytearray(2)
        self._cmd[0] = _CONTROL_COMMAND
        self._data = [bytes((_CONTROL_DATA,)), self.buffer]
        self.windows = None  # what show() sends next: the whole screen (hw.display)
        self.init_display()

    def write_cmd(self, cmd):
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def init_display(self):
        for cmd in init_sequence(*self._size):
            self.write_cmd(cmd)
        self.fill(0)
        self.show()

    def show(self):
        """Send the address windows in `windows` ((first page, last page, first column,
        last column + 1) each, a page an 8-pixel row; None, as it is again after a show:
        the whole screen): a key
        that changed three characters of one line sends 2 pages of 18 columns, not 8 of
        128 (~26 ms at 400 kHz)."""
        windows, self.windows = self.windows, None
        width = self._size[0]
        for first, last, start, end in windows or ((0, self.pages - 1, 0, width),):
            for cmd in (_SET_COL_ADDR, start, end - 1, _SET_PAGE_ADDR, first, last):
                self.write_cmd(cmd)
            if start == 0 and end == width and first == 0 and last == self.pages - 1:
                self.i2c.writevto(self.addr, self._data)
            elif start == 0 and end == width:
                self.i2c.writevto(self.addr, (self._data[0], memoryview(self.buffer)[
                    first * width:(last + 1) * width]))
            else:  # the window's columns of each page, in the controller's order
                self.i2c.writevto(self.addr, [self._data[0]] + [
                    memoryview(self.buffer)[p * width + start:p * width + end]
                    for p in range(first, last + 1)])

    def poweroff(self):
        self.write_cmd(_SET_DISP)

    def poweron(self):
        self.write_cmd(_SET_DISP | 0x01)

    def contrast(self, value):
        """0..255 (out-of-range values raise ValueError: the controller would misread them)."""
        if not 0 <= value <= 255:
            raise ValueError("contrast must be 0..255, not %r" % (value,))
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(value)

    def invert(self, on):
        self.write_cmd(_SET_NORM_INV | (1 if on else 0))
