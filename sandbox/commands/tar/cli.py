"""tar's command line: GNU's traditional style (``tar czf x.tgz dir``), argp-style short and
long options, and the name-selection options (``-C``, ``-T``, ``--exclude``, ``--wildcards``,
``--no-recursion``...) kept as ordered elements, as GNU's name list keeps them: they are
positional (they affect the names after them) and are read by ``namelist``."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands._identity import GID, GROUP, UID, USER

#: Short options; ``:`` after a letter takes an argument.
SHORT = "cxtrudf:vC:zjJaOkmpoT:X:P"
#: Long options: name -> (takes an argument, key); ``None`` for an optional argument.
LONG: dict[str, tuple[bool | None, str]] = {
    "create": (False, "c"), "extract": (False, "x"), "get": (False, "x"), "list": (False, "t"),
    "append": (False, "r"), "update": (False, "u"), "diff": (False, "d"),
    "compare": (False, "d"), "delete": (False, "delete"),
    "file": (True, "f"), "verbose": (False, "v"), "directory": (True, "C"),
    "gzip": (False, "z"), "gunzip": (False, "z"), "ungzip": (False, "z"),
    "bzip2": (False, "j"), "xz": (False, "J"), "auto-compress": (False, "a"),
    "to-stdout": (False, "O"), "keep-old-files": (False, "k"), "touch": (False, "m"),
    "exclude": (True, "exclude"), "strip-components": (True, "strip"),
    "wildcards": (False, "wildcards"), "no-wildcards": (False, "no-wildcards"),
    "numeric-owner": (False, "numeric-owner"), "owner": (True, "owner"),
    "group": (True, "group"), "mtime": (True, "mtime"), "sort": (True, "sort"),
    "overwrite": (False, "overwrite"), "overwrite-dir": (False, "overwrite-dir"),
    "skip-old-files": (False, "skip-old-files"),
    "preserve-permissions": (False, "p"),
    "same-permissions": (False, "p"), "no-same-owner": (False, "o"),
    "no-same-permissions": (False, "no-same-permissions"),
    "full-time": (False, "full-time"),
    "files-from": (True, "T"), "exclude-from": (True, "X"),
    "null": (False, "null"), "no-null": (False, "no-null"),
    "unquote": (False, "unquote"), "no-unquote": (False, "no-unquote"),
    "verbatim-files-from": (False, "verbatim-files-from"),
    "no-verbatim-files-from": (False, "no-verbatim-files-from"),
    "recursion": (False, "recursion"), "no-recursion": (False, "no-recursion"),
    "exclude-vcs": (False, "exclude-vcs"), "exclude-backups": (False, "exclude-backups"),
    "absolute-names": (False, "P"), "remove-files": (False, "remove-files"),
    "transform": (True, "transform"), "xform": (True, "transform"),
    "show-transformed-names": (False, "show-transformed-names"),
    "show-stored-names": (False, "show-transformed-names"),
    "totals": (None, "totals"),
    "help": (False, "help"), "version": (False, "version"),
}
MODES = "cxtrud"
_COMPRESS = {"z": "gzip", "j": "bzip2", "J": "xz"}
TRY = "Try 'tar --help' or 'tar --usage' for more information."
#: Name-selection options: kept in order among the operands (GNU's ``names_argp``).
SELECTION = frozenset({"C", "T", "X", "exclude", "wildcards", "no-wildcards", "null", "no-null",
                       "unquote", "no-unquote", "verbatim-files-from",
                       "no-verbatim-files-from", "recursion", "no-recursion", "exclude-vcs",
                       "exclude-backups"})
#: How GNU names a selection option in its "has no effect" warning.
DISPLAY = {"C": "-C", "X": "--exclude-from", "T": "--files-from"}
#: ``--totals=SIGNAL``: the signals GNU accepts (the totals then wait for the signal).
SIGNALS = frozenset({"HUP", "QUIT", "INT", "USR1", "USR2"})
#: ``old_files_option`` codes and the option that names each (GNU's ``code_to_opt``).
OLD_FILES = {"overwrite-dir": "--overwrite-dir", "overwrite": "--overwrite",
             "k": "--keep-old-files", "skip-old-files": "--skip-old-files"}


class CliError(Exception):
    """A command-line error: ``str`` is the message; ``status`` tar's exit status; ``try_line``
    whether GNU's "Try 'tar --help'" line follows; ``epilogue`` whether GNU's "Error is not
    recoverable" line does."""

    def __init__(self, message: str, status: int = 64, try_line: bool = True,
                 epilogue: bool = False):
        super().__init__(message)
        self.status = status
        self.try_line = try_line
        #: GNU's FATAL_ERROR: "Error is not recoverable: exiting now" follows.
        self.epilogue = epilogue


