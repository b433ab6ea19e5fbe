"""Parsing a sed script into a flat list of commands, as GNU sed 4.9's compile.c does.

The script is bytes (each ``-e`` chunk and each ``-f`` file is a *source*); errors raise
``ScriptError`` whose ``str()`` is GNU's full message, location included
(``-e expression #1, char 3: unterminated `s' command``). Commands that execute shell
commands (``e``, the ``e`` flag of ``s``) are refused here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands._locale import SingleByteRegex, expand_byte_ranges, widen
from sandbox.commands.sed.escapes import EscapeError, Kind, normalize
from sandbox.commands.sed.replacement import Replacement, parse_replacement

EOF = -1
_NL = 0x0A
_BLANKS = (0x20, 0x09)
_SPACES = (0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D)


class ScriptError(Exception):
    """A script GNU sed refuses at compile time; ``status`` is 1 (4 for a missing label)."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


# -- the compiled program ------------------------------------------------------------------


@dataclass
class SedRegex:
    """A regex of an address or an ``s`` command; ``pattern`` None means "the last regex"."""

    pattern: bytes | None
    icase: bool = False
    multiline: bool = False
    compiled: object = None  # sandbox.regex.Regex
    #: glibc searches this pattern byte by byte (see ``byte_mode``): a match may then start
    #: inside a multibyte character; otherwise only at character boundaries.
    byte_mode: bool = True
    extended: bool = False  # compiled as an ERE


@dataclass
class Address:
    """One address. ``kind``: num, last, regex, step (first~step), plus (+N), mult (~N)."""

    kind: str
    n1: int = 0
    n2: int = 0
    regex: SedRegex | None = None


@dataclass
class Subst:
    """The ``s`` command's arguments."""

    regex: SedRegex
    replacement: Replacement
    global_: bool = False
    print_: bool = False
    occurrence: int = 1
    wfile: str | None = None


@dataclass
class Command:
    """One compiled command; which fields matter depends on ``name``."""

    name: str
    a1: Address | None = None
    a2: Address | None = None
    bang: bool = False
    text: bytes = b""  # a i c
    label: str = ""  # b t T :
    jump: int = -1  # b t T: target index; {: index after the matching }
    int_arg: int = -1  # q Q l L
    fname: str = ""  # r R w W
    subst: Subst | None = None
    ytable: bytes | None = None  # y: a 256-byte translation table (single-byte mappings)
    ymap: list[tuple[bytes, bytes]] | None = None  # y with multibyte characters, in order
    # Range state, reset per file with -s / -i.
    range_active: bool = False
    range_end: int = 0
    range_done: bool = False  # a range starting at a line number has run


@dataclass
class Program:
    """The compiled script."""

    commands: list[Command] = field(default_factory=list)
    quiet: bool = False  # "#n" on the first line
    wfiles: list[str] = field(default_factory=list)  # files opened for writing (w, s///w)


@dataclass
class Source:
    """One piece of script: an ``-e`` string (``index`` counts them) or a ``-f`` file."""

    data: bytes
    index: int = 0
    filename: str | None = None


# -- the parser ----------------------------------------------------------------------------


class _Reader:
    """GNU's inchar/savchar over one source, tracking the position for messages."""

    def __init__(self, source: Source):
        self.source = source
        self.data = source.data
        self.pos = 0
        self.line = 1 if source.filename is not None else 0

    def inchar(self) -> int:
        if self.pos < len(self.data):
            ch = self.data[self.pos]
            self.pos += 1
            if ch == _NL:
                self.line += 1
            return ch
        return EOF

    def savchar(self, ch: int) -> None:
        if ch == EOF:
            return
        if ch == _NL and self.line > 0:
            self.line -= 1
        self.pos -= 1

    def in_nonblank(self) -> int:
        ch = self.inchar()
        while ch in _BLANKS:
            ch = self.inchar()
        return ch

    def error(self, message: str) -> ScriptError:
        if self.source.filename is not None:
            return ScriptError(f"file {self.source.filename} line {self.line}: {message}")
        return ScriptError(f"-e expression #{self.source.index}, char {self.pos}: {message}")


