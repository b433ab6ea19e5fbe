"""``diff``: compare files line by line (GNU diffutils 3.8), inside the jail.

Formats: normal, ``-c``/``-C N``/``--context[=N]``, ``-u``/``-U N``/``--unified[=N]`` (and the
obsolete ``-NUM``: ``-u0``, ``-c1``, ``_digit_options``), ``-q``,
``-s``, ``-e``/``--ed``, ``-n``/``--rcs``, ``-D NAME`` and the ``--*-line-format``/
``--*-group-format`` directives (``sandbox.commands.diff.formats``), ``-y``/``-W N`` (with
``--left-column``, ``--suppress-common-lines``); ``-p``/``-F RE`` (the function line after a
hunk's header), ``-t``/``-T``/``--tabsize``/``--suppress-blank-empty``; ``-x``/``-X``
(directory entries), ``-S FILE``, ``--ignore-file-name-case``; ``-r`` and plain directory
comparison (``Only in``, ``Common subdirectories``, the ``diff OPTIONS a/x b/x`` line before
each pair), ``-N``, ``--unidirectional-new-file``, ``--from-file``/``--to-file``; comparison
options ``-i -w -b -Z -E -B -I RE -a --strip-trailing-cr -d``; ``-L``/``--label``;
``--color=never|auto``; ``--no-dereference`` (the jail never follows links). Regexes (``-F``,
``-I``) are grep's BREs (``sandbox.regex``), never case-folded by ``-i``, as GNU's. Hunks are
GNU's: the same algorithm (``sandbox.commands.diff.analyze``). Timestamps in headers are the
files' mtimes in UTC (``+0000``). Exit status 0 (same), 1 (different), 2 (trouble). Binary
files (a NUL byte in the first 32 KiB) are reported as GNU does unless ``-a``. ``-l``,
``--horizon-lines``, ``--speed-large-files`` and ``--palette`` are not supported (GNU's
"invalid option").

With the C accelerator built (``sandbox._native``), a comparison without -i/-E/-w/-b/-Z/
--strip-trailing-cr has its lines split, its identical ends skipped and its lines numbered by
class in C (``_linescan.diff_classes``), and a line becomes a bytes object only when printed;
the output is the pure-Python path's (``SANDBOX_NATIVE=0``).
"""

from __future__ import annotations

import re
import time

from sandbox._native import linescan
from sandbox.commands._quoting import _needs_quotes, _shell_always
from sandbox.commands.base import CommandContext
from sandbox.commands.diff import formats, output
from sandbox.commands.diff.analyze import compare, compare_region
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError
from sandbox.regex import RegexError, compile_patterns

VERSION = """diff (GNU diffutils) 3.8
Copyright (C) 2021 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Eggert, Mike Haertel, David Hayes,
Richard Stallman, and Len Tower.
"""

SPEC = OptionSpec("qscC:uU:rNiwbZEBadyW:x:X:vL:pF:D:entTI:S:", {
    "exclude": (REQUIRED, "x"), "exclude-from": (REQUIRED, "X"),
    "side-by-side": (NO_ARG, "y"), "width": (REQUIRED, "W"),
    "left-column": (NO_ARG, "left-column"),
    "suppress-common-lines": (NO_ARG, "suppress-common-lines"),
    "normal": (NO_ARG, "normal"), "brief": (NO_ARG, "q"),
    "report-identical-files": (NO_ARG, "s"), "context": (OPTIONAL, "context"),
    "unified": (OPTIONAL, "unified"), "recursive": (NO_ARG, "r"), "new-file": (NO_ARG, "N"),
    "ignore-case": (NO_ARG, "i"), "ignore-all-space": (NO_ARG, "w"),
    "ignore-space-change": (NO_ARG, "b"), "ignore-trailing-space": (NO_ARG, "Z"),
    "ignore-tab-expansion": (NO_ARG, "E"), "ignore-blank-lines": (NO_ARG, "B"),
    "text": (NO_ARG, "a"), "minimal": (NO_ARG, "d"), "label": (REQUIRED, "L"),
    "strip-trailing-cr": (NO_ARG, "strip-trailing-cr"), "color": (OPTIONAL, "color"),
    "help": (NO_ARG, "help"), "version": (NO_ARG, "version"),
    "show-c-function": (NO_ARG, "p"), "show-function-line": (REQUIRED, "F"),
    "ifdef": (REQUIRED, "D"), "ed": (NO_ARG, "e"), "rcs": (NO_ARG, "n"),
    "expand-tabs": (NO_ARG, "t"), "initial-tab": (NO_ARG, "T"),
    "tabsize": (REQUIRED, "tabsize"), "suppress-blank-empty": (NO_ARG, "suppress-blank-empty"),
    "ignore-matching-lines": (REQUIRED, "I"), "starting-file": (REQUIRED, "S"),
    "from-file": (REQUIRED, "from-file"), "to-file": (REQUIRED, "to-file"),
    "unidirectional-new-file": (NO_ARG, "unidirectional-new-file"),
    "no-dereference": (NO_ARG, "no-dereference"),
    "ignore-file-name-case": (NO_ARG, "ignore-file-name-case"),
    "no-ignore-file-name-case": (NO_ARG, "no-ignore-file-name-case"),
    "line-format": (REQUIRED, "line-format"),
    "old-line-format": (REQUIRED, "old-line-format"),
    "new-line-format": (REQUIRED, "new-line-format"),
    "unchanged-line-format": (REQUIRED, "unchanged-line-format"),
    "old-group-format": (REQUIRED, "old-group-format"),
    "new-group-format": (REQUIRED, "new-group-format"),
    "changed-group-format": (REQUIRED, "changed-group-format"),
    "unchanged-group-format": (REQUIRED, "unchanged-group-format"),
})

