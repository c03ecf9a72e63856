"""One turn of the terminal's main loop: a keypad event to the app, its effects to the board.

Shared by the board (main.py) and the simulator (terminal.keyscript, tools/sim.py), so the
simulator runs exactly the loop the board runs: the display is redrawn only when the app
says the screen changed, and then only the characters that changed, and the display sent
only the address windows over them (display.windows, hw.ssd1306); the buzzer plays what
the app asked for; the red LED blinks while an irregularity waits for the director or he was
called and has not come (App.alert).
"""


class Loop:
    def __init__(self, app, board):
        self.app = app
        self.board = board
        self.alert = None  # what the red LED last showed: the app's alert()
        self.drawn = None  # what app.draw() returned last: the lines on the display
        self.redraw()

    def step(self):
        """Poll the board once; True when a key event was handled."""
        event = self.board.poll()
        now = self.board.ticks_ms()
        changed = event is not None and self.app.key(event, now)
        if self.app.tick(now) or changed:
            self.redraw()
        return event is not None

    def redraw(self):
        app, board = self.app, self.board
        now = board.ticks_ms()
        d = board.display
        self.drawn = app.draw(d, self.drawn)
        if self.drawn[2]:
            d.windows = self.drawn[2]
            d.show()
        board.buzzer.enabled = app.sound
        if app.beep is not None:
            board.buzzer.play(app.beep, now)
            app.beep = None
        alert = app.alert()
        if alert != self.alert:
            self.alert = alert
            red = board.leds.get("red")
            if red is not None:
                if alert:
                    red.blink(400, now)
                else:
                    red.off()