def _is_digit(ch: int) -> bool:
    return 0x30 <= ch <= 0x39


class Compiler:
    """Compiles sources one after another (state such as open blocks carries over)."""

    def __init__(self, *, extended: bool, posix: bool, null_data: bool = False, budget=None,
                 sandbox: bool = False, single_byte: bool = False):
        self.sandbox = sandbox  # --sandbox: e/r/w commands refused (GNU's wording)
        self.single_byte = single_byte  # the C locale: every byte is a character
        self.extended = extended
        self.posix = posix
        self.null_data = null_data  # -z: M no longer anchors at newlines (GNU)
        self.budget = budget
        self.program = Program()
        self._blocks: list[int] = []  # indexes of open '{'
        self._labels: dict[str, int] = {}
        self._pending_text: bytearray | None = None  # a\ text continued in the next -e
        self._pending_cmd: Command | None = None
        self._first_source = True
        self._last_reader: _Reader | None = None

    # -- entry points --------------------------------------------------------------------

    def compile(self, source: Source) -> None:
        """Compile one more source."""
        rd = _Reader(source)
        self._last_reader = rd
        if self._pending_text is not None:
            self._read_text(rd, None, _NL)
        first = self._first_source
        self._first_source = False
        self._compile_program(rd, first)

    def finish(self) -> Program:
        """Check what must be complete (blocks, labels) and return the program."""
        rd = self._last_reader
        if self._blocks:
            raise self._final_error("unmatched `{'")
        self._pending_text = None  # "a\\" at the very end: the text read so far stays
        cmds = self.program.commands
        for cmd in cmds:
            if cmd.name in "btT":
                if cmd.label:
                    target = self._labels.get(cmd.label)
                    if target is None:
                        raise ScriptError(f"can't find label for jump to `{cmd.label}'", 4)
                    cmd.jump = target
                else:
                    cmd.jump = len(cmds)
        del rd
        return self.program

    def _final_error(self, message: str) -> ScriptError:
        rd = self._last_reader
        if rd is None:
            return ScriptError(f"-e expression #1, char 0: {message}")
        if rd.source.filename is not None:
            return ScriptError(f"file {rd.source.filename} line {rd.line}: {message}")
        return ScriptError(f"-e expression #{rd.source.index}, char 0: {message}")

    # -- the main loop (compile_program) -------------------------------------------------

    def _compile_program(self, rd: _Reader, first_source: bool) -> None:
        cmds = self.program.commands
        while True:
            ch = rd.inchar()
            while ch == 0x3B or ch in _SPACES:  # ';' or whitespace
                ch = rd.inchar()
            if ch == EOF:
                return
            cmd = Command(name="")
            a = self._compile_address(rd, ch)
            if a is not None:
                if a.kind in ("plus", "mult"):
                    raise rd.error("invalid usage of +N or ~N as first address")
                cmd.a1 = a
                ch = rd.in_nonblank()
                if ch == 0x2C:  # ','
                    a2 = self._compile_address(rd, rd.in_nonblank())
                    if a2 is None:
                        raise rd.error("unexpected `,'")
                    cmd.a2 = a2
                    ch = rd.in_nonblank()
                if cmd.a1.kind == "num" and cmd.a1.n1 == 0 and (
                    cmd.a2 is None or cmd.a2.kind != "regex" or self.posix
                ):
                    raise rd.error("invalid usage of line address 0")
            if ch == 0x21:  # '!'
                cmd.bang = True
                ch = rd.in_nonblank()
                while ch in _SPACES:
                    ch = rd.in_nonblank()
                if ch == 0x21:
                    raise rd.error("multiple `!'s")
            if ch == EOF or ch == _NL:
                raise rd.error("missing command")
            name = chr(ch)
            cmd.name = name
            self._compile_command(rd, cmd, ch, first_source)

    def _compile_command(self, rd: _Reader, cmd: Command, ch: int, first_source: bool) -> None:
        cmds = self.program.commands
        name = cmd.name
        if name == "#":
            if cmd.a1 is not None:
                raise rd.error("comments don't accept any addresses")
            ch = rd.inchar()
            if ch == ord("n") and first_source and rd.pos == 2:
                self.program.quiet = True
            while ch != EOF and ch != _NL:
                ch = rd.inchar()
            return
        if name == "v":
            label = self._read_label(rd)
            if label and _version_newer(label):
                raise rd.error("expected newer version of sed")
            return
        if name == "{":
            self._blocks.append(len(cmds))
            cmds.append(cmd)
            return
        if name == "}":
            if not self._blocks:
                raise rd.error("unexpected `}'")
            if cmd.a1 is not None:
                raise rd.error("`}' doesn't want any addresses")
            self._read_end_of_cmd(rd)
            opener = self._blocks.pop()
            cmds[opener].jump = len(cmds) + 1
            cmds.append(cmd)
            return
        if name == "e":
            raise rd.error(
                "the `e' command executes shell commands, which this sandbox does not allow"
            )
        if name in "aic":
            ch = rd.in_nonblank()
            if ch == EOF:
                raise rd.error("expected \\ after `a', `c' or `i'")
            if ch == 0x5C:
                ch = rd.inchar()
            else:
                if self.posix:
                    raise rd.error("expected \\ after `a', `c' or `i'")
                rd.savchar(ch)
                ch = _NL
            cmds.append(cmd)
            self._read_text(rd, cmd, ch)
            return
        if name == ":":
            if cmd.a1 is not None:
                raise rd.error(": doesn't want any addresses")
            label = self._read_label(rd)
            if not label:
                raise rd.error('":" lacks a label')
            self._labels[label] = len(cmds)
            cmds.append(cmd)
            return
        if name in "btT":
            cmd.label = self._read_label(rd)
            cmds.append(cmd)
            return
        if name in "qQ":
            if cmd.a2 is not None:
                raise rd.error("command only uses one address")
            cmd.int_arg = self._read_int_arg(rd, 0)
            self._read_end_of_cmd(rd)
            cmds.append(cmd)
            return
        if name in "lL":  # L: removed in GNU 4.3 but still parsed (it fails when it runs)
            cmd.int_arg = self._read_int_arg(rd, -1)
            self._read_end_of_cmd(rd)
            cmds.append(cmd)
            return
        if name in "=dDFgGhHnNpPzx":
            self._read_end_of_cmd(rd)
            cmds.append(cmd)
            return
        if name in "rRwW":
            if self.sandbox:
                raise rd.error("e/r/w commands disabled in sandbox mode")
            cmd.fname = self._read_filename(rd)
            if not cmd.fname:
                raise rd.error("missing filename in r/R/w/W commands")
            if name in "wW":
                self._add_wfile(cmd.fname)
            cmds.append(cmd)
            return
        if name == "s":
            cmd.subst = self._compile_subst(rd)
            cmds.append(cmd)
            return
        if name == "y":
            self._compile_y(rd, cmd)
            cmds.append(cmd)
            return
        raise rd.error(f"unknown command: `{_char_for_message(ch)}'")

    # -- pieces -----------------------------------------------------------------------------

    def _read_end_of_cmd(self, rd: _Reader) -> None:
        ch = rd.in_nonblank()
        if ch == 0x7D or ch == 0x23:  # } or #
            rd.savchar(ch)
        elif ch != EOF and ch != _NL and ch != 0x3B:
            raise rd.error("extra characters after command")

    def _read_int_arg(self, rd: _Reader, default: int) -> int:
        ch = rd.in_nonblank()
        if _is_digit(ch):
            return self._in_integer(rd, ch)
        rd.savchar(ch)
        return default

    def _in_integer(self, rd: _Reader, ch: int) -> int:
        num = 0
        while _is_digit(ch):
            num = num * 10 + ch - 0x30
            ch = rd.inchar()
        rd.savchar(ch)
        return num

    def _read_label(self, rd: _Reader) -> str:
        ch = rd.in_nonblank()
        buf = bytearray()
        while ch != EOF and ch != _NL and ch not in _SPACES and ch != 0x3B and ch != 0x7D:
            buf.append(ch)
            ch = rd.inchar()
        rd.savchar(ch)
        return buf.decode("utf-8", "surrogateescape")

    def _read_filename(self, rd: _Reader) -> str:
        ch = rd.in_nonblank()
        buf = bytearray()
        while ch != EOF and ch != _NL:
            buf.append(ch)
            ch = rd.inchar()
        return buf.decode("utf-8", "surrogateescape")

    def _add_wfile(self, fname: str) -> None:
        if fname not in self.program.wfiles:
            self.program.wfiles.append(fname)

    def _read_text(self, rd: _Reader, cmd: Command | None, leadin: int) -> None:
        """a/i/c text (GNU's read_text): to the end of the line, backslash continues it."""
        if cmd is not None:
            self._pending_text = bytearray()
            self._pending_cmd = cmd
        buf = self._pending_text
        assert buf is not None
        if leadin == EOF:
            return  # continued by the next -e
        if leadin != _NL:
            buf.append(leadin)
        ch = rd.inchar()
        continued = False
        while ch != EOF and ch != _NL:
            if ch == 0x5C:
                ch = rd.inchar()
                if ch != EOF:
                    buf.append(0x5C)
            if ch == EOF:
                continued = True  # a backslash at the end: the next -e goes on with the text
                break
            buf.append(ch)
            ch = rd.inchar()
        target = self._pending_cmd
        assert target is not None
        try:
            target.text = normalize(bytes(buf) + b"\n", Kind.TEXT)
        except EscapeError as err:
            raise rd.error(str(err)) from None
        if continued:
            buf.append(_NL)
            return
        self._pending_text = None
        self._pending_cmd = None

    def _match_slash(self, rd: _Reader, slash: int, regex: bool) -> bytes | None:
        """Text up to an unescaped ``slash`` (GNU's match_slash); None if unterminated."""
        buf = bytearray()
        ch = rd.inchar()
        while ch != EOF and ch != _NL:
            if ch == slash:
                break
            if ch == 0x5B and regex:  # '[': a bracket expression is copied as it is
                ch = self._copy_bracket(rd, buf)
                if ch == EOF or ch == _NL:
                    break
                ch = rd.inchar()
                continue
            if ch == 0x5C:
                ch = rd.inchar()
                if ch == EOF:
                    break
                if ch == ord("n") and regex:
                    ch = _NL
                elif ch != _NL and (ch != slash or (not regex and ch == 0x26)):
                    buf.append(0x5C)
            buf.append(ch)
            ch = rd.inchar()
        if ch == _NL:
            rd.savchar(ch)
        if ch != slash:
            return None
        return bytes(buf)

    def _copy_bracket(self, rd: _Reader, buf: bytearray) -> int:
        """Copy a bracket expression starting at '[' (already read) into ``buf``: the
        delimiter is an ordinary character inside it. Returns ']' or EOF/newline if it is not
        closed on this line."""
        buf.append(0x5B)
        ch = rd.inchar()
        if ch == 0x5E:  # ^
            buf.append(ch)
            ch = rd.inchar()
        if ch == 0x5D:  # ] first is literal
            buf.append(ch)
            ch = rd.inchar()
        while ch != EOF and ch != _NL:
            buf.append(ch)
            if ch == 0x5D:
                return ch
            if ch == 0x5B:
                nxt = rd.inchar()
                if nxt in (0x3A, 0x2E, 0x3D):  # [: [. [=
                    buf.append(nxt)
                    prev = -1
                    c = rd.inchar()
                    while c != EOF and c != _NL:
                        buf.append(c)
                        if c == 0x5D and prev == nxt:
                            break
                        prev = c
                        c = rd.inchar()
                    if c == EOF or c == _NL:
                        if c == _NL:
                            rd.savchar(c)
                        return c
                    ch = rd.inchar()
                    continue
                ch = nxt
                continue
            ch = rd.inchar()
        if ch == _NL:
            rd.savchar(ch)
        return ch

    def _check_delim(self, rd: _Reader, slash: int) -> None:
        if slash >= 0x80:
            raise rd.error("delimiter character is not a single-byte character")

    def _compile_address(self, rd: _Reader, ch: int) -> Address | None:
        if ch == 0x2F or ch == 0x5C:  # '/' or '\'
            if ch == 0x5C:
                ch = rd.inchar()
            if ch == EOF or ch == _NL:
                raise rd.error("unterminated address regex")
            self._check_delim(rd, ch)
            text = self._match_slash(rd, ch, True)
            if text is None:
                raise rd.error("unterminated address regex")
            icase = multiline = False
            while True:
                ch = rd.in_nonblank()
                if self.posix:
                    rd.savchar(ch)
                    break
                if ch == ord("I"):
                    icase = True
                elif ch == ord("M"):
                    multiline = True
                else:
                    rd.savchar(ch)
                    break
            return Address("regex", regex=self._compile_rx(rd, text, icase, multiline, 0))
        if _is_digit(ch):
            n1 = self._in_integer(rd, ch)
            ch = rd.in_nonblank()
            if ch != ord("~") or self.posix:
                rd.savchar(ch)
                return Address("num", n1)
            ch = rd.in_nonblank()
            step = self._in_integer(rd, ch) if _is_digit(ch) else self._no_int(rd, ch)
            if step > 0:
                return Address("step", n1, step)
            return Address("num", n1)
        if ch in (0x2B, 0x7E) and not self.posix:  # '+' or '~'
            kind = "plus" if ch == 0x2B else "mult"
            ch = rd.in_nonblank()
            n = self._in_integer(rd, ch) if _is_digit(ch) else self._no_int(rd, ch)
            return Address(kind, n)
        if ch == 0x24:  # '$'
            return Address("last")
        return None

    def _no_int(self, rd: _Reader, ch: int) -> int:
        rd.savchar(ch)
        return 0

    def _compile_rx(self, rd: _Reader, text: bytes, icase: bool, multiline: bool,
                    needed_groups: int) -> SedRegex:
        if not text:
            if icase or multiline:
                raise rd.error("cannot specify modifiers on empty regexp")
            return SedRegex(None)
        try:
            pattern = normalize(text, Kind.REGEX)
        except EscapeError as err:
            raise rd.error(str(err)) from None
        from sandbox.regex import RegexError, compile_regex

        if self.posix:
            pattern = _posix_pattern(pattern, self.extended)
        try:
            compiled = compile_regex(
                widen(expand_byte_ranges(pattern)) if self.single_byte else pattern,
                extended=self.extended, icase=icase, multiline=multiline and not self.null_data,
                # M is glibc's REG_NEWLINE: '.' and [^x] skip newlines
                dot_newline=not multiline, reg_newline=multiline, glibc_syntax=True,
                budget=self.budget)
        except RegexError as err:
            raise rd.error(str(err.args[0]) if err.args else str(err)) from None
        if needed_groups > compiled.groups:
            raise rd.error(f"invalid reference \\{needed_groups} on `s' command's RHS")
        if self.single_byte:
            return SedRegex(pattern, icase, multiline, SingleByteRegex(compiled), True,
                            self.extended)
        return SedRegex(pattern, icase, multiline, compiled, byte_mode(pattern, icase),
                        self.extended)

    def _compile_subst(self, rd: _Reader) -> Subst:
        slash = rd.inchar()
        if slash == EOF or slash == _NL:
            raise rd.error("unterminated `s' command")
        self._check_delim(rd, slash)
        pattern = self._match_slash(rd, slash, True)
        if pattern is None:
            raise rd.error("unterminated `s' command")
        rhs = self._match_slash(rd, slash, False)
        if rhs is None:
            raise rd.error("unterminated `s' command")
        try:
            replacement = parse_replacement(normalize(rhs, Kind.REPLACEMENT), self.single_byte)
        except EscapeError as err:
            raise rd.error(str(err)) from None
        global_ = print_ = False
        occurrence = 0
        icase = multiline = False
        wfile: str | None = None
        while True:
            ch = rd.inchar()
            if ch in (ord("i"), ord("I")):
                if self.posix:
                    raise rd.error("unknown option to `s'")
                icase = True
            elif ch in (ord("m"), ord("M")):
                multiline = True
            elif ch == ord("e"):
                raise rd.error(
                    "the `e' flag of `s' executes shell commands, which this sandbox does "
                    "not allow"
                )
            elif ch == ord("p"):
                if print_:
                    raise rd.error("multiple `p' options to `s' command")
                print_ = True
            elif ch == ord("g"):
                if global_:
                    raise rd.error("multiple `g' options to `s' command")
                global_ = True
            elif ch == ord("w"):
                if self.sandbox:
                    raise rd.error("e/r/w commands disabled in sandbox mode")
                wfile = self._read_filename(rd)
                if not wfile:
                    raise rd.error("missing filename in r/R/w/W commands")
                self._add_wfile(wfile)
                break
            elif _is_digit(ch):
                if occurrence:
                    raise rd.error("multiple number options to `s' command")
                occurrence = self._in_integer(rd, ch)
                if not occurrence:
                    raise rd.error("number option to `s' command may not be zero")
            elif ch == 0x7D or ch == 0x23:
                rd.savchar(ch)
                break
            elif ch in (_NL, 0x3B, EOF):
                break
            elif ch in _BLANKS:
                continue
            elif ch == 0x0D:
                if rd.inchar() == _NL:
                    break
                raise rd.error("unknown option to `s'")
            else:
                raise rd.error("unknown option to `s'")
        regex = self._compile_rx(rd, pattern, icase, multiline, replacement.max_group)
        return Subst(regex, replacement, global_, print_, occurrence or 1, wfile)

    def _compile_y(self, rd: _Reader, cmd: Command) -> None:
        slash = rd.inchar()
        if slash == EOF or slash == _NL:
            raise rd.error("unterminated `y' command")
        self._check_delim(rd, slash)
        src = self._match_slash(rd, slash, False)
        if src is None:
            raise rd.error("unterminated `y' command")
        dst = self._match_slash(rd, slash, False)
        if dst is None:
            raise rd.error("unterminated `y' command")
        try:
            src_chars = _y_chars(normalize(src, Kind.PLAIN), self.single_byte)
            dst_chars = _y_chars(normalize(dst, Kind.PLAIN), self.single_byte)
        except EscapeError as err:
            raise rd.error(str(err)) from None
        if src_chars is None or dst_chars is None:
            raise rd.error("unknown option to `s'")  # pragma: no cover - see _y_chars
        if len(src_chars) != len(dst_chars):
            raise rd.error("strings for `y' command are different lengths")
        if all((c[0] < 0x80 or self.single_byte) and len(c) == 1 for c in src_chars) and all(
                len(c) == 1 for c in dst_chars):
            table = bytearray(range(256))
            seen: set[int] = set()
            for s, d in zip(src_chars, dst_chars):
                if s[0] not in seen:  # the first mapping of a character wins (GNU)
                    seen.add(s[0])
                    table[s[0]] = d[0]
            cmd.ytable = bytes(table)
        else:
            cmd.ymap = list(zip(src_chars, dst_chars))
        self._read_end_of_cmd(rd)


