"""``dd``: copy a file, converting and formatting (GNU coreutils 9.1).

Operands ``if= of= bs= ibs= obs= cbs= count= skip= iseek= seek= oseek= conv= iflag= oflag=
status=`` with GNU's number syntax (``c w b kB K MB M ... KiB``, a trailing ``B`` for bytes, one
``x`` product such as ``2x512``, the ``0x`` warning); ``conv=`` ascii ebcdic ibm ucase lcase
swab sync noerror block unblock notrunc excl nocreat fsync fdatasync sparse (all-NUL writes
become seeks: an overwrite keeps the old bytes, an append drops them); ``iflag=``/``oflag=`` fullblock
count_bytes skip_bytes seek_bytes append directory nocache, and the flags that change nothing
in a jail (direct dsync sync nonblock noatime noctty nofollow); ``status=none|noxfer|progress``.
The statistics go to stderr exactly as GNU prints them (the time and rate are this run's).

``conv=ascii|ebcdic|ibm`` use POSIX's tables (and imply unblock/block as GNU's do).

Standard output is always a pipe here: ``seek=``, ``conv=fsync`` and ``oflag=nocache count=0``
without ``of=`` fail as GNU's do on a pipe.

The output file changes through the jail and the write policy (``writes`` declares ``of=``);
bytes are appended in pieces as they are copied (a ``conv=notrunc`` overwrite inside an
existing file is rebuilt and written whole), so the run's write limit stops an endless copy,
and the time limit stops a long loop (``dd bs=1 count=huge``).
"""

from __future__ import annotations

import errno
import time
from typing import BinaryIO

from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError
from sandbox.fs.vfs import DEV_FULL

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  ascii     from EBCDIC to ASCII
  ebcdic    from ASCII to EBCDIC
  ibm       from ASCII to alternate EBCDIC
  block     pad newline-terminated records with spaces to cbs-size
  unblock   replace trailing spaces in cbs-size records with newline
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size; when used
            with block or unblock, pad with spaces rather than NULs
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  direct    use direct I/O for data
  directory  fail unless a directory
  dsync     use synchronized I/O for data
  sync      likewise, but also for metadata
  fullblock  accumulate full blocks of input (iflag only)
  nonblock  use non-blocking I/O
  noatime   do not update access time
  nocache   Request to drop cache.  See also oflag=sync
  noctty    do not assign controlling terminal from file
  nofollow  do not follow symlinks

Sending a USR1 signal to a running 'dd' process makes it
print I/O statistics to standard error and then resume copying.

