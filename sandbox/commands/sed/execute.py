"""Running a compiled sed program over its input, as GNU sed 4.9's execute.c does."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import BinaryIO

from sandbox.commands.base import CommandContext
from sandbox.commands.sed.io import Input, Output, Sink
from sandbox.commands.sed.replacement import expand
from sandbox.commands.sed.script import Address, Command, Program, SedRegex
from sandbox.fs.base import FSError

_PRINTABLE_ESCAPES = {7: b"\\a", 8: b"\\b", 12: b"\\f", 10: b"\\n", 13: b"\\r", 9: b"\\t",
                      11: b"\\v"}


class SedRuntimeError(Exception):
    """An error that ends the run: ``str()`` is the message, ``status`` the exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@dataclass
class Options:
    """What the command line asked for."""

    quiet: bool = False
    separate: bool = False
    in_place: bool = False
    suffix: str = ""
    null_data: bool = False
    unbuffered: bool = False
    posix: bool = False
    sandbox: bool = False  # --sandbox: r/R/w/W refused at compile time, as GNU
    line_length: int = 70
    expr_count: int = 1
    files: list[str] = field(default_factory=list)


class Quit(Exception):
    """Raised by q, Q and by n/N at the end of input: stop after this cycle."""

    def __init__(self, status: int, autoprint: bool, dump: bool, end_line: bool = False):
        super().__init__(status)
        self.status = status
        self.autoprint = autoprint
        self.dump = dump
        self.end_line = end_line  # q ends an unterminated last line with a newline


def _utf8_len(data: bytes, i: int) -> int:
    """Length of the character at ``i`` (1 for ASCII and for an invalid byte)."""
    b = data[i]
    if b < 0xC2:
        return 1
    need = 2 if b <= 0xDF else 3 if b <= 0xEF else 4 if b <= 0xF4 else 1
    if need == 1 or i + need > len(data):
        return 1
    try:
        data[i:i + need].decode("utf-8")
    except UnicodeDecodeError:
        return 1
    return need