USAGE = """Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -n, --rcs                     output an RCS format diff
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines

  -p, --show-c-function         show which C function each change is in
  -F, --show-function-line=RE   show the most recent line matching RE
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)

  -t, --expand-tabs             expand tabs to spaces in output
  -T, --initial-tab             make tabs line up by prepending a tab
      --tabsize=NUM             tab stops every NUM (default 8) print columns
      --suppress-blank-empty    suppress space or tab before empty output lines
  -l, --paginate                pass output through 'pr' to paginate it

  -r, --recursive                 recursively compare any subdirectories found
      --no-dereference            don't follow symbolic links
  -N, --new-file                  treat absent files as empty
      --unidirectional-new-file   treat absent first files as empty
      --ignore-file-name-case     ignore case when comparing file names
      --no-ignore-file-name-case  consider case when comparing file names
  -x, --exclude=PAT               exclude files that match PAT
  -X, --exclude-from=FILE         exclude files that match any pattern in FILE
  -S, --starting-file=FILE        start with FILE when comparing directories
      --from-file=FILE1           compare FILE1 to all operands;
                                    FILE1 can be a directory
      --to-file=FILE2             compare all operands to FILE2;
                                    FILE2 can be a directory

  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE

  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input

  -D, --ifdef=NAME                output merged file with '#ifdef NAME' diffs
      --GTYPE-group-format=GFMT   format GTYPE input groups with GFMT
      --line-format=LFMT          format all input lines with LFMT
      --LTYPE-line-format=LFMT    format LTYPE input lines with LFMT
    These format options provide fine-grained control over the output
      of diff, generalizing -D/--ifdef.
    LTYPE is 'old', 'new', or 'unchanged'.  GTYPE is LTYPE or 'changed'.
    GFMT (only) may contain:
      %<  lines from FILE1
      %>  lines from FILE2
      %=  lines common to FILE1 and FILE2
      %[-][WIDTH][.[PREC]]{doxX}LETTER  printf-style spec for LETTER
        LETTERs are as follows for new group, lower case for old group:
          F  first line number
          L  last line number
          N  number of lines = L-F+1
          E  F-1
          M  L+1
      %(A=B?T:E)  if A equals B then T else E
    LFMT (only) may contain:
      %L  contents of line
      %l  contents of line, excluding any trailing newline
      %[-][WIDTH][.[PREC]]{doxX}n  printf-style spec for input line number
    Both GFMT and LFMT may contain:
      %%  %
      %c'C'  the single character C
      %c'\\OOO'  the character with octal code OOO
      C    the character C (other characters represent themselves)

  -d, --minimal            try hard to find a smaller set of changes
      --horizon-lines=NUM  keep NUM lines of the common prefix and suffix
      --speed-large-files  assume large files and many scattered small changes
      --color[=WHEN]       color output; WHEN is 'never', 'always', or 'auto';
                             plain --color means --color='auto'
      --palette=PALETTE    the colors to use when --color is active; PALETTE is
                             a colon-separated list of terminfo capabilities

      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If --from-file or --to-file is given, there are no restrictions on FILE(s).
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
"""

BINARY_PROBE = 32768
MAX_WIDTH = 1 << 16
_WS = re.compile(rb"[ \t\n\v\f\r]+")


class _Trouble(Exception):
    """A usage error already reported: exit 2."""


class _Fatal(Exception):
    """GNU's fatal(): reported, diff stops here (exit 2)."""


class Options:
    """What one run of diff compares and prints."""

    def __init__(self) -> None:
        self.style = "normal"
        self.context = 3
        self.brief = self.identical = self.recursive = self.new_file = False
        self.icase = self.all_space = self.space_change = self.trailing = False
        self.tabs = self.blank = self.text = self.minimal = self.strip_cr = False
        self.labels: list[str] = []
        self.switches = ""
        self.width = 130
        self.left_column = self.suppress_common = False
        self.exclude: list[str] = []
        self.function_patterns: list[bytes] = []
        self.ignore_patterns: list[bytes] = []
        self.function_re = self.ignore_re = None
        self.show_c_function = False
        self.expand_tabs = self.initial_tab = self.suppress_blank = False
        self.tabsize = 8
        self.line_formats: list[bytes | None] = [None, None, None]  # UNCHANGED, OLD, NEW
        self.group_formats: list[bytes | None] = [None, None, None, None]  # + CHANGED
        self.from_file: str | None = None
        self.to_file: str | None = None
        self.unidirectional = False
        self.starting_file: str | None = None
        self.ignore_name_case = False


_INTMAX = (1 << 63) - 1
_C_SPACE = " \t\n\v\f\r"


def _strtoimax(value: str) -> int | None:
    """C strtoimax(value, &end, 10) when nothing follows the number (None otherwise):
    leading white space and a sign allowed, saturated at INTMAX_MIN/INTMAX_MAX; "" is 0."""
    text = value.lstrip(_C_SPACE)
    sign = 1
    if text[:1] in ("+", "-"):
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    if not text:
        return 0 if value == "" else None
    if not (text.isascii() and text.isdigit()):
        return None
    return max(-_INTMAX - 1, min(_INTMAX, sign * int(text)))


