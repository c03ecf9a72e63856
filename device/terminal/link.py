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

Hostile input (docs/SECURITY.md): every field is bounded before use, every request is answered
inside its own error boundary (`Link.handle` never raises, `Port.answer` frames every reply or
a short error in its place), so no frame a stranger can send ends the main loop.
"""

import os
import select
import time
from hashlib import sha256

from terminal import cbor, const, hmac256
from terminal.frame import MAX_PAYLOAD, FrameReader, encode_frame
from terminal.journal import Journal
from terminal.keystore import PROVISIONAL_KEY, Keystore, ident_ok

VERSION = 3
FIRMWARE = "0.3"
FILES = ("config.cbor", "travellers.cbor")
MAX_FILE = 16384  # bytes of a pushed file (flash and heap budget)
NONCE_SIZE = 16
MAX_REQUEST_NO = 0xFFFFFFFF  # a request's `i`: its echo in every reply must stay small
MAX_PULL = 1024  # records one pull answers at most (streamed: one batch in RAM at a time)
_ENVELOPE = const(82)  # bytes of a recs message around its records, tag and last included
_WBITS = const(9)  # the window of a pushed file's raw deflate stream: 512 bytes of heap
_TEXT = 80  # characters of an error's text at most (it may quote the request)
_PAIR_S = const(180)  # seconds a pairing code stays valid once shown
_PAIR_TRIES = const(3)  # wrong codes before the pairing closes


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
        # the open pairing (terminal.pairing, director mode): [code, opened at, tries left,
        # whether its screen is still up], and how the last one ended ("ok", "closed",
        # "expired"), for its screen
        self.pairing = None
        self.paired = None
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
        """The replies to one request (a list of objects). Never raises: whatever a request
        holds, the answer is an `error` and nothing changed."""
        if not isinstance(msg, dict):
            return [self.error(None, "bad_request", "a request is a map with a name under m")]
        for k in msg:
            # before any field is looked up: MicroPython warns on stderr (the link itself, on
            # the board) at every comparison of bytes with text, so a request keyed by bytes
            # would put noise on the cable, and on a pipe nobody reads, block the loop (the
            # fuzz found it: tests/test_attack_fuzz.py)
            if not isinstance(k, str):
                return [self.error(None, "bad_request", "a request's keys are text")]
        if not isinstance(msg.get("m"), str):
            return [self.error(None, "bad_request", "a request is a map with a name under m")]
        i = msg.get("i")
        if i is not None and not (type(i) is int and 0 <= i <= MAX_REQUEST_NO):
            return [self.error(None, "bad_request", "i must be a whole number below 2^32")]
        name = msg["m"]
        try:
            if name == "hello":
                return [self.hello(i, msg)]
            if name == "register":
                return [self.register(i, msg)]
            if not self.keys.registered():
                return [self.error(i, "unregistered", "register this terminal first")]
            if not self.nonce or not self._signed(msg, "h", self.keys.key):
                return [self.error(i, "auth", "the request's tag does not verify")]
            if name == "pull":
                return self._guarded(i, self.pull(i, _uint(msg, "after"), _uint(msg, "max")))
            if name == "ack":
                return [self.ack(i, _uint(msg, "seq"))]
            if name == "put":
                return [self.put(i, msg)]
            if name == "bye":
                seq = None if msg.get("seq") is None else _uint(msg, "seq")
                if seq is not None and seq > self.journal.last:
                    return [self.error(i, "ack_beyond", "the last record is %d" %
                                       self.journal.last)]
                self.done = True
                self.talking = False
                return self._guarded(i, self.bye(i, seq))
            return [self.error(i, "bad_request", "unknown request %s" % name)]
        except ValueError as e:
            return [self.error(i, "bad_request", str(e))]
        except Exception as e:  # a bug or the heap: this request fails, the terminal goes on
            return [self.error(i, "internal", "%s: %s" % (type(e).__name__, e))]

    def _guarded(self, i, replies):
        """The replies of a streamed answer (a pull's), in the same error boundary as handle:
        a failure part way ends the answer with an error (the station pulls the rest again)."""
        try:
            for reply in replies:
                yield reply
        except ValueError as e:
            yield self.error(i, "bad_request", str(e))
        except Exception as e:
            yield self.error(i, "internal", "%s: %s" % (type(e).__name__, e))

    def error(self, i, code, text):
        """An error reply; its text is cut to _TEXT characters so that it always fits."""
        return {"m": "error", "i": i, "code": code, "text": text[:_TEXT]}

    def _signed(self, msg, name, key):
        """Whether msg[name] is the tag under key of this conversation's nonce and the rest
        of msg: `h` under the terminal's key, `pt` under a pairing code."""
        tag = msg.get(name)
        if not isinstance(tag, bytes):
            return False
        body = {}
        for k in msg:
            if k != name:
                body[k] = msg[k]
        return hmac256.equal(hmac256.digest(key, self.nonce + cbor.encode(body)), tag)

    def sign(self, reply):
        reply["h"] = hmac256.digest(self.keys.key, self.nonce + cbor.encode(reply))
        return reply

    def hello(self, i, msg):
        """The handshake: the conversation's nonce is the station's `sn` and the terminal's
        fresh one; a registered terminal signs its hello under it, so the station knows the
        key is here before it writes or sends anything, and every later request must carry
        a tag under the same nonce, so the station has proved the key before the terminal
        acts on it (docs/PROTOCOL.md section 5)."""
        self.nonce = b""  # a new hello ends the conversation before it
        versions = msg.get("v")
        if not isinstance(versions, list) or VERSION not in versions:
            return self.error(i, "version", "this terminal speaks protocol version %d only: "
                              "update host-sync" % VERSION)
        sn = msg.get("sn")
        if not isinstance(sn, bytes) or not NONCE_SIZE <= len(sn) <= 32:
            return self.error(i, "bad_request", "hello needs sn, the station's nonce "
                              "(16 to 32 bytes)")
        tn = os.urandom(NONCE_SIZE)
        self.nonce = sn + tn
        self.talking = True
        j = self.journal
        base = j.base if j else 0
        # Unregistered, the records belong to no event yet: the one that registers the
        # terminal takes them (re-tagged at registration) and pulls them after `base`.
        last = j.last if j and self.keys.registered() else base
        reply = {"m": "hello", "i": i, "v": VERSION, "id": self.keys.ident, "fw": self.fw,
                 "event": self.keys.event, "nonce": tn, "base": base, "last": last,
                 "damaged": j.damaged if j else 0}
        for name in FILES:
            reply[name] = self.file_digest(name)
        return self.sign(reply) if self.keys.registered() else reply

    def open_pairing(self, shown=None):
        """A fresh one-time code of 6 digits, shown by the director's pairing screen: the one
        way a key reaches this terminal (docs/PROTOCOL.md, "Pairing"). `shown()` says whether
        that screen is still up (terminal.pairing): the code dies with it."""
        self.pairing = ["%06d" % (int.from_bytes(os.urandom(4), "big") % 1000000),
                        time.time(), _PAIR_TRIES, shown]
        self.paired = None
        return self.pairing[0]

    def close_pairing(self, how=None):
        self.pairing = None
        self.paired = how

    def pairing_code(self):
        """The code of the pairing open now, or None (none open, its screen left, or open
        too long)."""
        p = self.pairing
        if p is not None and p[3] is not None and not p[3]():
            self.close_pairing()
        elif p is not None and not 0 <= time.time() - p[1] <= _PAIR_S:
            self.close_pairing("expired")
        return self.pairing[0] if self.pairing else None

    def register(self, i, msg):
        """Take a key, only in a pairing a person opened on this terminal's keypad: the
        request carries `pt`, a tag under the code the screen shows, over both nonces and
        the request; a few wrong codes close the pairing. The same key again is a lost `ok`
        answered again; the identity is the board's own: a station cannot rename it."""
        key, event, ident = msg.get("key"), msg.get("event"), msg.get("id")
        if not (isinstance(key, bytes) and len(key) == 32 and isinstance(event, str)
                and 0 < len(event) <= 32 and ident_ok(ident)):
            return self.error(i, "bad_request", "register needs event, a 32-byte key and id "
                              "(at most 32 letters, digits or -_.:)")
        if not self.nonce:
            return self.error(i, "bad_request", "hello first")
        if self.keys.ident and ident != self.keys.ident:
            return self.error(i, "bad_request", "this terminal is %s" % self.keys.ident)
        if (ident, event, key) == (self.keys.ident, self.keys.event, self.keys.key):
            return self.sign({"m": "ok", "i": i})
        code = self.pairing_code()
        if code is None:
            return self.error(i, "pairing", "no pairing open: director mode, 6 on the "
                              "terminal shows a code")
        if not self._signed(msg, "pt", code.encode()):
            self.pairing[2] -= 1
            if self.pairing[2] > 0:
                return self.error(i, "pairing", "wrong code: %d tries left" % self.pairing[2])
            self.close_pairing("closed")
            return self.error(i, "pairing", "wrong code: the pairing is closed")
        self.close_pairing("ok")
        # The journal first: a power cut before the keystore is saved leaves records tagged
        # under the key the next pairing gives again (it is derived from the event and the
        # identity), never a registration without its records.
        j = self.journal
        if j is not None:
            j.rekey(key, ident)
        self.keys.save(ident, event, key)
        if j is None:
            j = self.open_journal()
        fact = {"t": int(time.time()), "fp": sha256(key).digest()[:8]}  # never the key
        try:  # for the director's list (docs/RECORDS.md `pair`)
            seq = j.append("pair", fact)
        except OSError:
            seq = 0  # a full flash: the pairing stands (the station's log has it)
        if seq and j.follow is not None:
            j.follow(seq, "pair", fact)
        return self.sign({"m": "ok", "i": i})

    def pull(self, i, after, most):
        """Records after `after`, at most `most`, in recs messages chained by `p`, the last
        one carrying `last`, the journal's last seq (it ends the answer). A generator: each
        message goes on the wire as soon as it is full (Port.step), so the heap holds one
        batch whatever the window, and the station reads while the terminal reads on.

        A record goes as [kind, data] when its seq follows the one before it (the batch's
        previous record, or p), else as [seq, kind, data] (after a gap), without the tag it
        has in the journal: each recs message is tagged as a whole under the key and this
        conversation's nonces (docs/PROTOCOL.md, "Records: chained batches"). The key is the
        terminal's own and seq, p and last are inside what the tag covers, so a record still
        cannot move to another terminal or position, and a batch replayed, reordered or cut
        is refused; the wire carries the results instead of 34 bytes of tag per record."""
        j = self.journal
        most = min(most, MAX_PULL)
        prev = max(after, j.base)
        batch, count, size, sent, total = bytearray(), 0, _ENVELOPE, prev, 0
        for seq, item in j.encoded_after(after):
            if total >= most:
                break
            # the seq that follows the one before it (in the batch, or p) is implied
            implied = seq == sent + 1
            n = 1 + len(item) + (0 if implied else len(cbor.encode(seq)))
            if count and size + n > MAX_PAYLOAD:
                yield self.sign({"m": "recs", "i": i, "p": prev, "r": cbor.raw_array(
                    count, batch)})
                prev, batch, count, size = sent, bytearray(), 0, _ENVELOPE
            if implied:
                batch.append(0x82)  # [kind, data]
            else:
                batch.append(0x83)  # [seq, kind, data]
                batch.extend(cbor.encode(seq))
            batch.extend(item)
            count += 1
            size += n
            sent = seq
            total += 1
        yield self.sign({"m": "recs", "i": i, "p": prev, "r": cbor.raw_array(count, batch),
                         "last": j.last})

    def ack(self, i, seq):
        j = self.journal
        if seq > j.last:
            return self.error(i, "ack_beyond", "the last record is %d" % j.last)
        self.compact(seq)
        return {"m": "acked", "i": i, "base": j.base}

    def bye(self, i, seq):
        """The goodbye, then the compaction it asks for (`seq`, what the station has stored):
        after the reply is on the wire, so the station does not wait for the flash."""
        yield {"m": "bye", "i": i}
        if seq is not None:
            self.compact(seq)

    def compact(self, seq):
        """Compact the journal up to seq, or less far: the application keeps the records of
        the round it is playing (ack_limit)."""
        upto = self.ack_limit(seq) if self.ack_limit else seq
        if upto > self.journal.base:
            self.journal.acknowledge(upto)

    def put(self, i, msg):
        """A chunk of a pushed file, raw deflate (docs/PROTOCOL.md, "Files"), appended only
        at the offset held (`at` 0 starts over); the chunk that completes it carries `sha`,
        the digest of the file inflated: then it is inflated (at most MAX_FILE bytes), checked
        and put in place, and the reply says `ok`."""
        name, at, size, data = msg.get("f"), _uint(msg, "at"), _uint(msg, "size"), msg.get("d")
        sha = msg.get("sha")
        if not isinstance(name, str) or name not in FILES or not isinstance(data, bytes) or \
                size > MAX_FILE or at + len(data) > size or \
                not (sha is None or isinstance(sha, bytes)):
            raise ValueError("put needs f in %s, d bytes, at + len(d) <= size <= %d" % (
                "/".join(FILES), MAX_FILE))
        path = self.folder + "/" + name
        held = _size(path + ".new") if at else 0
        if at == held:
            with open(path + ".new", "wb" if at == 0 else "ab") as f:
                f.write(data)
            held = at + len(data)
        elif sha is not None and at + len(data) == size and _digest(path) == sha:
            held = size  # the answer to this last chunk was lost: the file is in place
            return {"m": "have", "i": i, "f": name, "at": held, "ok": True}
        if held < size or sha is None:
            return {"m": "have", "i": i, "f": name, "at": held}
        got = _inflate(path + ".new", path + ".inf")
        _remove(path + ".new")
        if got != sha:
            _remove(path + ".inf")
            return self.error(i, "sha", "%s does not inflate to its digest in %d bytes: send "
                              "it again" % (name, MAX_FILE))
        _remove(path)
        os.rename(path + ".inf", path)
        self.files_changed = True
        return {"m": "have", "i": i, "f": name, "at": held, "ok": True}


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _inflated(f):
    """The chunks of the raw deflate stream in file f, inflated: MicroPython's deflate module
    on the board (its window: 2**_WBITS bytes), zlib under CPython (the tests)."""
    try:
        import deflate
    except ImportError:
        import zlib
        yield zlib.decompressobj(-_WBITS).decompress(f.read(), MAX_FILE + 1)
        return
    stream = deflate.DeflateIO(f, deflate.RAW, _WBITS)
    while True:
        chunk = stream.read(256)
        if not chunk:
            return
        yield chunk


def _inflate(src, dst):
    """Inflate file src into file dst; the sha256 of what it wrote, or None when src is no
    deflate stream or inflates beyond MAX_FILE (a bomb: a few bytes that inflate to
    megabytes)."""
    h, n = sha256(), 0
    try:
        with open(src, "rb") as f:
            with open(dst, "wb") as out:
                for chunk in _inflated(f):
                    n += len(chunk)
                    if n > MAX_FILE:
                        return None
                    h.update(chunk)
                    out.write(chunk)
    except (OSError, ValueError, EOFError):
        return None
    return h.digest()


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
        at most 512 per step; writes each reply's frame as soon as it is made, the first of
        an answer led by one 0x00 (PROTOCOL.md section 2): a pull's first batch is on the
        wire while the journal is read for the next."""
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
            lead = b"\x00"
            for frame in self.answer(msg):  # each frame on the wire as soon as it is made
                try:
                    self.stream_out.write(lead + frame if lead else frame)
                    if hasattr(self.stream_out, "flush"):
                        self.stream_out.flush()
                except OSError:
                    return "hangup"
                lead = b""
        return "data"

    def answer(self, msg):
        """The frames answering one message (a generator), each inside its own error
        boundary: a reply that cannot be framed is replaced by a short error that always
        can be."""
        try:
            replies = self.link.handle(msg)
        except Exception as e:  # handle() catches everything; this is the last wall
            replies = [self.link.error(None, "internal", type(e).__name__)]
        for reply in replies:
            try:
                frame = encode_frame(reply)
            except Exception:
                frame = encode_frame(self.link.error(
                    None, "too_big", "the reply does not fit a frame"))
            yield frame


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
