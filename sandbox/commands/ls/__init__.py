"""``ls``: list directory contents, exactly as GNU ls 9.1 prints to a pipe.

Options: ``-a -A -1 -l -h -R -t -r -S -d`` (and their long forms). Output is one name a line
(GNU's format when stdout is not a terminal), names printed literally; ``-l`` uses GNU's
column alignment, ``total N`` lines (1 KiB blocks) and GNU's dates (``Mon dd HH:MM`` within
the last six months, ``Mon dd  YYYY`` otherwise), in UTC.

Deviations, by design of the jail:

- **Owner and group** are always shown as ``user`` and ``user``: the sandbox has no user
  database and must not reveal the host's account names.
- **Block counts** (``total``) are computed from sizes as ``ceil(size / 4096) * 4`` KiB, what a
  typical Linux filesystem (ext4, tmpfs) allocates; backends do not report allocated blocks.
- ``..`` of a mount point is the directory above it in the virtual tree.
"""

from __future__ import annotations

import errno
import time
from dataclasses import dataclass

from sandbox.commands._quoting import quoteaf
from sandbox.commands._writing import join
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FileStat, FSError
from sandbox.fs.paths import normalize

SPEC = OptionSpec(
    "aAdhlrRSt1",
    {
        "all": (NO_ARG, "a"),
        "almost-all": (NO_ARG, "A"),
        "directory": (NO_ARG, "d"),
        "human-readable": (NO_ARG, "h"),
        "reverse": (NO_ARG, "r"),
        "recursive": (NO_ARG, "R"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

OWNER = "user"
GROUP = "user"
SIX_MONTHS = 31556952 // 2
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()

USAGE = """Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -St is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -d, --directory            list directories themselves, not their contents
  -h, --human-readable       with -l, print sizes like 1K 234M 2G etc.
  -l                         use a long listing format
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -S                         sort by file size, largest first
  -t                         sort by time, newest first
  -1                         list one file per line
      --help     display this help and exit
      --version  output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
"""


@dataclass
class _Entry:
    """One name to print, with its stat (None when it could not be read)."""

    name: str  # as printed
    vpath: str  # absolute virtual path
    stat: FileStat | None

    @property
    def key(self) -> bytes:
        return self.name.encode("utf-8", "surrogateescape")


@dataclass
class _Options:
    all: str = ""  # "", "a" or "A"
    long: bool = False
    human: bool = False
    recursive: bool = False
    sort: str = "name"  # name, time, size
    reverse: bool = False
    directory: bool = False


def human_size(value: int) -> str:
    """GNU ``human_readable`` with ``-h``: base 1024, autoscale, round up (``4.0K``, ``15M``)."""
    base = 1024
    if value < base:
        return str(value)
    amt, tenths, rounding, exponent = value, 0, 0, 0
    while True:
        r10 = (amt % base) * 10 + tenths
        r2 = (r10 % base) * 2 + (rounding >> 1)
        amt //= base
        tenths = r10 // base
        rounding = int(r2 + rounding != 0) if r2 < base else 2 + int(base < r2 + rounding)
        exponent += 1
        if not (base <= amt and exponent < 8):
            break
    point = ""
    if amt < 10:
        if rounding > 0:
            tenths += 1
            rounding = 0
            if tenths == 10:
                amt += 1
                tenths = 0
        if amt < 10:
            point = f".{tenths}"
            tenths = rounding = 0
    if tenths + rounding > 0:
        amt += 1
        if amt == base and exponent < 8:
            exponent += 1
            amt = 1
            point = ".0"
    return f"{amt}{point}{'KMGTPEZY'[exponent - 1]}"


def _mode_string(st: FileStat) -> str:
    mode = st.mode
    chars = ["d" if st.is_dir else "-"]
    for shift, special, special_char in ((6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        execute = bits & 1
        if mode & special:
            chars.append(special_char if execute else special_char.upper())
        else:
            chars.append("x" if execute else "-")
    return "".join(chars)


def _blocks_kib(st: FileStat) -> int:
    return -(-st.size // 4096) * 4


def _date(mtime: float, now: float) -> str:
    t = time.gmtime(int(mtime // 1))
    month = MONTHS[t.tm_mon - 1]
    if now - SIX_MONTHS < mtime <= now:
        return f"{month} {t.tm_mday:2d} {t.tm_hour:02d}:{t.tm_min:02d}"
    return f"{month} {t.tm_mday:2d}  {t.tm_year}"


class _Lister:
    def __init__(self, ctx: CommandContext, opts: _Options):
        self.ctx = ctx
        self.opts = opts
        self.status = 0
        self.now = time.time()
        self.out: list[bytes] = []
        self.size = 0
        self.first = True  # no blank line before the first directory header

    def write(self, text: str) -> None:
        self.out.append(text.encode("utf-8", "surrogateescape"))
        self.size += len(self.out[-1])
        if self.size >= 1 << 16:
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.ctx.stdout.write(b"".join(self.out))
            self.out.clear()
            self.size = 0

    def sort(self, entries: list[_Entry]) -> list[_Entry]:
        entries = sorted(entries, key=lambda e: e.key)
        if self.opts.sort == "time":
            entries.sort(key=lambda e: -(e.stat.mtime if e.stat else 0.0))
        elif self.opts.sort == "size":
            entries.sort(key=lambda e: -(e.stat.size if e.stat else 0))
        if self.opts.reverse:
            entries.reverse()
        return entries

    def _size_text(self, st: FileStat) -> str:
        return human_size(st.size) if self.opts.human else str(st.size)

    def print_entries(self, entries: list[_Entry], with_total: bool,
                      width_from: list[_Entry] | None = None) -> None:
        """Print entries; ``-l`` column widths span ``width_from`` (GNU: every operand)."""
        if not self.opts.long:
            for entry in entries:
                self.write(entry.name + "\n")
            return
        rows = []
        total = 0
        for entry in entries:
            st = entry.stat
            if st is None:
                continue
            total += _blocks_kib(st)
            rows.append((_mode_string(st), str(st.nlink), self._size_text(st), _date(st.mtime, self.now), entry.name))
        if with_total:
            self.write(f"total {human_size(total * 1024) if self.opts.human else total}\n")
        stats = [e.stat for e in (width_from if width_from is not None else entries) if e.stat is not None]
        link_width = max((len(str(st.nlink)) for st in stats), default=0)
        size_width = max((len(self._size_text(st)) for st in stats), default=0)
        for row in rows:
            mode, nlink, size, date, name = row
            self.write(f"{mode} {nlink:>{link_width}} {OWNER} {GROUP} {size:>{size_width}} {date} {name}\n")

    def read_dir(self, vpath: str, shown: str, top: bool) -> list[_Entry] | None:
        try:
            names = self.ctx.fs.listdir(vpath)
        except FSError as e:
            self.ctx.error(f"cannot open directory {quoteaf(shown)}: {e}")
            self.status = max(self.status, 2 if top else 1)
            return None
        entries = []
        if self.opts.all == "a":
            names = [".", ".."] + list(names)
        for name in names:
            if name.startswith(".") and not self.opts.all and name not in (".", ".."):
                continue
            child = normalize(name, vpath)
            st = None
            if self.opts.long or self.opts.sort != "name" or self.opts.recursive:
                try:
                    st = self.ctx.fs.stat(child)
                except FSError as e:
                    self.ctx.error(f"cannot access {quoteaf(_join(shown, name))}: {e}")
                    self.status = max(self.status, 1)
            entries.append(_Entry(name, child, st))
        return entries

    def list_dir(self, vpath: str, shown: str, header: bool, top: bool = False) -> None:
        entries = self.read_dir(vpath, shown, top)
        if entries is None:
            return
        if header:
            self.write(("" if self.first else "\n") + shown + ":\n")
        self.first = False
        entries = self.sort(entries)
        self.print_entries(entries, with_total=True)
        if self.opts.recursive:
            for entry in entries:
                if entry.stat is not None and entry.stat.is_dir and entry.name not in (".", ".."):
                    self.ctx.budget.check_time()
                    self.list_dir(entry.vpath, _join(shown, entry.name), True)


def _join(parent: str, name: str) -> str:
    return name if parent == "" else join(parent, name)


def _options(opts: list[tuple[str, str | None]]) -> _Options:
    """The listing settings the parsed options ask for."""
    options = _Options()
    for key, _ in opts:
        if key in ("a", "A"):
            options.all = key
        elif key == "l":
            options.long = True
        elif key == "1":
            pass  # one per line is the pipe format already; GNU: -1 has no effect after -l
        elif key == "h":
            options.human = True
        elif key == "R":
            options.recursive = True
        elif key == "t":
            options.sort = "time"
        elif key == "S":
            options.sort = "size"
        elif key == "r":
            options.reverse = True
        elif key == "d":
            options.directory = True
    if options.directory:
        options.recursive = False
    return options


def run(ctx: CommandContext) -> int:
    """Run ``ls``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="ls (GNU coreutils) 9.1", usage_status=2)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    options = _options(opts)
    lister = _Lister(ctx, options)
    given = operands or ["."]
    files: list[_Entry] = []
    dirs: list[_Entry] = []
    for operand in given:
        try:
            vpath = ctx.path(operand)
            st = ctx.fs.stat(vpath)
        except FSError as e:
            ctx.error(f"cannot access {quoteaf(operand)}: {e}")
            lister.status = 2
            continue
        entry = _Entry(operand, vpath, st)
        if st.is_dir and not options.directory:
            dirs.append(entry)
        else:
            files.append(entry)
    files = lister.sort(files)
    lister.print_entries(files, with_total=False, width_from=files + dirs)
    dirs = lister.sort(dirs)
    header = len(given) > 1 or options.recursive
    lister.first = not files
    for entry in dirs:
        lister.list_dir(entry.vpath, entry.name, header, top=True)
    lister.flush()
    return lister.status
