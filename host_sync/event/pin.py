"""The director's PIN on the host (issue 14, docs/SECURITY.md "Director PIN"): what the event
database keeps of it and what each terminal is given. The PIN itself is kept nowhere.

    salt  = the first 16 hex digits of HMAC-SHA256(event secret, "pin-salt"): the event's own
    K     = PBKDF2-HMAC-SHA256(PIN, salt, PIN_ROUNDS), 32 bytes        (kept in the database)
    check = HMAC-SHA256(K, "pin " + terminal id), 32 bytes       (in that terminal's config)

(PIN, salt, terminal id as UTF-8.) The terminal, given digits at its keypad, computes both
steps and compares its `check` (terminal.config.Config.pin_ok): one PBKDF2 as before and one
HMAC more. What this buys:

- the database holds K, the one value the host needs to give any terminal its check, and no
  PIN: recovering the PIN from K costs one PBKDF2 of PIN_ROUNDS a guess, exactly what it costs
  from a terminal's configuration file (the HMAC on top is two SHA-256 blocks of some 4,000);
- each terminal's check is its own (an HMAC keyed by K over its identity): one terminal's
  configuration opens no other terminal, and K is not in any of them;
- the salt is the event's (from its secret), so nothing can be computed ahead for every event.

Databases of before kept the PIN in clear ({"pin": "2468"}) and wrote it into the settings'
audit rows; migration 008 replaces the setting by this form (`migrate_clear_pin`, run by
host_sync.event.db after the migration's SQL, which redacts those audit rows).
"""

import hashlib
import hmac
import json

# PBKDF2-HMAC-SHA256 rounds of the director's PIN: about 0.3 s an attempt on an RP2040 by
# the estimate in BENCHMARKS.md (bench/pin_kdf.py), "well under a second" as issue 14 asks
PIN_ROUNDS = 1000
SCHEME = 2  # the terminal's `pv`: the check is HMAC(K, terminal id), not K itself (scheme 1)
MIGRATION_ACTOR = "migration 008"
REDACTED = "redacted by migration 008: the director's PIN is no longer kept"
UNSET = {"unset": "migration 008 found no PIN to derive from: set it again"}


def event_salt(event_key):
    """The event's PIN salt: 16 hex digits from its secret (bytes)."""
    return hmac.new(event_key, b"pin-salt", "sha256").hexdigest()[:16]


def derived_key(pin, salt, rounds=PIN_ROUNDS):
    """K: PBKDF2-HMAC-SHA256 of the PIN (digits) under the salt, 32 bytes."""
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), rounds)


def terminal_check(key, terminal_id):
    """What terminal `terminal_id` compares: HMAC-SHA256(K, 'pin ' + its id), 32 bytes."""
    return hmac.new(key, b"pin " + terminal_id.encode(), "sha256").digest()


def stored_form(event_key, pin):
    """The `pin` setting kept in the database for the PIN: salt, rounds and K in hex."""
    salt = event_salt(event_key)
    return {"salt": salt, "kdf": PIN_ROUNDS, "key": derived_key(pin, salt).hex()}


def terminal_part(stored, terminal_id):
    """The PIN part of a terminal's configuration (docs/CONFIG.md) from the stored setting;
    None when the setting is not in this form (an older host-sync's)."""
    try:
        key = bytes.fromhex(stored["key"])
        salt, rounds = stored["salt"], stored["kdf"]
    except (KeyError, TypeError, ValueError):
        return None
    if len(key) != 32 or not isinstance(salt, str) or type(rounds) is not int:
        return None
    return {"salt": salt, "kdf": rounds, "pv": SCHEME,
            "pin": terminal_check(key, terminal_id).hex()}


def migrate_clear_pin(db):
    """Migration 008's step that SQL cannot spell (PBKDF2): each event's `pin` setting kept in
    clear becomes its stored_form, written with an audit row that does not carry the PIN (the
    migration's SQL has already redacted the older ones). A clear PIN that is not digits, or
    an event secret that is not hex, leaves nothing to derive from: the setting becomes
    UNSET and table_config asks for the PIN to be set again (not {}, which would read as no
    PIN and open the terminals to 0000). A setting in another form (the sha256
    one of before) is left as it is: it holds no PIN."""
    for row in db.all("SELECT s.event_id, s.value, e.key FROM settings s JOIN events e ON "
                      "e.id = s.event_id WHERE s.name = 'pin'"):
        try:
            data = json.loads(row["value"])
        except ValueError:
            data = {"pin": None}  # unreadable: whatever it holds, it goes
        if not isinstance(data, dict) or "pin" not in data:
            continue
        clear = data["pin"]
        try:
            event_key = bytes.fromhex(row["key"])
        except (TypeError, ValueError):
            event_key = None
        usable = (isinstance(clear, str) and clear.isdigit() and clear.isascii() and
                  event_key is not None)
        text = json.dumps(stored_form(event_key, clear) if usable else UNSET, sort_keys=True)
        db.conn.execute("UPDATE settings SET value = ? WHERE event_id = ? AND name = 'pin'",
                        (text, row["event_id"]))
        db._audit(MIGRATION_ACTOR, None, "settings", {"event_id": row["event_id"],
                                                      "name": "pin"},
                  "update", {"value": REDACTED}, {"value": text})
