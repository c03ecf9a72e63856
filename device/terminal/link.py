"""The terminal's end of the sync conversation (docs/PROTOCOL.md, section 5).

`Link.handle(msg)` takes one decoded request and returns the replies (objects to frame);
`Port(link, stream_in, stream_out).step(wait_ms)` answers what has arrived on a byte stream
and returns at once, so the board's main loop serves the station between two key polls;
`serve(link, stream_in, stream_out)` runs a whole conversation (the unix port under test).
Everything the station asks that changes the terminal (ack = compaction, pushed files) must
carry a tag under the event key bound to this conversation's nonce, so neither a stranger on
the cable nor a replayed request can make the terminal drop records.

Records journaled before the terminal was registered carry the provisional key; the
registration re-tags them under the event's key (Journal.rekey) before it is stored, and an
unregistered terminal says `last` = `base` in its hello, so the station takes those records
as the event's and pulls them (docs/PROTOCOL.md section 5, "Before registration").
"""

import os
import select
from hashlib import sha256

from terminal import cbor, hmac256
from terminal.frame import MAX_PAYLOAD, FrameReader, encode_frame
from terminal.journal import Journal
from terminal.keystore import PROVISIONAL_KEY, Keystore

VERSION = 1
FIRMWARE = "0.1"
FILES = ("config.cbor", "travellers.cbor")
MAX_FILE = 16384  # bytes of a pushed file (flash and heap budget)
NONCE_SIZE = 8
_ENVELOPE = 32  # bytes of a recs message around its records, at most


def _uint(msg, name):
    v = msg.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError("%s must be a whole number" % name)
    return v


class Link:
    """The terminal's protocol state: its keystore, its journal and its pushed files."""

    def __init__(self, folder, ident=None, fw=FIRMWARE, ack_limit=None, journal=None):
        self.folder = folder
        self.fw = fw
        # ack_limit(seq) -> the seq the journal may really compact to (the application keeps
        # the records of the round it is playing: terminal.store.ack_limit)
        self.ack_limit = ack_limit
        self.keys = Keystore(folder + "/registration", ident)
        # The application's journal when it runs beside the link (one Journal object, so
        # both see the same last seq); else the link opens the folder's own.
        self.journal = journal
        self.nonce = b""
        self.done = False
        self.talking = False  # a conversation is going on: from hello to bye
        self.files_changed = False  # a pushed file was put in place (config.cbor ...)
        if journal is None and (self.keys.registered() or self.keys.ident):
            self.open_journal()

    def open_journal(self):
        self.journal = Journal(self.folder + "/journal", self.keys.key or PROVISIONAL_KEY,
                               self.keys.ident)
        return self.journal

    def file_digest(self, name):
        """sha256 of a pushed file (None if absent): the station skips pushing what is here."""
        return _digest(self.folder + "/" + name)

    # -- requests ---------------------------------------------------------------------------

    def handle(self, msg):
        """The replies to one request (a list of objects)."""
        if not isinstance(msg, dict) or not isinstance(msg.get("m"), str):
            return [self.error(None, "bad_request", "a request is a map with a name under m")]
        i = msg.get("i")
        name = msg["m"]
        try:
            if name == "hello":
                return [self.hello(i, msg)]
            if name == "register":
                return [self.register(i, msg)]
            if not self.keys.registered():
                return [self.error(i, "unregistered", "register this terminal first")]
            if not self.signed(msg):
                return [self.error(i, "auth", "the request's tag does not verify")]
            if name == "pull":
                return self.pull(i, _uint(msg, "after"), _uint(msg, "max"))
            if name == "ack":
                return [self.ack(i, _uint(msg, "seq"))]
            if name == "put":
                return [self.put(i, msg)]
            if name == "done":
                return [self.finish(i, msg)]
            if name == "bye":
                self.done = True
                self.talking = False
                return [{"m": "bye", "i": i}]
            return [self.error(i, "bad_request", "unknown request %s" % name)]
        except ValueError as e:
            return [self.error(i, "bad_request", str(e))]

    def error(self, i, code, text):
        return {"m": "error", "i": i, "code": code, "text": text}

    def signed(self, msg):
        tag = msg.get("h")
        if not isinstance(tag, bytes):
            return False
        body = {}
        for k in msg:
            if k != "h":
                body[k] = msg[k]
        return hmac256.equal(hmac256.digest(self.keys.key, self.nonce + cbor.encode(body)), tag)

    def sign(self, reply):
        reply["h"] = hmac256.digest(self.keys.key, self.nonce + cbor.encode(reply))
        return reply

    def hello(self, i, msg):
        versions = msg.get("v")
        if not isinstance(versions, list) or VERSION not in versions:
            return self.error(i, "version", "this terminal speaks version %d" % VERSION)
        self.nonce = os.urandom(NONCE_SIZE)
        self.talking = True
        j = self.journal
        base = j.base if j else 0
        # Unregistered, the records belong to no event yet: the one that registers the
        # terminal takes them (re-tagged at registration) and pulls them after `base`.
        last = j.last if j and self.keys.registered() else base
        reply = {"m": "hello", "i": i, "v": VERSION, "id": self.keys.ident, "fw": self.fw,
                 "event": self.keys.event, "nonce": self.nonce, "base": base, "last": last,
                 "damaged": j.damaged if j else 0}
        for name in FILES:
            reply[name] = self.file_digest(name)
        return reply

    def register(self, i, msg):
        key, event, ident = msg.get("key"), msg.get("event"), msg.get("id")
        if not (isinstance(key, bytes) and len(key) == 32 and isinstance(event, str) and event
                and isinstance(ident, str) and ident):
            return self.error(i, "bad_request", "register needs event, a 32-byte key and id")
        if not self.nonce:
            return self.error(i, "bad_request", "hello first")
        j = self.journal
        if self.keys.registered() and j is not None and j.last > j.base and (
                event != self.keys.event or key != self.keys.key):
            return self.error(i, "registered", "%d records of another event are not synced" % (
                j.last - j.base))
        if (ident, event, key) != (self.keys.ident, self.keys.event, self.keys.key):
            # The journal first: a power cut before the keystore is saved leaves records
            # tagged under the key the next registration gives again (it is derived from
            # the event and the identity), never a registration without its records.
            if j is not None:
                j.rekey(key, ident)
            self.keys.save(ident, event, key)
            if j is None:
                self.open_journal()
        return self.sign({"m": "ok", "i": i})

    def pull(self, i, after, most):
        """Records after `after`, at most `most`, in recs messages chained by `p`, then end."""
        j = self.journal
        prev = max(after, j.base)
        out = []
        batch, size, sent, count = [], _ENVELOPE, prev, 0
        for record in j.records_after(after):
            if count >= most:
                break
            n = len(cbor.encode(list(record)))
            if batch and size + n > MAX_PAYLOAD:
                out.append({"m": "recs", "i": i, "p": prev, "r": batch})
                prev, batch, size = sent, [], _ENVELOPE
            batch.append(list(record))
            size += n
            sent = record[0]
            count += 1
        if batch:
            out.append({"m": "recs", "i": i, "p": prev, "r": batch})
        out.append({"m": "end", "i": i, "sent": sent, "last": j.last})
        return out

    def ack(self, i, seq):
        j = self.journal
        if seq > j.last:
            return self.error(i, "ack_beyond", "the last record is %d" % j.last)
        upto = self.ack_limit(seq) if self.ack_limit else seq
        if upto > j.base:
            j.acknowledge(upto)
        return {"m": "acked", "i": i, "base": j.base}

    def put(self, i, msg):
        name, at, size, data = msg.get("f"), _uint(msg, "at"), _uint(msg, "size"), msg.get("d")
        if name not in FILES or not isinstance(data, bytes) or size > MAX_FILE or \
                at + len(data) > size:
            raise ValueError("put needs f in %s, d bytes, at + len(d) <= size <= %d" % (
                "/".join(FILES), MAX_FILE))
        path = self.folder + "/" + name + ".new"
        held = _size(path) if at else 0
        if at == held:
            with open(path, "wb" if at == 0 else "ab") as f:
                f.write(data)
            held = at + len(data)
        return {"m": "have", "i": i, "f": name, "at": held}

    def finish(self, i, msg):
        name, digest = msg.get("f"), msg.get("sha")
        if name not in FILES or not isinstance(digest, bytes):
            raise ValueError("done needs f in %s and sha" % "/".join(FILES))
        path = self.folder + "/" + name
        if _digest(path + ".new") != digest:
            return self.error(i, "sha", "%s does not match its digest: send it again" % name)
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(path + ".new", path)
        self.files_changed = True
        return {"m": "ok", "i": i}


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _digest(path):
    h = sha256()
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(256)
                if not chunk:
                    break
                h.update(chunk)
    except OSError:
        return None
    return h.digest()


