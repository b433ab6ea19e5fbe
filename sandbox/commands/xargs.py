"""``xargs``: build and run command lines from standard input (GNU findutils 4.9).

Options: ``-0 -a FILE -d DELIM -E END -e[END] -I R -i[R] -L N -l[N] -n N -P N -r -s N -t -x``,
``--process-slot-var``, ``--show-limits`` and the long forms. Input is parsed by GNU's
``read_line`` state machine (blanks separate, quotes and backslashes are special, a line ending
in a blank continues under ``-L``) or, with ``-0``/``-d``, split at the delimiter. Command lines
are sized as GNU sizes them (each argument's length + 1, at most ``-s``, 131072 by default).
Commands run one after another through ``ctx.run_command`` (``-P N`` gives the output of a
sequential run), with stdin empty (``-a``: xargs' own stdin). Exit status: 123 if a command
exited 1-125, 124 after a 255 (xargs stops), 126 / 127 when a command can't be run / found.
``-p`` and ``-o`` need a terminal and are not supported.
"""

from __future__ import annotations

import errno
import io
import re

from sandbox.commands._quoting import _needs_quotes, _shell_always, quote
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import DYNAMIC, CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec("+0a:d:E:e::I:i::L:l::n:P:rs:tx", {
    "null": (NO_ARG, "0"), "arg-file": (REQUIRED, "a"), "delimiter": (REQUIRED, "d"),
    "eof": (OPTIONAL, "e"), "replace": (OPTIONAL, "i"), "max-lines": (REQUIRED, "L"),
    "max-args": (REQUIRED, "n"), "max-procs": (REQUIRED, "P"),
    "no-run-if-empty": (NO_ARG, "r"), "max-chars": (REQUIRED, "s"), "verbose": (NO_ARG, "t"),
    "exit": (NO_ARG, "x"), "process-slot-var": (REQUIRED, "slot"),
    "show-limits": (NO_ARG, "show-limits"), "help": (NO_ARG, "help"),
    "version": (NO_ARG, "version"),
}, permute=False)

USAGE = """Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
      --process-slot-var=VAR   set environment variable VAR in child processes
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
"""

#: The sandbox's virtual ARG_MAX (Linux's 2 MiB) and GNU's default command buffer.
ARG_MAX = 2097152
DEFAULT_BUFFER = 131072
_BLANKS = b" \t"
_SPACES = b" \t\n\v\f\r"
_TAKES_ARG = set("adEILnPs")


class _TooLong(Exception):
    """An input argument longer than the command line can hold (GNU's read_line)."""


class _Exit(Exception):
    """Stop xargs with ``status`` (after its message was printed)."""

    def __init__(self, status: int):
        self.status = status


def _command_start(args: list[str]) -> int:
    """Index of COMMAND in xargs' arguments (after its options), as getopt would find it."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return i + 1
        if not a.startswith("-") or a == "-":
            return i
        if a.startswith("--"):
            name = a[2:].split("=", 1)[0]
            full = [k for k, (kind, _) in SPEC.long.items() if k.startswith(name)]
            if "=" not in a and len(full) == 1 and SPEC.long[full[0]][0] == REQUIRED:
                i += 1
        else:
            for j, ch in enumerate(a[1:], 1):
                if ch in _TAKES_ARG:
                    if j == len(a) - 1 and ch not in "eil":
                        i += 1
                    break
                if ch in "eil":
                    break
        i += 1
    return i


def runs(args: list[str]) -> list[list[str]]:
    """The command xargs would run: COMMAND and its initial arguments, or ``echo``. With
    ``-I R``/``-i``, a COMMAND holding R is named by the input: it is marked ``DYNAMIC``."""
    i = _command_start(args)
    argv = args[i:] if i < len(args) else ["echo"]
    replace = _replace_string(args[:i])
    if replace is not None and replace in argv[0]:
        argv = [DYNAMIC + argv[0], *argv[1:]]
    return [argv]


def _replace_string(options: list[str]) -> str | None:
    """The replace string the options set (``-I R``, ``-i``/``--replace[=R]``), else None."""
    try:
        opts, _ = parse(SPEC, options)
    except UsageError:
        return None
    replace: str | None = None
    for key, value in opts:
        if key in ("I", "i"):
            replace = (value or "") if key == "I" else (value or "{}")
        elif key in ("L", "l"):
            replace = None
    return replace


def _number(value: str, opt: str, low: int) -> int:
    if not re.fullmatch(r"\s*[+-]?\d+", value):
        raise _Usage(f'invalid number "{value}" for -{opt} option')
    n = int(value)
    if n < low:
        raise _Usage(f"value {value} for -{opt} option should be >= {low}")
    return n


class _Usage(Exception):
    pass


def _delimiter(spec: str) -> int:
    """``-d``'s argument: one byte or an escape (``\\n \\t \\x41 \\012``)."""
    data = spec.encode("utf-8", "surrogateescape")
    if len(data) == 1:
        return data[0]
    escapes = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}
    if spec.startswith("\\") and len(spec) == 2 and spec[1] in escapes:
        return escapes[spec[1]]
    m = re.fullmatch(r"\\x([0-9a-fA-F]+)", spec) or re.fullmatch(r"\\([0-7]+)", spec)
    if m:
        value = int(m.group(1), 16 if spec[1] == "x" else 8)
        if value <= 255:
            return value
        raise _Usage(f"Invalid escape sequence {spec} in input delimiter specification; "
                     "character values must not exceed " + ("ff." if spec[1] == "x" else "377."))
    raise _Usage(f"Invalid input delimiter specification {spec}: the delimiter must be either a "
                 "single character or an escape sequence starting with \\.")


