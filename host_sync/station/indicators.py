"""The Raspberry Pi sync station's indicators (`serve --station`): an LED triple per port and a
buzzer, so a scorer with a box of terminals sees which are syncing, done or in trouble.

Ports take LED slots in the order they appear and give them back when unplugged. A slot
shows one of: syncing (yellow), done (green), error (red). The buzzer gives one short beep
when a terminal is done and three when one fails; beeps play on their own thread so a sync
never waits for them.
"""

import logging
import queue
import threading
import time

log = logging.getLogger("host_sync.station.indicators")

# BCM GPIO numbers: (syncing, done, error) per slot, and the buzzer.
SLOTS = ((5, 6, 13), (19, 26, 16), (20, 21, 12), (17, 27, 22))
BUZZER = 18
BEEP = 0.08
DONE_BEEPS = ((BEEP, BEEP),)
ERROR_BEEPS = ((BEEP * 2, BEEP),) * 3
STATES = ("syncing", "done", "error")


class Indicators:
    """Port events (from host_sync.station.serve.Station) -> LEDs and beeps on GPIO outputs."""

    def __init__(self, outputs=None, slots=SLOTS, buzzer=BUZZER, sleep=time.sleep):
        if outputs is None:
            from host_sync.station.gpio import GpioOutputs
            outputs = GpioOutputs([p for s in slots for p in s] + [buzzer])
        self.outputs = outputs
        self.slots = tuple(slots)
        self.buzzer = buzzer
        self.sleep = sleep
        self.owner = [None] * len(self.slots)  # port holding each slot
        self.lock = threading.Lock()
        self.beeps = queue.Queue()
        self.player = threading.Thread(target=self._play, daemon=True, name="buzzer")
        self.player.start()

    def _slot(self, port, take):
        with self.lock:
            if port in self.owner:
                return self.owner.index(port)
            if take and None in self.owner:
                i = self.owner.index(None)
                self.owner[i] = port
                return i
        if take:
            log.warning("no free LED slot for %s (%d slots)", port, len(self.slots))
        return None

    def _show(self, port, state):
        i = self._slot(port, take=True)
        if i is None:
            return
        for pin, name in zip(self.slots[i], STATES):
            self.outputs.set(pin, name == state)

    def syncing(self, port):
        self._show(port, "syncing")

    def done(self, port):
        self._show(port, "done")
        self.beeps.put(DONE_BEEPS)

    def error(self, port):
        self._show(port, "error")
        self.beeps.put(ERROR_BEEPS)

    def gone(self, port):
        """The terminal was unplugged: its LEDs go dark and its slot is free again."""
        i = self._slot(port, take=False)
        if i is None:
            return
        for pin in self.slots[i]:
            self.outputs.set(pin, False)
        with self.lock:
            self.owner[i] = None

    def _play(self):
        while True:
            pattern = self.beeps.get()
            if pattern is None:
                return
            for on, off in pattern:
                self.outputs.set(self.buzzer, True)
                self.sleep(on)
                self.outputs.set(self.buzzer, False)
                self.sleep(off)
            self.beeps.task_done()

    def quiet(self):
        """Wait until every queued beep has played."""
        self.beeps.join()

    def close(self):
        self.beeps.put(None)
        self.player.join(2)
        for i in range(len(self.slots)):
            for pin in self.slots[i]:
                self.outputs.set(pin, False)
        self.outputs.close()
