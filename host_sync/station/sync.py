"""One terminal's sync session over a serial port (docs/PROTOCOL.md, section 5).

hello -> (register) -> pull windows until nothing is left, each batch stored as it comes (the
batches that came together in one transaction) -> push the table's configuration and
travellers if the terminal's differ -> bye, acknowledging what is stored. Every request is
numbered (`i`); a reply with another number is stale and ignored, and a request without its
full answer in time is sent again, so lost, corrupted, duplicated or late bytes cost a retry
and never a record. Nothing is acknowledged before it is committed.
"""

import hashlib
import json
import logging
import os
import threading
import time
import zlib
from collections import Counter

from serial import SerialException

from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import now
from host_sync.station import ingest, link
from host_sync.station.link import FrameError

log = logging.getLogger("host_sync.station.sync")

VERSION = 3
WINDOW = 1024  # records per pull (the terminal streams them: one batch in its heap at a time)
NONCE_SIZE = 16
# What one answer may bring (an endless or bloated pull answer costs the station no more): a
# pull's WINDOW records come in at most WINDOW recs messages and the last one.
MAX_MESSAGES = WINDOW + 2
MAX_BYTES = MAX_MESSAGES * (link.MAX_ENCODED + 1)
MAX_SECONDS = 600  # a whole sync; a terminal that keeps it busy longer is cut off
SLOW_WAIT = 4  # a silent try waits up to this many times the timeout
# Requests whose every answer differs (a hello's carries a new nonce): only the answer to
# the last send is what the terminal now holds.
LATEST_ONLY = ("hello",)
CHUNK = 768  # bytes of a pushed file per put (raw deflate: what goes on the wire)
WBITS = 9  # the deflate window: the terminal inflates with 2**WBITS bytes of heap
ACTOR = "sync"


class _Chain:
    """A pull's answer, taken batch by batch as it arrives (Session.request's `taker`): each
    batch is verified (its tag, its place in the chain) at once and held; what is held is
    stored in one transaction whenever the line has no further batch for it yet (`store`), so
    the station stores while the terminal sends, and a terminal that sends faster than the
    station stores has several batches stored in one commit instead of one each (a commit is
    most of a small batch's storing). A broken chain or a bad tag ends what is taken of that
    answer (what was verified before it is stored); `end` is set by the last batch (the one
    with `last`), once it is stored."""

    def __init__(self, session):
        self.session = session
        self.i = None  # the send whose answer is being taken
        self.expect = None  # the p the next batch must have (the last seq of the one before)
        self.broken = False
        self.end = None
        self.held_p = None  # the p of the first batch held
        self.held = []  # verified records not stored yet, in the terminal's numbering

    def take(self, msg):
        s = self.session
        if msg.get("i") != self.i:  # another send's answer begins: it chains from its own p
            self.store()
            self.i, self.expect, self.broken, self.end = msg.get("i"), None, False, None
        if self.broken or self.end is not None or msg["m"] == "error":
            return
        if msg["m"] != "recs" or not _ints(msg, "p") or not isinstance(msg.get("r"), list):
            s._refused(FrameError("type", "a pull answer is recs, not %s" % (
                link.shown(repr(msg.get("m"))),)))
            self.broken = True
            return
        if self.expect is not None and msg["p"] != self.expect:
            self.broken = True  # a batch went missing in between: the rest comes next pull
            return
        records = []
        try:
            link.check_signed(s.key, s.nonce, msg)
            seq = msg["p"]
            for rec in msg["r"]:
                records.append(link.batch_record(rec, seq))
                seq = records[-1][0]
        except FrameError as e:
            s._refused(e)
            self.broken = True
            return
        if not self.held:
            self.held_p = msg["p"]
        self.held += records
        self.expect = records[-1][0] if records else msg["p"]
        if "last" in msg and _ints(msg, "last"):  # the answer's last batch
            self.store()
            if not self.broken:
                off = s.offset
                self.end = {"sent": self.expect + off, "last": msg["last"] + off}

    def store(self):
        """What is held into the database, in one transaction."""
        if not self.held:
            return
        off = self.session.offset  # from the terminal's numbering to the host's
        records, self.held = self.held, []
        if self.session._store(self.held_p + off,
                               [(q + off, k, d) for q, k, d in records]).refused:
            self.broken = True