class _Builder:
    """GNU's buildcmd: accumulates arguments and runs a command line when it is full."""

    def __init__(self, ctx: CommandContext, command: list[str], opts: dict):
        self.ctx = ctx
        self.command = command
        self.max_args = opts["n"]
        self.arg_max = opts["s"]
        # -x matters only when a count (-n, -L, -I) decides where a command line ends.
        # -L implies -x (GNU); -x alone matters only with -n or -L
        self.exit_if_exceeded = bool(opts["L"]) or opts["x"] and bool(opts["n"])
        self.trace = opts["t"]
        self.slot = opts["slot"]
        self.child_stdin = opts["child_stdin"]
        self.args: list[str] = []
        self.initial_chars = sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in command)
        self.chars = self.initial_chars
        self.executed = 0
        self.status = 0

    def push(self, arg: str) -> None:
        """Add one argument (running the command line first if it would not fit)."""
        size = len(arg.encode("utf-8", "surrogateescape")) + 1
        if self.chars + size > self.arg_max:
            if not self.args:
                self.ctx.error("argument line too long")
                raise _Exit(1)
            if self.exit_if_exceeded:
                self.ctx.error("argument list too long")
                raise _Exit(1)
            self.execute()
        self.args.append(arg)
        self.chars += size
        if self.max_args and len(self.args) >= self.max_args:
            self.execute()

    def execute(self, argv: list[str] | None = None) -> None:
        """Run the command line built so far (or ``argv``)."""
        if argv is None:
            argv = self.command + self.args
            self.args = []
            self.chars = self.initial_chars
        self.ctx.budget.check_time()
        self.executed += 1
        if self.trace:
            self.ctx.stderr.write(" ".join(_shell_quote(a) for a in argv).encode(
                "utf-8", "surrogateescape") + b"\n")
        env = dict(self.ctx.env)
        if self.slot:
            env[self.slot] = "0"
        stdin = self.child_stdin if self.child_stdin is not None else io.BytesIO(b"")
        status = spawn(self.ctx, argv, lambda name, why: f"{name}: {why}", stdin=stdin, env=env)
        if status in (126, 127):
            raise _Exit(status)
        if status == 255:
            self.ctx.error(f"{argv[0]}: exited with status 255; aborting")
            raise _Exit(124)
        if status > 128:
            self.ctx.error(f"{argv[0]}: terminated by signal {status - 128}")
            raise _Exit(125)
        if status:
            self.status = 123


def _shell_quote(arg: str) -> str:
    data = arg.encode("utf-8", "surrogateescape")
    return arg if not _needs_quotes(data, colon=False) else _shell_always(data)


