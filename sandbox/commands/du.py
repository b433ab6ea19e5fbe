"""``du``: estimate file space usage (GNU coreutils 9.1): ``-a -s -c -h --si -b -k -m -B SIZE
-d N -0 -x -l -L -H -D -P``,
``-S``, ``--exclude=PATTERN``, ``--apparent-size``, ``--max-depth``, ``--summarize``, ``--total``, ``--null``.

Sizes come from the jail's ``FileStat``: a file uses ``ceil(size / 4096)`` 4 KiB blocks (what
ext4 allocates, and what ``ls -s`` assumes), a directory its own size the same way plus its
contents; ``--apparent-size``/``-b`` sum the sizes themselves. With several operands every file and
directory is counted once (``du . d`` shows ``d`` only inside ``.``), as GNU does. Entries of a directory are visited in the host's readdir order where it is a host
directory (GNU's order on the same filesystem; ``ls/order.py``), else in name order. ``-x`` is a no-op
(the jail is one tree). The jail has no symbolic links, so ``-L``/``--dereference``,
``-H``/``-D``/``--dereference-args`` and ``-P``/``--no-dereference`` change nothing;
``-l``/``--count-links`` turns off the once-only counting of several operands, as in GNU (no
file has more than one link).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.ls.layout import Scale, human, parse_block_size
from sandbox.commands.ls.order import in_directory_order
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FileStat, FSError

SPEC = OptionSpec(
    "0abB:cd:DHhklLmPsSx",
    {
        "count-links": (NO_ARG, "l"),
        "dereference": (NO_ARG, "L"),
        "dereference-args": (NO_ARG, "D"),
        "no-dereference": (NO_ARG, "P"),
        "null": (NO_ARG, "0"),
        "all": (NO_ARG, "a"),
        "apparent-size": (NO_ARG, "apparent"),
        "bytes": (NO_ARG, "b"),
        "block-size": (REQUIRED, "block-size"),
        "si": (NO_ARG, "si"),
        "total": (NO_ARG, "c"),
        "max-depth": (REQUIRED, "d"),
        "exclude": (REQUIRED, "exclude"),
        "human-readable": (NO_ARG, "h"),
        "summarize": (NO_ARG, "s"),
        "separate-dirs": (NO_ARG, "S"),
        "one-file-system": (NO_ARG, "x"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them; e.g.,
                           '-BM' prints sizes in units of 1,048,576 bytes
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks that are listed on the
                          command line
      --exclude=PATTERN  exclude files that match PATTERN
  -H                    equivalent to --dereference-args (-D)
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
  -k                    like --block-size=1K
  -l, --count-links     count sizes many times if hard linked
  -L, --dereference     dereference all symbolic links
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
      --si              like -h, but use powers of 1000 not 1024
  -S, --separate-dirs   for directories do not include size of subdirectories
  -s, --summarize       display only a total for each argument
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
      --version     output version information and exit
"""

BLOCK = 4096


@dataclass
class _Options:
    all: bool = False
    apparent: bool = False
    scale: Scale = Scale(1024)
    max_depth: int | None = None
    end: bytes = b"\n"
    separate: bool = False
    exclude: list[str] = field(default_factory=list)


def excluded(patterns: list[str], name: str) -> bool:
    """gnulib ``excluded_file_name`` with EXCLUDE_WILDCARDS, unanchored: a pattern matches the
    whole name or what follows any slash (``*`` matches ``/`` too)."""
    for pattern in patterns:
        if fnmatch.fnmatchcase(name, pattern):
            return True
        for k, ch in enumerate(name):
            if ch == "/" and name[k + 1 : k + 2] not in ("/", "") and fnmatch.fnmatchcase(name[k + 1 :], pattern):
                return True
    return False


