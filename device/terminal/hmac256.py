"""HMAC-SHA256 (RFC 2104) on hashlib.sha256: MicroPython has no hmac module.

The host checks the same tags with the standard `hmac` module.
"""

from hashlib import sha256

from terminal import const

_BLOCK = const(64)


def digest(key, data):
    """The 32-byte HMAC-SHA256 of data under key (both bytes-like)."""
    key = bytes(key)
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    inner = sha256(bytes(b ^ 0x36 for b in key))
    inner.update(data)
    outer = sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def equal(a, b):
    """a == b for two byte strings, in a time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0