class _Reader:
    """The input side: GNU's ``read_line`` (blank-separated, quotes) or ``read_string`` (-0/-d)."""

    def __init__(self, ctx: CommandContext, stream, delim: int | None, eof_str: str | None,
                 replace: bool, limit: int):
        self.ctx = ctx
        self.stream = stream
        self.delim = delim
        self.eof_str = eof_str.encode("utf-8", "surrogateescape") if eof_str is not None else None
        self.replace = replace
        self.limit = limit
        self.eof = False
        self.lines = 0
        self.buf = b""
        self.pos = 0
        self.read_failed = False  # GNU's getc loop takes a failed read for the end

    def _getc(self) -> int:
        if self.pos >= len(self.buf):
            self.ctx.budget.check_time()
            try:
                self.buf = self.stream.read(65536)
            except FSError:  # ``xargs < dir``
                self.read_failed = True
                self.buf = b""
            self.pos = 0
            if not self.buf:
                return -1
        c = self.buf[self.pos]
        self.pos += 1
        return c

    def _check(self, arg: bytearray) -> None:
        if len(arg) >= self.limit:
            raise _TooLong()

    def read(self, push) -> bool:  # type: ignore[no-untyped-def]
        """Read one unit (a line, or one delimited item) pushing its arguments; False at EOF."""
        if self.eof:
            return False
        if self.delim is not None:
            return self._read_string(push)
        return self._read_line(push)

    def _read_string(self, push) -> bool:  # type: ignore[no-untyped-def]
        arg = bytearray()
        while True:
            c = self._getc()
            if c == -1:
                self.eof = True
                if not arg:
                    return False
                break
            if c == self.delim:
                self.lines += 1
                break
            self._check(arg)
            arg.append(c)
        push(arg.decode("utf-8", "surrogateescape"))
        return True

    def _read_line(self, push) -> bool:  # type: ignore[no-untyped-def]
        arg = bytearray()
        state = "space"
        quote_char = 0
        seen = False
        first = True
        c = -1
        while True:
            prev = c
            c = self._getc()
            if c == -1:
                self.eof = True
                if state == "quote":
                    self._unmatched(quote_char)
                if not arg and not seen:
                    return not first
                break
            if state == "space":
                if c in _SPACES:
                    continue
                state = "norm"
            if state == "norm":
                if c == 10:
                    if prev not in (32, 9):
                        self.lines += 1
                    if not arg and not seen:
                        state = "space"
                        continue
                    break
                seen = True
                if not self.replace and c in _BLANKS:
                    if self._is_eof(arg):
                        return not first
                    push(arg.decode("utf-8", "surrogateescape"))
                    arg = bytearray()
                    state = "space"
                    seen = False
                    first = False
                    continue
                if c == 0x5C:
                    state = "backslash"
                    continue
                if c in (0x27, 0x22):
                    state = "quote"
                    quote_char = c
                    continue
            elif state == "quote":
                if c == 10:
                    self._unmatched(quote_char)
                if c == quote_char:
                    state = "norm"
                    seen = True
                    continue
            else:  # backslash
                state = "norm"
            self._check(arg)
            arg.append(c)
        if self._is_eof(arg):
            return not first
        push(arg.decode("utf-8", "surrogateescape"))
        return True

    def _is_eof(self, arg: bytearray) -> bool:
        if self.eof_str is not None and bytes(arg) == self.eof_str:
            self.eof = True
            return True
        return False

    def _unmatched(self, quote_char: int) -> None:
        raise _Unmatched("double" if quote_char == 0x22 else "single")


class _Unmatched(Exception):
    pass


