"""``read``: one line (or record) of input split into variables, with bash 5.2's rules.

``read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout]
[-u fd] [name ...]``. The text is gathered as bash's ``read_builtin`` gathers it: a backslash
(without ``-r``) quotes the next character, marked internally with bash's ``CTLESC`` byte so
the splitting treats it as a plain character, and a backslash-newline pair disappears; NUL
bytes are dropped; ``-n`` counts characters (a quoting backslash doesn't count), ``-N`` reads
exactly that many characters ignoring the delimiter and doesn't split. The split follows
bash's ``get_word_from_string`` / ``list_string`` (the last name gets the rest of the line
with its inner separators; trailing IFS white space is stripped), including its quirks. The
input is consumed exactly up to the delimiter, as bash does with ``lseek``/unbuffered reads.

``-p``, ``-s``, ``-e`` and ``-i`` only act on a terminal, which the sandbox never has: they
are accepted and ignored, as bash ignores them when input is not a terminal. ``-t 0`` reports
input as available (in-memory streams always are); another timeout never expires.
"""

from __future__ import annotations

import errno

import functools
import re
from typing import TYPE_CHECKING, Any

from sandbox.commands.printf import invalid_number
from sandbox.interpreter import state

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

CTLESC = "\x01"
CTLNUL = "\x7f"
_SPCTABNL = " \t\n"
_ISSPACE = " \t\n\v\f\r"
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ARRAY_REF_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[.+\]\Z", re.S)
_TIMEOUT_RE = re.compile(r"(\d*)(?:\.(\d*))?\Z")
#: bash's legal_number: strtoimax's leading white space, then only blanks may follow.
_NUMBER_RE = re.compile(r"[ \t\n\v\f\r]*[-+]?[0-9]+[ \t]*\Z")
USAGE = ("read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] "
         "[-p prompt] [-t timeout] [-u fd] [name ...]\n")


class BuiltinUsage(Exception):
    """A bad option for a builtin: ``str(exc)`` is bash's message without the name."""


@functools.lru_cache(maxsize=None)
def _option_table(spec: str) -> dict[str, bool]:
    return {c: spec[i + 1:i + 2] == ":" for i, c in enumerate(spec) if c != ":"}


def getopt(args: list[str], spec: str) -> tuple[list[tuple[str, str]], list[str]]:
    """bash's ``internal_getopt``: ``-abc`` clusters, ``-dX`` / ``-d X``, ``--`` ends."""
    takes = _option_table(spec)
    opts: list[tuple[str, str]] = []
    if not args or not args[0].startswith("-"):
        return opts, args
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return opts, args[i + 1:]
        if len(arg) < 2 or arg[0] != "-":
            break
        i += 1
        k = 1
        while k < len(arg):
            c = arg[k]
            if c not in takes:
                raise BuiltinUsage(f"-{c}: invalid option")
            if takes[c]:
                if k + 1 < len(arg):
                    opts.append((c, arg[k + 1:]))
                elif i < len(args):
                    opts.append((c, args[i]))
                    i += 1
                else:
                    raise BuiltinUsage(f"-{c}: option requires an argument")
                break
            opts.append((c, ""))
            k += 1
    return opts, args[i:]


def legal_number(text: str) -> int | None:
    """bash's ``legal_number``: a decimal integer with optional sign and blanks, else None."""
    if not _NUMBER_RE.match(text):
        return None
    value = int(text.strip())
    return value if -(1 << 63) <= value < (1 << 63) else None


def fd_stream(sh: "Shell", io_: "IO", fd: int) -> Any:
    """The stream open on descriptor ``fd`` for this command, or None when it isn't open
    (``<&-`` closed it)."""
    from sandbox.interpreter import redirs
    if fd in (0, 1, 2):
        stream = (io_.stdin, io_.stdout, io_.stderr)[fd]
    else:
        stream = (getattr(sh, "fdmap", None) or {}).get(fd)
    return None if stream is None or redirs.is_closed(stream) else stream


def read_until(stream: Any, delim: bytes, limit: int) -> bytes:
    """Bytes up to and including ``delim`` (or to the end), consuming nothing past it.

    Reads at most ``limit + 1`` bytes, so a caller can tell an over-long record."""
    if delim == b"\n" and hasattr(stream, "readline"):
        return stream.readline(limit + 1)
    peek = getattr(stream, "peek", None)
    out = bytearray()
    if peek is not None:
        while len(out) <= limit:
            chunk = peek(1)
            if not chunk:
                break
            j = chunk.find(delim)
            if j >= 0:
                out += stream.read(j + 1)
                break
            out += stream.read(len(chunk))
        return bytes(out)
    while len(out) <= limit:
        c = stream.read(1)
        if not c:
            break
        out += c
        if c == delim:
            break
    return bytes(out)


