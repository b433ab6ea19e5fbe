"""``rm``: remove files or directories (GNU coreutils 9.1): ``-f -r -R -d -v``.

Refuses ``.``/``..`` and ``/`` as GNU does; a mount point cannot be removed (``Device or
resource busy``). ``-i``/``-I`` (interactive) are refused: there is no terminal.
"""

from __future__ import annotations

import errno

from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands._writing import join, operands_of, stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, OptionSpec, UsageError, parse, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "dfirRvI",
    {
        "dir": (NO_ARG, "d"),
        "force": (NO_ARG, "f"),
        "interactive": (OPTIONAL, "interactive"),
        "recursive": (NO_ARG, "r"),
        "verbose": (NO_ARG, "v"),
        "one-file-system": (NO_ARG, "one-file-system"),
        "no-preserve-root": (NO_ARG, "no-preserve-root"),
        "preserve-root": (OPTIONAL, "preserve-root"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help     display this help and exit
      --version  output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The paths this command line may remove."""
    return operands_of(SPEC, args)[1]


class _Remover:
    def __init__(self, ctx: CommandContext, force: bool, recursive: bool, empty_dirs: bool, verbose: bool):
        self.ctx = ctx
        self.force = force
        self.recursive = recursive
        self.empty_dirs = empty_dirs
        self.verbose = verbose

    def say(self, text: str) -> None:
        if self.verbose:
            self.ctx.stdout.write(text.encode("utf-8", "surrogateescape"))

    def fail(self, shown: str, err: FSError | str) -> bool:
        self.ctx.error(f"cannot remove {quoteaf(shown)}: {err}")
        return False

    def remove(self, shown: str, top: bool = False) -> bool:
        """Remove one operand (typed as ``shown``; ``top`` for a command-line one); False on
        error."""
        ctx = self.ctx
        ctx.budget.check_time()
        try:
            st = stat_operand(ctx, shown)
        except FSError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR) and self.force:
                return True  # GNU: -f ignores missing files (ENOENT and ENOTDIR)
            if e.errno == errno.ELOOP:  # a planted link: unlink it, never follow it
                try:
                    ctx.remove(shown)
                    self.say(f"removed {quoteaf(shown)}\n")
                    return True
                except FSError as e2:
                    return self.fail(shown, e2)
            return self.fail(shown, e)
        if not st.is_dir:
            try:
                ctx.remove(shown)
            except FSError as e:
                return self.fail(shown, e)
            self.say(f"removed {quoteaf(shown)}\n")
            return True
        if not self.recursive:
            if not self.empty_dirs:
                return self.fail(shown, "Is a directory")
            try:
                if ctx.listdir(shown):
                    raise FSError(errno.ENOTEMPTY, shown)
            except FSError as e:
                return self.fail(shown, e)
        if top and _dotted(shown):  # GNU's check of a directory it could otherwise remove
            ctx.error(f"refusing to remove '.' or '..' directory: skipping {quoteaf(shown)}")
            return False
        if not self.recursive:
            try:
                ctx.rmdir(shown)
            except FSError as e:
                return self.fail(shown, e)
            self.say(f"removed directory {quoteaf(shown)}\n")
            return True
        try:
            names = in_directory_order(ctx.fs, ctx.path(shown), ctx.listdir(shown))
        except FSError as e:
            return self.fail(shown, e)
        ok = True
        for name in names:
            ok = self.remove(join(shown, name)) and ok
        if not ok:
            return False
        try:
            ctx.rmdir(shown)
        except FSError as e:
            return self.fail(shown, e)
        self.say(f"removed directory {quoteaf(shown)}\n")
        return True


def _fts_trimmed(operand: str) -> str:
    """The operand as gnulib's ``fts_open`` keeps it (and rm names it): two or more trailing
    slashes become one (``d//`` is ``d/``; ``//`` stays)."""
    end = len(operand)
    if end > 2 and operand.endswith("/"):
        while end > 1 and operand[end - 2] == "/":
            end -= 1
    return operand[:end]


def _dotted(operand: str) -> bool:
    """True if the operand's last component is ``.`` or ``..`` (POSIX: never removed)."""
    return operand.rstrip("/").rpartition("/")[2] in (".", "..")


def _diagnose_leading_hyphen(ctx: CommandContext) -> None:
    """After an unknown option, GNU names the first argument that looks like an option but is
    an existing file: ``Try 'rm ./-x' to remove the file '-x'.``"""
    for arg in ctx.args:
        if arg.startswith("-") and len(arg) > 1:
            try:
                ctx.stat(arg)
            except FSError:
                continue
            shown = quotef(arg) if ":" not in arg else quoteaf(arg)
            ctx.stderr.write(f"Try '{ctx.prog} ./{shown}' to remove the file '{arg}'.\n"
                             .encode("utf-8", "surrogateescape"))
            return


def run(ctx: CommandContext) -> int:
    """Run ``rm``."""
    try:
        parse(SPEC, ctx.args)
    except UsageError as err:  # GNU's usage(): the message, diagnose_leading_hyphen, --help
        ctx.error(str(err))
        _diagnose_leading_hyphen(ctx)
        ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
        return 1
    parsed = parse_command_line(ctx, SPEC, USAGE, version="rm (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    force = False
    interactive = ""  # "" never, "once" (-I), "always" (-i)
    for key, value in opts:  # -f, -i and -I: the last one wins, as in GNU
        if key == "f":
            force, interactive = True, ""
        elif key == "i":
            force, interactive = False, "always"
        elif key == "I":
            force, interactive = False, "once"
        elif key == "interactive":
            word = value if value is not None else "always"
            kinds = {"never": "", "no": "", "none": "", "once": "once", "always": "always", "yes": "always"}
            matches = {kinds[k] for k in kinds if k.startswith(word)}
            if word in kinds:
                matches = {kinds[word]}
            if len(matches) != 1:
                groups = [["never", "no", "none"], ["once"], ["always", "yes"]]
                ctx.error(f"{'ambiguous' if matches else 'invalid'} argument {quote(word)} for {quote('--interactive')}\n"
                          "Valid arguments are:\n" + "\n".join("  - " + ", ".join(quote(w) for w in g) for g in groups))
                ctx.stderr.write(b"Try 'rm --help' for more information.\n")
                return 1
            interactive = matches.pop()
            if interactive:
                force = False
    recursive = bool(keys & {"r", "R"})
    # -I asks once only before removing more than three files or recursively: otherwise
    # it asks nothing and rm goes on as without it
    if interactive == "always" or (interactive == "once" and (recursive or len(operands) > 3)):
        ctx.error("interactive removal (-i, -I) is not available in the sandbox; use -f or list the files")
        return 1
    if not operands:
        if force:
            return 0
        return ctx.usage_error("missing operand")
    remover = _Remover(ctx, force, recursive, "d" in keys, "v" in keys)
    status = 0
    for operand in map(_fts_trimmed, operands):
        try:
            is_root = ctx.path(operand) == "/" and not _dotted(operand)  # (``/.``: refused as a dot)
        except FSError:
            is_root = False
        if recursive and is_root and "no-preserve-root" not in keys:
            if operand == "/":
                ctx.error("it is dangerous to operate recursively on '/'")
            else:
                ctx.error(f"it is dangerous to operate recursively on {quoteaf(operand)} (same as '/')")
            ctx.error("use --no-preserve-root to override this failsafe")
            status = 1
            continue
        if not remover.remove(operand, top=True):
            status = 1
    return status
