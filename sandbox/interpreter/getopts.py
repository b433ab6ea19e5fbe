"""``getopts OPTSTRING NAME [ARGS]``: bash's option parser (``OPTIND``, ``OPTARG``, the
silent mode of a leading ``:``, grouped options ``-ab``, ``--`` ending the options)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_USAGE = b"getopts: usage: getopts optstring name [arg ...]\n"


def b_getopts(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """One option per call; status 1 at the end of the options."""
    if len(argv) > 1 and argv[1].startswith("-") and len(argv[1]) > 1 and argv[1] != "--":
        io_.stderr.write(f"{callstack.error_prefix(sh)}getopts: {argv[1][:2]}: invalid option\n"
                         .encode("utf-8", "surrogateescape"))
        io_.stderr.write(_USAGE)
        return 2
    if argv[1:2] == ["--"]:
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:  # bash's usage line has no `bash:` prefix
        io_.stderr.write(_USAGE)
        return 2
    spec, name = argv[1], argv[2]
    if not _NAME_RE.match(name):
        io_.stderr.write(f"{callstack.error_prefix(sh)}getopts: `{name}': not a valid identifier\n"
                         .encode("utf-8", "surrogateescape"))
        return 1
    args = argv[3:] if len(argv) > 3 else list(sh.positional)
    silent = spec.startswith(":")
    if silent:
        spec = spec[1:]
    noisy = _opterr(sh)
    try:
        optind = int(sh.get_var("OPTIND") or "1")
    except ValueError:
        optind = 1
    if optind < 1:
        optind = 1
    pos = sh.getopts_pos if sh.getopts_ind == optind else 0
    k = optind - 1
    if k >= len(args) or pos == 0 and (not args[k].startswith("-") or args[k] == "-"):
        sh.set_var(name, "?")
        sh.getopts_pos = 0
        return 1
    if pos == 0 and args[k] == "--":
        sh.set_var("OPTIND", str(optind + 1))
        sh.set_var(name, "?")
        sh.getopts_pos = 0
        return 1
    word = args[k]
    pos = pos or 1
    c = word[pos]
    pos += 1
    if pos >= len(word):
        optind += 1
        pos = 0
    sh.vars.pop("OPTARG", None)
    idx = spec.find(c) if c != ":" else -1
    if idx < 0:
        if silent:
            sh.set_var("OPTARG", c)
        elif noisy:
            io_.stderr.write(f"bash: illegal option -- {c}\n".encode("utf-8", "surrogateescape"))
        sh.set_var(name, "?")
    elif idx + 1 < len(spec) and spec[idx + 1] == ":":
        if pos:
            sh.set_var("OPTARG", word[pos:])
            optind += 1
            pos = 0
        elif optind - 1 < len(args):
            sh.set_var("OPTARG", args[optind - 1])
            optind += 1
        else:
            if silent:
                sh.set_var("OPTARG", c)
                sh.set_var(name, ":")
            else:
                if noisy:
                    io_.stderr.write(f"bash: option requires an argument -- {c}\n"
                                     .encode("utf-8", "surrogateescape"))
                sh.set_var(name, "?")
            sh.set_var("OPTIND", str(optind))
            sh.getopts_ind, sh.getopts_pos = optind, pos
            return 0
        sh.set_var(name, c)
    else:
        sh.set_var(name, c)
    sh.set_var("OPTIND", str(optind))
    sh.getopts_ind, sh.getopts_pos = optind, pos
    return 0


def _opterr(sh: "Shell") -> bool:
    """bash's ``sv_opterr``: messages unless ``$OPTERR`` is set to a number that is 0 (as
    ``atoi`` reads it: text that is no number is 0 too)."""
    value = sh.get_var("OPTERR")
    if not value:
        return True
    m = re.match(r"\s*[-+]?\d+", value)
    return m is not None and int(m.group(0)) != 0
