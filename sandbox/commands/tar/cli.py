"""tar's command line: GNU's traditional style (``tar czf x.tgz dir``), argp-style short and
long options, and the positional options (``-C``, ``--exclude``, ``--wildcards``) kept in the
order they were given."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands._identity import GID, GROUP, UID, USER

#: Short options; ``:`` after a letter takes an argument.
SHORT = "cxtruf:vC:zjJaOkmpo"
#: Long options: name -> (takes an argument, key).
LONG: dict[str, tuple[bool, str]] = {
    "create": (False, "c"), "extract": (False, "x"), "get": (False, "x"), "list": (False, "t"),
    "append": (False, "r"), "update": (False, "u"),
    "file": (True, "f"), "verbose": (False, "v"), "directory": (True, "C"),
    "gzip": (False, "z"), "gunzip": (False, "z"), "ungzip": (False, "z"),
    "bzip2": (False, "j"), "xz": (False, "J"), "auto-compress": (False, "a"),
    "to-stdout": (False, "O"), "keep-old-files": (False, "k"), "touch": (False, "m"),
    "exclude": (True, "exclude"), "strip-components": (True, "strip"),
    "wildcards": (False, "wildcards"), "no-wildcards": (False, "no-wildcards"),
    "numeric-owner": (False, "numeric-owner"), "owner": (True, "owner"),
    "group": (True, "group"), "mtime": (True, "mtime"), "sort": (True, "sort"),
    "overwrite": (False, "overwrite"), "preserve-permissions": (False, "p"),
    "same-permissions": (False, "p"), "no-same-owner": (False, "o"),
    "no-same-permissions": (False, "no-same-permissions"),
    "full-time": (False, "full-time"),
    "help": (False, "help"), "version": (False, "version"),
}
MODES = "cxtru"
_COMPRESS = {"z": "gzip", "j": "bzip2", "J": "xz"}
TRY = "Try 'tar --help' or 'tar --usage' for more information."


class CliError(Exception):
    """A command-line error: ``str`` is the message; ``status`` tar's exit status; ``try_line``
    whether GNU's "Try 'tar --help'" line follows."""

    def __init__(self, message: str, status: int = 64, try_line: bool = True):
        super().__init__(message)
        self.status = status
        self.try_line = try_line


@dataclass
class Operand:
    """A file or member operand with the ``-C`` directories and ``--wildcards`` state in
    force where it appeared."""

    name: str
    dirs: tuple[str, ...]
    wildcards: bool


@dataclass
class Options:
    """Everything the command line asked for."""

    mode: str | None = None
    archive: str = "-"
    verbose: int = 0
    compress: str | None = None
    auto_compress: bool = False
    excludes: list[str] = field(default_factory=list)
    #: ``--exclude`` given after the first operand in create mode (GNU: no effect, an error).
    late_excludes: list[str] = field(default_factory=list)
    operands: list[Operand] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    to_stdout: bool = False
    keep_old: bool = False
    touch: bool = False
    strip: int = 0
    numeric_owner: bool = False
    owner: tuple[str, int] = (USER, UID)
    group: tuple[str, int] = (GROUP, GID)
    mtime: str | None = None
    sort: str = "none"
    full_time: bool = False
    help: bool = False
    version: bool = False


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


def _long(name: str, arg: str) -> tuple[bool, str, str]:
    if name in LONG:
        return (*LONG[name], name)
    matches = [k for k in LONG if k.startswith(name)]
    if not matches:
        raise CliError(f"unrecognized option '{arg}'")
    if len({LONG[m] for m in matches}) > 1:
        names = " ".join(f"'--{m}'" for m in matches)
        raise CliError(f"option '{arg}' is ambiguous; possibilities: {names}")
    return (*LONG[matches[0]], matches[0])


def events(args: list[str]) -> list[tuple[str, str | None]]:
    """The options and operands in order: (key, value) pairs, operands keyed ``""``."""
    args = expand_traditional(args)
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out += [("", a) for a in args[i:]]
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            takes, key, full = _long(name, arg)
            if takes:
                if not eq:
                    if i >= len(args):
                        raise CliError(f"option '--{full}' requires an argument")
                    value = args[i]
                    i += 1
                out.append((key, value))
            else:
                if eq:
                    raise CliError(f"option '--{full}' doesn't allow an argument")
                out.append((key, None))
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
                        out.append((ch, arg[j:]))
                    elif i < len(args):
                        out.append((ch, args[i]))
                        i += 1
                    else:
                        raise CliError(f"option requires an argument -- '{ch}'")
                    break
                out.append((ch, None))
            continue
        out.append(("", arg))
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


def parse_args(args: list[str]) -> Options:
    """The ``Options`` of a command line; raises ``CliError``."""
    o = Options()
    wildcards = False
    compress: set[str] = set()
    for key, value in events(args):
        if key == "":
            assert value is not None
            o.operands.append(Operand(value, tuple(o.dirs), wildcards))
        elif key in MODES:
            if o.mode is not None and o.mode != key:
                raise CliError("You may not specify more than one '-Acdtrux', '--delete' or  "
                               "'--test-label' option", 2)
            o.mode = key
        elif key == "f":
            o.archive = value or ""
        elif key == "v":
            o.verbose += 1
        elif key == "C":
            o.dirs.append(value or "")
        elif key in _COMPRESS:
            compress.add(_COMPRESS[key])
            o.compress = _COMPRESS[key]
        elif key == "a":
            o.auto_compress = True
        elif key == "O":
            o.to_stdout = True
        elif key == "k":
            o.keep_old = True
        elif key == "m":
            o.touch = True
        elif key == "exclude":
            (o.late_excludes if o.operands else o.excludes).append(value or "")
        elif key == "strip":
            if not (value or "").isdigit():
                raise CliError(f"{value}: Invalid number of elements", 2)
            o.strip = int(value or "0")
        elif key == "wildcards":
            wildcards = True
        elif key == "no-wildcards":
            wildcards = False
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
        elif key == "help":
            o.help = True
        elif key == "version":
            o.version = True
    if o.mode in ("r", "u") and o.archive == "-":
        raise CliError("Options '-Aru' are incompatible with '-f -'", 2)
    if o.mode not in ("c", "r", "u"):
        o.excludes += o.late_excludes
        o.late_excludes = []
    if len(compress) > 1:
        raise CliError("Conflicting compression options", 2)
    return o
