"""HMAC-SHA256 (RFC 2104) and PBKDF2-HMAC-SHA256 (RFC 8018) on hashlib.sha256: MicroPython
has no hmac module and no hashlib.pbkdf2_hmac.

The host checks the same tags with the standard `hmac` module, and derives the director's PIN
key with `hashlib.pbkdf2_hmac` and each terminal's check from it with `hmac`
(host_sync.event.pin; tests/test_pin.py holds both to the same vectors).
"""

from hashlib import sha256

from terminal import const

_BLOCK = const(64)


def pads(key):
    """The key padded to a block and xored with the inner and outer pads (0x36, 0x5C): made
    once per key by a caller that tags many messages (terminal.journal), for `digest`."""
    key = bytes(key)
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    return bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)


def digest(key, *parts, padded=None):
    """The 32-byte HMAC-SHA256 of the message `parts` (bytes-like, hashed in turn: the same
    as of their concatenation, which is never made) under key, or under its `padded` pads."""
    inner, outer = padded or pads(key)
    h = sha256(inner)
    for part in parts:
        h.update(part)
    h2 = sha256(outer)
    h2.update(h.digest())
    return h2.digest()


def pbkdf2(password, salt, rounds):
    """PBKDF2-HMAC-SHA256 of password under salt, `rounds` iterations, 32 bytes (one block:
    what the PIN check compares). The pads are made once, not per iteration (MicroPython's
    sha256 cannot be copied, so each iteration still hashes a pad block twice); a pad and
    the digest go to the hash by update, never joined into a new bytes (~0.2 KB an iteration
    of garbage less on the unix port); the running xor is one big int: a byte loop would cost
    more than the hashing."""
    padded = pads(password)
    inner, outer = padded
    u = digest(None, salt, b"\x00\x00\x00\x01", padded=padded)
    acc = int.from_bytes(u, "big")
    for _ in range(rounds - 1):  # digest() inline: its argument tuple would be garbage too
        h = sha256(inner)
        h.update(u)
        u = sha256(outer)
        u.update(h.digest())
        u = u.digest()
        acc ^= int.from_bytes(u, "big")
    return acc.to_bytes(32, "big")


def equal(a, b):
    """a == b for two byte strings, in a time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0