class _Gather:
    """The characters of one ``read``, as bash's read loop collects them."""

    def __init__(self, raw: bool, skip_ctlesc: bool, skip_ctlnul: bool):
        self.raw = raw
        self.skip_ctlesc = skip_ctlesc
        self.skip_ctlnul = skip_ctlnul
        self.out: list[str] = []
        self.pass_next = False
        self.saw_escape = False
        self.count = 0

    def feed(self, c: str, delim: str | None) -> bool:
        """Take one character; True when it ends the read (the delimiter)."""
        if self.pass_next:
            self.pass_next = False
            if c == "\n":
                if not self.skip_ctlesc and self.out:
                    self.out.pop()  # back up over the CTLESC
                return False
            self.out.append(c)
            self.count += 1
            return False
        if c == "\\" and not self.raw:
            self.pass_next = True
            if not self.skip_ctlesc:
                self.saw_escape = True
                self.out.append(CTLESC)
            return False
        if delim is not None and c == delim:
            return True
        if c == "\x00" and delim != "\x00":
            return False
        if (not self.skip_ctlesc and c == CTLESC) or (not self.skip_ctlnul and c == CTLNUL):
            self.saw_escape = True
            self.out.append(CTLESC)
        self.out.append(c)
        self.count += 1
        return False

    def take_plain(self, chunk: bytes, delim: bytes) -> bool:
        """``feed`` for a whole chunk without backslashes to interpret (the fast path of
        ``read -r``); True when it ended with the delimiter."""
        ended = bool(delim) and chunk.endswith(delim)
        text = (chunk[:-1] if ended else chunk).decode("utf-8", "surrogateescape")
        if "\x00" in text and delim != b"\x00":
            text = text.replace("\x00", "")
        for ctl, skip in ((CTLESC, self.skip_ctlesc), (CTLNUL, self.skip_ctlnul)):
            if not skip and ctl in text:
                text = text.replace(ctl, CTLESC + ctl) if ctl == CTLNUL else \
                    text.replace(CTLESC, CTLESC + CTLESC)
                self.saw_escape = True
        self.out.append(text)
        self.count += len(text)
        return ended

    def text(self) -> str:
        """The gathered string, cut at a NUL as bash's C string is."""
        s = "".join(self.out)
        return s.partition("\x00")[0]


def _decode(data: bytes) -> list[str]:
    return list(data.decode("utf-8", "surrogateescape"))


def _read_char(stream: Any, delim: bytes = b"") -> bytes:
    """One character: a byte, or a whole UTF-8 sequence as bash's ``read_mbchar`` takes it
    (a lead byte that is the delimiter stays alone: bash compares it first)."""
    b = stream.read(1)
    if not b or b[0] < 0xC0 or b == delim:
        return b
    need = 1 if b[0] < 0xE0 else 2 if b[0] < 0xF0 else 3 if b[0] < 0xF8 else 0
    out = bytearray(b)
    for _ in range(need):
        nxt = stream.read(1)
        if not nxt:
            break
        out += nxt
        if nxt[0] & 0xC0 != 0x80:
            break
    return bytes(out)


def gather(sh: "Shell", stream: Any, g: _Gather, delim: str | None, nchars: int) -> bool:
    """Read into ``g`` until the delimiter, ``nchars`` characters or the end; True at EOF."""
    limit = sh.limits.string_length
    if nchars > 0:
        dbyte = delim.encode("utf-8", "surrogateescape") if delim else b""
        while g.count < nchars:
            b = _read_char(stream, b"" if g.pass_next else dbyte)
            if not b:
                return True
            for c in _decode(b):
                if g.feed(c, delim):
                    return False
            if len(g.out) > limit:
                sh.budget.check_string(len(g.out))
        return False
    dbytes = delim.encode("utf-8", "surrogateescape")[:1] if delim is not None else b""
    while True:
        sh.budget.check_time()
        chunk = read_until(stream, dbytes or b"\n", limit)
        if not chunk:
            return True
        if (g.raw or b"\\" not in chunk) and not g.pass_next:
            if g.take_plain(chunk, dbytes):
                return False
        else:
            for c in _decode(chunk):
                if g.feed(c, delim):
                    return False
        if len(g.out) > limit:
            sh.budget.check_string(len(g.out))
        if not chunk.endswith(dbytes or b"\n"):
            return True


