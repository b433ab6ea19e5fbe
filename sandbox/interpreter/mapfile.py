"""``mapfile`` / ``readarray``: records of input into an indexed array, as bash 5.2 does.

``-t`` strips the delimiter, ``-d D`` reads records ending in ``D`` (``-d ''``: NUL), ``-n N``
stops after N records (0: all), ``-s N`` skips the first N, ``-O I`` stores from index I
(without it the array is emptied first), ``-u FD`` reads descriptor FD. A record is cut at a
NUL byte (bash stores C strings). Callbacks (``-C``) would run code: refused in one line;
``-c`` is checked and needs ``-C``. An endless input ends at the array size limit
(``state.MAX_ELEMENTS``) with its message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.interpreter import state
from sandbox.interpreter.read import BuiltinUsage, fd_stream, getopt, legal_number, read_until

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _err(sh: "Shell", io_: "IO", prog: str, message: str) -> int:
    sh.diag(io_, f"{prog}: {message}")
    return 1


def b_mapfile(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]``."""
    prog = argv[0]
    try:
        opts, names = getopt(argv[1:], "d:n:O:s:tu:C:c:")
    except BuiltinUsage as exc:
        _err(sh, io_, prog, str(exc))
        io_.stderr.write(f"{prog}: usage: {prog} [-d delim] [-n count] [-O origin] [-s count] "
                         "[-t] [-u fd] [-C callback] [-c quantum] [array]\n".encode())
        return 2
    delim = b"\n"
    count = skip = fd = 0
    origin: int | None = None
    strip = False
    callback = False
    for key, value in opts:
        if key == "d":
            delim = value.encode("utf-8", "surrogateescape")[:1] or b"\x00"
        elif key == "t":
            strip = True
        elif key == "C":
            callback = True
        else:
            number = legal_number(value)
            bad = number is None or number < (1 if key == "c" else 0)
            if key == "u":
                if bad or number >= 1 << 31:  # type: ignore[operator]
                    return _err(sh, io_, prog, f"{value}: invalid file descriptor specification")
                fd = number  # type: ignore[assignment]
                if fd_stream(sh, io_, fd) is None:
                    return _err(sh, io_, prog, f"{fd}: invalid file descriptor: Bad file descriptor")
            elif bad:
                what = {"n": "line count", "s": "line count", "O": "array origin",
                        "c": "callback quantum"}[key]
                return _err(sh, io_, prog, f"{value}: invalid {what}")
            elif key == "n":
                count = number  # type: ignore[assignment]
            elif key == "s":
                skip = number  # type: ignore[assignment]
            elif key == "O":
                origin = number
    if callback:
        return _err(sh, io_, prog, "-C: callbacks are not supported in the sandbox; "
                    "use a `while read` loop instead")
    name = names[0] if names else "MAPFILE"
    if name == "":
        _err(sh, io_, prog, "empty array variable name")
        return 2
    if not _NAME_RE.match(name):
        return _err(sh, io_, prog, f"`{name}': not a valid identifier")
    if "r" in (sh.attrs.get(name) or ()):
        sh.diag(io_, f"{name}: readonly variable")
        return 1
    if name in sh.assoc:
        return _err(sh, io_, prog, f"{name}: not an indexed array")
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
    stream = fd_stream(sh, io_, fd)
    if not hasattr(stream, "read"):
        return 0  # bash ignores the read error
    limit = sh.limits.string_length
    taken = 0
    while count == 0 or taken < count:
        sh.budget.check_time()
        try:
            record = read_until(stream, delim, limit)
        except OSError:
            break  # bash's mapfile stops quietly at a read error
        if len(record) > limit:
            sh.budget.check_string(len(record))
        if not record:
            break
        if skip:
            skip -= 1
            continue
        if strip and record.endswith(delim):
            record = record[:-1]
        arr[index] = record.partition(b"\x00")[0].decode("utf-8", "surrogateescape")
        index += 1
        taken += 1
        if len(arr) > state.MAX_ELEMENTS:
            raise LimitExceeded("array_elements", f"array size limit of {state.MAX_ELEMENTS} "
                                "elements exceeded; read the input in a loop instead")
    return 0
