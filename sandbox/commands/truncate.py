"""``truncate``: shrink or extend files to a size (GNU coreutils 9.1): ``-s SIZE`` with every
size form (``K KB KiB M ... E``, ``+N -N <N >N /N %N``), ``-c``, ``-o`` (4096-byte blocks, the
block size the jail reports), ``-r RFILE``.

Files change through the jail and the write policy; an extension counts against the run's
write limit before any byte is built, so ``truncate -s 1E`` is refused, not attempted.
"""

from __future__ import annotations

import errno
import time

from sandbox.commands._numbers import OVERFLOW_MESSAGE, CountError, parse_count
from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "cor:s:",
    {
        "no-create": (NO_ARG, "c"),
        "io-blocks": (NO_ARG, "o"),
        "reference": (REQUIRED, "r"),
        "size": (REQUIRED, "s"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

Mandatory arguments to long options are mandatory for short options too.
  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit
"""

OFF_T_MAX = (1 << 63) - 1
BLKSIZE = 4096
#: ext4's largest file (16 TiB less a block): GNU's ``File too large`` beyond it.
MAX_FILE_SIZE = (1 << 44) - BLKSIZE
_SPACES = " \t\n\v\f\r"


class _Fatal(Exception):
    """An error already worded; ``usage`` adds GNU's ``Try`` line."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def writes(args: list[str]) -> list[str]:
    """The files this command line may change or create."""
    return operands_of(SPEC, args)[1]


def parse_size(text: str) -> tuple[str, int]:
    """(mode, value): mode is '' (absolute), '+' (relative), '<', '>', '/' or '%'."""
    s = text.lstrip(_SPACES)
    mode = ""
    if s[:1] in ("<", ">", "/", "%"):
        mode, s = s[0], s[1:]
    s = s.lstrip(_SPACES)
    if s[:1] in ("+", "-"):
        if mode:
            raise _Fatal("multiple relative modifiers specified", usage=True)
        mode = "+"
    sign = -1 if s[:1] == "-" else 1
    body = s[1:] if s[:1] in ("+", "-") else s
    bad = _Fatal(f"Invalid number: {quote(s)}")
    if body[:1] in ("+", "-", "") or body[0] in _SPACES:
        raise bad
    try:
        value = parse_count(body, "EgGkKmMPtTYZ0")
    except CountError as e:
        if e.overflow:
            raise _Fatal(f"Invalid number: {quote(s)}: {OVERFLOW_MESSAGE}") from None
        raise bad from None
    if value > OFF_T_MAX + (sign < 0):
        raise _Fatal(f"Invalid number: {quote(s)}: {OVERFLOW_MESSAGE}")
    value *= sign
    if mode in ("/", "%") and value == 0:
        raise _Fatal("division by zero")
    return mode, value


def _new_size(mode: str, size: int, current: int, name: str) -> int:
    if mode == "":
        return size
    if mode == ">":
        return max(current, size)
    if mode == "<":
        return min(current, size)
    if mode == "/":
        return current - current % size
    if mode == "%":
        r = current % size
        if r and size - r > OFF_T_MAX - current:
            raise _Fatal(f"overflow rounding up size of file {quoteaf(name)}")
        return current if r == 0 else current + size - r
    if size > OFF_T_MAX - current:
        raise _Fatal(f"overflow extending size of file {quoteaf(name)}")
    return current + size


def _truncate_one(ctx: CommandContext, name: str, mode: str, size: int, ref_size: int | None,
                  no_create: bool) -> bool:
    try:
        st = ctx.stat(name)
    except FSError as e:
        if e.errno == errno.ENOENT and name.endswith("/") and not no_create:
            e = FSError(errno.EISDIR, name)
        if e.errno == errno.ENOENT and no_create:
            return True
        if e.errno != errno.ENOENT:
            ctx.error(f"cannot open {quoteaf(name)} for writing: {e}")
            return False
        st = None
    if st is not None and st.is_dir:
        ctx.error(f"cannot open {quoteaf(name)} for writing: {FSError(errno.EISDIR)}")
        return False
    if st is not None and name.endswith("/"):
        ctx.error(f"cannot open {quoteaf(name)} for writing: {FSError(errno.EISDIR)}")
        return False
    current = st.size if st is not None else 0
    try:
        new = _new_size(mode, size, ref_size if ref_size is not None and mode else current, name)
    except _Fatal as e:
        if st is None and not _write(ctx, name, b""):
            return False
        ctx.error(str(e))
        return False
    new = max(new, 0)
    budget = ctx.budget
    if new > budget.limits.written_bytes - budget.written:
        if st is None and not _write(ctx, name, b""):
            return False
        if new > MAX_FILE_SIZE:
            ctx.error(f"failed to truncate {quoteaf(name)} at {new} bytes: File too large")
            return False
        budget.charge_write(new)  # raises LimitExceeded: the run's write limit
    if st is None:
        return _write(ctx, name, b"\0" * new)
    if new == current:
        ctx.set_mtime(name, time.time())
        return True
    with ctx.open_read(name) as stream:
        data = stream.read(min(new, current))
    return _write(ctx, name, data + b"\0" * (new - len(data)))


def _write(ctx: CommandContext, name: str, data: bytes) -> bool:
    try:
        ctx.write_bytes(name, data)
    except FSError as e:
        ctx.error(f"cannot open {quoteaf(name)} for writing: {e}")
        return False
    return True


def run(ctx: CommandContext) -> int:
    """Run ``truncate``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="truncate (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    no_create = blocks = False
    ref: str | None = None
    size_arg: tuple[str, int] | None = None
    try:
        for key, value in opts:
            if key == "c":
                no_create = True
            elif key == "o":
                blocks = True
            elif key == "r":
                ref = value
            elif key == "s":
                size_arg = parse_size(value or "")
        if ref is None and size_arg is None:
            raise _Fatal("you must specify either ‘--size’ or ‘--reference’", usage=True)
        if ref is not None and size_arg is not None and not size_arg[0]:
            raise _Fatal("you must specify a relative ‘--size’ with ‘--reference’", usage=True)
        if blocks and size_arg is None:
            raise _Fatal("‘--io-blocks’ was specified but ‘--size’ was not", usage=True)
        if not operands:
            raise _Fatal("missing file operand", usage=True)
        ref_size = None
        if ref is not None:
            try:
                ref_size = ctx.stat(ref).size
            except FSError as e:
                raise _Fatal(f"cannot stat {quoteaf(ref)}: {e}") from None
    except _Fatal as e:
        if e.usage:
            return ctx.usage_error(str(e))
        ctx.error(str(e))
        return 1
    mode, size = size_arg if size_arg is not None else ("", ref_size or 0)
    if ref is not None and size_arg is None:
        mode, size, ref_size = "", ref_size or 0, None
    if blocks:
        if abs(size) > OFF_T_MAX // BLKSIZE:
            ctx.error(f"overflow in {size} * {BLKSIZE} byte blocks for file {quoteaf(operands[0])}")
            return 1
        size *= BLKSIZE
    ok = True
    for name in operands:
        ctx.budget.check_time()
        ok = _truncate_one(ctx, name, mode, size, ref_size, no_create) and ok
    return 0 if ok else 1