def run(ctx: CommandContext) -> int:
    """``xargs``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        return ctx.usage_error(str(err), 1)
    settings = {"n": 0, "L": 0, "s": None, "x": False, "t": False, "slot": None,
                "child_stdin": None}
    delim: int | None = None
    eof_str: str | None = None
    replace: str | None = None
    arg_file: str | None = None
    no_run_empty = False
    warned_e = False
    try:
        for key, value in opts:
            if key == "help":
                ctx.stdout.write(USAGE.encode())
                return 0
            if key == "version":
                ctx.stdout.write(b"xargs (GNU findutils) 4.9.0\n")
                return 0
            if key == "0":
                delim = 0
            elif key == "d":
                delim = _delimiter(value or "")
            elif key in ("E", "e"):
                eof_str = value if value else None
            elif key in ("I", "i"):
                if settings["n"]:
                    _exclusive(ctx, "--max-args", "--replace/-I/-i", "--max-args")
                    settings["n"] = 0
                if settings["L"]:
                    _exclusive(ctx, "--max-lines", "--replace/-I/-i", "--max-lines")
                    settings["L"] = 0
                replace = value if value is not None and (key == "I" or value) else "{}"
                if key == "I":
                    replace = value or ""
            elif key in ("L", "l"):
                n = 1 if key == "l" and value is None else _number(value or "", "L", 1)
                if settings["n"]:
                    _exclusive(ctx, "--max-args", "-L", "--max-args")
                    settings["n"] = 0
                if replace is not None:
                    _exclusive(ctx, "--replace", "-L", "--replace")
                    replace = None
                settings["L"] = n
            elif key == "n":
                n = _number(value or "", "n", 1)
                if settings["L"]:
                    _exclusive(ctx, "--max-lines", "--max-args/-n", "--max-lines")
                    settings["L"] = 0
                settings["n"] = n
            elif key == "P":
                _number(value or "", "P", 0)
            elif key == "s":
                n = _number(value or "", "s", -(1 << 62))
                if n < 1:  # GNU clamps -s (a warning, not an error)
                    ctx.error(f"value {value} for -s option should be >= 1")
                    n = 1
                settings["s"] = n
            elif key == "a":
                arg_file = value
            elif key == "r":
                no_run_empty = True
            elif key in ("t", "x"):
                settings[key] = True
            elif key == "slot":
                settings["slot"] = value
            elif key == "show-limits":
                pass
    except _Usage as err:
        if "delimiter" in str(err):
            ctx.error(str(err))
            return 1
        return ctx.usage_error(str(err), 1)
    env_bytes = sum(len(k.encode("utf-8", "surrogateescape")) + len(v.encode("utf-8", "surrogateescape")) + 2
                    for k, v in ctx.env.items())
    posix_max = ARG_MAX - 2048 - env_bytes
    if settings["s"] is None:
        settings["s"] = min(DEFAULT_BUFFER, posix_max)
    elif settings["s"] > posix_max:
        ctx.error(f"value {settings['s']} for -s option should be <= {posix_max}")
        settings["s"] = posix_max
    if delim is not None and eof_str is not None and not warned_e:
        ctx.error("warning: the -E option has no effect if -0 or -d is used.\n")
        eof_str = None
    if any(k == "show-limits" for k, _ in opts):
        ctx.stderr.write(
            f"Your environment variables take up {env_bytes} bytes\n"
            f"POSIX upper limit on argument length (this system): {posix_max + env_bytes}\n"
            "POSIX smallest allowable upper limit on argument length (all systems): 4096\n"
            f"Maximum length of command we could actually use: {posix_max}\n"
            f"Size of command buffer we are actually using: {settings['s']}\n"
            "Maximum parallelism (--max-procs must be no greater): 2147483647\n\n".encode())
    command = operands or ["echo"]
    if replace is not None:
        settings["x"] = True
    if arg_file is not None:
        try:
            stream = ctx.open_read(arg_file)
        except FSError as exc:
            if exc.errno != errno.EISDIR:
                ctx.error(f"Cannot open input file {quote(arg_file)}: {exc}")
                return 1
            stream = io.BytesIO()  # GNU opens a directory; its failed read is the end
        settings["child_stdin"] = ctx.stdin
    else:
        stream = ctx.stdin
    builder = _Builder(ctx, command, settings)
    if builder.initial_chars > settings["s"]:
        ctx.error("cannot fit single argument within argument list size limit")
        return 1
    reader = _Reader(ctx, stream, delim, eof_str, replace is not None,
                     settings["s"] - (0 if replace is not None else builder.initial_chars))
    status = _consume(ctx, builder, reader, command, replace, settings, no_run_empty)
    if reader.read_failed and stream is ctx.stdin:
        ctx.error("error closing file")  # gnulib's close_stdin at exit: stdin had an error
        return 1
    return status


def _consume(ctx: CommandContext, builder: "_Builder", reader: _Reader, command: list[str],
             replace: str | None, settings: dict, no_run_empty: bool) -> int:
    """Read the input and run the commands; the exit status."""
    try:
        try:
            if replace is not None:
                _run_replace(ctx, builder, reader, command, replace)
            else:
                while reader.read(builder.push):
                    if settings["L"] and reader.lines >= settings["L"]:
                        builder.execute()
                        reader.lines = 0
                if builder.args or (not no_run_empty and builder.executed == 0):
                    builder.execute()
        except (_Unmatched, _TooLong) as stop:
            # GNU runs what it has read (exec_if_possible), except under -L, -I and -x.
            if builder.args and not settings["L"] and not settings["x"]:
                builder.execute()
            if isinstance(stop, _TooLong):
                ctx.error("argument line too long")
            else:
                ctx.error(f"unmatched {stop} quote; by default quotes are special to xargs "
                          "unless you use the -0 option")
            return 1
    except _Exit as stop:
        return stop.status
    return builder.status


def _run_replace(ctx: CommandContext, builder: _Builder, reader: _Reader, command: list[str],
                 pattern: str) -> None:
    """``-I R``: one command per input line, R replaced in every initial argument."""
    items: list[str] = []
    while reader.read(items.append):
        if not items:
            continue
        line = items[-1]
        items.clear()
        argv = [command[0]] + [a.replace(pattern, line) if pattern else a for a in command[1:]]
        if sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in argv) > builder.arg_max:
            ctx.error("argument list too long")
            raise _Exit(1)
        builder.execute(argv)


def _exclusive(ctx: CommandContext, first: str, second: str, ignored: str) -> None:
    ctx.error(f"warning: options {first} and {second} are mutually exclusive, ignoring "
              f"previous {ignored} value")
