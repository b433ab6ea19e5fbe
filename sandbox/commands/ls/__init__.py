"""``ls``: list directory contents, exactly as GNU ls 9.1 prints to a pipe (C.UTF-8, UTC).

Formats: one name a line (the default off a terminal, ``-1``), ``-C`` (columns), ``-x``
(across), ``-m`` (commas), ``-l`` and ``-o -g -n`` (long), ``--format=WORD``; line width from
``-w`` or ``COLUMNS`` (else 80), tab stops from ``-T`` or ``TABSIZE`` (8; GNU pads columns
with tabs). Entries: ``-a -A -d -R -f``, ``-I PATTERN`` / ``--ignore``, ``--hide`` (not with
``-a``/``-A``), ``-B`` (``*~``). Order: ``-t -S -X -v -U -r``, ``--sort=WORD``,
``-c``/``-u`` (sort by that time unless ``-l``), ``--group-directories-first``. Columns and
decorations: ``-i -s -Z`` (the context is always ``?``: no SELinux), ``-k -h --si --block-size=SIZE``, ``-F -p --file-type
--indicator-style=WORD``, ``-b -q -N -Q --quoting-style=WORD --show-control-chars``
(``QUOTING_STYLE``), ``-G``, ``--time-style=STYLE`` (``TIME_STYLE``), ``--full-time``,
``--color=never|auto`` (output is never a terminal: no colour), ``--author`` (the owner
again), ``--zero`` (NUL ends each line; names literal; one per line unless a format was
given), ``--hyperlink=never|auto`` (no links: never a terminal; ``always`` is refused). ``-L -H`` are accepted: the
jail has no symbolic links.

Deviations, by design of the jail:

- **Owner and group** are ``user``/``user`` (``-n``: 1000/1000): the sandbox's virtual
  identity, never the host's accounts.
- **Block counts** (``total``, ``-s``) are ``ceil(size / 4096) * 4`` KiB, what ext4 and tmpfs
  allocate; backends do not report allocated blocks.
- **Times**: backends keep one time per file, so ``-c`` (ctime), ``-u`` (atime) and
  ``--time=birth`` show and sort by the modification time.
- **Inode numbers** (``-i``) are virtual: a stable number derived from the path.
- ``-U``/``-f`` list in the host's readdir order where the directory is a host directory
  (``_dirorder.py``; ``.`` and ``..`` first), else sorted.
- ``--color=always`` is refused in one line (exit 2).
- ``..`` of a mount point, which is a directory of the virtual tree with no backend, shows
  the mount point's own details rather than a 1970 date.
"""

from __future__ import annotations

import errno
import functools
import time
import zlib
from dataclasses import dataclass, field

from sandbox.commands._identity import GID, GROUP, UID, USER
from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import join
from sandbox.commands.base import CommandContext
from sandbox.commands.find.glob import compile_glob
from sandbox.commands.ls import layout, names
from sandbox.commands.ls.layout import Cell, Scale
from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._canonical import EXISTING, canonicalize
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.commands.sort import filevercmp
from sandbox.fs.base import LINK, TYPE_LETTER, FileStat, FSError
from sandbox.fs.paths import normalize

__all__ = ["run", "human_size"]

