"""``du``: estimate file space usage (GNU coreutils 9.1): ``-a -s -c -h --si -b -k -m -B SIZE
-d N -0 -x -l -L -H -D -P``,
``-S``, ``-t SIZE``/``--threshold``, ``--exclude=PATTERN``, ``--apparent-size``, ``--max-depth``, ``--summarize``,
``--total``, ``--null``.

Sizes come from the jail's ``FileStat``: a file uses ``ceil(size / 4096)`` 4 KiB blocks (what
ext4 allocates, and what ``ls -s`` assumes), a directory its own size the same way plus its
contents; ``--apparent-size``/``-b`` sum the sizes themselves. With several operands every file and
directory is counted once (``du . d`` shows ``d`` only inside ``.``), as GNU does. Entries of a directory are visited in the host's readdir order where it is a host
directory (GNU's order on the same filesystem; ``_dirorder.py``), else in name order. ``-x`` is a no-op
(the jail is one tree). A link (or special file) a host process put in a directory counts as
no block (its text's length with ``--apparent-size``) under ``-P`` (the default); ``-L`` counts
what each link names, ``-H``/``-D`` what the operands name, every link resolved by name inside
the jail (never opened; a link back up the tree is not walked again, a file reached twice is
counted once);
``-l``/``--count-links`` turns off the once-only counting of several operands, as in GNU (no
file has more than one link).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from sandbox.commands._canonical import stat_through
from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.ls.layout import Scale, human, parse_block_size
from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._textutil import ArgmatchError, argmatch
from sandbox.commands.ls.layout import format_date
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FileStat, FSError, mtime_ns_of

SPEC = OptionSpec(
    "0abB:cd:DHhklLmPsSt:xX:",
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
        "exclude-from": (REQUIRED, "X"),
        "human-readable": (NO_ARG, "h"),
        "summarize": (NO_ARG, "s"),
        "separate-dirs": (NO_ARG, "S"),
        "threshold": (REQUIRED, "threshold"),
        "one-file-system": (NO_ARG, "x"),
        "time": (OPTIONAL, "time"),
        "time-style": (REQUIRED, "time-style"),
        "inodes": (NO_ARG, "inodes"),
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
  -X, --exclude-from=FILE  exclude files that match any pattern in FILE
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
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
      --inodes          list inode usage information instead of block usage
      --time            show time of the last modification of any file in the
                          directory, or any of its subdirectories
      --time=WORD       show time as WORD instead of modification time:
                          atime, access, use, ctime or status
      --time-style=STYLE  show times using STYLE, which can be:
                            full-iso, long-iso, iso, or +FORMAT;
                            FORMAT is interpreted like in 'date'
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
    #: ``--time``: the strftime format of the time column (None: no column)
    time_format: str | None = None
    inodes: bool = False
    #: ``-L``: every link counts as what it names; ``-H``/``-D``: only operands that are links
    follow: str = "P"
    #: ``-t``: entries below it are not shown (negative: those above its magnitude)
    threshold: int = 0


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


def _size(st: FileStat, apparent: bool, inodes: bool = False) -> int:
    if inodes:
        return 1
    if not (st.is_file or st.is_dir) and not apparent:
        return 0  # a link's short text and a special file take no block
    return st.size if apparent else -(-st.size // BLOCK) * BLOCK


#: du's ``--time-style`` names and their formats (``iso`` is the date alone, unlike ls).
TIME_STYLES = {"full-iso": "%Y-%m-%d %H:%M:%S.%N %z", "long-iso": "%Y-%m-%d %H:%M", "iso": "%Y-%m-%d"}
#: ``--time=WORD``: the jail keeps one time per file, so every word shows it.
TIME_WORDS = [["atime", "access", "use"], ["ctime", "status"]]


class _Walker:
    def __init__(self, ctx: CommandContext, o: _Options):
        self.ctx, self.o = ctx, o
        self.seen: set[str] = set()
        #: Directories being walked (a link to one of them is not walked again) and, under
        #: ``-L``, the files counted already.
        self.open_dirs: set[str] = set()
        self.counted: set[str] = set()
        #: With several operands GNU counts every file and directory once (``hash_all``).
        self.hash_all = False
        self.ok = True
        #: the newest mtime (ns) below the entry ``walk`` returned last
        self.tmax = 0

    def show(self, size: int, name: str, mtime_ns: int = 0) -> None:
        o = self.o
        text = human(size, o.scale)
        if o.time_format is not None:
            stamp = format_date(mtime_ns / 1e9, 0.0, (o.time_format, o.time_format), mtime_ns)
            text += "\t" + stamp
        self.ctx.stdout.write(f"{text}\t".encode("utf-8", "surrogateescape")
                              + name.encode("utf-8", "surrogateescape") + o.end)

    def walk(self, vpath: str, shown: str, st: FileStat, depth: int) -> int:
        """Total of ``vpath``, printing the lines GNU prints for it and below it."""
        self.ctx.budget.check_time()
        total = _size(st, self.o.apparent, self.o.inodes)
        tmax = mtime_ns_of(st)  # --time: the newest modification in the subtree
        if st.is_dir:
            self.open_dirs.add(vpath)
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
                    if self.o.follow == "L":  # what the link names, resolved inside the jail
                        cst, child = stat_through(self.ctx, child)
                    else:
                        cst = self.ctx.fs.lstat(child)
                except FSError as e:
                    self.ctx.error(f"cannot access {quoteaf(prefix + name)}: {e}")
                    self.ok = False
                    continue
                if cst.is_dir and child in self.open_dirs:  # a link back up the tree
                    continue
                if self.o.follow == "L" and not cst.is_dir:
                    if child in self.counted:  # GNU counts a file reached twice once
                        continue
                    self.counted.add(child)
                if self.hash_all:
                    self.seen.add(child)
                sub = self.walk(child, prefix + name, cst, depth + 1)
                if not (self.o.separate and cst.is_dir):  # -S: a subdirectory's time stays its own too
                    total += sub
                    tmax = max(tmax, self.tmax)
            self.open_dirs.discard(vpath)
        limit = self.o.max_depth
        if (st.is_dir or self.o.all or depth == 0) and (limit is None or depth <= limit):
            t = self.o.threshold
            if (total <= -t) if t < 0 else (total >= t):  # (bytes, or inodes: before scaling)
                self.show(total, shown, tmax)
        self.tmax = tmax
        return total


def _options(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> _Options | int:
    o = _Options()
    summarize = False
    show_time = False
    time_style: str | None = None
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
        elif key in ("L", "D", "H", "P"):
            o.follow = "D" if key == "H" else key
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
        elif key == "X":  # one pattern a line (gnulib add_exclude_file)
            try:
                data = ctx.stdin.read() if value == "-" else ctx.read_bytes(value or "")
            except FSError as e:
                ctx.error(f"{quotef(value or '')}: {e}")
                return _try(ctx)
            o.exclude += [line for line in data.decode("utf-8", "surrogateescape").split("\n") if line]
        elif key in ("t", "threshold"):
            parsed_t = _threshold(value or "")
            option = "-t" if key == "t" else "--threshold"
            if isinstance(parsed_t, str):
                ctx.error({"invalid": f"invalid {option} argument '{value}'",
                           "suffix": f"invalid suffix in {option} argument '{value}'",
                           "large": f"{option} argument '{value}' too large"}[parsed_t])
                return 1
            if parsed_t == 0 and (value or "").startswith("-"):
                ctx.error("invalid --threshold argument '-0'")
                return 1
            o.threshold = parsed_t
        elif key == "inodes":
            o.inodes = True
        elif key == "time":
            if value is not None:
                words = [w for group in TIME_WORDS for w in group]
                matches = {w for w in words if w.startswith(value)}
                groups = {i for i, g in enumerate(TIME_WORDS) for w in g if w in matches}
                if value not in words and len(groups) != 1:
                    kind = "ambiguous" if groups else "invalid"
                    lines = [f"{kind} argument {quote(value)} for {quote('--time')}", "Valid arguments are:"]
                    lines += ["  - " + ", ".join(quote(w) for w in g) for g in TIME_WORDS]
                    ctx.error("\n".join(lines))
                    return _try(ctx)
            show_time = True
        elif key == "time-style":
            time_style = value or ""
    if show_time:
        style = time_style if time_style is not None else ctx.env.get("TIME_STYLE", "long-iso")
        while style.startswith("posix-"):
            style = style[6:]
        if style.startswith("+"):
            o.time_format = style[1:].partition("\n")[0]
        else:
            try:
                o.time_format = TIME_STYLES[argmatch("time style", style, list(TIME_STYLES))]
            except ArgmatchError as e:
                ctx.error(str(e))
                return _try(ctx)
    if o.inodes and not o.scale.autoscale:
        o.scale = Scale(1)  # counts, not blocks
    if o.all and summarize:
        return ctx.usage_error("cannot both summarize and show all entries")
    if summarize and o.max_depth not in (None, 0):
        ctx.error(f"warning: summarizing conflicts with --max-depth={o.max_depth}")
        return _try(ctx)
    if summarize:
        o.max_depth = 0
    return o


_THRESHOLD_POWERS = {"k": 1, "K": 1, "m": 2, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8}


def _threshold(text: str) -> int | str:
    """gnulib ``xstrtoimax(text, NULL, 0, .., "kKmMGTPEZY0")``: the value, or "invalid",
    "suffix" (a number then something else) or "large" (outside intmax_t)."""
    i = 0
    while i < len(text) and text[i] in " \t\n\v\f\r":
        i += 1
    sign = 1
    if i < len(text) and text[i] in "+-":
        sign, i = (-1 if text[i] == "-" else 1), i + 1
    base, digits = 10, "0123456789"
    if text[i:i + 2].lower() == "0x" and i + 2 < len(text) and text[i + 2] in "0123456789abcdefABCDEF":
        base, digits, i = 16, "0123456789abcdefABCDEF", i + 2
    elif text[i:i + 1] == "0":
        base, digits = 8, "01234567"
    j = i
    while j < len(text) and text[j] in digits:
        j += 1
    rest = text[j:]
    if j == i:
        if not rest or rest[0] not in _THRESHOLD_POWERS:  # (a lone suffix is 1 of it)
            return "invalid"
        value = 1
    else:
        number = text[i:j].lstrip("0") or "0"
        value = int(number, base) if len(number) < 40 else 1 << 200
    if rest:
        if rest[0] not in _THRESHOLD_POWERS:
            return "suffix"
        power, used, mult = _THRESHOLD_POWERS[rest[0]], 1, 1024
        if rest[1:3] == "iB":
            used = 3
        elif rest[1:2] in ("B", "D"):
            used, mult = 2, 1000
        value *= mult ** power
        if rest[used:]:
            return "suffix"
    value *= sign
    if not -(1 << 63) <= value < 1 << 63:
        return "large"
    return value


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
    newest = 0
    for operand in operands or ["."]:
        if operand == "":
            ctx.error("invalid zero-length file name")
            walker.ok = False
            continue
        try:  # (the kernel's `name/` rule too)
            st, vpath = stat_through(ctx, operand, o.follow in ("L", "D"))
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
        newest = max(newest, walker.tmax)
    if any(k == "c" for k, _ in opts):
        walker.show(grand, "total", newest)
    return 0 if walker.ok else 1