@dataclass(frozen=True)
class Exclude:
    """One exclusion pattern with the matching flags in force when it was given."""

    pattern: str
    wildcards: bool = True
    #: FNM_LEADING_DIR: the pattern also matches a name's leading directories (recursion on).
    leading_dir: bool = True


@dataclass
class Operand:
    """A file or member name with the selection state in force where it appeared."""

    name: str
    dirs: tuple[str, ...]
    wildcards: bool
    recursion: bool = True
    excludes: tuple[Exclude, ...] = ()


@dataclass
class Element:
    """One piece of the ordered name list: an operand (``key == ""``) or a selection option
    (``key`` as in ``SELECTION``), with the text GNU's warnings show for it."""

    key: str
    value: str | None
    shown: str = ""


@dataclass
class Options:
    """Everything the command line asked for."""

    mode: str | None = None
    archive: str = "-"
    verbose: int = 0
    compress: str | None = None
    auto_compress: bool = False
    #: The operands and selection options, in order (``namelist`` expands them).
    elements: list[Element] = field(default_factory=list)
    #: The expanded operands (set by ``namelist`` before a mode runs).
    operands: list[Operand] = field(default_factory=list)
    #: Exclusions that apply to every member (reading modes: GNU applies them at once).
    excludes: list[Exclude] = field(default_factory=list)
    #: Every ``-C`` met in the name list, lists included (where reading modes work).
    read_dirs: list[str] = field(default_factory=list)
    to_stdout: bool = False
    keep_old: bool = False
    skip_old: bool = False
    overwrite: bool = False
    touch: bool = False
    strip: int = 0
    numeric_owner: bool = False
    owner: tuple[str, int] = (USER, UID)
    group: tuple[str, int] = (GROUP, GID)
    mtime: str | None = None
    sort: str = "none"
    full_time: bool = False
    absolute: bool = False
    remove_files: bool = False
    transforms: list[str] = field(default_factory=list)
    show_transformed: bool = False
    #: ``--totals``: print the byte count at the end (not with ``--totals=SIGNAL``).
    totals: bool = False
    help: bool = False
    version: bool = False

    @property
    def dirs(self) -> list[str]:
        """Every ``-C`` of the command line, in order (where reading modes extract)."""
        return [e.value or "" for e in self.elements if e.key == "C"]

    @property
    def updating(self) -> bool:
        """True in the modes whose selection options are positional (create and update)."""
        return self.mode in ("c", "r", "u")


def expand_traditional(args: list[str]) -> list[str]:
    """``tar czf x.tgz dir`` -> ``-c -z -f x.tgz dir``: a first word without ``-`` is a
    cluster of letters whose arguments are the next words, in order."""
    if not args or args[0].startswith("-"):
        return list(args)
    letters, rest = args[0], list(args[1:])
    out: list[str] = []
    for ch in letters:
        i = SHORT.find(ch)
        if i < 0:
            raise CliError(f"invalid option -- '{ch}'")
        if SHORT[i + 1 : i + 2] == ":":
            if not rest:
                raise CliError(f"Old option '{ch}' requires an argument.", 2)
            out += [f"-{ch}", rest.pop(0)]
        else:
            out.append(f"-{ch}")
    return out + rest


def _long(name: str, arg: str) -> tuple[bool | None, str, str]:
    if name in LONG:
        return (*LONG[name], name)
    matches = [k for k in LONG if k.startswith(name)]
    if not matches:
        raise CliError(f"unrecognized option '{arg}'")
    if len({LONG[m] for m in matches}) > 1:
        names = " ".join(f"'--{m}'" for m in matches)
        raise CliError(f"option '{arg}' is ambiguous; possibilities: {names}")
    return (*LONG[matches[0]], matches[0])


