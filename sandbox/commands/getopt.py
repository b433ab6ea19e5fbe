"""``getopt`` (util-linux 2.38.1, the enhanced getopt): parse command options for a shell script.

``getopt [options] -o|--options OPTSTRING [options] [--] PARAMETERS`` (or the optstring as the
first word after getopt's own options, or the traditional ``getopt OPTSTRING PARAMETERS``,
which does not quote) prints the recognised options in normal form, ``--``, then the remaining
parameters, each quoted for the shell (``-a -b 'x' -- 'y'``; ``-s tcsh`` adds tcsh's escapes),
exactly as util-linux does over glibc's ``getopt_long``: permutation (``+`` or
``POSIXLY_CORRECT`` stop at the first non-option, ``-`` keeps them in place), ``::`` optional
arguments, long options from ``-l`` with unambiguous prefixes, ``-a`` for single-dash long
options, ``W;``, glibc's messages under ``-n NAME``. Exit 1 after a parse error, 2 for getopt's
own usage errors, 4 for ``-T``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands.base import CommandContext

NO, REQUIRED, OPTIONAL = 0, 1, 2
PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER = 0, 1, 2
#: What getopt_long returns for a long option (util-linux's LONG_OPT) and a non-option.
LONG_OPT, NON_OPT = 0, 1

USAGE = """
Usage:
 getopt <optstring> <parameters>
 getopt [options] [--] <optstring> <parameters>
 getopt [options] -o|--options <optstring> [options] [--] <parameters>

Parse command options.

Options:
 -a, --alternative             allow long options starting with single -
 -l, --longoptions <longopts>  the long options to be recognized
 -n, --name <progname>         the name under which errors are reported
 -o, --options <optstring>     the short options to be recognized
 -q, --quiet                   disable error reporting by getopt(3)
 -Q, --quiet-output            no normal output
 -s, --shell <shell>           set quoting conventions to those of <shell>
 -T, --test                    test for getopt(1) version
 -u, --unquoted                do not quote the output

 -h, --help                    display this help
 -V, --version                 display version

For more details see getopt(1).
"""

OWN_SHORT = "+ao:l:n:qQs:TuhV"
OWN_LONG = [("options", REQUIRED, "o"), ("longoptions", REQUIRED, "l"), ("quiet", NO, "q"),
            ("quiet-output", NO, "Q"), ("shell", REQUIRED, "s"), ("test", NO, "T"),
            ("unquoted", NO, "u"), ("help", NO, "h"), ("alternative", NO, "a"),
            ("name", REQUIRED, "n"), ("version", NO, "V")]


class _Exit(Exception):
    """Ends the run with ``status``."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


