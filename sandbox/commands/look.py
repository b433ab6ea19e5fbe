"""``look``: print the lines of a sorted file that begin with a string (util-linux 2.38.1).

``look [-adf] [-t char] string [file]``: a binary search then a linear one over the file's
bytes, exactly as util-linux (so an unsorted file gives util-linux's answer, whatever it is).
With no file the dictionary is ``$WORDLIST`` when that names a readable file in the jail, else
``/usr/share/dict/words`` (``-a``: ``/usr/share/dict/web2``), and ``-d -f`` are implied. ``-d``
compares only letters, digits, blanks; ``-f`` folds ASCII case; ``-t c`` cuts the string after
its first ``c``. Comparison is C's ``strncmp``/``strncasecmp`` in C.UTF-8 (bytes; a NUL ends a
line's compared part). Exit 0 when something matched, 1 when nothing did or on an error
(``look: FILE: No such file or directory``; a directory is ``No such device`` and an empty file
``Invalid argument``, what mmap says).
"""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="adft:Vh",
    long={
        "alternative": (NO_ARG, "a"),
        "alphanum": (NO_ARG, "d"),
        "ignore-case": (NO_ARG, "f"),
        "terminate": (REQUIRED, "t"),
        "version": (NO_ARG, "V"),
        "help": (NO_ARG, "h"),
    },
)

HELP = """
Usage:
 look [options] <string> [<file>...]

Display lines beginning with a specified string.

Options:
 -a, --alternative        use the alternative dictionary
 -d, --alphanum           compare only blanks and alphanumeric characters
 -f, --ignore-case        ignore case differences when comparing
 -t, --terminate <char>   define the string-termination character

 -h, --help               display this help
 -V, --version            display version

For more details see look(1).
"""

WORDS = "/usr/share/dict/words"
WORDS_ALT = "/usr/share/dict/web2"

EQUAL, GREATER, LESS = 0, 1, -1


def _alnum_or_blank(b: int) -> bool:
    """C.UTF-8's ``isalnum(c) || isblank(c)`` for one byte (a signed char: no byte >= 0x80)."""
    return b < 0x80 and (chr(b).isalnum() or b in (0x20, 0x09))


def _lower(b: int) -> int:
    return b + 32 if 0x41 <= b <= 0x5A else b


class Looker:
    """util-linux's search over one mapped file."""

    def __init__(self, data: bytes, string: bytes, dflag: bool, fflag: bool):
        self.data = data
        self.dflag = dflag
        self.fflag = fflag
        if dflag:
            string = bytes(b for b in string if _alnum_or_blank(b))
        self.string = string
        self.stringlen = len(string)

    def compare(self, s2: int, end: int) -> int:
        """``compare(s2, s2end)``: LESS, GREATER or EQUAL of the line at ``s2``."""
        data = self.data
        buf = bytearray()
        i = self.stringlen
        while s2 < end and data[s2] != 0x0A and i:
            b = data[s2]
            if not self.dflag or _alnum_or_blank(b):
                buf.append(b)
                i -= 1
            s2 += 1
        nul = buf.find(0)
        if nul >= 0:
            del buf[nul:]
        result = 0
        for k in range(self.stringlen):
            c1 = buf[k] if k < len(buf) else 0
            c2 = self.string[k]
            if self.fflag:
                c1, c2 = _lower(c1), _lower(c2)
            if c1 != c2:
                result = c1 - c2
                break
            if c1 == 0:
                break
        return LESS if result > 0 else GREATER if result < 0 else EQUAL

    def _skip(self, p: int, back: int) -> int:
        data = self.data
        while p < back:
            p += 1
            if data[p - 1] == 0x0A:
                break
        return p

    def search(self) -> bytes | None:
        """The matching lines (as util-linux prints them), or None when none matches."""
        front, back = 0, len(self.data)
        p = self._skip(front + (back - front) // 2, back)
        while p < back and back > front:
            if self.compare(p, back) == GREATER:
                front = p
            else:
                back = p
            p = self._skip(front + (back - front) // 2, back)
        back = len(self.data)
        found = None
        while front < back:
            result = self.compare(front, back)
            if result == EQUAL:
                found = front
                break
            if result == LESS:
                break
            front = self._skip(front, back)
        if found is None:
            return None
        start = front = found
        while front < back and self.compare(front, back) == EQUAL:
            front = self._skip(front, back)
        return self.data[start:front]


def run(ctx: CommandContext) -> int:
    """Run ``look``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        return ctx.usage_error(str(err))
    wordlist = ctx.env.get("WORDLIST")
    file = WORDS
    if wordlist:
        try:
            if ctx.stat(wordlist).is_file:
                file = wordlist
        except FSError:
            pass
    dflag = fflag = False
    termchar = b""
    for key, value in opts:
        if key == "a":
            file = WORDS_ALT
        elif key == "d":
            dflag = True
        elif key == "f":
            fflag = True
        elif key == "t":
            termchar = (value or "").encode("utf-8", "surrogateescape")[:1]
        elif key == "V":
            ctx.stdout.write(b"look from util-linux 2.38.1\n")
            return 0
        elif key == "h":
            ctx.stdout.write(HELP.encode())
            return 0
    if len(operands) == 2:
        string, file = operands
    elif len(operands) == 1:
        dflag = fflag = True
        string = operands[0]
    else:
        return ctx.usage_error("bad usage")
    raw = string.encode("utf-8", "surrogateescape")
    if termchar and termchar != b"\0" and termchar in raw:
        raw = raw[: raw.index(termchar) + 1]
    try:
        if ctx.stat(file).is_dir:
            raise FSError(errno.ENODEV, file, "No such device")
        data = ctx.read_bytes(file)
    except FSError as err:
        ctx.stderr.write(f"look: {file}: {err.strerror}\n".encode("utf-8", "surrogateescape"))
        return 1
    if not data:
        ctx.stderr.write(f"look: {file}: Invalid argument\n".encode("utf-8", "surrogateescape"))
        return 1
    found = Looker(data, raw, dflag, fflag).search()
    if found is None:
        return 1
    ctx.stdout.write(found)
    return 0