# -- splitting (bash's subst.c) ---------------------------------------------------------------

def extract_verbatim(s: str, i: int, seps: str, noctlesc: bool) -> int:
    """``string_extract_verbatim``: the index where the word starting at ``i`` ends."""
    n = len(s)
    while i < n:
        c = s[i]
        if not noctlesc and c == CTLESC:
            i += 2
            if i >= n:
                return n
            continue
        if c in seps:
            break
        i += 1
    return i


def get_word(s: str, i: int, ifs: str, noctlesc: bool) -> tuple[str | None, int, int]:
    """``get_word_from_string``: (word or None, end of the word, start of the next)."""
    sh_style = ifs == " \t\n"
    white = _SPCTABNL if sh_style else _ISSPACE
    n = len(s)
    while i < n and s[i] in white and s[i] in ifs:
        i += 1
    if i >= n:
        return None, i, i
    j = extract_verbatim(s, i, ifs, noctlesc) if ifs else n
    word, end = s[i:j], j
    whitesep = j < n and s[j] in white
    if j < n:
        j += 1
    while j < n and s[j] in _SPCTABNL and s[j] in ifs:
        j += 1
    if j < n and whitesep and s[j] in ifs and s[j] not in white:
        j += 1
        while j < n and s[j] in white and s[j] in ifs:
            j += 1
    return word, end, j


def strip_trailing(s: str, ifs: str, saw_escape: bool) -> str:
    """``strip_trailing_ifs_whitespace``."""
    k = len(s) - 1
    while k > 0 and ((s[k] in _SPCTABNL and s[k] in ifs)
                     or (saw_escape and s[k] == CTLESC and s[k + 1:k + 2] in tuple(_SPCTABNL))):
        k -= 1
    return s[:k + 1]


def dequote(s: str) -> str:
    """``dequote_string``: drop each CTLESC, keeping the character it quotes."""
    if s == CTLNUL:
        return ""
    if s == CTLESC or CTLESC not in s:
        return s
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        if s[i] == CTLESC:
            i += 1
            if i >= n:
                break
        out.append(s[i])
        i += 1
    return "".join(out)


def list_string(s: str, ifs: str, noctlesc: bool) -> list[str]:
    """``list_string``: word splitting of the line for ``read -a``."""
    if not s:
        return []
    sh_style = ifs == " \t\n"
    white = _SPCTABNL if sh_style else _ISSPACE
    i, n = 0, len(s)
    if ifs:
        while i < n and s[i] in ifs and s[i] in _ISSPACE:
            i += 1
        if i >= n:
            return []
    words: list[str] = []
    while i < n:
        j = extract_verbatim(s, i, ifs, noctlesc) if ifs else n
        word = s[i:j]
        if word:
            words.append(word)
        elif not sh_style and not (j < n and s[j] in _ISSPACE):
            words.append("")
        whitesep = j < n and s[j] in white
        if j < n:
            j += 1
        while j < n and s[j] in white and s[j] in ifs:
            j += 1
        if j < n and whitesep and s[j] in ifs and s[j] not in white:
            j += 1
            while j < n and s[j] in white and s[j] in ifs:
                j += 1
        i = j
    return words


# -- the builtin ------------------------------------------------------------------------------

def _err(sh: "Shell", io_: "IO", message: str) -> None:
    sh.diag(io_, f"read: {message}")


def _valid_name(name: str) -> bool:
    return bool(_NAME_RE.match(name) or _ARRAY_REF_RE.match(name))


