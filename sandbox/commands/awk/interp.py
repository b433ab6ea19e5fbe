"""The awk compiler and runtime: the AST is compiled once into Python closures.

Every expression node becomes a closure specialised for the context it is used in: its value
(``cval``), its string (``cstr``, CONVFMT for numbers), its number (``cnum``), its truth
(``cbool``) or its print form (``cout``, OFMT). So ``$3 > 10`` compiles to one closure that
splits the record once, takes the raw field bytes and compares them as a strnum, with no
intermediate value objects; ``print $1, $2`` joins raw field bytes into the output buffer.

Statements are closures that return ``None`` or a control code (``BREAK``, ``CONTINUE``, a
``Ret``); ``next``, ``nextfile``, ``exit`` and fatal errors are exceptions.

AST nodes (tuples): expressions ``num str regex var index field assign cond or and in match
cmp concat binop unary incdec group call builtin getline``; statements ``block print printf
expr if while do for forin next nextfile exit return break continue delete`` (a statement's
second field is its line number).
"""

from __future__ import annotations

import errno
import math
import time

from sandbox.commands.awk import gawkrand
from sandbox.commands.awk.awkregex import compile_gawk
from sandbox.commands.awk.fmt import FormatError, sprintf
from sandbox.commands.awk.records import (
    RecordReader, split_bytes, split_chars, split_default, split_regex,
)
from sandbox.commands.awk.values import (
    UNINIT, AwkArray, Str, StrNum, Uninit, looks_numeric, num_to_str, special_float,
    str_to_num, strnum_value, subscript_of_num, to_bool,
)
from sandbox.errors import LimitExceeded
from sandbox.fs.base import FSError
from sandbox.regex import RegexError

BREAK = 1
CONTINUE = 2


class Ret:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class StdoutFailed(Exception):
    """Standard output refused a write; ``str()`` is the reason (``strerror``)."""


class AwkFatal(Exception):
    """A run-time error: printed as ``awk: cmd. line:N: fatal: message``; exit ``status``."""

    def __init__(self, message: str, line: int | None = None, status: int = 2,
                 kind: str = "fatal"):
        super().__init__(message)
        self.message = message
        self.line = line
        self.status = status
        self.kind = kind


class NextRecord(Exception):
    pass


class NextFile(Exception):
    pass


class ExitProgram(Exception):
    def __init__(self, status):
        self.status = status


_SPECIAL_READ = {"NF", "NR", "FNR"}
_SPECIAL_WRITE = {"NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT",
                  "IGNORECASE", "FIELDWIDTHS", "FPAT"}
_ARRAY_BUILTIN_ARGS = {"split": (1, 3), "asort": (0, 1), "asorti": (0, 1), "match": (2,),
                       "patsplit": (1, 3)}
_SORTED_IN = ("@unsorted", "@ind_str_asc", "@ind_str_desc", "@ind_num_asc", "@ind_num_desc",
              "@val_str_asc", "@val_str_desc", "@val_num_asc", "@val_num_desc",
              "@val_type_asc", "@val_type_desc")