def _y_chars(text: bytes, single_byte: bool = False) -> list[bytes] | None:
    """Split a ``y`` string into characters (bytes when ``single_byte``): ``\\\\`` is a
    backslash, ``\\X`` is ``X``."""
    chars: list[bytes] = []
    i = 0
    n = len(text)
    while i < n:
        b = text[i]
        if b == 0x5C and i + 1 < n:
            i += 1
            b = text[i]
        clen = 1 if single_byte else _utf8_len(text, i)
        chars.append(text[i:i + clen])
        i += clen
    return chars


def _utf8_len(text: bytes, i: int) -> int:
    """Length of the valid UTF-8 character at ``i`` (1 for an invalid byte)."""
    b = text[i]
    if b < 0x80:
        return 1
    need = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
    if not need or i + need > len(text):
        return 1
    try:
        text[i:i + need].decode("utf-8")
    except UnicodeDecodeError:
        return 1
    return need


def _char_for_message(ch: int) -> str:
    return bytes([ch]).decode("utf-8", "surrogateescape")


def _version_newer(text: str) -> bool:
    """True if ``v VERSION`` asks for a newer sed than 4.9."""
    parts = []
    for piece in text.split("."):
        digits = ""
        for c in piece:
            if not c.isdigit():
                break
            digits += c
        parts.append(int(digits) if digits else 0)
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3]) > (4, 9, 0)