class SyncFailed(Refused):
    """The session could not finish; the message says why (the terminal keeps its records)."""


class PairingCodes:
    """The pairing codes the scorer typed: one code (`sync --code`, `serve --code`: for whichever
    keyless terminal shows it) or {terminal id: code} (the demo, the tests). A terminal shows a
    fresh code for each pairing and closes it after three wrong ones, so a code is offered
    to a terminal once: one it refused is not offered to it again (a `serve` retrying the
    wrong terminal would spend its tries), and one a terminal took is spent. Shared by the
    sync threads of one station."""

    def __init__(self, codes=None):
        self.codes = codes
        self.lock = threading.Lock()
        self.refused = set()  # terminal ids that refused the code they were offered
        self.taken = set()  # the codes a terminal took

    def get(self, tid):
        code = self.codes.get(tid) if isinstance(self.codes, dict) else self.codes
        with self.lock:
            if not link.code_ok(code) or tid in self.refused or code in self.taken:
                return None
        return code

    def took(self, code):
        with self.lock:
            self.taken.add(code)

    def wrong(self, tid):
        with self.lock:
            self.refused.add(tid)


class Progress:
    """What a session has done so far, for the station's display and the syncs table."""

    def __init__(self, port):
        self.port = port
        self.terminal = None
        self.phase = "connecting"
        self.stored = 0
        self.duplicates = 0
        self.pending = None  # records the terminal holds that are not stored yet
        self.refused = Counter()
        self.retries = 0
        self.late = 0  # answers to a request already answered (it was sent again meanwhile)
        self.slow = False  # the terminal is silent beyond the timeout: the station waits on
        self.outcome = None