def _context_number(ctx: CommandContext, value: str) -> int:
    number = _strtoimax(value)
    if number is None or number < 0:
        ctx.error(f"invalid context length '{value}'")
        ctx.error("Try 'diff --help' for more information.")
        raise _Trouble()
    # past any file's length, more context changes nothing
    return min(number, 1 << 30)


def _usage(ctx: CommandContext, message: str) -> None:
    ctx.error(message)
    ctx.error("Try 'diff --help' for more information.")
    raise _Trouble()


_LINE_FORMAT_KEYS = {"unchanged-line-format": 0, "old-line-format": 1, "new-line-format": 2}
_GROUP_FORMAT_KEYS = {"unchanged-group-format": 0, "old-group-format": 1,
                      "new-group-format": 2, "changed-group-format": 3}


def _regex_check(ctx: CommandContext, pattern: str) -> bytes:
    """add_regexp: the pattern compiled alone; GNU's "PATTERN: message" and exit 2."""
    raw = pattern.encode("utf-8", "surrogateescape")
    try:
        compile_patterns(raw.split(b"\n"), syntax="G")
    except RegexError as err:
        ctx.error(f"{pattern}: {err.args[0]}")
        raise _Trouble() from None
    return raw


def _compile(patterns: list[bytes], icase: bool, budget):  # type: ignore[no-untyped-def]
    if not patterns:
        return None
    parts = [piece for p in patterns for piece in p.split(b"\n")]
    return compile_patterns(parts, syntax="G", icase=icase, budget=budget)


def _options_before_error(args: list[str], message: str) -> tuple[list, list[str]]:
    """The options getopt returns before the one it refuses with ``message``."""
    good: tuple[list, list[str]] = ([], [])
    for k in range(len(args) + 1):
        try:
            good = parse(SPEC, args[:k])
        except UsageError as err:
            if str(err) == message:
                return good
    return good


#: Short options of SPEC that take an argument (a digit after them belongs to it).
_WITH_ARG = {SPEC.short[i - 1] for i in range(1, len(SPEC.short)) if SPEC.short[i] == ":"}


def _digit_options(args: list[str]) -> tuple[list[str], int]:
    """GNU's obsolete ``-NUM`` (``-u0``, ``-c1``, ``-5``): the arguments without the digit
    options, and the number they spell (-1 if none). As in GNU, a digit right after another
    digit option (even in the next argument) extends the number; after any other option it
    starts a new one."""
    out: list[str] = []
    number = -1
    prev_digit = False
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out.extend(args[i - 1:])
            break
        if not arg.startswith("-") or arg == "-" or arg.startswith("--"):
            out.append(arg)
            if arg.startswith("--") and "=" not in arg and i < len(args):
                name = arg[2:]
                matches = [k for k in SPEC.long if k.startswith(name)]
                if (name in SPEC.long and SPEC.long[name][0] == REQUIRED) or (
                        name not in SPEC.long and len(matches) == 1 and SPEC.long[matches[0]][0] == REQUIRED):
                    out.append(args[i])
                    i += 1
            if arg.startswith("--"):
                prev_digit = False
            continue
        kept = "-"
        j = 1
        while j < len(arg):
            ch = arg[j]
            j += 1
            if ch.isdigit():
                number = number * 10 + int(ch) if prev_digit and number >= 0 else int(ch)
                prev_digit = True
                continue
            prev_digit = False
            kept += ch
            if ch in _WITH_ARG:
                kept += arg[j:]
                if j >= len(arg) and i < len(args):
                    out.append(kept)
                    kept = ""
                    out.append(args[i])
                    i += 1
                break
        if kept and kept != "-":
            out.append(kept)
    return out, number