Options are:

      --help        display this help and exit
      --version     output version information and exit

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/dd>
or available locally via: info '(coreutils) dd invocation'
"""

VERSION = """dd (coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Rubin, David MacKenzie, and Stuart Kemp."""

INTMAX_MAX = (1 << 63) - 1
UINTMAX_MAX = (1 << 64) - 1
DEFAULT_BLOCKSIZE = 512
#: Largest bs/ibs/obs GNU takes (IDX_MAX - 1 on 64-bit hosts).
MAX_BLOCKSIZE = INTMAX_MAX - 1
#: Output is handed to the file system in pieces of about this size.
FLUSH_SIZE = 1 << 16

CONVERSIONS = ("ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse", "swab",
               "noerror", "nocreat", "excl", "notrunc", "sync", "fdatasync", "fsync")
FLAGS = ("append", "direct", "directory", "dsync", "noatime", "nocache", "noctty", "nofollow",
         "nonblock", "sync", "fullblock", "count_bytes", "skip_bytes", "seek_bytes")
STATUSES = ("none", "noxfer", "progress")
#: Conversions that make GNU copy through a second (output-sized) buffer.
_TWOBUFS = {"ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "swab"}

_POWERS = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8}
_NUMBER_SUFFIXES = "bcEGkKMPTwYZ"
_SPACES = " \t\n\v\f\r"
#: POSIX's conversion tables (the ones GNU dd uses): EBCDIC to ASCII, ASCII to EBCDIC, ASCII
#: to IBM's alternate EBCDIC.
EBCDIC_TO_ASCII = bytes.fromhex(
    "000102039c09867f978d8e0b0c0d0e0f101112139d8508871819928f1c1d1e1f80818283840a171b88898a8b"
    "8c050607909116939495960498999a9b14159e1a20a0a1a2a3a4a5a6a7a8d52e3c282b7c26a9aaabacadaeaf"
    "b0b121242a293b7e2d2fb2b3b4b5b6b7b8b9cb2c255f3e3fbabbbcbdbebfc0c1c2603a2340273d22c3616263"
    "646566676869c4c5c6c7c8c9ca6a6b6c6d6e6f7071725ecccdcecfd0d1e5737475767778797ad2d3d45bd6d7"
    "d8d9dadbdcdddedfe0e1e2e3e45de6e77b414243444546474849e8e9eaebeced7d4a4b4c4d4e4f505152eeef"
    "f0f1f2f35c9f535455565758595af4f5f6f7f8f930313233343536373839fafbfcfdfeff")
ASCII_TO_EBCDIC = bytes.fromhex(
    "00010203372d2e2f1605250b0c0d0e0f101112133c3d322618193f271c1d1e1f405a7f7b5b6c507d4d5d5c4e"
    "6b604b61f0f1f2f3f4f5f6f7f8f97a5e4c7e6e6f7cc1c2c3c4c5c6c7c8c9d1d2d3d4d5d6d7d8d9e2e3e4e5e6"
    "e7e8e9ade0bd9a6d79818283848586878889919293949596979899a2a3a4a5a6a7a8a9c04fd05f0720212223"
    "2415061728292a2b2c090a1b30311a333435360838393a3b04143ee141424344454647484951525354555657"
    "58596263646566676869707172737475767778808a8b8c8d8e8f906a9b9c9d9e9fa0aaabac4aaeafb0b1b2b3"
    "b4b5b6b7b8b9babbbca1bebfcacbcccdcecfdadbdcdddedfeaebecedeeeffafbfcfdfeff")
ASCII_TO_IBM = bytes.fromhex(
    "00010203372d2e2f1605250b0c0d0e0f101112133c3d322618193f271c1d1e1f405a7f7b5b6c507d4d5d5c4e"
    "6b604b61f0f1f2f3f4f5f6f7f8f97a5e4c7e6e6f7cc1c2c3c4c5c6c7c8c9d1d2d3d4d5d6d7d8d9e2e3e4e5e6"
    "e7e8e9ade0bd5f6d79818283848586878889919293949596979899a2a3a4a5a6a7a8a9c04fd0a10720212223"
    "2415061728292a2b2c090a1b30311a333435360838393a3b04143ee141424344454647484951525354555657"
    "58596263646566676869707172737475767778808a8b8c8d8e8f909a9b9c9d9e9fa0aaabacadaeafb0b1b2b3"
    "b4b5b6b7b8b9babbbcbdbebfcacbcccdcecfdadbdcdddedfeaebecedeeeffafbfcfdfeff")
_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")

OK, INVALID, SUFFIX, OVERFLOW = 0, 1, 2, 4


class _Fatal(Exception):
    """A message GNU prints before exiting with status 1; ``usage`` adds the Try line."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def writes(args: list[str]) -> list[str]:
    """The file this command line may write: the last ``of=`` operand."""
    out = [a[3:] for a in args if a.startswith("of=")]
    return out[-1:]


# -- numbers ---------------------------------------------------------------------------------

def _xstrtoumax(s: str) -> tuple[int, int, int]:
    """gnulib ``xstrtoumax(s, &end, 10, &n, "bcEGkKMPTwYZ0")``: (status bits, value, end)."""
    i = 0
    while i < len(s) and s[i] in _SPACES:
        i += 1
    if i < len(s) and s[i] == "-":
        return INVALID, 0, 0
    j = i + (1 if s[i:i + 1] == "+" else 0)
    k = j
    while k < len(s) and "0" <= s[k] <= "9":
        k += 1
    status = OK
    if k == j:
        if k < len(s) and s[k] in _NUMBER_SUFFIXES and k == i:
            value = 1
        else:
            return INVALID, 0, 0
    else:
        digits = s[j:k].lstrip("0") or "0"
        value = UINTMAX_MAX + 1 if len(digits) > 25 else int(digits)
        if value > UINTMAX_MAX:
            status, value = OVERFLOW, UINTMAX_MAX
    if k >= len(s):
        return status, value, k
    ch = s[k]
    if ch not in _NUMBER_SUFFIXES:
        return status | SUFFIX, value, k
    base, used = 1024, 1
    if ch in _POWERS and k + 1 < len(s):
        if s[k + 1] == "i" and s[k + 2:k + 3] == "B":
            used = 3
        elif s[k + 1] in "BD":
            base, used = 1000, 2
    factor = {"b": 512, "c": 1, "w": 2}.get(ch) or base ** _POWERS[ch]
    value *= factor
    if value > UINTMAX_MAX:
        status, value = status | OVERFLOW, UINTMAX_MAX
    end = k + used
    if end < len(s):
        status |= SUFFIX
    return status, value, end


def parse_number(text: str) -> tuple[int, int, bool]:
    """dd's ``parse_integer``: (value, status, zero-multiplier warning); status OK, INVALID or
    OVERFLOW."""
    e, n, end = _xstrtoumax(text)
    if e & SUFFIX and end > 0 and text[end - 1] != "B" and text[end:end + 1] == "B":
        end += 1
        if end == len(text):
            e &= ~SUFFIX
    if e & SUFFIX and text[end:end + 1] == "x" and not (
            end > 0 and text[end - 1] == "B" and "B" in text[end + 1:]):
        f, o, end2 = _xstrtoumax(text[end + 1:])
        if f & (INVALID | SUFFIX):
            return 0, INVALID, False
        result = n * o
        if result > INTMAX_MAX or (result != 0 and (e | f) & OVERFLOW):
            return INTMAX_MAX, OVERFLOW, False
        return result, OK, result == 0 and text.startswith("0x")
    if e & (INVALID | SUFFIX):
        return 0, INVALID, False
    if n > INTMAX_MAX:
        return INTMAX_MAX, OVERFLOW, False
    return n, (OVERFLOW if e & OVERFLOW else OK), False


# -- the command line ------------------------------------------------------------------------

class Settings:
    """Everything the operands set."""

    def __init__(self) -> None:
        self.input: str | None = None
        self.output: str | None = None
        self.ibs = self.obs = self.cbs = 0
        self.conv: set[str] = set()
        self.iflags: set[str] = set()
        self.oflags: set[str] = set()
        self.status = ""
        self.skip_records = self.skip_bytes = 0
        self.seek_records = self.seek_bytes = 0
        self.max_records = INTMAX_MAX
        self.max_bytes = 0


def _symbols(value: str, table: tuple[str, ...], what: str, exclusive: bool) -> list[str]:
    found: list[str] = []
    for token in value.split(","):
        if token not in table:
            raise _Fatal(f"{what}: {quote(token)}", usage=True)
        if exclusive:
            found = [token]
        else:
            found.append(token)
    return found


def _operand_is(name: str, key: str) -> bool:
    return name.split("=", 1)[0] == key


def parse_operands(ctx: CommandContext, operands: list[str]) -> Settings:
    """The settings of a dd command line, or ``_Fatal`` with GNU's message."""
    st = Settings()
    blocksize = 0
    count, skip, seek = INTMAX_MAX, 0, 0
    count_b = skip_b = seek_b = False
    for operand in operands:
        if "=" not in operand:
            raise _Fatal(f"unrecognized operand {quote(operand)}", usage=True)
        name, val = operand.split("=", 1)
        if name == "if":
            st.input = val
        elif name == "of":
            st.output = val
        elif name == "conv":
            st.conv.update(_symbols(val, CONVERSIONS, "invalid conversion", False))
        elif name == "iflag":
            st.iflags.update(_symbols(val, FLAGS, "invalid input flag", False))
        elif name == "oflag":
            st.oflags.update(_symbols(val, FLAGS, "invalid output flag", False))
        elif name == "status":
            st.status = _symbols(val, STATUSES, "invalid status level", True)[0]
        else:
            if name not in ("ibs", "obs", "bs", "cbs", "skip", "iseek", "seek", "oseek", "count"):
                raise _Fatal(f"unrecognized operand {quote(operand)}", usage=True)
            n, status, zero_warning = parse_number(val)
            if zero_warning:
                ctx.error(f"warning: {quote('0x')} is a zero multiplier; use {quote('00x')} if that is intended")
            has_b = "B" in val
            n_min, n_max = 0, INTMAX_MAX
            if name in ("ibs", "obs", "bs", "cbs"):
                n_min, n_max = 1, MAX_BLOCKSIZE
            if status == OK and n < n_min:
                status = INVALID
            elif status == OK and n > n_max:
                status = OVERFLOW
            if status == INVALID:
                raise _Fatal(f"invalid number: {quote(val)}")
            if status == OVERFLOW:
                raise _Fatal(f"invalid number: {quote(val)}: Value too large for defined data type")
            if name == "ibs":
                st.ibs = n
            elif name == "obs":
                st.obs = n
            elif name == "bs":
                blocksize = n
            elif name == "cbs":
                st.cbs = n
            elif name in ("skip", "iseek"):
                skip, skip_b = n, has_b
            elif name in ("seek", "oseek"):
                seek, seek_b = n, has_b
            else:
                count, count_b = n, has_b
    if blocksize:
        st.ibs = st.obs = blocksize
    else:
        st.conv.add("twobufs")
    st.ibs = st.ibs or DEFAULT_BLOCKSIZE
    st.obs = st.obs or DEFAULT_BLOCKSIZE
    if st.conv & {"ebcdic", "ibm"}:
        st.conv.add("block")
    if "ascii" in st.conv:
        st.conv.add("unblock")
    if st.cbs == 0:
        st.conv -= {"block", "unblock"}
    if "fullblock" in st.oflags:
        raise _Fatal(f"invalid output flag: {quote('fullblock')}", usage=True)
    if skip_b:
        st.iflags.add("skip_bytes")
    if "skip_bytes" in st.iflags and skip:
        st.skip_records, st.skip_bytes = divmod(skip, st.ibs)
    else:
        st.skip_records = skip
    if count_b:
        st.iflags.add("count_bytes")
    if "count_bytes" in st.iflags and count != INTMAX_MAX:
        st.max_records, st.max_bytes = divmod(count, st.ibs)
    else:
        st.max_records = count
    if seek_b:
        st.oflags.add("seek_bytes")
    if "seek_bytes" in st.oflags and seek:
        st.seek_records, st.seek_bytes = divmod(seek, st.obs)
    else:
        st.seek_records = seek
    if len(st.conv & {"ascii", "ebcdic", "ibm"}) > 1:
        raise _Fatal("cannot combine any two of {ascii,ebcdic,ibm}")
    if {"block", "unblock"} <= st.conv:
        raise _Fatal("cannot combine block and unblock")
    if {"lcase", "ucase"} <= st.conv:
        raise _Fatal("cannot combine lcase and ucase")
    if {"excl", "nocreat"} <= st.conv:
        raise _Fatal("cannot combine excl and nocreat")
    if {"direct", "nocache"} <= st.iflags or {"direct", "nocache"} <= st.oflags:
        raise _Fatal("cannot combine direct and nocache")
    if st.conv & _TWOBUFS:
        st.conv.add("twobufs")
    if "append" in st.oflags and "notrunc" not in st.conv:
        ctx.error("you probably want conv=notrunc with oflag=append")
    return st


# -- output ----------------------------------------------------------------------------------

class WriteFailed(Exception):
    """A write the output refused; ``str()`` is GNU's message (without ``dd: ``)."""


class _Output:
    """Where copied bytes go: stdout, /dev/null or a file through the context's write API."""

    def __init__(self, ctx: CommandContext, name: str | None):
        self.ctx = ctx
        self.name = name
        self.pending = bytearray()
        #: Where a nameless output goes: standard output (or of=/dev/stderr).
        self.stream = ctx.stdout
        self.discard = False
        #: notrunc overwrite inside a file: (bytes before, bytes after) the region written.
        self.splice: tuple[bytes, bytes] | None = None
        self.written = bytearray()
        #: GNU's message when ``seek=`` meets an output that cannot seek (a pipe).
        self.seek_error: str | None = None
        #: conv=sparse: an all-NUL write becomes a seek (not on a pipe, where lseek fails).
        self.sparse = False
        #: oflag=append: writes land at the end whatever the offset; (offset, size) of the file.
        self.append: tuple[int, int] | None = None
        self.last_was_seek = False
        #: NULs between the end of the file and the seek= offset, written before the first data.
        self.hole = 0
        #: of=/dev/full: the first write fails with ENOSPC, before it counts as written.
        self.full = False

    def write(self, data: bytes) -> None:
        """Hand ``data`` on (buffered up to ``FLUSH_SIZE``) as one GNU ``iwrite``."""
        if self.discard or not data:
            return
        if self.full:
            raise FSError(errno.ENOSPC, self.name)
        if self.sparse and self.name is None:
            self.sparse = False  # lseek on a pipe fails: GNU drops the sparse request
        nul = self.sparse and not any(data)
        self.last_was_seek = nul
        if self.append is not None:
            offset, size = self.append
            if nul:
                self.append = (offset + len(data), size)
                return
            self.append = (size + len(data), size + len(data))
        if self.splice is not None:
            if nul:  # the seek leaves the old bytes (a hole past them reads as NULs)
                start = len(self.written)
                data = self.splice[1][start:start + len(data)].ljust(len(data), b"\0")
            self.ctx.budget.charge_write(len(data))
            self.written += data
            if len(self.written) >= len(self.splice[1]):
                before, _ = self.splice
                self.splice = None
                body, self.written = bytes(self.written), bytearray()
                self.ctx.budget.written -= len(body)
                self.ctx.write_bytes(self.name or "", before + body)
            return
        if self.hole:
            self.pending += _zeros(self.ctx, self.hole)
            self.hole = 0
        self.pending += data
        if len(self.pending) >= FLUSH_SIZE:
            self.flush()

    def flush(self) -> None:
        """Push buffered bytes out."""
        if not self.pending:
            return
        data, self.pending = bytes(self.pending), bytearray()
        if self.name is None:
            self.stream.write(data)
        else:
            self.ctx.append_bytes(self.name, data)

    def finish(self) -> None:
        """Write what is left (a notrunc splice is written whole here); a final sparse seek
        past the end of an appended file extends it, as GNU's ftruncate does."""
        if self.append is not None and self.last_was_seek:
            offset, size = self.append
            if offset > size:
                self.pending += _zeros(self.ctx, offset - size)
        if self.splice is not None:
            before, after = self.splice
            if self.written:
                body = bytes(self.written)
                self.ctx.budget.written -= len(body)
                self.ctx.write_bytes(self.name or "", before + body + after[len(body):])
            self.splice = None
            self.written = bytearray()
        self.flush()


def _zeros(ctx: CommandContext, n: int) -> bytes:
    """``n`` NULs for a hole GNU would leave sparse; beyond the run's write allowance the
    write limit's error comes first (``seek=1T`` is refused, not built)."""
    budget = ctx.budget
    if n > budget.limits.written_bytes - budget.written:
        budget.charge_write(n)  # raises LimitExceeded
    return bytes(n)


def _open_output(ctx: CommandContext, st: Settings) -> _Output:
    out = _Output(ctx, st.output)
    if st.output is None:
        if st.seek_records or st.seek_bytes:
            out.seek_error = f"{quotef('standard output')}: cannot seek: Illegal seek"
        return out
    name = st.output
    try:
        vpath = ctx.path(name)
    except FSError as e:
        raise _Fatal(f"failed to open {quoteaf(name)}: {e}") from None
    if vpath in ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"):
        ctx.check_write(name)
        out.discard = True
        return out
    if vpath == DEV_FULL:
        ctx.check_write(name)
        out.full = True
        return out
    if vpath in ("/dev/stdout",) or vpath.startswith("/dev/fd/"):
        out.name = None
        if st.seek_records or st.seek_bytes:
            out.seek_error = f"{quotef(name)}: cannot seek: Illegal seek"
        return out
    if vpath == "/dev/stderr":
        out.name, out.stream = None, ctx.stderr
        if st.seek_records or st.seek_bytes:
            out.seek_error = f"{quotef(name)}: cannot seek: Illegal seek"
        return out
    try:
        existing = ctx.stat(name)
    except FSError as e:
        if e.errno != errno.ENOENT:
            raise _Fatal(f"failed to open {quoteaf(name)}: {e}") from None
        existing = None
    if existing is not None and "excl" in st.conv:
        raise _Fatal(f"failed to open {quoteaf(name)}: {FSError(errno.EEXIST)}")
    if existing is None and "nocreat" in st.conv:
        raise _Fatal(f"failed to open {quoteaf(name)}: {FSError(errno.ENOENT)}")
    if existing is not None and existing.is_dir:
        raise _Fatal(f"failed to open {quoteaf(name)}: {FSError(errno.EISDIR)}")
    if existing is None and name.endswith("/"):
        raise _Fatal(f"failed to open {quoteaf(name)}: {FSError(errno.EISDIR)}")
    if existing is not None and "directory" in st.oflags:
        raise _Fatal(f"failed to open {quoteaf(name)}: {FSError(errno.ENOTDIR)}")
    position = st.seek_records * st.obs + st.seek_bytes
    notrunc = "notrunc" in st.conv
    size = existing.size if existing is not None else 0
    try:
        if not notrunc:
            keep = position if st.seek_records else 0  # O_TRUNC, or ftruncate to seek=
            head = b""
            if keep and size:
                with ctx.open_read(name) as stream:
                    head = stream.read(min(keep, size))
            ctx.write_bytes(name, head + _zeros(ctx, keep - len(head)))
            size = keep
        elif existing is None:
            ctx.write_bytes(name, b"")
        current = ctx.read_bytes(name) if position < size and "append" not in st.oflags else b""
    except FSError as e:
        raise _Fatal(f"failed to open {quoteaf(name)}: {e}") from None
    out.sparse = "sparse" in st.conv
    if "append" in st.oflags:
        out.append = (position, size)
    elif position > size:
        out.hole = position - size  # written as NULs once data comes, as a seek past the end
    elif position < size:
        out.splice = (current[:position], current[position:])
    return out


# -- statistics ------------------------------------------------------------------------------

def human_readable(n: int, base: int) -> str:
    """gnulib ``human_readable(n, autoscale|round-to-nearest|space|SI|B)`` of an exact count:
    ``12 B``, ``1.0 kB``, ``1.0 KiB``."""
    amt, tenths, rounding, exponent = n, 0, 0, 0
    digits_point = ""
    if base <= amt:
        while True:
            r10 = (amt % base) * 10 + tenths
            r2 = (r10 % base) * 2 + (rounding >> 1)
            amt //= base
            tenths = r10 // base
            rounding = (1 if (r2 + rounding) != 0 else 0) if r2 < base else 2 + (1 if base < r2 + rounding else 0)
            exponent += 1
            if not (base <= amt and exponent < 8):
                break
        if amt < 10:
            if 2 < rounding + (tenths & 1):
                tenths += 1
                rounding = 0
                if tenths == 10:
                    amt += 1
                    tenths = 0
            if amt < 10:
                digits_point = "." + str(tenths)
                tenths = rounding = 0
    if 5 < tenths + (1 if 0 < rounding + (amt & 1) else 0):
        amt += 1
        if amt == base and exponent < 8:
            exponent += 1
            digits_point = ".0"
            amt = 1
    text = str(amt) + digits_point + " "
    if exponent:
        text += "k" if base == 1000 and exponent == 1 else " KMGTPEZY"[exponent]
        if base == 1024:
            text += "i"
    return text + "B"


def _float_human(value: float) -> str:
    """human_readable's floating-point branch (a rate): ``259 kB``, ``28.3 MB``."""
    e, exponent = 1.0, 0
    while True:
        e *= 1000
        exponent += 1
        if not (e * 1000 <= value and exponent < 8):
            break
    scaled = value / e
    text = f"{scaled:.1f}"
    if len(text) > 4:
        text = f"{round(scaled * 10) / 10:.0f}"
    return f"{text} {'k' if exponent == 1 else ' KMGTPEZY'[exponent]}B"


class _Stats:
    """Record and byte counts."""

    def __init__(self) -> None:
        self.r_full = self.r_partial = self.w_full = self.w_partial = 0
        self.r_truncate = 0
        self.w_bytes = 0
        self.start = time.monotonic_ns()

        #: Width of the last status=progress line (0: none printed since).
        self.progress_len = 0
        self.next_progress = self.start + 1_000_000_000

    def text(self, level: str) -> str:
        """What GNU's print_stats writes for this status level."""
        if level == "none":
            return ""
        out = ""
        if self.progress_len:
            out, self.progress_len = "\n", 0
        out += (f"{self.r_full}+{self.r_partial} records in\n"
                f"{self.w_full}+{self.w_partial} records out\n")
        if self.r_truncate:
            plural = "record" if self.r_truncate == 1 else "records"
            out += f"{self.r_truncate} truncated {plural}\n"
        if level == "noxfer":
            return out
        return out + self.xfer(time.monotonic_ns(), progress=False) + "\n"

    def xfer(self, now: int, progress: bool) -> str:
        """GNU's ``print_xfer_stats`` line (without its newline)."""
        elapsed = now - self.start
        n = self.w_bytes
        if elapsed > 0:
            seconds = elapsed / 1e9
            rate = _float_human(n * (1e9 / elapsed)) + "/s"
        else:
            seconds, rate = 0.0, "Infinity B/s"
        delta = (f"{seconds:.0f}" if progress else _g(seconds)) + " s"
        si, iec = human_readable(n, 1000), human_readable(n, 1024)
        if not si[-2].isalpha():
            word = "byte" if n == 1 else "bytes"
            return f"{n} {word} copied, {delta}, {rate}"
        if not iec[-3].isalpha():
            return f"{n} bytes ({si}) copied, {delta}, {rate}"
        return f"{n} bytes ({si}, {iec}) copied, {delta}, {rate}"

    def progress(self) -> str:
        """status=progress: the ``\r``-led line GNU prints once a second (or "")."""
        now = time.monotonic_ns()
        if now < self.next_progress:
            return ""
        self.next_progress += 1_000_000_000
        line = self.xfer(now, progress=True)
        pad = " " * max(0, self.progress_len - len(line))
        self.progress_len = len(line)
        return "\r" + line + pad


def _g(x: float) -> str:
    """C ``%g``."""
    return f"{x:g}"


# -- copying ---------------------------------------------------------------------------------

class _Copier:
    """The copy loop of GNU's ``dd_copy`` with its conversions."""

    def __init__(self, ctx: CommandContext, st: Settings, src: BinaryIO, pipe: bool,
                 out: _Output, stats: _Stats, input_name: str):
        self.ctx, self.st, self.src, self.out, self.stats = ctx, st, src, out, stats
        self.pipe = pipe
        self.input_name = input_name
        self.obuf = bytearray()
        self.col = 0
        self.pending_spaces = 0
        self.saved: int | None = None
        self.prev_partial = 0
        #: Size of the last read when it was short (GNU's ``partread``).
        self.partread = 0
        #: The input file's size when it is a regular file opened by name (lseek skips it).
        self.size: int | None = None
        #: The input is a device where GNU's lseek succeeds silently (/dev/zero, /dev/null...).
        self.endless = False
        self.warn_partial = ("twobufs" not in st.conv and "fullblock" not in st.iflags
                             and (st.skip_records > 0 or 0 < st.max_records < INTMAX_MAX))
        self.translate, self.newline, self.space = translation(st.conv)

    def read(self, size: int) -> bytes:
        """One ``read`` (or, with iflag=fullblock, reads until ``size`` or end of input)."""
        self.ctx.budget.check_time()
        reader = getattr(self.src, "read1", None) if self.pipe else None
        if reader is None:
            data = self.src.read(size)
        else:
            data = reader(size)
            if "fullblock" in self.st.iflags:
                while data and len(data) < size:
                    more = reader(size - len(data))
                    if not more:
                        break
                    data += more
        if 0 < len(data) < size and self.warn_partial:
            if self.prev_partial and self.prev_partial != len(data):
                word = "byte" if self.prev_partial == 1 else "bytes"
                self.ctx.error(f"warning: partial read ({self.prev_partial} {word}); suggest iflag=fullblock")
                self.warn_partial = False
            self.prev_partial = len(data)
        return data

    def skip(self) -> None:
        """Skip ``skip=`` input by reading it."""
        st = self.st
        records, nbytes = st.skip_records, st.skip_bytes
        if not records and not nbytes:
            return
        short = False
        if self.endless:
            return  # skipping NULs or random bytes changes nothing (GNU's lseek succeeds)
        if self.size is not None and getattr(self.src, "seekable", lambda: False)():
            # A regular file: GNU lseeks; past the end it warns (its records left unskipped).
            start = self.src.tell()
            target = start + records * st.ibs + nbytes
            self.src.seek(min(target, max(self.size, start)))
            if target > self.size and st.status != "none":
                self.ctx.error(f"{quotef(self.input_name)}: cannot skip to specified offset")
            return
        while records or nbytes:
            size = st.ibs if records else nbytes
            data = self.read(size)
            if not data:
                short = True
                break
            if records:
                records -= 1
                if len(data) < size:
                    short = True
            else:
                nbytes = 0
                if len(data) < size:
                    short = True
        if (short or records) and st.status != "none":
            self.ctx.error(f"{quotef(self.input_name)}: cannot skip to specified offset")

    # output side
    def write_block(self, block: bytes, failure: str) -> None:
        """One GNU ``iwrite`` of a block; a write the output refuses (ENOSPC of /dev/full)
        ends the copy with GNU's message for that write (``writing to`` for a full output
        block of ``write_output``, ``error writing`` for the one-buffer copy and the last
        partial block)."""
        try:
            self.out.write(block)
        except FSError as e:
            raise WriteFailed(f"{failure} {quoteaf(self.st.output or 'standard output')}: {e}") from None

    def output(self, data: bytes) -> None:
        """Add converted bytes to the output buffer, writing every full ``obs`` block."""
        obs = self.st.obs
        self.obuf += data
        while len(self.obuf) >= obs:
            block = bytes(self.obuf[:obs])
            del self.obuf[:obs]
            self.write_block(block, "writing to")
            self.stats.w_bytes += len(block)
            self.stats.w_full += 1

    def block(self, data: bytes) -> None:
        """conv=block: newline-terminated records padded (or truncated) to ``cbs`` bytes."""
        cbs = self.st.cbs
        pieces = bytearray()
        for c in data:
            if c == self.newline:
                if self.col < cbs:
                    self.ctx.budget.check_string(cbs)
                    pieces += bytes([self.space]) * (cbs - self.col)
                self.col = 0
            else:
                if self.col == cbs:
                    self.stats.r_truncate += 1
                elif self.col < cbs:
                    pieces.append(c)
                self.col += 1
        self.output(bytes(pieces))

    def unblock(self, data: bytes) -> None:
        """conv=unblock: ``cbs``-byte records with trailing spaces replaced by a newline."""
        cbs = self.st.cbs
        pieces = bytearray()
        i = 0
        while i < len(data):
            c = data[i]
            self.col += 1
            if self.col - 1 >= cbs:
                self.col = self.pending_spaces = 0
                pieces.append(self.newline)
                continue
            if c == self.space:
                self.pending_spaces += 1
            else:
                pieces += bytes([self.space]) * self.pending_spaces
                self.pending_spaces = 0
                pieces.append(c)
            i += 1
        self.output(bytes(pieces))

    def convert(self, data: bytes) -> None:
        """Apply ucase/lcase and swab to one input block, then block/unblock or copy it."""
        if self.translate is not None:
            data = data.translate(self.translate)
        if "swab" in self.st.conv:
            if self.saved is not None:
                data = bytes([self.saved]) + data
                self.saved = None
            if len(data) & 1:
                self.saved = data[-1]
                data = data[:-1]
            swapped = bytearray(data)
            swapped[0::2], swapped[1::2] = data[1::2], data[0::2]
            data = bytes(swapped)
        self.emit(data)

    def emit(self, data: bytes) -> None:
        """Hand translated bytes to block, unblock or the plain copy."""
        if "block" in self.st.conv:
            self.block(data)
        elif "unblock" in self.st.conv:
            self.unblock(data)
        else:
            self.output(data)

    def run(self) -> int:
        """The copy loop; returns the exit status (1 after a read error)."""
        st, stats = self.st, self.stats
        ibs = st.ibs
        pad = b" " if st.conv & {"block", "unblock"} else b"\0"
        status = 0
        while True:
            if st.status == "progress":
                line = stats.progress()
                if line:
                    self.ctx.stderr.write(line.encode())
            if stats.r_partial + stats.r_full >= st.max_records + (1 if st.max_bytes else 0):
                break
            size = st.max_bytes if stats.r_partial + stats.r_full >= st.max_records else ibs
            try:
                data = self.read(size)
            except FSError as e:
                noerror = "noerror" in st.conv
                if not noerror or st.status != "none":
                    self.ctx.error(f"error reading {quoteaf(self.input_name)}: {e}")
                if not noerror:
                    status = 1
                    break
                self.ctx.stderr.write(stats.text(st.status).encode())
                if "sync" not in st.conv or self.partread:
                    continue  # GNU retries past the bad block (the time limit bounds it here)
                data = b""  # replaced by a block of padding below
            else:
                if not data:
                    break
            self.partread = len(data) if len(data) < ibs else 0
            if len(data) < ibs:
                stats.r_partial += 1
                if "sync" in st.conv:
                    self.ctx.budget.check_string(ibs)
                    data += pad * (ibs - len(data))
            else:
                stats.r_full += 1
            if "twobufs" not in st.conv:
                self.write_block(data, "error writing")
                stats.w_bytes += len(data)
                if len(data) == ibs:
                    stats.w_full += 1
                else:
                    stats.w_partial += 1
                continue
            self.convert(data)
        if self.saved is not None:
            saved, self.saved = bytes([self.saved]), None
            self.emit(saved)
        if "block" in st.conv and self.col > 0:
            self.output(bytes([self.space]) * max(0, st.cbs - self.col))
        if self.col and "unblock" in st.conv:
            self.output(bytes([self.newline]))
        if self.obuf:
            block = bytes(self.obuf)
            self.obuf = bytearray()
            self.write_block(block, "error writing")
            stats.w_bytes += len(block)
            stats.w_partial += 1
        return status


def translation(conv: set[str]) -> tuple[bytes | None, int, int]:
    """GNU's ``apply_translations``: (byte table or None, newline byte, space byte)."""
    table = bytes(range(256))
    changed = False
    if "ascii" in conv:
        table, changed = table.translate(EBCDIC_TO_ASCII), True
    if "ucase" in conv:
        table, changed = table.translate(_UPPER), True
    elif "lcase" in conv:
        table, changed = table.translate(_LOWER), True
    newline, space = 10, 32
    for name, target in (("ebcdic", ASCII_TO_EBCDIC), ("ibm", ASCII_TO_IBM)):
        if name in conv:
            table, changed = table.translate(target), True
            newline, space = target[10], target[32]
            break
    return (table if changed else None), newline, space


def _is_pipe(stream: object) -> bool:
    raw = getattr(stream, "_inner", stream)
    raw = getattr(raw, "raw", None)
    return type(raw).__name__ == "_PipeRaw"


def run(ctx: CommandContext) -> int:
    """Run ``dd``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    try:
        st = parse_operands(ctx, operands)
    except _Fatal as e:
        if e.usage:
            return ctx.usage_error(str(e))
        ctx.error(str(e))
        return 1
    stats = _Stats()
    src: BinaryIO | None = None
    out: _Output | None = None
    status = 0
    try:
        try:
            if st.input is None:
                input_name = "standard input"
                src, pipe = ctx.stdin, _is_pipe(ctx.stdin)
            else:
                input_name = st.input
                try:
                    if "directory" in st.iflags and not ctx.stat(st.input).is_dir:
                        raise FSError(errno.ENOTDIR, st.input)
                    src = ctx.open_read(st.input)
                except FSError as e:
                    if e.errno == errno.EISDIR:
                        src = None
                    else:
                        raise _Fatal(f"failed to open {quoteaf(st.input)}: {e}") from None
                pipe = ctx.path(st.input) == "/dev/stdin" and _is_pipe(ctx.stdin)
            out = _open_output(ctx, st)
        except _Fatal as e:
            ctx.error(str(e))
            return 1
        if st.input is not None and src is not None and st.output is not None and not pipe:
            try:
                if ctx.path(st.input) == ctx.path(st.output) and "notrunc" not in st.conv:
                    src.close()
                    src = ctx.open_read(st.input)  # GNU reads what the truncation left
            except FSError:
                pass
        copier = _Copier(ctx, st, src if src is not None else _DirStream(), pipe, out, stats,
                         input_name)
        if src is None:
            copier.src = _DirStream()
        elif st.input is not None and not pipe:
            try:
                vpath = ctx.path(st.input)
                copier.endless = vpath in ("/dev/zero", "/dev/random", "/dev/urandom", "/dev/null")
                if not copier.endless and vpath != "/dev/stdin":
                    copier.size = ctx.stat(st.input).size
            except FSError:
                pass
        try:
            copier.skip()
        except FSError as e:
            ctx.error(f"error reading {quoteaf(input_name)}: {e}")
            ctx.stderr.write(stats.text(st.status).encode())
            return 1
        if out.seek_error is not None:
            ctx.error(out.seek_error)
            ctx.stderr.write(stats.text(st.status).encode())
            return 1
        if st.max_records == 0 and st.max_bytes == 0:
            # GNU drops the cache to the end of the file: posix_fadvise fails on a pipe.
            status = 0
            if "nocache" in st.iflags and pipe:
                ctx.error(f"failed to discard cache for: {quotef(input_name)}: Illegal seek")
                status = 1
            if "nocache" in st.oflags and out.name is None:
                ctx.error(f"failed to discard cache for: {quotef(st.output or 'standard output')}: Illegal seek")
                status = 1
        else:
            try:
                status = copier.run()
            except WriteFailed as e:  # of=/dev/full: the first write, not counted as written
                ctx.error(str(e))
                ctx.stderr.write(stats.text(st.status).encode())
                return 1
        try:
            out.finish()
        except FSError as e:
            ctx.error(f"error writing {quoteaf(st.output or 'standard output')}: {e}")
            status = 1
        if st.conv & {"fsync", "fdatasync"} and (out.name is None or out.discard):
            # A pipe or a device: fsync(2) says EINVAL, as on GNU's side.
            ctx.error(f"fsync failed for {quoteaf(st.output or 'standard output')}: Invalid argument")
            status = 1
    finally:
        if src is not None and st.input is not None:
            try:
                src.close()
            except Exception:  # noqa: BLE001 - closing a read stream cannot matter here
                pass
    ctx.stderr.write(stats.text(st.status).encode())
    return status


class _DirStream:
    """A directory opened for reading: every read fails with EISDIR, as read(2) does."""

    def read(self, n: int = -1) -> bytes:
        """Always ``EISDIR``."""
        raise FSError(errno.EISDIR, "")

    def close(self) -> None:
        """Nothing to close."""