def _walk(node, fn):
    """Call fn on every tuple node (expressions and statements)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, tuple):
            if cur and isinstance(cur[0], str):
                fn(cur)
            stack.extend(x for x in cur if isinstance(x, (tuple, list)))
        elif isinstance(cur, list):
            stack.extend(cur)


class Program:
    """A compiled program bound to a runtime."""


class Runtime:
    """The state of one awk run and the compiler that builds closures over it."""

    def __init__(self, ctx, parsed, source_name: str, char_mode: bool = True):
        self.ctx = ctx
        self.parsed = parsed
        self.source_name = source_name
        self.budget = ctx.budget
        limits = ctx.budget.limits
        self.str_limit = limits.string_length
        self.array_limit = max(1_000_000, limits.string_length // 8)
        self.max_depth = max(100, limits.recursion_depth * 10)
        self.char_mode = char_mode
        self.G: list = []
        self.slots: dict[str, int] = {}
        self.frame: list = []
        self.depth = 0
        self.rec = b""
        #: $0 when it is a string, not a strnum (assigned a string, or rebuilt from fields)
        self.str_rec = None
        self.fix_flds = None
        self.fix_set: set = set()
        #: the number $0 was assigned (when ``str_rec`` is the record), else None
        self.rec_num = None
        self.flds: list | None = []
        self.nr = 0
        self.fnr = 0
        self.convfmt = b"%.6g"
        self.ofmt = b"%.6g"
        self.ofs = b" "
        self.ors = b"\n"
        self.subsep = b"\x1c"
        self.rs = b"\n"
        self.fs = b" "
        self.fs_split = split_default
        self.split_by = b"FS"
        self.icase = False
        self.out = bytearray()
        #: Why stdout refused a write (``>&-``, ``/dev/full``), once it has: the rest is dropped.
        self.stdout_failed: str | None = None
        self.capture: bytearray | None = None  #: where stdout goes under -i inplace
        self.inplace = None  #: main.InPlace under -i inplace
        self.outputs: dict[bytes, object] = {}
        self.inputs: dict[bytes, object] = {}
        self.rng = gawkrand.GawkRandom(0)
        self.rng.seed(1)
        self.seed = 1.0
        self.rx_cache: dict = {}
        self.cur_line = 0
        self.in_record = False
        self.filename = b""
        self.main_input = None
        self.range_active: list = []
        self.warned: set = set()
        self.exit_status = 0
        self.max_field = -1  # >0: only $1..$max_field are ever read (split with maxsplit)
        self.ws_clean = False  # the current block of records has no \r, \v or \f
        self.errno_slot = None
        self.user_functions: dict = {}

    # ---------------------------------------------------------------- messages ----------

    def record_where(self) -> str:
        """gawk's ``(FILENAME=f FNR=n) `` in messages, shown once a record has been read."""
        if self.fnr <= 0:
            return ""
        fname = bytes(self.S(self.G[self.slots["FILENAME"]]))
        return f"(FILENAME={fname.decode('utf-8', 'surrogateescape')} FNR={int(self.fnr)}) "

    def warn(self, message: str, line: int | None = None) -> None:
        where = f"{self.source_name}:{line}: " if line else ""
        where += self.record_where()
        self.ctx.stderr.write(f"awk: {where}warning: {message}\n".encode("utf-8",
                                                                          "surrogateescape"))

    def check_multibyte(self, s: bytes, line: int | None) -> None:
        """gawk's warning, once a run, when a string it converts to wide characters (length,
        substr, index, match, toupper, tolower) holds invalid UTF-8."""
        if s.isascii() or "multibyte" in self.warned:
            return
        try:
            s.decode("utf-8")
        except UnicodeDecodeError:
            self.warned.add("multibyte")
            self.warn("Invalid multibyte data detected. There may be a mismatch between your "
                      "data and your locale", line)

    def fatal(self, message: str, line: int | None = None):
        raise AwkFatal(message, line)

    # ---------------------------------------------------------------- conversions -------

    def S(self, v) -> bytes:
        if type(v) is float:
            return num_to_str(v, self.convfmt)
        if type(v) is AwkArray:
            raise AwkFatal("attempt to use array in a scalar context")
        return v

    def O(self, v) -> bytes:
        if type(v) is float:
            return num_to_str(v, self.ofmt)
        if type(v) is AwkArray:
            raise AwkFatal("attempt to use array in a scalar context")
        return v

    @staticmethod
    def N(v) -> float:
        if type(v) is float:
            return v
        if type(v) is AwkArray:
            raise AwkFatal("attempt to use array in a scalar context")
        return str_to_num(v)

    def key(self, v) -> bytes:
        if type(v) is float:
            return subscript_of_num(v, self.convfmt)
        if type(v) is AwkArray:
            raise AwkFatal("attempt to use array in a scalar context")
        return v

    # ---------------------------------------------------------------- records -----------

    def set_fs(self, fs: bytes) -> None:
        self._keep_current_split()
        self.fs = fs
        self.fs_split = self.make_splitter(fs, self.rs == b"")
        self._split_mode(b"FS")

    def refresh_fs(self) -> None:
        """Rebuild the FS splitter (IGNORECASE or RS changed) if FS is what splits."""
        if self.split_by == b"FS":
            self.set_fs(self.fs)

    def _keep_current_split(self) -> None:
        if self.flds is None and self.rec is not None and self.fs_split is not None:
            self.split()  # the record in hand keeps the splitting it was read with

    def _split_mode(self, name: bytes) -> None:
        self.split_by = name
        proc = self.G[self.slots["PROCINFO"]] if "PROCINFO" in self.slots else None
        if type(proc) is AwkArray:
            proc[b"FS"] = name

    def set_fieldwidths(self, spec: bytes) -> None:
        """FIELDWIDTHS: fields of so many characters, each optionally after ``skip:``, the
        last may be ``*`` (the rest); a record runs out of fields where it ends."""
        widths = []
        parts = spec.split()
        for k, part in enumerate(parts, 1):
            skip, _, width = part.rpartition(b":")
            ok = (not skip or skip.isdigit()) and (width.isdigit() or (
                width == b"*" and k == len(parts)))
            if not ok:
                bad = part.decode("utf-8", "surrogateescape")
                raise AwkFatal(f"invalid FIELDWIDTHS value, for field {k}, near `{bad}'",
                               self.cur_line)
            widths.append((int(skip) if skip else 0, None if width == b"*" else int(width)))
        self._keep_current_split()

        def split_widths(rec: bytes) -> list:
            text = rec.decode("utf-8", "surrogateescape")
            out = []
            pos = 0
            n = len(text)
            for skip, w in widths:
                if pos >= n:
                    break
                pos += skip
                end = n if w is None else pos + w
                out.append(text[pos:end].encode("utf-8", "surrogateescape"))
                pos = end
            return out
        self.fs_split = split_widths
        self._split_mode(b"FIELDWIDTHS")

    def set_fpat(self, pattern: bytes) -> None:
        """FPAT: the fields are the matches of the regexp, left to right (an empty match
        right after a field does not count)."""
        rx = self.regex(pattern)
        self._keep_current_split()

        def split_fpat(rec: bytes) -> list:
            if not rec:
                return []
            out = []
            pos = 0
            n = len(rec)
            after_field = -1
            while pos <= n:
                m = rx.search(rec, pos, not_bol=pos > 0)
                if m is None:
                    break
                s, e = m.span()
                if s == e:
                    if s == after_field:
                        pos = s + 1
                        after_field = -1
                        continue
                    out.append(b"")
                    if s >= n:
                        break
                    pos = s + 1
                    continue
                out.append(rec[s:e])
                pos = after_field = e
            return out
        self.fs_split = split_fpat
        self._split_mode(b"FPAT")

    def make_splitter(self, fs: bytes, para: bool):
        if fs == b" ":
            return split_default
        if fs == b"":
            return split_chars if self.char_mode else split_bytes
        if len(fs) == 1 and fs != b"\\" and not para:
            if fs == b" ":
                return split_default
            sep = fs

            def split_char(rec: bytes) -> list:
                if not rec:
                    return []
                return rec.split(sep)
            return split_char
        if len(fs) == 1 and not para:
            pattern = b"\\" + fs if fs in b"\\^$.[]|()*+?{}" else fs
        else:
            pattern = fs
        if para and len(fs) == 1:
            # gawk: in paragraph mode a newline also separates fields when FS is one
            # character (not when it is a regexp)
            pattern = b"[" + (b"\\" + fs if fs in b"\\^]-[" else fs) + b"\n]"
        # one character splits case-sensitively even under IGNORECASE (gawk in UTF-8)
        rx = self.regex(pattern, False if len(fs) == 1 else None)

        def split_re(rec: bytes) -> list:
            return split_regex(rec, rx)
        return split_re

    def split(self) -> list:
        rec = self.rec
        if self.fs_split is split_default:
            if self.ws_clean or not (b"\r" in rec or b"\x0b" in rec or b"\x0c" in rec):
                fl = rec.split(None, self.max_field)
            else:
                fl = split_default(rec)
        else:
            fl = self.fs_split(rec)
        self.flds = fl
        return fl

    def get0(self) -> bytes:
        rec = self.rec
        if rec is None:
            fl = self.flds
            S = self.S
            rec = self.ofs.join([v if type(v) is not float else S(v) for v in fl])
            if b"inf" in rec or b"nan" in rec:
                rec = self._rebuild_special(fl)
            self.rec = self.str_rec = rec
            self.rec_num = None
        return rec

    def _rebuild_special(self, fl: list) -> bytes:
        """$0 from fields of which some hold an infinity or NaN as a number: gawk 5.2.1's
        rebuild_record counts their text ("+inf") but copies nothing (force_string makes a
        new node for them), so they come out empty and the record ends in as many bytes of
        unset memory, which are NULs in a fresh heap: reproduced as NULs."""
        S = self.S
        parts = []
        pad = 0
        for v in fl:
            if type(v) is float:
                if v - v != 0.0:
                    pad += 4
                    parts.append(b"")
                    continue
                v = S(v)
            parts.append(v)
        return self.ofs.join(parts) + b"\0" * pad

    def set0(self, v) -> None:
        s = self.S(v)
        if len(s) > self.str_limit:
            self.budget.check_string(len(s))
        self.rec = bytes(s) if type(s) is not bytes else s
        self.flds = None
        self.ws_clean = False
        self.str_rec = None

    def get_nf(self) -> int:
        fl = self.flds
        if fl is None:
            fl = self.split()
        return len(fl)

    def set_nf(self, v) -> None:
        n = int(self.N(v))
        if n < 0:
            raise AwkFatal(f"NF set to negative value")
        fl = self.flds
        if fl is None:
            fl = self.split()
        self.get0()
        if n < len(fl):
            del fl[n:]
        else:
            if n > 10_000_000:
                raise LimitExceeded("string_length", "awk: NF set too large")
            fl.extend([b""] * (n - len(fl)))
        self.rec = None

    def getfield(self, i: int):
        """The value of $i (i >= 0), as a value (strnum for input)."""
        if i == 0:
            r = self.get0()
            if type(r) is bytes:
                if r is self.str_rec:
                    return r if self.rec_num is None else self.rec_num
                return StrNum(r)
            return r
        fl = self.flds
        if fl is None:
            fl = self.split()
        if i <= len(fl):
            v = fl[i - 1]
            t = type(v)
            if t is bytes:
                return StrNum(v)
            if t is Str:
                return bytes(v)
            return v
        return StrNum()

    def getfield_str(self, i: int) -> bytes:
        if i == 0:
            return self.get0()
        fl = self.flds
        if fl is None:
            fl = self.split()
        if i <= len(fl):
            v = fl[i - 1]
            return v if type(v) is not float else self.S(v)
        return b""

    def setfield(self, i: int, v) -> None:
        if i == 0:
            self.set0(v)
            if type(v) is not StrNum:
                self.str_rec = self.rec
                self.rec_num = v if type(v) is float else None
            return
        fl = self.flds
        if fl is None:
            fl = self.split()
        if self.max_field > 0:
            self.max_field = -1
            fl = self.split()
        self.get0()
        t = type(v)
        if t is bytes:
            v = Str(v)
        n = len(fl)
        if i > n:
            if i > 10_000_000:
                raise LimitExceeded("string_length", "awk: field index too large")
            fl.extend([b""] * (i - n))
        fl[i - 1] = v
        self.rec = None

    def touch_field(self, i: int) -> None:
        """Make $i exist (NF grows to i) without rebuilding $0: what gawk does to the field a
        sub/gsub names as its target before it knows whether anything matches."""
        fl = self.flds
        if fl is None:
            fl = self.split()
        if self.max_field > 0:
            self.max_field = -1
            fl = self.split()
        n = len(fl)
        if i > n:
            if i > 10_000_000:
                raise LimitExceeded("string_length", "awk: field index too large")
            fl.extend([b""] * (i - n))

    def fixtyped(self, i: int) -> bool:
        """Whether $i (an input field holding NaN) was already compared in this record, and
        mark it: gawk converts a strnum in place on its first comparison, after which it
        compares by C's NaN rules (before, by cmp_nodes' order)."""
        fl = self.flds
        if self.fix_flds is not fl:
            self.fix_flds = fl
            self.fix_set = {i}
            return False
        if i in self.fix_set:
            return True
        self.fix_set.add(i)
        return False

    def field_index(self, v, line) -> int:
        n = self.N(v)
        if n != n:
            raise AwkFatal("attempt to access field -nan" if math.copysign(1, n) < 0 else
                           "attempt to access field +nan", line)
        i = int(n)
        if i < 0:
            raise AwkFatal(f"attempt to access field {i}", line)
        return i

    # ---------------------------------------------------------------- regexes -----------

    def regex(self, pattern: bytes, icase: bool | None = None):
        if icase is None:
            icase = self.icase
        key = (pattern, icase)
        rx = self.rx_cache.get(key)
        if rx is None:
            try:
                rx = compile_gawk(pattern, icase, self.budget, not self.char_mode)
            except RegexError as err:
                shown = pattern.decode("utf-8", "surrogateescape")
                raise AwkFatal(f"{err}: /{shown}/", self.cur_line) from None
            if len(self.rx_cache) > 500:
                self.rx_cache.clear()
            self.rx_cache[key] = rx
        return rx

    # ---------------------------------------------------------------- output ------------

    def flush_stdout(self) -> None:
        if self.out:
            data = bytes(self.out)
            self.out.clear()
            if self.capture is not None:  # -i inplace: the file being edited
                self.capture += data
            elif self.stdout_failed is None:
                try:
                    self.ctx.stdout.write(data)
                except OSError as e:
                    self.stdout_failed = e.strerror or "Input/output error"
                    raise StdoutFailed(self.stdout_failed) from None

    def flush_print(self) -> None:
        """``flush_stdout`` from a print: a stdout that refuses the write is gawk's fatal
        ``print to "standard output" failed`` (at the end of the run it is a warning)."""
        try:
            self.flush_stdout()
        except StdoutFailed as e:
            raise AwkFatal(f'print to "standard output" failed: {e}', self.cur_line or 1) from None

    def write_out(self, data: bytes) -> None:
        out = self.out
        out += data
        if len(out) > 65536:
            self.flush_print()

    def stream(self, kind: str, target) -> "OutStream":
        name = self.S(target)
        st = self.outputs.get(name)
        if st is None:
            if not name:
                raise AwkFatal(f"expression for `{kind}' redirection has null string value",
                               self.cur_line)
            if kind == "|":
                st = PipeOut(self, name)
            elif name in (b"/dev/stdout", b"-"):
                st = StdOut(self)
            elif name == b"/dev/stderr":
                st = StdErr(self)
            else:
                st = FileOut(self, name, append=(kind == ">>"))
            self.outputs[name] = st
        return st

    def close_all(self) -> None:
        errors = []
        for name in list(self.outputs):
            st = self.outputs.pop(name)
            try:
                st.close()
            except AwkFatal as e:
                errors.append(e)
        self.flush_stdout()
        if errors:
            raise errors[0]

    def do_close(self, name: bytes, how: bytes | None = None) -> float:
        st = self.outputs.pop(name, None)
        result = -1.0
        if st is not None:
            result = float(st.close())
        inp = self.inputs.pop(name, None)
        if inp is not None:
            result = float(inp.close())
        if st is None and inp is None:
            self.set_errno("close of redirection that was never opened")
        return result

    def set_errno(self, text: str) -> None:
        if self.errno_slot is not None:
            self.G[self.errno_slot] = text.encode()

    # ---------------------------------------------------------------- commands ----------

    def run_command(self, cmd: bytes, stdin: bytes, capture: bool):
        """Run a command string through the sandbox's guard and interpreter."""
        from sandbox.commands.awk.shellrun import run_shell
        self.flush_stdout()
        return run_shell(self, cmd, stdin, capture)

    def check_literal(self, cmd: bytes, line) -> None:
        raise AwkFatal("running a command whose text is computed at run time is refused in "
                       "the sandbox; write the command as a string literal", line)

    def check_command(self, cmd: bytes) -> None:
        from sandbox.commands.awk.shellrun import check_shell
        check_shell(self, cmd)

    def set_rs(self, rs: bytes) -> None:
        self.rs = rs
        if self.fs_split is not None:
            self.refresh_fs()
        mi = self.main_input
        if mi is not None and mi.reader is not None:
            mi.reader.set_rs(rs, self.icase)

    # ---------------------------------------------------------------- limits ------------

    def tick(self) -> None:
        self.budget.check_time()
        total = 0
        for v in self.G:
            if type(v) is AwkArray:
                total += len(v)
        if total > self.array_limit:
            raise LimitExceeded("array_size", f"awk: arrays hold more than {self.array_limit} "
                                "elements; keep less in memory")