def byte_mode(pattern: bytes, icase: bool) -> bool:
    """Whether glibc's ``optimize_utf8`` would search ``pattern`` as single bytes.

    glibc does so unless the pattern is case-insensitive or holds a word assertion
    (``\\b \\B \\< \\>``), a class escape (``\\w \\W \\s \\S``) or a bracket
    expression that is not a plain list of ASCII characters (negation, range, class, non-ASCII).
    It only changes where an empty match may start inside a multibyte character.
    """
    if icase:
        return False
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == 0x5C and i + 1 < n:
            if pattern[i + 1] in b"bB<>wWsS":
                return False
            i += 2
            continue
        if c == 0x5B:  # [
            j = i + 1
            if j < n and pattern[j] == 0x5E:
                return False
            if j < n and pattern[j] == 0x5D:
                j += 1
            while j < n and pattern[j] != 0x5D:
                b = pattern[j]
                if b >= 0x80 or b == 0x2D or (b == 0x5B and j + 1 < n and pattern[j + 1] in b":.="):
                    return False
                j += 1
            i = j + 1
            continue
        i += 1
    return True


#: The GNU regex operators --posix turns off (glibc's RE_NO_GNU_OPS, and RE_LIMITED_OPS in a
#: BRE): each backslash pair stands for its character.
_GNU_OPS = frozenset(b"wWsSbB<>`'")
_BRE_LIMITED = frozenset(b"+?|")


def _posix_pattern(pattern: bytes, extended: bool) -> bytes:
    """``pattern`` as GNU sed --posix compiles it: ``\\w``, ``\\<``... (and ``\\+``, ``\\?``,
    ``\\|`` in a BRE) are the plain characters; brackets are left alone."""
    out = bytearray()
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == 0x5B:  # '[': copy the bracket expression as it is
            j = i + 1
            if j < n and pattern[j] == 0x5E:
                j += 1
            if j < n and pattern[j] == 0x5D:
                j += 1
            while j < n and pattern[j] != 0x5D:
                if pattern[j] == 0x5B and j + 1 < n and pattern[j + 1] in b":.=":
                    end = pattern.find(bytes([pattern[j + 1], 0x5D]), j + 2)
                    j = end + 2 if end != -1 else j + 1
                    continue
                j += 1
            out += pattern[i:j + 1]
            i = j + 1
            continue
        if c == 0x5C and i + 1 < n:
            e = pattern[i + 1]
            if e in _GNU_OPS or (not extended and e in _BRE_LIMITED):
                out.append(e)
            else:
                out += pattern[i:i + 2]
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)