SPEC = OptionSpec(
    "1aAbBcCdfFgGhHiI:klLmnNopqQrRsStT:uUvw:xXZ",
    {
        "all": (NO_ARG, "a"), "almost-all": (NO_ARG, "A"), "escape": (NO_ARG, "b"),
        "directory": (NO_ARG, "d"), "classify": (OPTIONAL, "classify"), "file-type": (NO_ARG, "file-type"),
        "format": (REQUIRED, "format"), "full-time": (NO_ARG, "full-time"),
        "group-directories-first": (NO_ARG, "gdf"), "no-group": (NO_ARG, "G"),
        "human-readable": (NO_ARG, "h"), "si": (NO_ARG, "si"), "inode": (NO_ARG, "i"),
        "kibibytes": (NO_ARG, "k"), "numeric-uid-gid": (NO_ARG, "n"), "literal": (NO_ARG, "N"),
        "indicator-style": (REQUIRED, "indicator-style"), "hide-control-chars": (NO_ARG, "q"),
        "show-control-chars": (NO_ARG, "show-control-chars"), "quote-name": (NO_ARG, "Q"),
        "quoting-style": (REQUIRED, "quoting-style"), "reverse": (NO_ARG, "r"),
        "recursive": (NO_ARG, "R"), "size": (NO_ARG, "s"), "sort": (REQUIRED, "sort"),
        "time": (REQUIRED, "time"), "time-style": (REQUIRED, "time-style"),
        "tabsize": (REQUIRED, "T"), "width": (REQUIRED, "w"), "block-size": (REQUIRED, "block-size"),
        "ignore": (REQUIRED, "I"), "hide": (REQUIRED, "hide"), "ignore-backups": (NO_ARG, "B"),
        "color": (OPTIONAL, "color"), "dereference": (NO_ARG, "L"),
        "dereference-command-line": (NO_ARG, "H"), "context": (NO_ARG, "Z"),
        "author": (NO_ARG, "author"), "zero": (NO_ARG, "zero"), "hyperlink": (OPTIONAL, "hyperlink"),
        "help": (NO_ARG, "help"), "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -b, --escape               print C-style escapes for nongraphic characters
      --block-size=SIZE      with -l, scale sizes by SIZE when printing them
  -c                         with -lt: sort by, and show, ctime; with -l: show ctime
  -C                         list entries by columns
      --color[=WHEN]         WHEN: 'never' or 'auto' (output is never coloured)
  -d, --directory            list directories themselves, not their contents
  -f                         list all entries in directory order
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries WHEN
      --file-type            likewise, except do not append '*'
      --format=WORD          across -x, commas -m, horizontal -x, long -l,
                               single-column -1, verbose -l, vertical -C
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first  group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, -L                     accepted (there are no symbolic links)
      --indicator-style=WORD  none, slash (-p), file-type (--file-type), classify (-F)
  -i, --inode                print the index number of each file
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN
      --hide=PATTERN         do not list implied entries matching shell PATTERN
                               (overridden by -a or -A)
  -B, --ignore-backups       do not list implied entries ending with ~
  -k, --kibibytes            default to 1024-byte blocks for file system usage
  -l                         use a long listing format
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash  append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
      --show-control-chars   show nongraphic characters as-is
  -Q, --quote-name           enclose entry names in double quotes
      --quoting-style=WORD   literal, locale, shell, shell-always, shell-escape,
                               shell-escape-always, c, escape
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            none (-U), size (-S), time (-t), version (-v), extension (-X), width
      --time=WORD            atime, access, use, ctime, status, birth, creation
      --time-style=TIME_STYLE  full-iso, long-iso, iso, locale, or +FORMAT
  -t                         sort by time, newest first
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -u                         with -lt: sort by, and show, access time
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -Z, --context              print any security context of each file
  -1                         list one file per line
      --help     display this help and exit
      --version  output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
"""

LS_FAILURE = 2
MODE_OF_FORMAT = {"1": "one", "C": "columns", "x": "across", "m": "commas", "l": "long"}
FORMAT_ARGS = [("verbose", "long"), ("long", "long"), ("commas", "commas"), ("horizontal", "across"),
               ("across", "across"), ("vertical", "columns"), ("single-column", "one")]
SORT_ARGS = [("none", "none"), ("time", "time"), ("size", "size"), ("extension", "extension"),
             ("version", "version"), ("width", "width")]
TIME_ARGS = [("atime", "atime"), ("access", "atime"), ("use", "atime"), ("ctime", "ctime"),
             ("status", "ctime"), ("birth", "birth"), ("creation", "birth")]
INDICATOR_ARGS = [("none", "none"), ("slash", "slash"), ("file-type", "file-type"), ("classify", "classify")]
WHEN_ARGS = [("always", "always"), ("yes", "always"), ("force", "always"), ("never", "never"),
             ("no", "never"), ("none", "never"), ("auto", "auto"), ("tty", "auto"), ("if-tty", "auto")]
QUOTING_ARGS = [(s, s) for s in names.STYLES]


class LsError(Exception):
    """A fatal command-line problem: the message (possibly several lines) and whether GNU adds
    its ``Try 'ls --help'`` line."""

    def __init__(self, message: str, try_help: bool = True, status: int = 2):
        super().__init__(message)
        self.try_help = try_help
        self.status = status


def argmatch(option: str, value: str, choices: list[tuple[str, str]]) -> str:
    """gnulib ``XARGMATCH``: exact or unambiguous prefix; the error lists synonyms together."""
    for name, result in choices:
        if name == value:
            return result
    found = {result for name, result in choices if name.startswith(value)}
    if len(found) == 1:
        return found.pop()
    kind = "ambiguous" if found else "invalid"
    lines = [f"{kind} argument {quote(value)} for {quote(option)}", "Valid arguments are:"]
    seen: dict[str, list[str]] = {}
    for name, result in choices:
        seen.setdefault(result, []).append(quote(name))
    lines += ["  - " + ", ".join(group) for group in seen.values()]
    raise LsError("\n".join(lines), status=1)  # gnulib's argmatch_die: usage(EXIT_FAILURE)


def human_size(value: int) -> str:
    """GNU ``human_readable`` with ``-h``: base 1024, autoscale, round up (``4.0K``, ``15M``)."""
    return layout.human(value, Scale(1, True, True, 1024))


@dataclass
class _Options:
    all: str = ""  # "", "a" or "A"
    format: str = "one"
    recursive: bool = False
    directory: bool = False
    sort: str = "name"
    reverse: bool = False
    dirs_first: bool = False
    owner: bool = True
    group: bool = True
    numeric: bool = False
    inode: bool = False
    #: -Z: the security context column, always ``?`` (no SELinux in the jail, as GNU prints
    #: without it)
    context: bool = False
    blocks: bool = False
    block_scale: Scale = field(default_factory=lambda: Scale(1024))
    size_scale: Scale = field(default_factory=Scale)
    indicator: str = "none"
    style: str = "literal"
    qmark: bool = False
    width: int = 80
    tabsize: int = 8
    time_formats: tuple[str, str] = ("%b %e  %Y", "%b %e %H:%M")
    ignore: list[str] = field(default_factory=list)  # -I, -B: always applied
    hide: list[str] = field(default_factory=list)  # --hide: only without -a/-A
    author: bool = False  # --author: the owner again, as the author column of -l
    eol: str = "\n"  # --zero: NUL

    @property
    def long(self) -> bool:
        return self.format == "long"


def _width(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise LsError(f"invalid {what}: {quote(text)}", try_help=False)
    return min(int(text), (1 << 64) - 1)


def _options(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> _Options:
    """The listing settings the parsed options ask for (GNU's ``decode_switches``)."""
    o = _Options()
    sort_given = time_given = False
    scale: tuple[Scale, Scale] | None = None
    kibibytes = False
    time_style: str | None = None
    width: str | None = None
    tabsize: str | None = None
    style: str | None = None
    format_given = False
    for key, value in opts:
        if key in ("a", "A"):
            o.all = key
        elif key in MODE_OF_FORMAT:
            if not (key == "1" and o.format == "long"):  # GNU: -1 has no effect after -l
                o.format = MODE_OF_FORMAT[key]
            format_given = True
        elif key == "format":
            o.format = argmatch("--format", value or "", FORMAT_ARGS)
            format_given = True
        elif key in ("g", "o", "n"):
            o.format = "long"
            format_given = True
            if key == "g":
                o.owner = False
            elif key == "o":
                o.group = False
            else:
                o.numeric = True
        elif key == "G":
            o.group = False
        elif key == "full-time":
            o.format = "long"
            format_given = True
            time_style = "full-iso"
        elif key == "time-style":
            time_style = value
        elif key == "R":
            o.recursive = True
        elif key == "d":
            o.directory = True
        elif key == "r":
            o.reverse = True
        elif key in ("t", "S", "X", "U", "v", "sort"):
            o.sort = {"t": "time", "S": "size", "X": "extension", "U": "none", "v": "version"}.get(key) or \
                argmatch("--sort", value or "", SORT_ARGS)
            sort_given = True
        elif key == "f":
            o.all, o.sort, sort_given, o.blocks = "a", "none", True, False
            if o.format == "long":
                o.format = "one"
        elif key in ("c", "u"):
            time_given = True
        elif key == "time":
            argmatch("--time", value or "", TIME_ARGS)
            time_given = True
        elif key == "gdf":
            o.dirs_first = True
        elif key == "I":
            o.ignore.append(value or "")
        elif key == "B":
            o.ignore += ["*~", ".*~"]
        elif key == "hide":
            o.hide.append(value or "")
        elif key == "i":
            o.inode = True
        elif key == "Z":
            o.context = True
        elif key == "s":
            o.blocks = True
        elif key == "k":
            kibibytes = True
        elif key == "h":
            scale = (Scale(1, True, True, 1024),) * 2
        elif key == "si":
            scale = (Scale(1, True, True, 1000),) * 2
        elif key == "block-size":
            parsed = layout.parse_block_size(value or "")
            if isinstance(parsed, str):
                shown = "'" + (value or "") + "'"
                raise LsError({"invalid": f"invalid --block-size argument {shown}",
                               "suffix": f"invalid suffix in --block-size argument {shown}",
                               "large": f"--block-size argument {shown} too large"}[parsed],
                              try_help=False)
            scale = (parsed, parsed)
        elif key == "F" or key == "classify":
            when = "always" if value is None else argmatch("--classify", value, WHEN_ARGS)
            o.indicator = "classify" if when == "always" else "none"
        elif key == "p":
            o.indicator = "slash"
        elif key == "file-type":
            o.indicator = "file-type"
        elif key == "indicator-style":
            o.indicator = argmatch("--indicator-style", value or "", INDICATOR_ARGS)
        elif key in ("b", "N", "Q", "quoting-style"):
            style = {"b": "escape", "N": "literal", "Q": "c"}.get(key) or \
                argmatch("--quoting-style", value or "", QUOTING_ARGS)
        elif key == "q":
            o.qmark = True
        elif key == "show-control-chars":
            o.qmark = False
        elif key == "w":
            width = value
        elif key == "T":
            tabsize = value
        elif key == "author":
            o.author = True
        elif key == "zero":  # GNU: NUL ends lines, names literal, one per line unless a format was chosen
            o.eol, o.qmark, style = "\0", False, "literal"
            if not format_given:
                o.format = "one"
        elif key == "hyperlink":
            when = "always" if value is None else argmatch("--hyperlink", value, WHEN_ARGS)
            if when == "always":
                raise LsError("--hyperlink=always is not supported: the jail has no host name for the "
                              "links; use --hyperlink=never", try_help=False)
        elif key == "color":
            when = "always" if value is None else argmatch("--color", value, WHEN_ARGS)
            if when == "always":
                raise LsError("--color=always is not supported: output is never a terminal; "
                              "use --color=never or --color=auto", try_help=False)
    if time_given and not sort_given and o.format != "long":
        o.sort = "time"
    if scale is not None:
        o.block_scale, o.size_scale = scale
    elif kibibytes:
        o.block_scale = Scale(1024)
    o.width = _line_width(ctx, width)
    if o.width >= (1 << 64) - 1:
        o.width = 0  # GNU: SIZE_MAX columns is no limit
    o.tabsize = _tab_size(ctx, tabsize) if o.width else 0
    o.style = _quoting_style(ctx, style)
    if o.long:
        time_style = time_style if time_style is not None else ctx.env.get("TIME_STYLE", "locale")
        o.time_formats = _time_style(time_style)
    if o.directory:
        o.recursive = False
    return o


def _line_width(ctx: CommandContext, width: str | None) -> int:
    if width is not None:
        return _width(width, "line width")
    env = ctx.env.get("COLUMNS")
    if env:
        if env.isascii() and env.isdigit():
            return min(int(env), (1 << 64) - 1)
        ctx.error(f"ignoring invalid width in environment variable COLUMNS: {quote(env)}")
    return 80


def _tab_size(ctx: CommandContext, tabsize: str | None) -> int:
    if tabsize is not None:
        return _width(tabsize, "tab size")
    env = ctx.env.get("TABSIZE")
    if env:
        if env.isascii() and env.isdigit():
            return min(int(env), (1 << 64) - 1)
        ctx.error(f"ignoring invalid tab size in environment variable TABSIZE: {quote(env)}")
    return 8


def _quoting_style(ctx: CommandContext, style: str | None) -> str:
    if style is not None:
        return style
    env = ctx.env.get("QUOTING_STYLE")
    if env is not None:
        if env in names.STYLES:
            return env
        ctx.error(f"ignoring invalid value of environment variable QUOTING_STYLE: {quote(env)}")
    return "literal"


def _time_style(style: str) -> tuple[str, str]:
    formats = layout.parse_time_style(style)
    if formats is not None:
        return formats
    bare = style
    while bare.startswith("posix-"):
        bare = bare[6:]
    found = {s for s in layout.TIME_STYLES if s.startswith(bare)}
    if len(found) == 1:
        return layout.parse_time_style(found.pop())  # type: ignore[return-value]
    kind = "ambiguous" if found else "invalid"
    lines = [f"{kind} argument {quote(style)} for {quote('time style')}", "Valid arguments are:"]
    lines += [f"  - [posix-]{s}" for s in layout.TIME_STYLES]
    lines.append("  - +FORMAT (e.g., +%H:%M) for a 'date'-style format")
    raise LsError("\n".join(lines))


@dataclass
class _Entry:
    """One name to print, with its stat (None when it could not be read)."""

    name: str  # as given or as read from the directory
    vpath: str  # absolute virtual path
    stat: FileStat | None

    @property
    def key(self) -> bytes:
        return self.name.encode("utf-8", "surrogateescape")


def _mode_string(st: FileStat) -> str:
    mode = st.mode
    chars = ["-" if st.is_file else TYPE_LETTER[st.kind]]
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


def _blocks(st: FileStat) -> int:
    """Allocated 512-byte blocks (see the module docstring); a link's short text and a
    special file take none."""
    if not (st.is_file or st.is_dir):
        return 0
    return -(-st.size // 4096) * 8


def _inode(vpath: str) -> int:
    return zlib.crc32(vpath.encode("utf-8", "surrogateescape")) % 9_000_000 + 1_000_000


def _extension_key(e: _Entry) -> tuple[bytes, bytes]:
    dot = e.key.rfind(b".")
    return (e.key[dot:] if dot >= 0 else b"", e.key)


class _Lister:
    def __init__(self, ctx: CommandContext, opts: _Options):
        self.ctx = ctx
        self.opts = opts
        self.status = 0
        self.now = _now()
        self.out: list[str] = []
        self.size = 0
        self.first = True  # no blank line before the first directory header
        self.indicators = {"classify": "*=>@|", "file-type": "=>@|"}.get(opts.indicator, "") \
            if opts.style in ("escape", "c") else ""
        self.align_quotes = opts.style in ("shell", "shell-escape", "c-maybe") and (
            opts.long or (opts.format in ("columns", "across") and opts.width != 0))

    def write(self, text: str) -> None:
        self.out.append(text)
        self.size += len(text)
        if self.size >= 1 << 16:
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.ctx.stdout.write("".join(self.out).encode("utf-8", "surrogateescape"))
            self.out.clear()
            self.size = 0

    # -- ordering ----------------------------------------------------------------------------

    def sort(self, entries: list[_Entry]) -> list[_Entry]:
        how = self.opts.sort
        if how == "none":
            return entries
        if how == "version":
            cmp = functools.cmp_to_key(lambda a, b: filevercmp(a.key, b.key) or (a.key > b.key) - (a.key < b.key))
            entries = sorted(entries, key=cmp)
        elif how == "extension":
            entries = sorted(entries, key=_extension_key)
        elif how == "width":
            entries = sorted(entries, key=lambda e: (names.display_width(self.shown(e.name)), e.key))
        else:
            entries = sorted(entries, key=lambda e: e.key)
            if how == "time":
                entries.sort(key=lambda e: -(e.stat.mtime if e.stat else 0.0))
            elif how == "size":
                entries.sort(key=lambda e: -(e.stat.size if e.stat else 0))
        if self.opts.reverse:
            entries.reverse()
        if self.opts.dirs_first:
            entries = [e for e in entries if e.stat and e.stat.is_dir] + \
                      [e for e in entries if not (e.stat and e.stat.is_dir)]
        return entries

    # -- pieces of a line ----------------------------------------------------------------------

    def shown(self, name: str) -> str:
        return names.quote_name(name.encode("utf-8", "surrogateescape"), self.opts.style, self.opts.qmark,
                                self.indicators)

    def _name_cells(self, entries: list[_Entry], pad_from: list[_Entry]) -> list[Cell]:
        """Each name as printed (quoting, outer-quote padding, indicator) with its width."""
        pad = False
        if self.align_quotes:
            pad = any(names.is_quoted(e.key, self.shown(e.name)) for e in pad_from)
        cells = []
        for e in entries:
            text = self.shown(e.name)
            if pad and not names.is_quoted(e.key, text):
                text = " " + text
            text += names.indicator(e.stat, self.opts.indicator)
            cells.append(Cell(text, names.display_width(text)))
        return cells

    def _block_text(self, st: FileStat | None) -> str:
        return "?" if st is None else layout.human(_blocks(st), self.opts.block_scale, 512)

    def _size_text(self, st: FileStat) -> str:
        return layout.human(st.size, self.opts.size_scale)

    def print_entries(self, entries: list[_Entry], with_total: bool,
                      width_from: list[_Entry] | None = None) -> None:
        """Print entries; widths span ``width_from`` (GNU: every operand)."""
        o = self.opts
        span = width_from if width_from is not None else entries
        if with_total and (o.long or o.blocks):
            total = sum(_blocks(e.stat) for e in entries if e.stat is not None)
            self.write(f"total {layout.human(total, o.block_scale, 512)}{o.eol}")
        if o.long:
            self._print_long(entries, span)
            return
        commas = o.format == "commas"
        inode_w = 0 if commas else max((len(str(_inode(e.vpath))) for e in span), default=0)
        block_w = 0 if commas else max((len(self._block_text(e.stat)) for e in span), default=0)
        cells = self._name_cells(entries, span)
        for e, cell in zip(entries, cells):
            prefix = ""
            if o.inode:
                prefix += f"{_inode(e.vpath) if e.stat else '?':>{inode_w}} "
            if o.blocks:
                prefix += f"{self._block_text(e.stat):>{block_w}} "
            if o.context:
                prefix += "? "
            if prefix:
                cell.text, cell.width = prefix + cell.text, len(prefix) + cell.width
        if o.format == "one":
            self.write("".join(c.text + o.eol for c in cells))
        elif o.format == "columns":
            self.write(layout.vertical(cells, o.width, o.tabsize, o.eol))
        elif o.format == "across":
            self.write(layout.horizontal(cells, o.width, o.tabsize, o.eol))
        else:
            self.write(layout.commas(cells, o.width, o.eol))

    def _print_long(self, entries: list[_Entry], span: list[_Entry]) -> None:
        o = self.opts
        stats = [e.stat for e in span if e.stat is not None]
        owner, group = (str(UID), str(GID)) if o.numeric else (USER, GROUP)
        link_w = max((len(str(st.nlink)) for st in stats), default=0)
        size_w = max((len(self._size_text(st)) for st in stats), default=0)
        inode_w = max((len(str(_inode(e.vpath))) for e in span if e.stat), default=0)
        block_w = max((len(self._block_text(st)) for st in stats), default=0)
        cells = self._name_cells(entries, span)
        for e, cell in zip(entries, cells):
            st = e.stat
            if st is None:
                continue
            line = ""
            if o.inode:
                line += f"{_inode(e.vpath):>{inode_w}} "
            if o.blocks:
                line += f"{self._block_text(st):>{block_w}} "
            line += f"{_mode_string(st)} {st.nlink:>{link_w}} "
            if o.owner:
                line += owner + " "
            if o.group:
                line += group + " "
            if o.author:
                line += owner + " "
            if o.context:
                line += "? "
            date = layout.format_date(st.mtime, self.now, o.time_formats, st.mtime_ns)
            text = cell.text
            if st.kind == LINK:  # `name -> target`, the target quoted as a name is
                try:
                    target = self.ctx.fs.readlink(e.vpath)
                except FSError:
                    target = ""
                text += " -> " + names.quote_name(target.encode("utf-8", "surrogateescape"),
                                                  o.style, o.qmark)
            self.write(f"{line}{self._size_text(st):>{size_w}} {date} {text}{o.eol}")

    # -- directories ---------------------------------------------------------------------------

    def stat_child(self, child: str, parent: str) -> FileStat:
        """The stat of a listed entry, never following a link (a link or special file is
        shown as what it is); a virtual directory above the mounts (``..`` of a mount point)
        gets the listed directory's own time and mode, and the links of a directory that
        holds just it (3), as the directory a memory store is usually kept in."""
        st = self.ctx.fs.lstat(child)
        if (st.is_dir and st.mtime == 0.0 and child != parent and parent.startswith(child.rstrip("/") + "/")
                and self.ctx.fs.resolve(child) is None):
            own = self.ctx.fs.stat(parent)
            return FileStat(st.kind, own.size, own.mtime, own.mode, 3)
        return st

    def read_dir(self, vpath: str, shown: str, top: bool) -> list[_Entry] | None:
        try:
            found = self.ctx.fs.listdir(vpath)
        except FSError as e:
            self.ctx.error(f"cannot open directory {quoteaf(shown)}: {e}")
            self.status = max(self.status, 2 if top else 1)
            return None
        entries = []
        if self.opts.sort == "none":  # -U, -f: the host's readdir order, as GNU's
            found = in_directory_order(self.ctx.fs, vpath, found)
        listed = ([".", ".."] if self.opts.all == "a" else []) + list(found)
        for name in listed:
            if name.startswith(".") and not self.opts.all and name not in (".", ".."):
                continue
            if self.ignored(name):
                continue
            child = normalize(name, vpath)
            st = None
            try:
                st = self.stat_child(child, vpath)
            except FSError as e:
                self.ctx.error(f"cannot access {quoteaf(_join(shown, name))}: {e}")
                self.status = max(self.status, 1)
            entries.append(_Entry(name, child, st))
        return entries

    def ignored(self, name: str) -> bool:
        """GNU's ``file_ignored`` for the pattern options (``fnmatch`` with FNM_PERIOD)."""
        patterns = self.opts.ignore + ([] if self.opts.all else self.opts.hide)
        return any(_fnmatch_period(p, name) for p in patterns)

    def list_dir(self, vpath: str, shown: str, header: bool, top: bool = False) -> None:
        entries = self.read_dir(vpath, shown, top)
        if entries is None:
            return
        if header:
            title = names.quote_name(shown.encode("utf-8", "surrogateescape"), self.opts.style,
                                     self.opts.qmark, ":" if self.opts.style in ("escape", "c") else "")
            self.write(("" if self.first else "\n") + title + ":\n")
        self.first = False
        entries = self.sort(entries)
        self.print_entries(entries, with_total=True)
        if self.opts.recursive:
            for entry in entries:
                if entry.stat is not None and entry.stat.is_dir and entry.name not in (".", ".."):
                    self.ctx.budget.check_time()
                    self.list_dir(entry.vpath, _join(shown, entry.name), True)


def _fnmatch_period(pattern: str, name: str) -> bool:
    """glibc ``fnmatch(pattern, name, FNM_PERIOD)``: a leading ``.`` only matches a ``.``."""
    if name.startswith("."):
        if pattern.startswith("\\."):
            pattern = pattern[1:]
        if not pattern.startswith("."):
            return False
    return compile_glob(pattern).match(name) is not None


def _now() -> float:
    return time.time()


def _join(parent: str, name: str) -> str:
    return name if parent == "" else join(parent, name)


def run(ctx: CommandContext) -> int:
    """Run ``ls``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
        if "help" in {k for k, _ in opts}:
            ctx.stdout.write(USAGE.encode())
            return 0
        if "version" in {k for k, _ in opts}:
            ctx.stdout.write(b"ls (GNU coreutils) 9.1\n")
            return 0
        options = _options(ctx, opts)
    except UsageError as err:
        return ctx.usage_error(str(err), LS_FAILURE)
    except LsError as err:
        if err.try_help:
            return ctx.usage_error(str(err), err.status)
        ctx.error(str(err))
        return err.status
    lister = _Lister(ctx, options)
    given = operands or ["."]
    files: list[_Entry] = []
    dirs: list[_Entry] = []
    for operand in given:
        try:
            vpath = ctx.path(operand)
            st = lister.stat_child(vpath, ctx.cwd)
            if operand.endswith("/") and not st.is_dir:  # the kernel refuses "file/"
                raise FSError(errno.ENOTDIR, operand)
        except FSError as e:
            ctx.error(f"cannot access {quoteaf(operand)}: {e}")
            lister.status = 2
            continue
        if st.kind == LINK and not (options.directory or options.long
                                    or options.indicator == "classify"):
            # a link named on the command line to a directory is listed as that directory
            # (GNU's default); the link is resolved by name inside the jail, never opened
            try:
                target = canonicalize(ctx, operand, EXISTING)
                if ctx.fs.lstat(target).is_dir:
                    vpath, st = target, ctx.fs.lstat(target)
            except FSError:
                pass
        entry = _Entry(operand, vpath, st)
        if st.is_dir and not options.directory:
            dirs.append(entry)
        else:
            files.append(entry)
    files = lister.sort(files)
    if files:
        lister.print_entries(files, with_total=False, width_from=files + dirs)
    dirs = lister.sort(dirs)
    header = len(given) > 1 or options.recursive
    lister.first = not files
    for entry in dirs:
        lister.list_dir(entry.vpath, entry.name, header, top=True)
    lister.flush()
    return lister.status