class OutStream:
    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        pass

    def close(self) -> int:
        self.flush()
        return 0


class StdOut(OutStream):
    def __init__(self, rt):
        self.rt = rt

    def write(self, data: bytes) -> None:
        self.rt.write_out(data)

    def flush(self) -> None:
        try:
            self.rt.flush_stdout()
        except StdoutFailed as e:  # print > "/dev/stdout" into a closed or full stdout
            raise AwkFatal(f'flush to "/dev/stdout" failed: {e}') from None


class StdErr(OutStream):
    def __init__(self, rt):
        self.rt = rt

    def write(self, data: bytes) -> None:
        self.rt.ctx.stderr.write(data)


class FileOut(OutStream):
    def __init__(self, rt, name: bytes, append: bool):
        self.rt = rt
        self.name = name.decode("utf-8", "surrogateescape")
        self.buf = bytearray()
        self.started = append
        self.failed = False
        try:
            check_name_length(self.name)
            if rt.ctx.exists(self.name) and rt.ctx.stat(self.name).is_dir:
                raise FSError(errno.EISDIR, self.name, "Is a directory")
            if not append:
                rt.ctx.write_bytes(self.name, b"")
            else:
                rt.ctx._check_write(self.name)
            self.started = True
        except FSError as err:
            raise AwkFatal(f"cannot redirect to `{self.name}': {_strerror(err)}",
                           rt.cur_line) from None

    def write(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > 65536:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            try:
                self.rt.ctx.append_bytes(self.name, data)
            except FSError as err:  # opened, then refused (ENOSPC of /dev/full)
                raise AwkFatal(f'flush to "{self.name}" failed: {_strerror(err)}',
                               self.rt.cur_line) from None


class PipeOut(OutStream):
    def __init__(self, rt, cmd: bytes):
        self.rt = rt
        self.cmd = cmd
        self.buf = bytearray()
        rt.check_command(cmd)

    def write(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > self.rt.str_limit:
            self.rt.budget.check_string(len(self.buf))

    def close(self) -> int:
        data = bytes(self.buf)
        self.buf.clear()
        status, _ = self.rt.run_command(self.cmd, data, capture=False)
        return status


def check_name_length(name: str) -> None:
    """ENAMETOOLONG for a path component longer than the kernel's 255 bytes."""
    if len(name) > 255 and any(len(part.encode("utf-8", "surrogateescape")) > 255
                               for part in name.split("/")):
        raise FSError(errno.ENAMETOOLONG, name, "File name too long")


def _strerror(err: FSError) -> str:
    text = err.strerror or str(err)
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text


class InFile:
    def __init__(self, reader, stream=None):
        self.reader = reader
        self.stream = stream

    def close(self) -> int:
        try:
            if self.stream is not None:
                self.stream.close()
        except Exception:
            pass
        return 0


class InCommand:
    def __init__(self, reader, status):
        self.reader = reader
        self.status = status

    def close(self) -> int:
        return self.status