def events(args: list[str]) -> list[tuple[str, str | None, str]]:
    """The options and operands in order: (key, value, option name) triples, operands keyed
    ``""``."""
    args = expand_traditional(args)
    out: list[tuple[str, str | None, str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out += [("", a, "") for a in args[i:]]
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            takes, key, full = _long(name, arg)
            if takes is None:
                out.append((key, value if eq else None, "--" + full))
            elif takes:
                if not eq:
                    if i >= len(args):
                        raise CliError(f"option '--{full}' requires an argument")
                    value = args[i]
                    i += 1
                out.append((key, value, "--" + full))
            else:
                if eq:
                    raise CliError(f"option '--{full}' doesn't allow an argument")
                out.append((key, None, "--" + full))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                ch = arg[j]
                k = SHORT.find(ch)
                if k < 0 or ch == ":":
                    raise CliError(f"invalid option -- '{ch}'")
                j += 1
                if SHORT[k + 1 : k + 2] == ":":
                    if j < len(arg):
                        out.append((ch, arg[j:], "-" + ch))
                    elif i < len(args):
                        out.append((ch, args[i], "-" + ch))
                        i += 1
                    else:
                        raise CliError(f"option requires an argument -- '{ch}'")
                    break
                out.append((ch, None, "-" + ch))
            continue
        out.append(("", arg, ""))
    return out


def _owner(value: str, default_id: int, known: tuple[str, int]) -> tuple[str, int]:
    """``--owner``/``--group``: NAME[:ID] or ID, looked up in the virtual user database
    (``known`` is its only entry): an unknown NAME keeps the file's id, an unknown ID gets
    no name."""
    name, colon, number = value.partition(":")
    if colon and number.isdigit():
        return (name or (known[0] if int(number) == known[1] else "")), int(number)
    if name.isdigit():
        return (known[0] if int(name) == known[1] else ""), int(name)
    return name, known[1] if name == known[0] else default_id


def selection_shown(key: str, value: str | None, option: str) -> str:
    """A selection option as GNU's "has no effect" warning names it."""
    name = DISPLAY.get(key, option if option.startswith("--") else "--" + key)
    return f"{name} ‘{value}’" if value is not None else name


def parse_args(args: list[str]) -> Options:
    """The ``Options`` of a command line; raises ``CliError``."""
    o = Options()
    compress: set[str] = set()
    old_files: str | None = None
    for key, value, option in events(args):
        if key == "" or key in SELECTION:
            o.elements.append(Element(key, value, selection_shown(key, value, option)))
        elif key in MODES or key == "delete":
            if o.mode is not None and o.mode != key:
                raise CliError("You may not specify more than one '-Acdtrux', '--delete' or  "
                               "'--test-label' option", 2)
            o.mode = key
        elif key == "f":
            o.archive = value or ""
        elif key == "v":
            o.verbose += 1
        elif key in _COMPRESS:
            compress.add(_COMPRESS[key])
            o.compress = _COMPRESS[key]
        elif key == "a":
            o.auto_compress = True
        elif key == "O":
            o.to_stdout = True
        elif key in OLD_FILES:
            if old_files is not None and old_files != key:
                raise CliError(f"'{OLD_FILES[key]}' cannot be used with '{OLD_FILES[old_files]}'",
                               2)
            old_files = key
        elif key == "m":
            o.touch = True
        elif key == "strip":
            if not (value or "").isdigit():
                raise CliError(f"{value}: Invalid number of elements", 2)
            o.strip = int(value or "0")
        elif key == "numeric-owner":
            o.numeric_owner = True
        elif key == "owner":
            o.owner = _owner(value or "", o.owner[1], (USER, UID))
        elif key == "group":
            o.group = _owner(value or "", o.group[1], (GROUP, GID))
        elif key == "mtime":
            o.mtime = value
        elif key == "sort":
            if value not in ("none", "name"):
                raise CliError(f"invalid argument ‘{value}’ for ‘--sort’\nValid arguments are:\n"
                               "  - ‘none’\n  - ‘name’\n  - ‘inode’", 2, False)
            o.sort = value
        elif key == "full-time":
            o.full_time = True
        elif key == "P":
            o.absolute = True
        elif key == "remove-files":
            o.remove_files = True
        elif key == "transform":
            o.transforms.append(value or "")
        elif key == "show-transformed-names":
            o.show_transformed = True
        elif key == "totals":
            if value is None:
                o.totals = True
            else:
                signal = value[3:] if value.startswith("SIG") else value
                if signal not in SIGNALS:
                    raise CliError(f"Unknown signal name: {value}", 2, False, True)
                o.totals = False
        elif key == "help":
            o.help = True
        elif key == "version":
            o.version = True
    o.keep_old = old_files == "k"
    o.skip_old = old_files == "skip-old-files"
    o.overwrite = old_files == "overwrite"
    if o.mode in ("r", "u") and o.archive == "-":
        raise CliError("Options '-Aru' are incompatible with '-f -'", 2)
    if len(compress) > 1:
        raise CliError("Conflicting compression options", 2)
    if o.mode in ("r", "u", "delete") and o.compress is not None:
        raise CliError("Cannot update compressed archives", 2)
    return o