class Executor:
    """State of one sed run: pattern and hold space, outputs, append queue, files."""

    def __init__(self, ctx: CommandContext, program: Program, opts: Options):
        self.ctx = ctx
        self.program = program
        self.cmds = program.commands
        self.opts = opts
        self.quiet = opts.quiet or program.quiet
        self.delim = b"\0" if opts.null_data else b"\n"
        self.delim_byte = self.delim[0]
        self.stdout_sink = Sink(ctx.stdout.write, 1 if opts.unbuffered else 1 << 16)
        self.stdout = Output(self.stdout_sink, self.delim)
        self.out = self.stdout  # where p, =, l, i, a... go (the in-place file under -i)
        self.hold = b""
        self.hold_chomped = True  # GNU's line structs carry "had a newline"; hold starts so
        self.ps = b""
        self.chomped = True
        self.line_number = 0
        self.replaced = False
        self.last_regex = None
        self.append_queue: list[tuple[str, bytes | str]] = []
        self.wfiles: dict[str, Output] = {}
        self.rfiles: dict[str, BinaryIO | None] = {}
        self.input: Input | None = None
        self.exit_status = 0
        self.line_len = opts.line_length
        #: The script compiled to closures (see ``execute``), with the command list it is for.
        self._compiled: tuple[list[Command], list] | None = None

    # -- files ------------------------------------------------------------------------------

    def open_wfiles(self) -> None:
        """Create (truncate) every ``w`` file at start-up, as GNU does."""
        for name in self.program.wfiles:
            if name == "/dev/stdout":
                self.wfiles[name] = Output(self.stdout_sink, self.delim)
                continue
            if name == "/dev/stderr":
                self.wfiles[name] = Output(Sink(self.ctx.stderr.write, 1), self.delim)
                continue
            try:
                self.ctx.write_bytes(name, b"")
            except FSError as err:
                raise SedRuntimeError(f"couldn't open file {name}: {err}", 4) from None
            self.wfiles[name] = Output(Sink(self._appender(name)), self.delim)

    def _appender(self, name: str):
        def write(data: bytes) -> None:
            try:
                self.ctx.append_bytes(name, data)
            except FSError as err:
                raise SedRuntimeError(f"couldn't write to {name}: {err}", 4) from None
        return write

    def flush_all(self) -> None:
        """Flush stdout and every ``w`` file."""
        for out in self.wfiles.values():
            out.sink.flush()
        self.stdout_sink.flush()

    def rewind_rfiles(self) -> None:
        """``R`` files start again from their first line (each file of -s / -i, as GNU)."""
        for stream in self.rfiles.values():
            if stream is not None:
                try:
                    stream.close()
                except Exception:  # noqa: BLE001
                    pass
        self.rfiles.clear()

    def close(self) -> None:
        """Close ``R`` files and the input."""
        for stream in self.rfiles.values():
            if stream is not None:
                try:
                    stream.close()
                except Exception:  # noqa: BLE001
                    pass
        if self.input is not None:
            self.input.close()

    # -- regexes ----------------------------------------------------------------------------

    def _regex(self, rx: SedRegex) -> SedRegex:
        """The regex to use: ``rx``, or the last one used when ``rx`` is empty (``//``)."""
        if rx.compiled is None:
            if self.last_regex is None:
                raise SedRuntimeError(
                    f"-e expression #{self.opts.expr_count}, char 0: no previous regular "
                    "expression", 1)
            return self.last_regex
        self.last_regex = rx
        return rx

    # -- addresses ----------------------------------------------------------------------------

    def _match_one(self, a: Address) -> bool:
        kind = a.kind
        if kind == "num":
            return a.n1 == self.line_number
        if kind == "regex":
            return self._regex(a.regex).compiled.search(self.ps) is not None  # type: ignore
        if kind == "last":
            return self._at_last()
        if kind == "step":
            if self.line_number < a.n1:
                return False
            return (self.line_number - a.n1) % a.n2 == 0
        return False

    def _at_last(self) -> bool:
        assert self.input is not None
        return self.input.at_end()

    def _matches(self, cmd: Command) -> bool:
        a1 = cmd.a1
        if a1 is None:
            return True
        a2 = cmd.a2
        if a2 is None:
            return self._match_one(a1)
        ln = self.line_number
        if cmd.range_active:
            if a2.kind == "num":
                if ln >= a2.n1:
                    cmd.range_active = False
                return ln <= a2.n1
            if a2.kind in ("plus", "mult"):
                # GNU: a +N / ~N range still matches the line that passes its end.
                if ln >= cmd.range_end:
                    cmd.range_active = False
                return True
            if self._match_one(a2):
                cmd.range_active = False
            return True
        if a1.kind == "num":
            # GNU: a range whose first address is a line number also starts on a later line
            # (when N or n skipped it), and only once.
            if cmd.range_done or ln < a1.n1 or a1.n1 == 0:
                return False
            if ln > a1.n1 and a2.kind == "num" and ln > a2.n1:
                return False  # started late and already past its end: no match (GNU)
            cmd.range_done = True
        elif not self._match_one(a1):
            return False
        if a2.kind == "last":
            if self._at_last():
                return True
        elif a2.kind == "num":
            if ln >= a2.n1:
                return True
        elif a2.kind == "step":
            if self._match_one(a2):
                return True  # GNU: a first~step end that matches the start line ends it there
        elif a2.kind == "plus":
            cmd.range_end = ln + a2.n1
            if a2.n1 == 0:
                return True
        elif a2.kind == "mult":
            if a2.n1 <= 0:
                return True
            cmd.range_end = (ln // a2.n1 + 1) * a2.n1
        cmd.range_active = True
        return True

    def reset_ranges(self) -> None:
        """Ranges start over (new run or, with -s/-i, a new file): ``0,/re/`` starts open."""
        for cmd in self.cmds:
            a1 = cmd.a1
            cmd.range_active = (a1 is not None and cmd.a2 is not None and a1.kind == "num"
                                and a1.n1 == 0)
            cmd.range_done = False

    # -- the cycle --------------------------------------------------------------------------

    def _read(self) -> bool:
        """Read the next line into the pattern space (GNU's read_pattern_space)."""
        assert self.input is not None
        got = self.input.read_line()
        if got is None:
            return False
        self.ps, self.chomped = got
        self.line_number += 1
        self.replaced = False
        return True

    def _end_cycle_output(self) -> None:
        if not self.quiet:
            self.out.line(self.ps, self.chomped)

    def dump_append(self) -> None:
        """Write what a, r and R queued during the cycle."""
        if not self.append_queue:
            return
        out = self.out
        out.fix_missing()  # even when nothing follows (an empty or missing r file), as GNU
        for kind, value in self.append_queue:
            if kind == "text":
                out.raw(value)  # type: ignore[arg-type]
            elif kind == "r":
                try:
                    data = self.ctx.read_bytes(value)  # type: ignore[arg-type]
                except FSError:
                    continue
                if data:
                    out.raw(data)
            else:  # "R": a line already read
                out.raw(value)  # type: ignore[arg-type]
        self.append_queue.clear()

    def run_unit(self, inp: Input) -> None:
        """Process one input stream (all files, or one file with -s/-i)."""
        self.input = inp
        self.line_number = 0
        cmds = self.cmds
        ncmds = len(cmds)
        budget = self.ctx.budget
        counter = 0
        if not self._read():
            return
        while True:
            counter += 1
            if counter & 0x3FF == 0:
                budget.check_time()
            status = self.execute(cmds, ncmds)
            if status == 1:  # normal end of script
                self._end_cycle_output()
            self.dump_append()
            if self.opts.unbuffered:
                self.stdout_sink.flush()
            if status == 3:  # D with a newline: restart without reading
                continue
            if not self._read():
                return

    def run_unit_quittable(self, inp: Input) -> int | None:
        """``run_unit``, turning a quit into its exit status (None if the input just ended)."""
        try:
            self.run_unit(inp)
        except Quit as q:
            if q.autoprint:
                self._end_cycle_output()
            if q.dump:
                self.dump_append()
            if q.end_line:
                self.out.fix_missing()
            return q.status
        return None

    def flush_quietly(self, blocks: bool = False) -> None:
        """Flush what can be flushed (``blocks``: only the whole blocks stdio would have
        written before an error message); ignore further errors."""
        try:
            if blocks:
                self.stdout_sink.flush_blocks()
            else:
                self.stdout_sink.flush()
        except Exception:  # noqa: BLE001
            pass

    def execute(self, cmds: list[Command], ncmds: int) -> int:
        """Run the script over the pattern space.

        Returns 1 at the normal end (autoprint follows), 2 when the cycle ends without
        autoprint (d, c, D without newline), 3 for D restarting with what is left.

        Each command runs as a closure compiled once per script (``_compile``): it returns
        None to go on, a command index to jump to, or -1/-2/-3 to end the cycle with 1/2/3.
        """
        compiled = self._compiled
        if compiled is None or compiled[0] is not cmds:
            compiled = self._compiled = (cmds, [self._compile(cmd) for cmd in cmds])
        ops = compiled[1]
        pc = 0
        jumps = 0
        while pc < ncmds:
            cmd = cmds[pc]
            op = ops[pc]
            pc += 1
            if cmd.a1 is not None:
                if self._matches(cmd) == cmd.bang:
                    if cmd.name == "{":
                        pc = cmd.jump
                    continue
            elif cmd.bang:
                if cmd.name == "{":
                    pc = cmd.jump
                continue
            if op is None:
                continue
            r = op()
            if r is not None:
                if r < 0:
                    return -r
                pc = r
                jumps += 1
                if jumps & 0xFFF == 0:
                    self.ctx.budget.check_time()  # ":a;ba" must not hang
        return 1

    def _compile(self, cmd: Command):  # type: ignore[no-untyped-def]  # noqa: C901
        """The closure that runs ``cmd`` (None for ``{``, ``}`` and labels)."""
        name = cmd.name
        if name in "{}:":
            return None
        budget = self.ctx.budget
        if name == "s":
            subst = self._subst
            return lambda: subst(cmd)
        if name == "p":
            def op_p() -> None:
                self.out.line(self.ps, self.chomped)
            return op_p
        if name == "d":
            return lambda: -2
        if name in "btT":
            target = cmd.jump
            if name == "b":
                return lambda: target

            def op_t() -> int | None:
                if self.replaced == (name == "t"):
                    if name == "t":
                        self.replaced = False
                        return target
                    return target
                if name == "T":
                    self.replaced = False
                return None
            return op_t
        if name == "n":
            def op_n() -> int | None:
                if self._at_last():
                    return -1  # no next line: the cycle ends (autoprint as usual)
                if not self.quiet:
                    self.out.line(self.ps, self.chomped)
                self.dump_append()
                self._read()
                return None
            return op_n
        if name == "N":
            def op_N() -> int | None:
                if self._at_last():
                    # GNU prints the pattern space (POSIX deletes it) and ends the cycle.
                    return -2 if self.opts.posix else -1
                self.dump_append()
                old = self.ps
                self._read()
                self.ps = old + self.delim + self.ps
                budget.check_string(len(self.ps))
                return None
            return op_N
        if name == "D":
            def op_D() -> int:
                i = self.ps.find(self.delim)
                if i < 0:
                    return -2
                self.ps = self.ps[i + 1:]
                return -3
            return op_D
        if name == "P":
            def op_P() -> None:
                i = self.ps.find(self.delim)
                if i < 0:
                    self.out.line(self.ps, self.chomped)
                else:
                    self.out.line(self.ps[:i], True)
            return op_P
        if name == "h":
            def op_h() -> None:
                self.hold = self.ps
                self.hold_chomped = self.chomped
            return op_h
        if name == "H":
            def op_H() -> None:
                self.hold = self.hold + self.delim + self.ps
                self.hold_chomped = self.chomped
                budget.check_string(len(self.hold))
            return op_H
        if name == "g":
            def op_g() -> None:
                self.ps = self.hold
                self.chomped = self.hold_chomped
            return op_g
        if name == "G":
            def op_G() -> None:
                self.ps = self.ps + self.delim + self.hold
                self.chomped = self.hold_chomped
                budget.check_string(len(self.ps))
            return op_G
        if name == "x":
            def op_x() -> None:
                self.ps, self.hold = self.hold, self.ps
                self.chomped, self.hold_chomped = self.hold_chomped, self.chomped
            return op_x
        if name == "z":
            def op_z() -> None:
                self.ps = b""
            return op_z
        if name == "=":
            def op_eq() -> None:
                self.out.raw(b"%d" % self.line_number + self.delim)
            return op_eq
        if name == "a":
            text = cmd.text
            return lambda: self.append_queue.append(("text", text))
        if name == "i":
            def op_i() -> None:
                self.out.raw(self._text(cmd.text))
            return op_i
        if name == "c":
            def op_c() -> int:
                if not cmd.range_active:
                    self.out.raw(self._text(cmd.text))
                return -2
            return op_c
        if name == "l":
            def op_l() -> None:
                self._list(cmd.int_arg if cmd.int_arg >= 0 else self.line_len)
            return op_l
        if name == "q":
            def op_q() -> None:
                raise Quit(cmd.int_arg, True, True, True)
            return op_q
        if name == "Q":
            def op_Q() -> None:
                raise Quit(cmd.int_arg, False, False)
            return op_Q
        if name == "y":
            translate = self._translate
            return lambda: translate(cmd)
        if name == "r":
            fname = cmd.fname
            return lambda: self.append_queue.append(("r", fname))
        if name == "R":
            read_R = self._read_R
            return lambda: read_R(cmd.fname)
        if name == "w":
            def op_w() -> None:
                self.wfiles[cmd.fname].line(self.ps, self.chomped)
            return op_w
        if name == "W":
            def op_W() -> None:
                i = self.ps.find(self.delim)
                w = self.wfiles[cmd.fname]
                if i < 0:
                    w.line(self.ps, self.chomped)
                else:
                    w.line(self.ps[:i], True)
            return op_W
        if name == "L":
            def op_L() -> None:
                raise SedRuntimeError("INTERNAL ERROR: Bad cmd L", 4)  # GNU 4.9 does this
            return op_L
        if name == "F":
            def op_F() -> None:
                name_of_input = self.input.name if self.input is not None else "-"
                self.out.raw(name_of_input.encode("utf-8", "surrogateescape") + self.delim)
            return op_F
        return None

    # -- commands ---------------------------------------------------------------------------

    def _subst(self, cmd: Command) -> None:
        sub = cmd.subst
        assert sub is not None
        srx = self._regex(sub.regex)
        rx = srx.compiled
        ps = self.ps
        m = rx.search(ps)
        if m is None:
            return
        char_starts = not srx.byte_mode and not ps.isascii()
        n = len(ps)
        occurrence = sub.occurrence
        global_ = sub.global_
        rep = sub.replacement
        literal = rep.literal
        out = bytearray()
        start = 0
        count = 0
        done = False
        prev_end = -1
        while m is not None:
            s, e = m.span()
            if char_starts and _inside_char(ps, s):
                # glibc's multibyte search only starts matches on character boundaries.
                m = rx.search(ps, _next_boundary(ps, s))
                continue
            if s == e and s == prev_end:
                # An empty match right after the previous match does not count (GNU).
                if s >= n:
                    break
                m = rx.search(ps, s + 1)
                continue
            count += 1
            out += ps[start:s]
            if count < occurrence:
                out += ps[s:e]
            else:
                done = True
                if literal is not None:
                    out += literal
                else:
                    expand(rep, ps, [m.span(g) for g in range(rx.groups + 1)], out, 0)
                if not global_:
                    start = e
                    break
            start = e
            prev_end = e
            if s == e:
                if s >= n:
                    break
                out += ps[s:s + 1]
                start = s + 1
            if start > n:
                break
            m = rx.search(ps, start)
        if not done:
            return
        out += ps[start:]
        self.ps = bytes(out)
        self.replaced = True
        self.ctx.budget.check_string(len(self.ps))
        if sub.print_:
            self.out.line(self.ps, self.chomped)
        if sub.wfile is not None:
            self.wfiles[sub.wfile].line(self.ps, self.chomped)

    def _text(self, text: bytes) -> bytes:
        """i/c text: with -z its final newline is the NUL delimiter (GNU)."""
        if self.delim_byte == 10 or not text.endswith(b"\n"):
            return text
        return text[:-1] + self.delim

    def _translate(self, cmd: Command) -> None:
        if cmd.ytable is not None:
            self.ps = self.ps.translate(cmd.ytable)
            return
        pairs = cmd.ymap
        assert pairs is not None
        ps = self.ps
        out = bytearray()
        i = 0
        n = len(ps)
        while i < n:
            clen = _utf8_len(ps, i)
            ch = ps[i:i + clen]
            for src, dst in pairs:
                # GNU compares with strncmp over the input character's length, so a lone
                # byte also matches a mapped character that starts with it.
                if len(src) >= clen and src[:clen] == ch:
                    out += dst
                    break
            else:
                out += ch
            i += clen
        self.ps = bytes(out)

    def _read_R(self, name: str) -> None:
        if name not in self.rfiles:
            try:
                self.rfiles[name] = self.ctx.open_read(name)
            except FSError:
                self.rfiles[name] = None
        stream = self.rfiles[name]
        if stream is None:
            return
        line = stream.readline() if self.delim == b"\n" else _read_until(stream, self.delim)
        if line:
            self.append_queue.append(("R", line))

    def _list(self, width: int) -> None:
        """The ``l`` command: escapes, octal for the rest, ``\\`` wraps at ``width``."""
        pieces = bytearray()
        col = 0
        for b in self.ps:
            if 0x20 <= b < 0x7F:
                o = b"\\\\" if b == 0x5C else bytes((b,))
            else:
                o = _PRINTABLE_ESCAPES.get(b) or b"\\%03o" % b
            if width > 0 and col + len(o) > width - 1:
                pieces += b"\\" + self.delim
                col = 0
            pieces += o
            col += len(o)
        pieces += b"$" + self.delim
        self.out.raw(bytes(pieces))


def _inside_char(data: bytes, pos: int) -> bool:
    """True if ``pos`` falls inside a valid multibyte UTF-8 character of ``data``."""
    if pos <= 0 or pos >= len(data) or not 0x80 <= data[pos] <= 0xBF:
        return False
    for back in (1, 2, 3):
        q = pos - back
        if q < 0:
            return False
        b = data[q]
        if 0x80 <= b <= 0xBF:
            continue
        need = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        return need > back and _utf8_len(data, q) == need
    return False


def _next_boundary(data: bytes, pos: int) -> int:
    """The first character boundary after ``pos`` (which is inside a character)."""
    q = pos
    while q > 0 and 0x80 <= data[q] <= 0xBF:
        q -= 1
    return q + _utf8_len(data, q)


def _read_until(stream: BinaryIO, delim: bytes) -> bytes:
    out = bytearray()
    while True:
        c = stream.read(1)
        if not c:
            break
        out += c
        if c == delim:
            break
    return bytes(out)