def _parse(ctx: CommandContext) -> tuple[Options, list[str]] | int:
    usage_error: UsageError | None = None
    args, digits = _digit_options(ctx.args)
    try:
        opts, operands = parse(SPEC, args)
    except UsageError as err:
        # GNU acts on each option as getopt returns it: the options before the bad one
        # (a bad regex, conflicting styles, --help...) come first
        usage_error = err
        opts, operands = _options_before_error(args, str(err))
    o = Options()
    style: list[str] = []

    def specify_style(name: str) -> None:
        if style and style[0] != name:
            _usage(ctx, "conflicting output style options")
        if not style:
            style.append(name)

    def specify_value(slot: list, k: int, value: bytes, option: str) -> None:
        if slot[k] is not None and slot[k] != value:
            _usage(ctx, f"conflicting {option} option value '"
                   + value.decode("utf-8", "surrogateescape") + "'")
        slot[k] = value

    ocontext = -1
    explicit_context = False  # -C N, -U N, --context=N, --unified=N
    width_given = tabsize_given = 0
    try:
        for key, value in opts:
            if key == "help":
                ctx.stdout.write(USAGE.encode())
                return 0
            if key in ("version", "v"):
                ctx.stdout.write(VERSION.encode())
                return 0
            if key == "normal":
                specify_style("normal")
            elif key in ("c", "C", "context", "u", "U", "unified"):
                # GNU keeps the largest context asked for; -c/-u (no number) ask for 3
                number = 3 if value is None else _context_number(ctx, value)
                explicit_context = explicit_context or value is not None
                ocontext = max(ocontext, number)
                specify_style("context" if key in ("c", "C", "context") else "unified")
            elif key == "y":
                specify_style("side")
            elif key == "e":
                specify_style("ed")
            elif key == "n":
                specify_style("rcs")
            elif key == "W":
                number = _strtoimax(value or "")
                if number is None or number <= 0:
                    _usage(ctx, f"invalid width '{value}'")
                # Wider than this is only padding past any output limit: clamp it, so a
                # hostile -W 999999999 cannot build gigabytes of tabs per line.
                if width_given and number != width_given:
                    ctx.error("conflicting width options")
                    raise _Trouble()
                width_given = number
                o.width = min(number, MAX_WIDTH)  # type: ignore[type-var]
            elif key == "tabsize":
                number = _strtoimax(value or "")
                if number is None or number <= 0:
                    _usage(ctx, f"invalid tabsize '{value}'")
                # as -W: a bigger tab is only padding (the sandbox's bound, not GNU's)
                if tabsize_given and number != tabsize_given:
                    ctx.error("conflicting tabsize options")
                    raise _Trouble()
                tabsize_given = number
                o.tabsize = min(number, MAX_WIDTH)  # type: ignore[type-var]
            elif key == "x":
                o.exclude.append(value or "")
            elif key == "X":
                try:
                    data = ctx.read_bytes(value or "")
                except FSError as exc:
                    ctx.error(f"{value}: {exc}")
                    return 2
                o.exclude.extend(p.decode("utf-8", "surrogateescape")
                                 for p in data.split(b"\n") if p)
            elif key == "left-column":
                o.left_column = True
            elif key == "suppress-common-lines":
                o.suppress_common = True
            elif key == "q":
                o.brief = True
            elif key == "s":
                o.identical = True
            elif key == "r":
                o.recursive = True
            elif key == "N":
                o.new_file = True
            elif key == "i":
                o.icase = True
            elif key == "w":
                o.all_space = True
            elif key == "b":
                o.space_change = True
            elif key == "Z":
                o.trailing = True
            elif key == "E":
                o.tabs = True
            elif key == "B":
                o.blank = True
            elif key == "a":
                o.text = True
            elif key == "d":
                o.minimal = True
            elif key == "strip-trailing-cr":
                o.strip_cr = True
            elif key == "L":
                o.labels.append(value or "")
            elif key == "p":
                o.show_c_function = True
                o.function_patterns.append(_regex_check(ctx, "^[[:alpha:]$_]"))
            elif key == "F":
                o.function_patterns.append(_regex_check(ctx, value or ""))
            elif key == "I":
                o.ignore_patterns.append(_regex_check(ctx, value or ""))
            elif key == "t":
                o.expand_tabs = True
            elif key == "T":
                o.initial_tab = True
            elif key == "suppress-blank-empty":
                o.suppress_blank = True
            elif key == "D":
                name = (value or "").encode("utf-8", "surrogateescape")
                specify_style("ifdef")
                defaults = [b"%=",
                            b"#ifndef " + name + b"\n%<#endif /* ! " + name + b" */\n",
                            b"#ifdef " + name + b"\n%>#endif /* " + name + b" */\n",
                            b"#ifndef " + name + b"\n%<#else /* " + name + b" */\n%>#endif /* "
                            + name + b" */\n"]
                for k, fmt in enumerate(defaults):
                    specify_value(o.group_formats, k, fmt, "-D")
            elif key == "line-format":
                specify_style("ifdef")
                for k in range(3):
                    specify_value(o.line_formats, k, (value or "").encode(
                        "utf-8", "surrogateescape"), "--line-format")
            elif key in _LINE_FORMAT_KEYS:
                specify_style("ifdef")
                specify_value(o.line_formats, _LINE_FORMAT_KEYS[key], (value or "").encode(
                    "utf-8", "surrogateescape"), "--" + key)
            elif key in _GROUP_FORMAT_KEYS:
                specify_style("ifdef")
                specify_value(o.group_formats, _GROUP_FORMAT_KEYS[key], (value or "").encode(
                    "utf-8", "surrogateescape"), "--" + key)
            elif key == "from-file":
                if o.from_file is not None and o.from_file != value:
                    _usage(ctx, f"conflicting --from-file option value '{value}'")
                o.from_file = value
            elif key == "to-file":
                if o.to_file is not None and o.to_file != value:
                    _usage(ctx, f"conflicting --to-file option value '{value}'")
                o.to_file = value
            elif key == "unidirectional-new-file":
                o.unidirectional = True
            elif key == "S":
                if o.starting_file is not None and o.starting_file != value:
                    _usage(ctx, f"conflicting -S option value '{value}'")
                o.starting_file = value
            elif key == "ignore-file-name-case":
                o.ignore_name_case = True
            elif key == "no-ignore-file-name-case":
                o.ignore_name_case = False
            elif key == "no-dereference":
                pass
            elif key == "color":
                if value not in (None, "never", "auto", "always"):
                    _usage(ctx, f"invalid color '{value}'")
                if value == "always":
                    ctx.error("--color=always is not supported in the sandbox")
                    return 2
    except _Trouble:
        return 2
    if usage_error is not None:
        ctx.error(str(usage_error))
        ctx.error("Try 'diff --help' for more information.")
        return 2
    if style:
        o.style = style[0]
    elif o.show_c_function:
        o.style = "context"
    o.context = ocontext if ocontext >= 0 else 3
    if digits >= 0 and o.style in ("context", "unified") and (
            o.context < digits or (digits < o.context and not explicit_context)):
        o.context = digits  # -NUM wins over -c/-u's 3, and over a smaller -C/-U
    if o.style == "ifdef":
        lf = [f if f is not None else b"%l\n" for f in o.line_formats]
        gf = list(o.group_formats)
        if gf[1] is None:
            gf[1] = gf[3] if gf[3] is not None else b"%<"
        if gf[2] is None:
            gf[2] = gf[3] if gf[3] is not None else b"%>"
        if gf[0] is None:
            gf[0] = b"%="
        if gf[3] is None:
            gf[3] = gf[1] + gf[2]
        o.line_formats, o.group_formats = lf, gf
    if len(o.labels) > 2:
        ctx.error("too many file label options")
        return 2
    # -i folds the compared lines, never the -F/-I regexes (GNU compiles them without
    # RE_ICASE)
    o.function_re = _compile(o.function_patterns, False, ctx.budget)
    o.ignore_re = _compile(o.ignore_patterns, False, ctx.budget)
    if o.from_file is not None and o.to_file is not None:
        ctx.error("--from-file and --to-file both specified")
        return 2
    if o.from_file is None and o.to_file is None:
        if len(operands) < 2:
            ctx.error(f"missing operand after '{ctx.args[-1] if ctx.args else 'diff'}'"
                      if operands or ctx.args else "missing operand after 'diff'")
            ctx.error("Try 'diff --help' for more information.")
            return 2
        if len(operands) > 2:
            ctx.error(f"extra operand '{operands[2]}'")
            ctx.error("Try 'diff --help' for more information.")
            return 2
    words = list(ctx.args)
    for operand in operands:
        for k in range(len(words) - 1, -1, -1):
            if words[k] == operand:
                del words[k]
                break
    o.switches = "".join(" " + _shell_word(w) for w in words if w != "--")
    return o, operands


