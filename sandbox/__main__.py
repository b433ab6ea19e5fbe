"""Command line: ``python -m sandbox --root DIR -c 'SCRIPT'`` runs one script in the jail.

``--root DIR`` mounts DIR at ``/`` (cwd ``/``); ``--mount /.memory=DIR`` (repeatable) mounts
DIR at a virtual path, with ``--cwd`` choosing the start directory. ``--allow a,b,c`` replaces
the allowlist, ``--read-only`` refuses every write, ``--dynamic`` is ``Policy(dynamic=True)``,
``--protect GLOB`` protects paths,
``--seconds N`` sets the time limit. Standard input is passed to the script and the process
exits with the script's status (126 when the guard refuses it, with the reasons on stderr).
Without ``-c`` it is an interactive shell over the same jail: each line is one run (variables
and ``cd`` do not carry over from one line to the next).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from sandbox.limits import Limits
from sandbox.policy import DEFAULT_ALLOW, Policy


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m sandbox", description="A jailed bash sandbox.")
    p.add_argument("--root", metavar="DIR", help="mount DIR at / (cwd /)")
    p.add_argument("--mount", metavar="VPATH=DIR", action="append", default=[],
                   help="mount DIR at the virtual path VPATH (repeatable)")
    p.add_argument("--cwd", metavar="VPATH", help="start directory (default: / or the first mount)")
    p.add_argument("--allow", metavar="a,b,c", help="commands allowed (replaces the default list)")
    p.add_argument("--read-only", action="store_true", help="refuse every write")
    p.add_argument("--dynamic", action="store_true",
                   help="also run code made at run time (eval, bash -c, $CMD), each checked when it runs")
    p.add_argument("--protect", metavar="GLOB", action="append", default=[],
                   help="virtual path or glob no command may write (repeatable)")
    p.add_argument("--seconds", type=float, help="wall-clock time limit of each run")
    p.add_argument("-c", dest="script", metavar="SCRIPT", help="run SCRIPT and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = _parser().parse_args(argv)
    mounts: dict[str, str] = {}
    if args.root:
        mounts["/"] = args.root
    for m in args.mount:
        point, eq, directory = m.partition("=")
        if not eq or not point.startswith("/") or not directory:
            print(f"sandbox: --mount wants /VPATH=DIR, got {m!r}", file=sys.stderr)
            return 2
        mounts[point] = directory
    if not mounts:
        print("sandbox: give --root DIR or --mount /VPATH=DIR", file=sys.stderr)
        return 2
    for point, directory in mounts.items():
        if not os.path.isdir(directory):
            print(f"sandbox: {point}: mount source is not a directory", file=sys.stderr)
            return 2
    cwd = args.cwd or ("/" if "/" in mounts else next(iter(mounts)))
    allow = frozenset(a for a in args.allow.split(",") if a) if args.allow is not None else DEFAULT_ALLOW
    policy = Policy(allow=allow, read_only=args.read_only, protected=frozenset(args.protect),
                    dynamic=args.dynamic)
    limits = Limits() if args.seconds is None else replace(Limits(), seconds=args.seconds)
    from sandbox.api import Sandbox
    sb = Sandbox(mounts, cwd=cwd, policy=policy, limits=limits)
    if args.script is not None:
        data = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
        result = sb.run(args.script, data)
        sys.stdout.buffer.write(result.stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(result.stderr)
        sys.stderr.buffer.flush()
        return result.exit_code
    return _interactive(sb)


def _interactive(sb) -> int:  # type: ignore[no-untyped-def]
    status = 0
    while True:
        sys.stderr.write(f"sandbox:{sb.cwd}$ ")  # the prompt goes to stderr, as bash's does
        sys.stderr.flush()
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            print(file=sys.stderr)
            continue
        if not line:
            print(file=sys.stderr)
            return status
        if not line.strip():
            continue
        result = sb.run(line)
        sys.stdout.buffer.write(result.stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(result.stderr)
        sys.stderr.buffer.flush()
        status = result.exit_code


if __name__ == "__main__":
    sys.exit(main())