def _size(st: FileStat, apparent: bool) -> int:
    return st.size if apparent else -(-st.size // BLOCK) * BLOCK


class _Walker:
    def __init__(self, ctx: CommandContext, o: _Options):
        self.ctx, self.o = ctx, o
        self.seen: set[str] = set()
        #: With several operands GNU counts every file and directory once (``hash_all``).
        self.hash_all = False
        self.ok = True

    def show(self, size: int, name: str) -> None:
        o = self.o
        text = human(size, o.scale)
        self.ctx.stdout.write(f"{text}\t".encode() + name.encode("utf-8", "surrogateescape") + o.end)

    def walk(self, vpath: str, shown: str, st: FileStat, depth: int) -> int:
        """Total of ``vpath``, printing the lines GNU prints for it and below it."""
        self.ctx.budget.check_time()
        total = _size(st, self.o.apparent)
        if st.is_dir:
            try:
                names = in_directory_order(self.ctx.fs, vpath, sorted(
                    self.ctx.fs.listdir(vpath), key=lambda s: s.encode("utf-8", "surrogateescape")))
            except FSError as e:
                self.ctx.error(f"cannot read directory {quoteaf(shown)}: {e}")
                self.ok = False
                names = []
            prefix = shown if shown.endswith("/") else shown + "/"
            for name in names:
                child = vpath.rstrip("/") + "/" + name
                if child == "/dev" or (self.hash_all and child in self.seen):
                    continue
                if self.o.exclude and excluded(self.o.exclude, prefix + name):
                    continue
                try:
                    cst = self.ctx.fs.stat(child)
                except FSError as e:
                    self.ctx.error(f"cannot access {quoteaf(prefix + name)}: {e}")
                    self.ok = False
                    continue
                if self.hash_all:
                    self.seen.add(child)
                sub = self.walk(child, prefix + name, cst, depth + 1)
                if not (self.o.separate and cst.is_dir):
                    total += sub
        limit = self.o.max_depth
        if (st.is_dir or self.o.all or depth == 0) and (limit is None or depth <= limit):
            self.show(total, shown)
        return total


def _options(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> _Options | int:
    o = _Options()
    summarize = False
    for key, value in opts:
        if key == "0":
            o.end = b"\0"
        elif key == "a":
            o.all = True
        elif key == "apparent":
            o.apparent = True
        elif key == "b":
            o.apparent, o.scale = True, Scale(1)
        elif key in ("B", "block-size"):
            spec = value or ""
            if spec and "human-readable".startswith(spec):  # gnulib argmatch: abbreviations too
                spec = "human-readable"
            elif spec and "si".startswith(spec):
                spec = "si"
            parsed = parse_block_size(spec)
            if isinstance(parsed, str):
                option = "-B" if key == "B" else "--block-size"
                shown = f"'{value}'"
                ctx.error({"invalid": f"invalid {option} argument {shown}",
                           "suffix": f"invalid suffix in {option} argument {shown}",
                           "large": f"{option} argument {shown} too large"}[parsed])
                return 1
            o.scale = parsed
        elif key == "si":
            o.scale = Scale(1, True, True, 1000)
        elif key == "c":
            pass
        elif key == "d":
            text = value or ""
            if not text.strip().isdigit() or int(text) > (1 << 63) - 1 or text.strip() != text.lstrip():
                return ctx.usage_error(f"invalid maximum depth {quote(text)}")
            o.max_depth = int(text)
        elif key == "h":
            o.scale = Scale(1, True, True, 1024)
        elif key == "k":
            o.scale = Scale(1024)
        elif key == "m":
            o.scale = Scale(1 << 20)
        elif key == "s":
            summarize = True
        elif key == "S":
            o.separate = True
        elif key == "exclude":
            o.exclude.append(value or "")
    if o.all and summarize:
        return ctx.usage_error("cannot both summarize and show all entries")
    if summarize and o.max_depth not in (None, 0):
        ctx.error(f"warning: summarizing conflicts with --max-depth={o.max_depth}")
        return _try(ctx)
    if summarize:
        o.max_depth = 0
    return o


def _try(ctx: CommandContext) -> int:
    ctx.stderr.write(b"Try 'du --help' for more information.\n")
    return 1


def run(ctx: CommandContext) -> int:
    """Run ``du``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="du (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    o = _options(ctx, opts)
    if isinstance(o, int):
        return o
    walker = _Walker(ctx, o)
    walker.hash_all = len(operands) > 1 and not any(k == "l" for k, _ in opts)
    grand = 0
    for operand in operands or ["."]:
        if operand == "":
            ctx.error("invalid zero-length file name")
            walker.ok = False
            continue
        try:
            st = stat_operand(ctx, operand)
            vpath = ctx.path(operand)
        except FSError as e:
            ctx.error(f"cannot access {quoteaf(operand)}: {e}")
            walker.ok = False
            continue
        if walker.hash_all and vpath in walker.seen:
            continue
        if o.exclude and excluded(o.exclude, operand):
            continue
        walker.seen.add(vpath)
        shown = operand.rstrip("/") + "/" if operand.endswith("/") and operand.strip("/") else operand
        if operand.strip("/") == "" and operand:
            shown = "/"
        grand += walker.walk(vpath, shown, st, 0)
    if any(k == "c" for k, _ in opts):
        walker.show(grand, "total")
    return 0 if walker.ok else 1