def _diff_classes():  # type: ignore[no-untyped-def]
    """The accelerator's ``diff_classes``, or None (not built, an older build, or off)."""
    return getattr(linescan(), "diff_classes", None)


class _Lines:
    """A file's lines as a read-only sequence of bytes objects, each made when asked for,
    from the data and its line offsets (``diff_classes``: n + 1 int64 values)."""

    __slots__ = ("data", "off", "n")

    def __init__(self, data: bytes, offsets: bytes):
        self.data = data
        self.off = memoryview(offsets).cast("q")
        self.n = len(self.off) - 1

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k):  # type: ignore[no-untyped-def]
        off, data = self.off, self.data
        if isinstance(k, slice):
            start, stop, step = k.indices(self.n)
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return [data[off[i]:off[i + 1]] for i in range(start, stop)]
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("line index out of range")
        return data[off[k]:off[k + 1]]


class _File:
    """One side of a comparison: its name as printed and its content (None: absent)."""

    def __init__(self, name: str, data: bytes | None, mtime: float | None,
                 mtime_ns: int | None = None):
        self.name = name
        self.data = data
        self.mtime = mtime
        #: the exact time where the store keeps one (headers print its nanoseconds)
        self.mtime_ns = mtime_ns


class Differ:
    """Compares files and directories and prints the result."""

    def __init__(self, ctx: CommandContext, o: Options):
        self.ctx = ctx
        self.o = o
        self.status = 0
        self._stdin: bytes | None = None

    def trouble(self, message: str) -> None:
        self.ctx.error(message)
        self.status = 2

    def read(self, name: str) -> _File:
        if name == "-":
            if self._stdin is None:  # both operands '-': the same data, read once
                self._stdin = self.ctx.stdin.read()
            return _File(name, self._stdin, time.time())
        st = self.ctx.stat(name)
        return _File(name, self.ctx.read_bytes(name), st.mtime, st.mtime_ns)

    def key(self, line: bytes) -> bytes:
        o = self.o
        nl = line.endswith(b"\n")
        body = line[:-1] if nl else line
        if o.icase:
            body = body.lower()
        if o.tabs and b"\t" in body:
            body = _expand(body)
        if o.all_space:
            return _WS.sub(b"", body)
        if o.space_change:
            return _WS.sub(b" ", body).rstrip(b" ")
        if o.trailing:
            return body.rstrip(b" \t\n\v\f\r")
        return body + (b"\n" if nl else b"")

    def lines(self, data: bytes) -> list[bytes]:
        lines = data.splitlines(keepends=True) if data else []
        # splitlines also splits at \r, \v...; diff's lines end only at \n
        if len(lines) != data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1):
            lines = [ln + b"\n" for ln in data.split(b"\n")]
            if data.endswith(b"\n"):
                lines.pop()
            else:
                lines[-1] = lines[-1][:-1]
        if self.o.strip_cr:
            lines = [ln[:-2] + b"\n" if ln.endswith(b"\r\n") else ln for ln in lines]
        return lines

    def header(self, f: _File, mark: bytes, label_index: int) -> bytes:
        if len(self.o.labels) > label_index:
            return mark + b" " + self.o.labels[label_index].encode("utf-8", "surrogateescape") + b"\n"
        if f.mtime_ns is not None:
            sec, ns = divmod(f.mtime_ns, 1_000_000_000)
        else:
            t = f.mtime if f.mtime is not None else 0.0
            sec = int(t // 1)
            ns = int(round((t - sec) * 1e9))
            if ns >= 1_000_000_000:
                sec, ns = sec + 1, ns - 1_000_000_000
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(sec)) + f".{ns:09d} +0000"
        return (mark + b" " + _c_maybe(f.name).encode("utf-8", "surrogateescape") + b"\t"
                + stamp.encode() + b"\n")

    def files(self, f0: _File, f1: _File, banner: bool) -> None:
        """Compare two regular files (either may be absent under -N)."""
        ctx, o = self.ctx, self.o
        d0 = f0.data if f0.data is not None else b""
        d1 = f1.data if f1.data is not None else b""
        warned = False  # trouble for this pair: no "are identical" (GNU's status check)
        if d0 == d1 and o.style == "ed" and not o.brief and not self._same_file(f0, f1) \
                and (o.text or b"\0" not in d0[:BINARY_PROBE]):
            # GNU reads two identical files' lines unless they are one file: -e's warning
            for f in (f0, f1):
                if f.data and not f.data.endswith(b"\n"):
                    self.trouble(f"{f.name}: No newline at end of file\n")
                    warned = True
        if d0 == d1:
            if o.style == "side" and not o.brief:  # -y shows identical files too
                layout = output.SideBySide(o.width, o.left_column, o.suppress_common, o.tabsize,
                                           o.expand_tabs)
                ctx.stdout.write(layout.render([], self.lines(d0), self.lines(d1)))
            elif o.style == "ifdef" and not o.brief and not (
                    not o.text and b"\0" in d0[:BINARY_PROBE]):
                ctx.stdout.write(self.ifdef([], self.lines(d0), self.lines(d1)))
            if o.identical and not warned:
                ctx.stdout.write(f"Files {f0.name} and {f1.name} are identical\n".encode(
                    "utf-8", "surrogateescape"))
            return
        binary = not o.text and (b"\0" in d0[:BINARY_PROBE] or b"\0" in d1[:BINARY_PROBE])
        late_newline = [False, False]
        if o.style == "ed" and not (o.brief or binary):
            # io.c: ed scripts cannot say "no newline": the last line is completed, with a
            # warning (and trouble's exit status)
            # (after --strip-trailing-cr, so a last "\r" stays: see below)
            if d0 and not d0.endswith(b"\n"):
                self.trouble(f"{f0.name}: No newline at end of file\n")
                warned = True
                if o.strip_cr and d0.endswith(b"\r"):
                    late_newline[0] = True
                else:
                    d0 += b"\n"
            if d1 and not d1.endswith(b"\n"):
                self.trouble(f"{f1.name}: No newline at end of file\n")
                warned = True
                if o.strip_cr and d1.endswith(b"\r"):
                    late_newline[1] = True
                else:
                    d1 += b"\n"
        if o.brief or binary:
            if banner and not o.brief and False:
                pass
            word = "Files" if o.brief else "Binary files"
            ctx.stdout.write(f"{word} {f0.name} and {f1.name} differ\n".encode(
                "utf-8", "surrogateescape"))
            self.status = max(self.status, 1)
            return
        # GNU (io.c find_identical_ends) keeps as many lines of the identical prefix and
        # suffix as the context in the compared region, so boundary shifts can reach them.
        horizon = o.context if o.style in ("unified", "context") else 0
        transformed = o.icase or o.tabs or o.all_space or o.space_change or o.trailing
        native = None if transformed or o.strip_cr else _diff_classes()
        if native is not None:
            # The C accelerator splits both files and numbers their lines' classes (the same
            # prefix, suffix and first-pass discard codes as the Python path); a line becomes
            # a bytes object only when it is printed.
            try:
                pre, _suf, off0, off1, ids0, ids1, c0, c1 = native(d0, d1, horizon, o.minimal)
            except (OverflowError, MemoryError):
                native = None
        if native is not None:
            a, b = _Lines(d0, off0), _Lines(d1, off1)
            changes = compare_region(memoryview(ids0).cast("i"), memoryview(ids1).cast("i"),
                                     None if o.minimal else [c0, c1], pre, o.minimal,
                                     ctx.budget)
        else:
            a, b = self.lines(d0), self.lines(d1)
            if late_newline[0]:
                a[-1] += b"\n"
            if late_newline[1]:
                b[-1] += b"\n"
            if transformed:
                keys0 = [self.key(x) for x in a]
                keys1 = [self.key(x) for x in b]
            else:  # a line is its own key
                keys0, keys1 = a, b
            changes = compare(keys0, keys1, a, b, o.minimal, ctx.budget, horizon)
        if o.blank or o.ignore_re is not None:
            trivial = self.trivial
            for c in changes:
                c.ignore = all(map(trivial, a[c.line0:c.line0 + c.deleted])) and \
                    all(map(trivial, b[c.line1:c.line1 + c.inserted]))
        if not changes or all(c.ignore for c in changes):
            if o.style == "ifdef":
                ctx.stdout.write(self.ifdef(changes, a, b))
            if o.style == "side":
                layout = output.SideBySide(o.width, o.left_column, o.suppress_common, o.tabsize,
                                           o.expand_tabs)
                ctx.stdout.write(layout.render(changes, a, b))
            if o.identical and not changes and not any(late_newline) and not warned:
                ctx.stdout.write(f"Files {f0.name} and {f1.name} are identical\n".encode(
                    "utf-8", "surrogateescape"))
            return
        self.status = max(self.status, 1)
        out: list[bytes] = []
        if banner:
            out.append(f"diff{o.switches} {_c_maybe(f0.name)} {_c_maybe(f1.name)}\n".encode(
                "utf-8", "surrogateescape"))
        pr = None
        if o.expand_tabs or o.initial_tab or o.suppress_blank:
            pr = output.Printer(o.expand_tabs, o.initial_tab, o.suppress_blank, o.tabsize)
        func = output.FunctionFinder(o.function_re, a) if o.function_re is not None else None
        if o.style == "normal":
            out.append(output.normal(changes, a, b, pr))
        elif o.style == "ed":
            out.append(formats.ed(changes, b, pr.expand if pr else None))
        elif o.style == "rcs":
            out.append(formats.rcs(changes, b, pr.expand if pr else None))
        elif o.style == "ifdef":
            ctx.stdout.write(b"".join(out))
            out = [self.ifdef(changes, a, b, ctx.stdout.write)]
        elif o.style == "side":
            layout = output.SideBySide(o.width, o.left_column, o.suppress_common, o.tabsize,
                                           o.expand_tabs)
            out.append(layout.render(changes, a, b))
        else:
            groups = output.hunks(changes, o.context)
            if o.style == "unified":
                out.append(self.header(f0, b"---", 0) + self.header(f1, b"+++", 1))
                out.append(output.unified(groups, a, b, o.context, pr, func))
            else:
                out.append(self.header(f0, b"***", 0) + self.header(f1, b"---", 1))
                out.append(output.context_format(groups, a, b, o.context, pr, func))
        ctx.stdout.write(b"".join(out))

    def _same_file(self, f0: _File, f1: _File) -> bool:
        if f0.data is None or f1.data is None:
            return False
        if f0.name == "-" or f1.name == "-":
            return f0.name == f1.name
        try:
            return self.ctx.path(f0.name) == self.ctx.path(f1.name)
        except (FSError, ValueError):
            return False

    def trivial(self, line: bytes) -> bool:
        """analyze_hunk: a line a -B/-I change may consist of (blank, or matching -I)."""
        o = self.o
        body = line[:-1] if line.endswith(b"\n") else line
        if o.blank:
            if not body:
                return True
            if (o.trailing or o.space_change or o.all_space) and not body.strip(b" \t\n\v\f\r"):
                return True
        return o.ignore_re is not None and o.ignore_re.search(body) is not None

    def ifdef(self, changes, a, b, sink=None) -> bytes:  # type: ignore[no-untyped-def]
        o = self.o
        expand = None
        if o.expand_tabs:
            expand = output.Printer(True, False, False, o.tabsize).expand
        printer = formats.IfdefPrinter(o.group_formats, o.line_formats, expand,  # type: ignore[arg-type]
                                       sink or self.ctx.stdout.write)
        try:
            return printer.render(changes, a, b)
        except RecursionError:
            self.trouble("group format nested too deeply")
            raise _Fatal() from None

    @staticmethod
    def _pair_names(names0: set[str], names1: set[str], raw, start):  # type: ignore[no-untyped-def]
        """dir.c's merge of two sorted directories: (name0, name1) pairs, None for a side
        without the name. Under --ignore-file-name-case names sort by strcasecmp then
        strcmp, names equal but for case pair up, an exact match preferred among them.
        ``start`` (-S, already folded as the names are) skips the names before it."""
        def enc(n: str) -> bytes:
            return n.encode("utf-8", "surrogateescape")

        lists = [sorted(names, key=lambda n: (raw(n), enc(n))) for names in (names0, names1)]
        if start is not None:
            lists = [[n for n in names if raw(n) >= start] for names in lists]
        a, b = lists
        i = j = 0
        while i < len(a) or j < len(b):
            if i >= len(a):
                order = 1
            elif j >= len(b):
                order = -1
            else:
                ka, kb = raw(a[i]), raw(b[j])
                order = (ka > kb) - (ka < kb)
            if order == 0 and a[i] != b[j]:
                # prefer an exact match further on the lesser side among the case-equal names
                lesser, at = (a, i) if enc(a[i]) < enc(b[j]) else (b, j)
                greater = b[j] if lesser is a else a[i]
                p = at + 1
                while p < len(lesser) and raw(lesser[p]) == raw(greater):
                    c = (enc(lesser[p]) > enc(greater)) - (enc(lesser[p]) < enc(greater))
                    if c >= 0:
                        if c == 0:
                            lesser[at:p + 1] = [greater] + lesser[at:p]
                        break
                    p += 1
            yield (a[i] if order <= 0 else None), (b[j] if order >= 0 else None)
            if order <= 0:
                i += 1
            if order >= 0:
                j += 1

    def kind(self, name: str) -> str | None:
        """"dir", "file" or None (absent)."""
        if name == "-":
            return "file"
        try:
            return "dir" if self.ctx.stat(name).is_dir else "file"
        except FSError as exc:
            if exc.errno == 2:
                return None
            raise

    def directories(self, d0: str, d1: str, depth: int = 0, absent: int | None = None) -> None:
        """Compare two directories entry by entry (recursively under -r); ``absent`` (0 or
        1) is a side that does not exist, an empty directory under -N."""
        ctx, o = self.ctx, self.o
        ctx.budget.check_time()
        if depth > 1000:
            self.trouble(f"{d0}: directory nesting too deep")
            return
        names0 = set(ctx.listdir(d0)) if absent != 0 else set()
        names1 = set(ctx.listdir(d1)) if absent != 1 else set()
        if o.exclude:
            from sandbox.commands.find.glob import compile_glob
            patterns = [compile_glob(p) for p in o.exclude]
            names0 = {n for n in names0 if not any(p.match(n) for p in patterns)}
            names1 = {n for n in names1 if not any(p.match(n) for p in patterns)}

        def raw(name: str) -> bytes:
            data = name.encode("utf-8", "surrogateescape")
            return data.lower() if o.ignore_name_case else data

        start = raw(o.starting_file) if o.starting_file is not None and depth == 0 else None
        for name0, name1 in self._pair_names(names0, names1, raw, start):
            p0 = _join(d0, name0 if name0 is not None else name1)  # type: ignore[arg-type]
            p1 = _join(d1, name1 if name1 is not None else name0)  # type: ignore[arg-type]
            name = name0 if name0 is not None else name1
            k0 = self.kind(p0) if name0 is not None else None
            k1 = self.kind(p1) if name1 is not None else None
            if k0 is None or k1 is None:
                present = k0 or k1
                if o.new_file or (o.unidirectional and k0 is None):
                    if present == "file":
                        f0 = self.read(p0) if k0 else _File(p0, None, 0.0)
                        f1 = self.read(p1) if k1 else _File(p1, None, 0.0)
                        self.files(f0, f1, True)
                        continue
                    if present == "dir":  # the absent one is an empty directory
                        if o.recursive:
                            self.directories(p0, p1, depth + 1, 0 if k0 is None else 1)
                        else:
                            ctx.stdout.write(f"Common subdirectories: {p0} and {p1}\n".encode(
                                "utf-8", "surrogateescape"))
                        continue
                where = d0 if k0 else d1
                ctx.stdout.write(f"Only in {where}: {name}\n".encode("utf-8", "surrogateescape"))
                self.status = max(self.status, 1)
            elif k0 == "dir" and k1 == "dir":
                if o.recursive:
                    self.directories(p0, p1, depth + 1)
                else:
                    ctx.stdout.write(f"Common subdirectories: {p0} and {p1}\n".encode(
                        "utf-8", "surrogateescape"))
            elif k0 != k1:
                w0 = "directory" if k0 == "dir" else "regular file"
                w1 = "directory" if k1 == "dir" else "regular file"
                ctx.stdout.write(f"File {p0} is a {w0} while file {p1} is a {w1}\n".encode(
                    "utf-8", "surrogateescape"))
                self.status = max(self.status, 1)
            else:
                self.files(self.read(p0), self.read(p1), True)

    def top(self, n0: str, n1: str) -> None:
        k0, k1 = self.kind(n0), self.kind(n1)
        bad = False
        if k0 is None and not ((self.o.new_file or self.o.unidirectional) and k1 == "file"):
            self.trouble(f"{n0}: No such file or directory")
            bad = True
        if k1 is None and not (self.o.new_file and k0 == "file"):
            self.trouble(f"{n1}: No such file or directory")
            bad = True
        if bad:
            return
        if k0 == "dir" and k1 == "dir":
            if self.o.style == "ifdef":
                self.trouble("-D option not supported with directories")
                raise _Fatal()
            if self.ctx.path(n0) == self.ctx.path(n1):
                return  # the same directory: GNU compares nothing
            self.directories(n0, n1)
            return
        if k0 == "dir":
            n0 = _join(n0, _base(n1))
            if self.kind(n0) is None:
                self.trouble(f"{n0}: No such file or directory")
                return
        elif k1 == "dir":
            n1 = _join(n1, _base(n0))
            if self.kind(n1) is None:
                self.trouble(f"{n1}: No such file or directory")
                return
        if n0 == n1 == "-" and k0 is not None:  # one file: GNU compares it unread
            same = _File("-", b"", time.time())
            self.files(same, same, False)
            return
        f0 = self.read(n0) if k0 is not None else _File(n0, None, 0.0)
        f1 = self.read(n1) if k1 is not None else _File(n1, None, 0.0)
        self.files(f0, f1, False)