@dataclass
class Getopt:
    """glibc's ``_getopt_internal_r`` over one argv (``argv[0]`` names the program in
    messages); ``longopts`` are (name, has_arg, value) as ``struct option``."""

    argv: list[str]
    optstring: str
    longopts: list[tuple[str, int, object]]
    long_only: bool = False
    opterr: bool = True
    posixly_correct: bool = False
    errors: list[str] = field(default_factory=list)
    optind: int = 1
    optarg: str | None = None
    longindex: int = -1

    def __post_init__(self) -> None:
        s = self.optstring
        if self.posixly_correct:
            # Measured: POSIXLY_CORRECT wins over a leading ``-``, which then stays an
            # option character (and a ``:`` after it does not silence the messages).
            self.ordering = REQUIRE_ORDER
            if s[:1] == "+":
                s = s[1:]
        elif s[:1] == "-":
            self.ordering, s = RETURN_IN_ORDER, s[1:]
        elif s[:1] == "+":
            self.ordering, s = REQUIRE_ORDER, s[1:]
        else:
            self.ordering = PERMUTE
        self.opts = s
        self.print_errors = self.opterr and not s.startswith(":")
        self.nextchar = ""
        self.first_nonopt = self.last_nonopt = 1

    def _err(self, text: str) -> None:
        if self.print_errors:
            self.errors.append(f"{self.argv[0]}: {text}")

    def _nonoption(self, i: int) -> bool:
        arg = self.argv[i]
        return arg[:1] != "-" or arg == "-"

    def _exchange(self) -> None:
        a, b, c = self.first_nonopt, self.last_nonopt, self.optind
        argv = self.argv
        argv[a:c] = argv[b:c] + argv[a:b]
        self.first_nonopt += c - b
        self.last_nonopt = c

    def next(self) -> int | str | None:
        """The next option (a character, LONG_OPT or NON_OPT), ``'?'``/``':'`` after an error,
        or None at the end (``optind`` then indexes the first remaining parameter)."""
        self.optarg = None
        argv, argc = self.argv, len(self.argv)
        if not self.nextchar:
            if self.last_nonopt > self.optind:
                self.last_nonopt = self.optind
            if self.first_nonopt > self.optind:
                self.first_nonopt = self.optind
            if self.ordering == PERMUTE:
                if self.first_nonopt != self.last_nonopt and self.last_nonopt != self.optind:
                    self._exchange()
                elif self.last_nonopt != self.optind:
                    self.first_nonopt = self.optind
                while self.optind < argc and self._nonoption(self.optind):
                    self.optind += 1
                self.last_nonopt = self.optind
            if self.optind != argc and argv[self.optind] == "--":
                self.optind += 1
                if self.first_nonopt != self.last_nonopt and self.last_nonopt != self.optind:
                    self._exchange()
                elif self.first_nonopt == self.last_nonopt:
                    self.first_nonopt = self.optind
                self.last_nonopt = argc
                self.optind = argc
            if self.optind == argc:
                if self.first_nonopt != self.last_nonopt:
                    self.optind = self.first_nonopt
                return None
            if self._nonoption(self.optind):
                if self.ordering == REQUIRE_ORDER:
                    return None
                self.optarg = argv[self.optind]
                self.optind += 1
                return NON_OPT
            arg = argv[self.optind]
            if arg[1] == "-":
                self.nextchar = arg[2:]
                return self._long(arg, "--", self.long_only)
            if self.long_only and (len(arg) > 2 or arg[1] not in self.opts):
                self.nextchar = arg[1:]
                code = self._long(arg, "-", True)
                if code != -1:
                    return code
            self.nextchar = arg[1:]
        c = self.nextchar[0]
        self.nextchar = self.nextchar[1:]
        pos = self.opts.find(c)
        if not self.nextchar:
            self.optind += 1
        if pos < 0 or c in ":;":
            self._err(f"invalid option -- '{c}'")
            return "?"
        spec = self.opts[pos + 1:pos + 3]
        if c == "W" and spec[:1] == ";":
            if self.nextchar:
                value = self.nextchar
            elif self.optind == argc:
                self._err(f"option requires an argument -- '{c}'")
                return ":" if self.opts[:1] == ":" else "?"
            else:
                value = argv[self.optind]
            self.nextchar = value
            return self._long(value, "-W ", False)
        if spec[:1] == ":":
            if spec == "::":
                if self.nextchar:
                    self.optarg = self.nextchar
                    self.optind += 1
            elif self.nextchar:
                self.optarg = self.nextchar
                self.optind += 1
            elif self.optind == argc:
                self._err(f"option requires an argument -- '{c}'")
                c = ":" if self.opts[:1] == ":" else "?"
            else:
                self.optarg = argv[self.optind]
                self.optind += 1
            self.nextchar = ""
        return c

    def _long(self, arg: str, prefix: str, long_only: bool) -> int | str:
        """glibc's ``process_long_option``; -1: not a long option (try it as short ones)."""
        text = self.nextchar
        name, eq, value = text.partition("=")
        found = None
        for k, opt in enumerate(self.longopts):
            if opt[0] == name:
                found = k
                break
        if found is None:
            ambig: list[int] = []
            for k, opt in enumerate(self.longopts):
                if opt[0].startswith(name):
                    if found is None:
                        found = k
                    else:
                        first = self.longopts[found]
                        if long_only or first[1] != opt[1] or first[2] != opt[2]:
                            if not ambig:
                                ambig.append(found)
                            ambig.append(k)
            if ambig:
                names = "".join(f" '{prefix}{self.longopts[k][0]}'" for k in sorted(ambig))
                self._err(f"option '{prefix}{text}' is ambiguous; possibilities:{names}")
                self.nextchar = ""
                self.optind += 1
                return "?"
        if found is None:
            if not long_only or arg[1:2] == "-" or text[:1] not in self.opts or not text:
                self._err(f"unrecognized option '{prefix}{text}'")
                self.nextchar = ""
                self.optind += 1
                return "?"
            return -1
        opt = self.longopts[found]
        self.optind += 1
        self.nextchar = ""
        if eq:
            if opt[1]:
                self.optarg = value
            else:
                self._err(f"option '{prefix}{opt[0]}' doesn't allow an argument")
                return "?"
        elif opt[1] == REQUIRED:
            if self.optind < len(self.argv):
                self.optarg = self.argv[self.optind]
                self.optind += 1
            else:
                self._err(f"option '{prefix}{opt[0]}' requires an argument")
                return ":" if self.opts[:1] == ":" else "?"
        self.longindex = found
        return LONG_OPT if isinstance(opt[2], tuple) else opt[2]  # type: ignore[return-value]


@dataclass
class _Control:
    shell_tcsh: bool = False
    quote: bool = True
    quiet_errors: bool = False
    quiet_output: bool = False
    long_only: bool = False
    longopts: list[tuple[str, int, object]] = field(default_factory=list)