class Session:
    """Sync one terminal on `port` (a pyserial-like object: read, write, timeout)."""

    def __init__(self, db, port, name="", register=False, timeout=1.0, tries=6,
                 on_progress=None, place=None, code=None):
        self.db = db
        self.port = port
        self.progress = Progress(name or getattr(port, "port", "?"))
        self.register = register
        # the pairing code the terminal shows (terminal.pairing), typed by the scorer; or
        # {terminal id: code} for several terminals at once (the demo); or the PairingCodes
        # that the sessions of one station share
        self.code = code if isinstance(code, PairingCodes) else PairingCodes(code)
        self.place = place  # (section, table) to place the terminal at, when registering
        self.timeout = timeout
        self.tries = tries
        self.on_progress = on_progress or (lambda p: None)
        self.reader = link.FrameReader(on_refused=self._refused)
        self.request_no = 0
        self.key = None
        self.nonce = b""
        self.tid = None
        self.sync_id = None
        self.offset = 0  # host seq = the terminal's journal seq + offset (terminal reset)
        self.deadline = None  # time.monotonic() by which the whole sync must be done

    # -- bookkeeping ---------------------------------------------------------------------

    def _refused(self, error):
        self.progress.refused[error.code] += 1
        log.warning("%s: refused %s", self.progress.port, link.shown(str(error)))

    def _phase(self, phase):
        self.progress.phase = phase
        self.on_progress(self.progress)

    # -- the conversation ----------------------------------------------------------------

    def run(self):
        """Sync to the end; returns the Progress (outcome 'done'), or raises SyncFailed."""
        p = self.progress
        self.deadline = time.monotonic() + MAX_SECONDS
        try:
            self._converse()
            p.outcome = "done"
        except SyncFailed as e:
            p.outcome = str(e)
            log.error("%s: %s", p.port, e)
            raise
        finally:
            self._record_outcome()
            self._phase(p.phase if p.outcome != "done" else "done")
        return p

    def _converse(self):
        sn = os.urandom(NONCE_SIZE)
        hello = self.request({"m": "hello", "v": [VERSION], "sn": sn}, "hello")[0]
        self._check_hello(hello)
        self.nonce = sn + hello["nonce"]
        self._identify(hello)
        self._pull(hello)
        config = setup.table_config(self.db, self.tid)
        self._push("config.cbor", config, hello.get("config.cbor"))
        if config is not None:
            self._follow_current_session()
        self._push("travellers.cbor", setup.travellers(self.db, self.tid) or None,
                   hello.get("travellers.cbor"))
        self._phase("closing")
        bye = {"m": "bye"}
        last = setup.terminal(self.db, self.tid)["last_seq"] - self.offset
        if last > hello["base"]:
            bye["seq"] = last  # acknowledged: compact up to it (only what is committed here)
        try:
            self.request(bye, "bye", signed=True)
        except SyncFailed as e:  # everything is stored: a lost bye costs a compaction only
            log.info("%s: no goodbye from %s (%s)", self.progress.port, self.tid, e)

    def _check_hello(self, hello):
        """SyncFailed unless the hello is a version-2 terminal's, every field in bounds."""
        if hello.get("v") != VERSION:
            version = link.shown(repr(hello.get("v")))
            raise SyncFailed("the terminal speaks protocol version %s; this station speaks %d: "
                             "update the terminal's firmware" % (version, VERSION),
                             ru="терминал работает по протоколу версии %s, а станция — по "
                             "версии %d: обновите прошивку терминала" % (version, VERSION))
        for name in ("base", "last"):
            if not _ints(hello, name) or not 0 <= hello[name] < ingest.MAX_SEQ:
                raise SyncFailed("hello without %s: not a terminal of this protocol" % name,
                                 ru="в приветствии нет %s: это не терминал этого протокола"
                                 % name)
        tid = hello.get("id")
        if not link.ident_ok(tid):
            self.progress.refused["type"] += 1
            shown = link.shown(repr(tid))
            raise SyncFailed("the terminal's identity %s is not 1 to %d letters, digits or "
                             "-_.:" % (shown, link.MAX_IDENT), ru="имя терминала %s — не от 1 "
                             "до %d букв, цифр или знаков -_.:" % (shown, link.MAX_IDENT))
        nonce = hello.get("nonce")
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
            raise SyncFailed("the terminal's hello has no %d-byte nonce" % NONCE_SIZE,
                             ru="в приветствии терминала нет nonce из %d байт" % NONCE_SIZE)
        ev = hello.get("event")
        if ev is not None and not (isinstance(ev, str) and len(ev) <= 32):
            raise SyncFailed("the terminal's hello names no event fingerprint",
                             ru="в приветствии терминала нет отпечатка турнира")

    def _identify(self, hello):
        """Who is on the port, proved before anything is written or sent: a terminal of this
        event signs its hello under its key and both nonces. A key is sent only to a device
        holding none, for an identity this event does not know yet (--register), placed but
        never synced (--register), or reset by the scorer (`terminal reset`)."""
        tid = self.tid = self.progress.terminal = hello["id"]
        row = setup.terminal(self.db, tid)
        _, _, event_key = setup.the_event(self.db)
        fingerprint = link.event_fingerprint(event_key)
        there = hello.get("event")
        if row is not None and there == fingerprint:
            self.key = bytes.fromhex(row["key"])
            self._check(hello)
        elif there is not None and not (self.register and self._code()):
            self.progress.refused["other_event"] += 1
            raise SyncFailed("terminal %s belongs to another event (%s): it takes no key from "
                             "this station" % (tid, link.shown(there)), ru="терминал %s — "
                             "другого турнира (%s): ключа от этой станции он не получит" % (
                                 tid, link.shown(there)))
        elif row is None and not self.register:
            self.progress.refused["unknown_terminal"] += 1
            raise SyncFailed("unknown terminal %s: register it at this station "
                             "(serve --register, or sync --register)" % tid,
                             ru="неизвестный терминал %s: зарегистрируйте его на этой станции "
                             "(serve --register или sync --register)" % tid)
        elif row is not None and not row["rebase"] and not (
                self.register and row["last_seen"] is None):
            self.progress.refused["keyless"] += 1
            raise SyncFailed("terminal %s has synced here before, but this device holds no "
                             "key (flash wiped?): it is not given one. If its flash was "
                             "wiped, run `host-sync terminal reset %s %s` and sync it again; "
                             "the records stored stay" % (tid, self.db.path, tid),
                             ru="терминал %s уже синхронизировался здесь, но на устройстве нет "
                             "ключа (флеш стёрт?): ключ ему не выдаётся. Если флеш стёрт, "
                             "выполните `host-sync terminal reset %s %s` и синхронизируйте "
                             "снова; сохранённые записи останутся" % (tid, self.db.path, tid))
        else:
            self._give_key(hello, row, event_key, fingerprint)
        if row is not None:
            row = self._check_journal(row, hello)
            self.offset = row["journal_offset"]
        if hello["last"] + self.offset >= ingest.MAX_SEQ:
            raise SyncFailed("terminal %s numbers its records past %d after its journal's "
                             "re-base: not a journal this station can store" % (
                                 tid, ingest.MAX_SEQ - 1), ru="терминал %s после перенумерации "
                             "журнала нумерует записи дальше %d: такой журнал станция хранить "
                             "не может" % (tid, ingest.MAX_SEQ - 1))
        if self.place:
            setup.register_terminal(self.db, tid, hello["last"], section=self.place[0],
                                    table=self.place[1], actor=ACTOR)
        self.sync_id = self._start_outcome()
        if hello["base"] + self.offset > setup.terminal(self.db, tid)["last_seq"]:
            ingest.compacted(self.db, tid, hello["base"] + self.offset)

    def _code(self):
        return self.code.get(self.tid)

    def _give_key(self, hello, row, event_key, fingerprint):
        """Pair with the device: its key goes only in a `register` that proves the code the
        terminal shows (typed here by the scorer); stored here once the terminal proved it
        took the key."""
        tid = self.tid
        code = self._code()
        if code is None and tid in self.code.refused:
            self.progress.refused["pairing"] += 1
            raise SyncFailed(
                "terminal %s refused the code typed, which is not offered to it again: "
                "type the code it shows (director mode, 6)" % tid,
                ru="терминал %s не принял введённый код, и он ему больше не предлагается: "
                   "введите код с его экрана (режим директора, 6)" % tid)
        if code is None:
            self.progress.refused["pairing"] += 1
            raise SyncFailed(
                "terminal %s holds no key of this event: pair it. On the terminal: director "
                "mode (DIR, PIN, OK), 6; then sync (or serve) --register --code with the code "
                "it shows" % tid,
                ru="у терминала %s нет ключа этого турнира: свяжите его со станцией. На "
                   "терминале: режим директора (DIR, PIN, OK), 6; затем sync (или serve) "
                   "--register --code с кодом с его экрана" % tid)
        self._phase("registering")
        self.key = setup.terminal_key(event_key, tid)
        reply = self.request({"m": "register", "event": fingerprint, "key": self.key,
                              "id": tid}, "ok", code=code)[0]
        self._check(reply)
        self.code.took(code)
        if row is None:
            setup.register_terminal(self.db, tid, hello["last"], actor=ACTOR)
        log.info("%s: paired with terminal %s", self.progress.port, tid)

    def _check_journal(self, row, hello):
        """The terminals row once the hello's journal follows what is stored. A journal that
        restarted below it (a wiped flash) is refused until `terminal reset` asks for a
        re-base: then the new journal's seq 1 is stored after the last seq stored."""
        stored = row["last_seq"] - row["journal_offset"]  # in the terminal's numbering
        restarted = hello["last"] < stored
        if restarted and not row["rebase"]:
            self.progress.refused["journal_restarted"] += 1
            raise SyncFailed(
                "terminal %s reports its last record as %d but %d are stored: its journal "
                "restarted (flash wiped?). If so, run `host-sync terminal reset %s %s` and "
                "sync again; the records stored stay" % (
                    self.tid, hello["last"], stored, self.db.path, self.tid),
                ru="терминал %s сообщает, что его последняя запись — %d, а сохранено %d: его "
                   "журнал начат заново (флеш стёрт?). Если так, выполните `host-sync terminal "
                   "reset %s %s` и синхронизируйте снова; сохранённые записи останутся" % (
                       self.tid, hello["last"], stored, self.db.path, self.tid))
        if not row["rebase"]:
            return row
        values = {"rebase": 0}
        if restarted:
            values["journal_offset"] = row["last_seq"] - hello["base"]
            log.warning("%s: terminal %s re-based: its seq 1 is stored as %d", self.progress.port,
                        self.tid, values["journal_offset"] + 1)
        with self.db.transaction():  # a reset asked for a terminal that did not restart: void
            self.db.update("terminals", {"id": self.tid}, values, ACTOR, self.tid)
        return setup.terminal(self.db, self.tid)

    def _pull(self, hello):
        self._phase("pulling")
        stalled = 0
        while True:
            last = setup.terminal(self.db, self.tid)["last_seq"]
            chain = _Chain(self)
            try:
                self.request({"m": "pull", "after": last - self.offset, "max": WINDOW},
                             "recs", signed=True, partial_ok=True, taker=chain)
            finally:
                chain.store()  # what came before a silence or a failure is verified: kept
            end = chain.end
            now_last = setup.terminal(self.db, self.tid)["last_seq"]
            if end is not None:
                self.progress.pending = max(0, end["last"] - now_last)
            self.on_progress(self.progress)
            # Done when the terminal had nothing after what is stored, or sent up to its last.
            if end is not None and now_last >= end["sent"] and (
                    end["sent"] <= last or end["sent"] >= end["last"]):
                return
            stalled = 0 if now_last > last else stalled + 1
            if stalled >= self.tries:
                raise SyncFailed("no progress after %d pulls (stored up to %d)" % (
                    stalled, now_last), ru="нет продвижения после %d запросов (сохранено до "
                    "%d)" % (stalled, now_last))

    def _store(self, prev, records):
        """Verified records, chained after prev, into the database in one transaction."""
        report = ingest.ingest(self.db, self.tid, prev, records)
        self.progress.stored += report.stored
        self.progress.duplicates += report.duplicates
        if report.refused:
            self.progress.refused["chain"] += 1
            log.warning("%s: %s", self.progress.port, report.refused)
        return report

    def _authentic(self, msg):
        """Whether a message's tag verifies (counted and logged when it does not)."""
        try:
            link.check_signed(self.key, self.nonce, msg)
            return True
        except FrameError as e:
            self._refused(e)
            return False

    def _follow_current_session(self):
        """The terminal now holds the current session's configuration: what it records from
        here on belongs to that session. The records pulled above were made under its old
        configuration and stay filed under the old session."""
        t = setup.terminal(self.db, self.tid)
        current = setup.current_session(self.db, t["event_id"])
        with self.db.transaction():
            self.db.update("terminals", {"id": self.tid}, {"session_id": current}, ACTOR,
                           self.tid)

    def _push(self, name, content, digest_there):
        """Put the file on the terminal if its digest there differs: raw deflate in chunks,
        the last carrying the digest of the file itself (the terminal inflates, checks and
        puts it in place, and says `ok`)."""
        if content is None:
            return
        raw = link.cbor_encode(content)
        digest = hashlib.sha256(raw).digest()
        if digest == digest_there:
            return
        packer = zlib.compressobj(9, zlib.DEFLATED, -WBITS)
        data = packer.compress(raw) + packer.flush()
        self._phase("sending " + name)
        at = 0
        stalled = 0
        while True:
            put = {"m": "put", "f": name, "at": at, "size": len(data), "d": data[at:at + CHUNK]}
            if at + CHUNK >= len(data):
                put["sha"] = digest  # the last chunk: inflate, check, put in place
            reply = self.request(put, "have", signed=True)[0]
            held = reply.get("at")
            if not _ints(reply, "at") or held > len(data):
                raise SyncFailed("the terminal holds %r bytes of %s" % (held, name),
                                 ru="у терминала %r байт из %s" % (held, name))
            if reply.get("ok") is True:
                return
            stalled = 0 if held > at else stalled + 1
            if stalled >= self.tries:
                raise SyncFailed("the terminal does not take %s" % name,
                                 ru="терминал не принимает %s" % name)
            at = held

    # -- requests ------------------------------------------------------------------------

    def _check(self, reply):
        try:
            link.check_signed(self.key, self.nonce, reply)
        except FrameError as e:
            self._refused(e)
            raise SyncFailed("the terminal did not prove it holds the key",
                             ru="терминал не доказал, что у него есть ключ")

    def request(self, msg, want, signed=False, partial_ok=False, code=None, taker=None):
        """Send msg until its answer ending with a `want` message arrives; the answer list.

        signed: tag it under the terminal's key and this conversation's nonce. code: tag it
        (`pt`) under this pairing code instead. partial_ok: on time-out return what came (a
        pull's records are worth storing). taker: its take(msg) gets every message of the
        answer as it arrives, and its store() is called whenever the line has no further
        message for it yet (a pull's batches are stored while the next is on the wire).

        A terminal that is sending is alive, however slow (a starved process, a busy machine):
        each byte extends the wait, and only `timeout` seconds of silence end it, so a try is
        counted only on silence and the station gives up on a terminal that went quiet, never
        on one that is sending; each silent try waits longer than the one before (up to
        SLOW_WAIT times `timeout`), and the live table says "slow terminal, waiting". Every
        send of the same request is equally answered by any of them (but a hello, LATEST_ONLY):
        an answer to an earlier send that comes late is taken, and the answer to the send it
        made unnecessary is a late one (`progress.late`), not refused.
        """
        sent = []  # the numbers this request went out under
        wait = self.timeout
        for _ in range(self.tries):
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.progress.refused["time"] += 1
                raise SyncFailed("the sync took over %d s: cut off (the terminal keeps its "
                                 "records)" % MAX_SECONDS, ru="синхронизация шла дольше %d с "
                                 "и прервана (записи остаются на терминале)" % MAX_SECONDS)
            self.request_no += 1
            sent.append(self.request_no)
            out = dict(msg, i=self.request_no)
            if signed:
                out = link.sign(self.key, self.nonce, out)
            if code is not None:
                out["pt"] = link.message_tag(code.encode(), self.nonce, out, "pt")
            try:
                self.port.write(b"\x00" + link.encode_frame(out))
            except (OSError, SerialException) as e:
                raise _link_lost(e)
            got = self._collect(sent[-1:] if msg["m"] in LATEST_ONLY else sent, want, wait,
                                taker)
            if got and _ends(got[-1], want):
                self._slow(False)
                return got
            if got and got[-1]["m"] == "error":
                err = got[-1]
                if err.get("code") in ("frame", "sha"):
                    continue
                if err.get("code") == "pairing":
                    self.progress.refused["pairing"] += 1
                    if str(err.get("text")).startswith("wrong code"):
                        self.code.wrong(self.tid)
                    raise _pairing_refused(self.tid, str(err.get("text")))
                why = (msg["m"], link.shown(str(err.get("code"))), link.shown(str(err.get("text"))))
                raise SyncFailed("the terminal refused %s: %s %s" % why,
                                 ru="терминал отклонил %s: %s %s" % why)
            if partial_ok and got:
                self._slow(False)
                return got
            self.progress.retries += 1
            log.info("%s: no answer to %s %d in %.1f s of silence: sent again",
                     self.progress.port, msg["m"], sent[-1], wait)
            wait = min(wait * 2, self.timeout * SLOW_WAIT)
            self._slow(True)
        raise SyncFailed("no answer to %s after %d tries" % (msg["m"], self.tries),
                         ru="нет ответа на %s после %d попыток" % (msg["m"], self.tries))

    def _slow(self, slow):
        if self.progress.slow != slow:
            self.progress.slow = slow
            self.on_progress(self.progress)

    def _collect(self, sent, want, wait, taker=None):
        """The answer to one of the request's sends (`sent`, the numbers it went out under),
        up to `want` or an error, or what came before `wait` seconds passed without a byte
        (each byte restarts the wait: a terminal that is sending is alive). At most MAX_MESSAGES
        messages and MAX_BYTES bytes (SyncFailed beyond: a terminal that floods the port is
        cut off, and the station's memory stays bounded). The taker stores what it holds when
        no byte is waiting or the bytes read complete no message: the next one is still on
        its way (on a UART, always; over a pty, once the station has caught up)."""
        got = []
        deadline = time.monotonic() + wait
        read = 0
        held = False  # the taker holds messages it has not stored
        while time.monotonic() < deadline:
            try:
                waiting = self.port.in_waiting
                if held and not waiting:
                    taker.store()
                    held = False
                data = self.port.read(max(1, min(waiting, 4096)))
            except (OSError, SerialException) as e:
                raise _link_lost(e)
            if not data:
                continue
            deadline = time.monotonic() + wait  # bytes are coming: it is alive, wait on
            read += len(data)
            if read > MAX_BYTES or len(got) > MAX_MESSAGES:
                self.progress.refused["flood"] += 1
                raise SyncFailed("the terminal sent over %d messages or %d bytes for one "
                                 "request: cut off" % (MAX_MESSAGES, MAX_BYTES),
                                 ru="терминал прислал больше %d сообщений или %d байт на один "
                                 "запрос: связь прервана" % (MAX_MESSAGES, MAX_BYTES))
            messages = self.reader.feed(data)
            if held and not messages:
                taker.store()
                held = False
            for msg in messages:
                if not isinstance(msg, dict) or not isinstance(msg.get("m"), str):
                    self._refused(FrameError("type", "a message is a map with m"))
                    continue
                i = msg.get("i")
                if i not in sent:
                    if _ints(msg, "i") and 0 < i < sent[0]:
                        self.progress.late += 1  # an earlier request's, answered twice
                    else:
                        self.progress.refused["stale"] += 1  # a number never sent
                    continue
                if got and got[0].get("i") != i:
                    got = []  # another send's answer begins: one answer, never a mix
                got.append(msg)
                if taker is not None:
                    taker.take(msg)
                    held = True
                if msg["m"] == "error" or _ends(msg, want):
                    return got
        return got

    # -- the syncs table -----------------------------------------------------------------

    def _start_outcome(self):
        with self.db.transaction():
            return self.db.insert("syncs", {"terminal_id": self.tid, "port": self.progress.port,
                                            "started_at": now()}, ACTOR, self.tid)

    def _record_outcome(self):
        """The sync's row finished; a sync done also marks the terminal seen (`event show`:
        synced, even with nothing new to store), in the same commit."""
        if self.sync_id is None:
            return
        p = self.progress
        with self.db.transaction():
            if p.outcome == "done":
                self.db.update("terminals", {"id": self.tid}, {"last_seen": now()}, ACTOR,
                               self.tid)
            self.db.update("syncs", {"id": self.sync_id}, {
                "finished_at": now(), "stored": p.stored, "duplicates": p.duplicates,
                "refused": json.dumps(dict(p.refused), sort_keys=True), "outcome": p.outcome},
                ACTOR, self.tid)


