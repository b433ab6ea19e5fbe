"""``mktemp``: create a temporary file or directory inside the jail (GNU coreutils 9.1):
``-d -u -q -p DIR --tmpdir[=DIR] -t --suffix=SUFF``, templates ending in at least three X's.

Names are made of GNU's 62 letters and digits; the file is created empty and private (0600)
through the jail and the write policy (so read-only refuses with GNU's wording).
"""

from __future__ import annotations

import errno
import random

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "dp:qtuV",
    {
        "directory": (NO_ARG, "d"),
        "quiet": (NO_ARG, "q"),
        "dry-run": (NO_ARG, "u"),
        "suffix": (REQUIRED, "suffix"),
        "tmpdir": (OPTIONAL, "p"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
      --version     output version information and exit
"""

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
ATTEMPTS = 100


class _Refused(Exception):
    """A template GNU refuses: the message (without the program name)."""


def _plan(opts: list[tuple[str, str | None]], operands: list[str], env: dict[str, str]) -> tuple[str, int, int]:
    """(destination name with its X's, number of X's, suffix length); raises ``_Refused``."""
    suffix: str | None = None
    use_dest = deprecated_t = False
    dest_arg: str | None = None
    for key, value in opts:
        if key == "suffix":
            suffix = value
        elif key == "p":
            use_dest, dest_arg = True, value
        elif key == "t":
            use_dest = deprecated_t = True
    if operands:
        template = operands[0]
    else:
        template, use_dest = "tmp.XXXXXXXXXX", True
    if suffix is not None:
        if "/" in suffix:
            raise _Refused(f"invalid suffix {quote(suffix)}, contains directory separator")
        if not template.endswith("X"):
            raise _Refused(f"with --suffix, template {quote(template)} must end in X")
        template += suffix
        suffix_len = len(suffix)
    else:
        last_x = template.rfind("X")
        suffix_len = len(template) - last_x - 1 if last_x >= 0 else 0
        tail = template[len(template) - suffix_len:] if suffix_len else ""
        if "/" in tail:
            raise _Refused(f"invalid suffix {quote(tail)}, contains directory separator")
    body = template[: len(template) - suffix_len]
    x_count = len(body) - len(body.rstrip("X"))
    if x_count < 3:
        raise _Refused(f"too few X's in template {quote(template)}")
    dest = template
    if use_dest:
        tmpdir = env.get("TMPDIR", "")
        if deprecated_t:
            directory = tmpdir or dest_arg or "/tmp"
            if "/" in template:
                raise _Refused(f"invalid template, {quote(template)}, contains directory separator")
        else:
            directory = dest_arg or tmpdir or "/tmp"
            if template.startswith("/"):
                raise _Refused(f"invalid template, {quote(template)}; with --tmpdir, it may not be absolute")
        dest = directory + template if directory.endswith("/") else f"{directory}/{template}"
    return dest, x_count, suffix_len


def writes(args: list[str]) -> list[str]:
    """The name pattern this command line may create (nothing with ``-u``)."""
    try:
        opts, operands = parse(SPEC, args)
        if any(k == "u" for k, _ in opts):
            return []
        return [_plan(opts, operands[:1], {})[0]]
    except (UsageError, _Refused):
        return [a for a in args if not a.startswith("-")] or ["/tmp/tmp.XXXXXXXXXX"]


def run(ctx: CommandContext) -> int:
    """Run ``mktemp``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="mktemp (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {k for k, _ in opts}
    if len(operands) > 1:
        return ctx.usage_error("too many templates")
    try:
        dest, x_count, suffix_len = _plan(opts, operands, ctx.env)
    except _Refused as e:
        ctx.error(str(e))
        return 1
    make_dir, quiet = "d" in keys, "q" in keys
    start = len(dest) - suffix_len - x_count
    rng = random.SystemRandom()
    err: FSError | None = None
    for _ in range(ATTEMPTS):
        ctx.budget.check_time()
        name = dest[:start] + "".join(rng.choice(LETTERS) for _ in range(x_count)) + dest[start + x_count:]
        try:
            if "u" in keys:
                try:
                    ctx.stat(name)
                    continue
                except FSError as e:
                    if e.errno != errno.ENOENT:
                        raise
            elif make_dir:
                ctx.mkdir(name)
            else:
                if ctx.exists(name):
                    continue
                parent = name.rsplit("/", 1)[0] if "/" in name else "."
                if not ctx.stat(parent or "/").is_dir:
                    raise FSError(errno.ENOTDIR, parent)
                ctx.write_bytes(name, b"")
        except FSError as e:
            if e.errno == errno.EEXIST:
                continue
            err = e
            break
        ctx.stdout.write(name.encode("utf-8", "surrogateescape") + b"\n")
        return 0
    else:
        err = FSError(errno.EEXIST, dest)
    if not quiet:
        kind = "directory" if make_dir else "file"
        ctx.error(f"failed to create {kind} via template {quote(dest)}: {err}")
    return 1