class Port:
    """The link on one byte stream, served a little at a time: `step` answers whatever has
    arrived and returns, so the caller's loop goes on (keys, display) between two bytes."""

    def __init__(self, link, stream_in, stream_out):
        try:
            import micropython
            micropython.kbd_intr(-1)  # 0x03 in a frame is data, not Ctrl-C
        except (ImportError, AttributeError):
            pass
        self.link = link
        self.stream_in = stream_in
        self.stream_out = stream_out
        self.reader = FrameReader()
        self.poll = select.poll()
        self.poll.register(stream_in, select.POLLIN)

    def step(self, wait_ms=0):
        """Wait up to wait_ms (-1: for ever) for bytes and answer the requests they finish.
        Returns "data", None when nothing came, "eof" or "hangup" when the stream is gone.

        Reads one byte at a time (MicroPython's blocking read waits for the whole count),
        at most 512 per step; writes each burst of replies with one leading 0x00
        (PROTOCOL.md section 2)."""
        events = self.poll.poll(wait_ms)
        if not events:
            return None
        if events[0][1] & (select.POLLHUP | select.POLLERR) and not events[0][1] & select.POLLIN:
            return "hangup"
        data = bytearray()
        while len(data) < 512:
            try:
                b = self.stream_in.read(1)
            except OSError:
                return "hangup"
            if not b:
                if not data:
                    return "eof"
                break
            data += b
            if not self.poll.poll(0):
                break
        for msg in self.reader.feed(data):
            out = bytearray(b"\x00")
            for reply in self.link.handle(msg):
                out += encode_frame(reply)
            self.stream_out.write(out)
            if hasattr(self.stream_out, "flush"):
                self.stream_out.flush()
        return "data"


def serve(link, stream_in, stream_out, idle_ms=-1):
    """Answer requests read from stream_in until bye, end of input or idle_ms of silence:
    returns "bye", "eof", "hangup" or "idle"."""
    port = Port(link, stream_in, stream_out)
    link.done = False
    while not link.done:
        got = port.step(idle_ms)
        if got is None:
            return "idle"
        if got != "data":
            return got
    return "bye"