def _link_lost(e):
    """The port failed under a sync (the system's words are its own)."""
    return SyncFailed("link lost: %s" % e, ru="связь потеряна: %s" % e)


def _pairing_refused(tid, text):
    """The terminal's refusal of a pairing, said in both languages (the terminal's own
    words are English: terminal.link.Link.register)."""
    shown = link.shown(text)
    if text.startswith("wrong code: ") and text.endswith(" tries left"):
        ru = "неверный код; осталось попыток: %s" % link.shown(text[12:-11])
    elif text.startswith("wrong code"):
        ru = "неверный код; привязка закрыта: откройте её на терминале снова (режим " \
             "директора, 6)"
    elif text.startswith("no pairing open"):
        ru = "на терминале не открыта привязка: режим директора (DIR, PIN, OK), 6 — " \
             "терминал покажет код"
    else:
        ru = "терминал отказал в привязке: %s" % shown
    return SyncFailed("terminal %s refused the pairing: %s" % (tid, shown),
                      ru="терминал %s: %s" % (tid, ru))


def _ends(msg, want):
    """Whether msg ends the answer that ends with a `want` message: a pull's answer ends with
    the recs message that carries `last`."""
    return msg["m"] == want and (want != "recs" or "last" in msg)


def _ints(msg, *names):
    return all(isinstance(msg.get(n), int) and not isinstance(msg.get(n), bool) for n in names)