def _shell_word(word: str) -> str:
    """An option word as GNU's banner line shows it (shell quoting when needed)."""
    data = word.encode("utf-8", "surrogateescape")
    return word if not _needs_quotes(data, colon=False) else _shell_always(data)


_C_ESCAPES = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v",
              34: '\\"', 92: "\\\\"}


def _c_maybe(name: str) -> str:
    """A file name in banner and header lines: gnulib's c-maybe quoting (double quotes, C
    escapes, octal for every byte outside printable ASCII) when anything needs it."""
    data = name.encode("utf-8", "surrogateescape")
    if all(33 <= c <= 126 and c not in _C_ESCAPES for c in data):
        return name
    out = []
    for c in data:
        if c in _C_ESCAPES:
            out.append(_C_ESCAPES[c])
        elif 32 <= c <= 126:
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return '"' + "".join(out) + '"'


def _join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else d + "/" + name


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1] or path


def _expand(body: bytes) -> bytes:
    out = bytearray()
    col = 0
    for ch in body:
        if ch == 9:
            spaces = 8 - col % 8
            out += b" " * spaces
            col += spaces
        else:
            out.append(ch)
            col += 1
    return bytes(out)


def run(ctx: CommandContext) -> int:
    """``diff``."""
    parsed = _parse(ctx)
    if isinstance(parsed, int):
        return parsed
    o, operands = parsed
    if o.from_file is not None:
        pairs = [(o.from_file, x) for x in operands]
    elif o.to_file is not None:
        pairs = [(x, o.to_file) for x in operands]
    else:
        pairs = [(operands[0], operands[1])]
    differ = Differ(ctx, o)
    for n0, n1 in pairs:
        try:
            differ.top(n0, n1)
        except FSError as exc:
            differ.trouble(f"{exc.path and n0 or n0}: {exc}")
        except _Fatal:
            break
    return differ.status