def _normalized(ctl: _Control, arg: str) -> str:
    """util-linux ``print_normalized``: `` 'arg'`` with ``'\\''`` for quotes (tcsh: more)."""
    if not ctl.quote:
        return " " + arg
    out = ["'"]
    for ch in arg:
        if ch == "'":
            out.append("'\\''")
        elif ctl.shell_tcsh and ch == "\\":
            out.append("\\\\")
        elif ctl.shell_tcsh and ch == "!":
            out.append("'\\!'")
        elif ctl.shell_tcsh and ch == "\n":
            out.append("\\n")
        elif ctl.shell_tcsh and ch in " \t\v\f\r":
            out.append("'\\" + ch + "'")
        else:
            out.append(ch)
    out.append("'")
    return " " + "".join(out)


def _parse_error(ctx: CommandContext, message: str | None) -> _Exit:
    if message:
        ctx.error(message)
    ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
    return _Exit(2)


def _add_long_options(ctx: CommandContext, ctl: _Control, text: str) -> None:
    for token in text.replace("\t", ",").replace("\n", ",").replace(" ", ",").split(","):
        if not token:
            continue
        kind = NO
        if token.endswith("::"):
            token, kind = token[:-2], OPTIONAL
        elif token.endswith(":"):
            token, kind = token[:-1], REQUIRED
        if kind != NO and not token:
            raise _parse_error(ctx, "empty long option after -l or --long argument")
        # util-linux sets flag=&flag, val=its index: every option differs from every other,
        # so two prefix matches are always ambiguous, and getopt_long returns 0 (LONG_OPT).
        ctl.longopts.append((token, kind, ("flag", len(ctl.longopts))))


def _generate(ctx: CommandContext, ctl: _Control, argv: list[str], optstring: str) -> int:
    parser = Getopt(argv, optstring, ctl.longopts, ctl.long_only, not ctl.quiet_errors,
                    "POSIXLY_CORRECT" in ctx.env)
    status = 0
    out: list[str] = []
    while True:
        ctx.budget.check_time()
        opt = parser.next()
        for message in parser.errors:
            ctx.stderr.write(message.encode("utf-8", "surrogateescape") + b"\n")
        parser.errors.clear()
        if opt is None:
            break
        if opt in ("?", ":"):
            status = 1
        elif not ctl.quiet_output:
            if opt == LONG_OPT:
                name, kind, _ = ctl.longopts[parser.longindex]
                out.append(f" --{name}")
                if kind:
                    out.append(_normalized(ctl, parser.optarg or ""))
            elif opt == NON_OPT:
                out.append(_normalized(ctl, parser.optarg or ""))
            else:
                assert isinstance(opt, str)
                out.append(f" -{opt}")
                pos = optstring.find(opt)
                if pos >= 0 and optstring[pos + 1:pos + 2] == ":":
                    out.append(_normalized(ctl, parser.optarg or ""))
    if not ctl.quiet_output:
        out.append(" --")
        out.extend(_normalized(ctl, arg) for arg in parser.argv[parser.optind:])
        out.append("\n")
        ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status


def run(ctx: CommandContext) -> int:
    """Run ``getopt``."""
    argv = [ctx.prog] + ctx.args
    ctl = _Control()
    compatible = "GETOPT_COMPATIBLE" in ctx.env
    try:
        if len(argv) == 1:
            if compatible:
                ctx.stdout.write(b" --\n")
                return 0
            raise _parse_error(ctx, "missing optstring argument")
        if argv[1][:1] != "-" or compatible:
            ctl.quote = False
            optstring = argv[1].lstrip("-+")
            return _generate(ctx, ctl, [argv[0]] + argv[2:], optstring)
        own = Getopt(list(argv), OWN_SHORT, OWN_LONG)
        optstring_opt: str | None = None
        name: str | None = None
        while True:
            opt = own.next()
            for message in own.errors:
                ctx.stderr.write(message.encode("utf-8", "surrogateescape") + b"\n")
            own.errors.clear()
            if opt is None:
                break
            value = own.optarg or ""
            if opt == "a":
                ctl.long_only = True
            elif opt == "o":
                optstring_opt = value
            elif opt == "l":
                _add_long_options(ctx, ctl, value)
            elif opt == "n":
                name = value
            elif opt == "q":
                ctl.quiet_errors = True
            elif opt == "Q":
                ctl.quiet_output = True
            elif opt == "s":
                if value in ("bash", "sh"):
                    ctl.shell_tcsh = False
                elif value in ("tcsh", "csh"):
                    ctl.shell_tcsh = True
                else:
                    raise _parse_error(ctx, "unknown shell after -s or --shell argument")
            elif opt == "T":
                return 4
            elif opt == "u":
                ctl.quote = False
            elif opt == "V":
                ctx.stdout.write(b"getopt from util-linux 2.38.1\n")
                return 0
            elif opt == "h":
                ctx.stdout.write(USAGE.encode())
                return 0
            else:
                raise _parse_error(ctx, None)
        rest = own.argv
        optind = own.optind
        if optstring_opt is None:
            if optind >= len(rest):
                raise _parse_error(ctx, "missing optstring argument")
            optstring_opt = rest[optind]
            optind += 1
        params = [name if name is not None else argv[0]] + rest[optind:]
        return _generate(ctx, ctl, params, optstring_opt)
    except _Exit as done:
        return done.status
