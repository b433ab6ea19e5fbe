"""``mapfile`` / ``readarray``: lines of standard input into an indexed array.

``-t`` strips the delimiter, ``-d D`` reads records ending in ``D`` (``-d ''``: NUL), ``-n N``
stops after N records, ``-s N`` skips the first N, ``-O I`` stores from index I (without it
the array is emptied first). ``-u`` and callbacks (``-C`` / ``-c``) are refused in one line.
An endless input ends at the array size limit (``state.MAX_ELEMENTS``) with its message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.interpreter import state

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _err(io_: "IO", prog: str, message: str) -> int:
    io_.stderr.write(f"bash: {prog}: {message}\n".encode("utf-8", "surrogateescape"))
    return 1


def b_mapfile(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [array]``."""
    from sandbox.commands.options import OptionSpec, UsageError, parse
    prog = argv[0]
    try:
        opts, names = parse(OptionSpec("d:n:O:s:tu:C:c:", permute=False), argv[1:])
    except UsageError as exc:
        _err(io_, prog, str(exc))
        io_.stderr.write(f"{prog}: usage: {prog} [-d delim] [-n count] [-O origin] [-s count] "
                         "[-t] [-u fd] [-C callback] [-c quantum] [array]\n".encode("utf-8", "surrogateescape"))
        return 2
    delim = b"\n"
    count = 0
    origin: int | None = None
    skip = 0
    strip = False
    for key, value in opts:
        value = value or ""
        if key == "d":
            delim = value.encode("utf-8", "surrogateescape")[:1] or b"\x00"
        elif key == "t":
            strip = True
        elif key in ("u", "C", "c"):
            return _err(io_, prog, f"-{key}: not supported in the sandbox; use a redirection "
                        "or a loop instead")
        else:
            if not re.fullmatch(r"-?\d+", value):
                return _err(io_, prog, f"{value}: invalid "
                            f"{'line count' if key in 'ns' else 'array origin'}")
            number = int(value)
            if key == "n":
                count = number
            elif key == "s":
                skip = number
            else:
                origin = number
    name = names[0] if names else "MAPFILE"
    if not _NAME_RE.match(name):
        return _err(io_, prog, f"`{name}': not a valid identifier")
    if name in sh.assoc:
        return _err(io_, prog, f"{name}: not an indexed array")
    if origin is None:
        sh.vars.pop(name, None)
        sh.arrays[name] = {}
        index = 0
    else:
        if name not in sh.arrays:
            old = sh.vars.pop(name, None)
            sh.arrays[name] = {} if old is None else {0: old}
        index = origin
    arr = sh.arrays[name]
    stdin = io_.stdin
    taken = 0
    limit = sh.limits.string_length
    while count == 0 or taken < count:
        sh.budget.check_time()
        record = _read_record(stdin, delim, limit, sh)
        if record is None:
            break
        if skip:
            skip -= 1
            continue
        if strip and record.endswith(delim):
            record = record[:-1]
        arr[index] = record.decode("utf-8", "surrogateescape")
        index += 1
        taken += 1
        if len(arr) > state.MAX_ELEMENTS:
            raise LimitExceeded("array_elements", f"array size limit of {state.MAX_ELEMENTS} "
                                "elements exceeded; read the input in a loop instead")
    return 0


def _read_record(stdin, delim: bytes, limit: int, sh: "Shell") -> bytes | None:  # type: ignore[no-untyped-def]
    """One record including its delimiter (the last may lack it), None at the end."""
    if delim == b"\n" and hasattr(stdin, "readline"):
        line = stdin.readline(limit + 1)
        if len(line) > limit:
            sh.budget.check_string(len(line))
        return line or None
    buf = bytearray()
    while True:
        c = stdin.read(1)
        if not c:
            return bytes(buf) if buf else None
        buf += c
        if c == delim:
            return bytes(buf)
        if len(buf) > limit:
            sh.budget.check_string(len(buf))