def b_read(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``read [-ers] [-a array] [-d delim] [-n|-N nchars] [-t timeout] [-u fd] [name...]``."""
    try:
        opts, names = getopt(argv[1:], "ersa:d:i:n:p:t:u:N:")
    except BuiltinUsage as exc:
        _err(sh, io_, str(exc))
        io_.stderr.write(USAGE.encode())
        return 2
    raw = False
    delim: str | None = "\n"
    nchars = 0
    nflag = exact = False
    array: str | None = None
    fd = 0
    timeout: tuple[int, int] | None = None
    for key, value in opts:
        if key == "r":
            raw = True
        elif key == "a":
            array = value
        elif key == "d":
            # bash compares bytes with the first byte of the argument (`-d é`: 0xC3)
            delim = value.encode("utf-8", "surrogateescape")[:1].decode(
                "utf-8", "surrogateescape") if value else "\x00"
        elif key == "t":
            m = _TIMEOUT_RE.match(value)
            if not value or not m or (not m.group(1) and not m.group(2)):
                _err(sh, io_, f"{value}: invalid timeout specification")
                return 1
            timeout = (int(m.group(1) or 0), int(m.group(2) or 0))
        elif key in ("n", "N"):
            exact = exact or key == "N"
            nflag = True
            number = legal_number(value)
            if number is None or number < 0 or number >= 1 << 31:
                sh.diag(io_, f"read: {value}: {invalid_number(value)}")
                return 1
            nchars = number
        elif key == "u":
            number = legal_number(value)
            if number is None or number < 0 or number >= 1 << 31:
                _err(sh, io_, f"{value}: invalid file descriptor specification")
                return 1
            fd = number
            if fd_stream(sh, io_, fd) is None:
                _err(sh, io_, f"{fd}: invalid file descriptor: Bad file descriptor")
                return 1
    if timeout == (0, 0):
        return 0  # `read -t 0`: input is available (in-memory streams always are)
    if names and not _valid_name(names[0]):
        _err(sh, io_, f"`{names[0]}': not a valid identifier")
        return 1
    ifs_var = sh.get_var("IFS")
    ifs = " \t\n" if ifs_var is None else ifs_var
    split_ifs = "" if exact else ifs
    if exact:
        delim = None
    g = _Gather(raw, CTLESC in split_ifs, CTLNUL in split_ifs)
    stream = fd_stream(sh, io_, fd)
    if nflag and nchars == 0:
        eof = stream is None  # `read -n 0 <&-`: status 1, no message (bash)
    elif not hasattr(stream, "read"):
        _err(sh, io_, f"read error: {fd}: Bad file descriptor")
        return 1
    else:
        try:
            eof = gather(sh, stream, g, delim, nchars)
        except OSError as exc:  # `read x < dir`: bash's message; other errors as they are
            if exc.errno != errno.EISDIR:
                raise
            _err(sh, io_, f"read error: {fd}: Is a directory")
            return 1
    status = 1 if eof else 0
    try:
        return _assign(sh, io_, g, names, array, split_ifs, ifs, status)
    except state.SubscriptError as exc:
        _err(sh, io_, str(exc))
        return 1


def _assign(sh: "Shell", io_: "IO", g: _Gather, names: list[str], array: str | None,
            split_ifs: str, ifs: str, status: int) -> int:
    from sandbox.interpreter.expand import ExpansionError
    text = g.text()
    noctlesc = g.skip_ctlesc
    try:
        if array is not None:
            if not _NAME_RE.match(array):
                _err(sh, io_, f"`{array}': not a valid identifier")
                return 1
            if array in sh.assoc:
                _err(sh, io_, f"{array}: not an indexed array")
                return 1
            if "r" in (sh.attrs.get(array) or ""):
                sh.diag(io_, f"{array}: readonly variable")
                return 1
            words = list_string(text, split_ifs, noctlesc)
            words = [dequote(w) for w in words] if g.saw_escape else \
                ["" if w == CTLNUL else w for w in words]
            state.assign(sh, array, [(None, w) for w in words], False)
            return status
        if not names:
            sh.set_var("REPLY", dequote(text) if g.saw_escape else text)
            return status
        i = 0
        while i < len(text) and text[i] in _SPCTABNL and text[i] in split_ifs:
            i += 1
        rest = text[i:]
        for name in names[:-1]:
            if not _valid_name(name):
                _err(sh, io_, f"`{name}': not a valid identifier")
                return 1
            word: str | None = None
            if rest:
                word, _end, nxt = get_word(rest, 0, split_ifs, noctlesc)
                rest = rest[nxt:]
            value = word or ""
            sh.set_var(name, dequote(value) if g.saw_escape and word is not None else value)
        last = names[-1]
        if not _valid_name(last):
            _err(sh, io_, f"`{last}': not a valid identifier")
            return 1
        value = ""
        if rest:
            word, _end, nxt = get_word(rest, 0, split_ifs, noctlesc)
            if nxt >= len(rest):
                value = word or ""
            else:
                value = strip_trailing(rest, ifs, g.saw_escape)
        sh.set_var(last, dequote(value) if g.saw_escape and value else value)
    except ExpansionError as exc:
        sh.diag(io_, str(exc))
        return 1
    return status
