"""Differential-test support for the commands that run commands or walk trees (find, xargs,
diff, env, timeout): run one shell command line with real bash + GNU tools and through the
whole sandbox (parser, guard, interpreter, ``ctx.run_command``) on identical trees, and compare
stdout, stderr, exit status and the resulting tree.

Trees are built with ``files_support.build`` (sizes and mtimes as given); our side mounts its
copy at ``/w`` (the working directory), the reference runs in its temp dir with
``LC_ALL=C.UTF-8 TZ=UTC``. ``sort_out`` compares stdout as a sorted list of records where GNU's
order is the host's readdir order (ours: sorted names).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

sys.path.insert(0, os.path.dirname(__file__))

from files_support import Tree, build, reproduce, snapshot  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox import commands as registry  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402

ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
MOUNT = "/w"


def missing(tool: str) -> str | None:
    """Why ``tool`` cannot be the reference, or None."""
    return None if shutil.which(tool, path=ENV["PATH"]) else f"reference tool {tool!r} is not installed"


def run_both(script: str, tree: Tree, stdin: bytes = b"", *, policy: Policy | None = None,
             sort_out: bytes | None = None,
             normalize: Callable[[bytes], bytes] | None = None) -> tuple[tuple, tuple]:
    """((status, out, err, tree) of bash+GNU, the same of the sandbox)."""
    with tempfile.TemporaryDirectory(prefix="ref") as rd, tempfile.TemporaryDirectory(prefix="our") as od:
        ref_root, our_root = Path(rd), Path(od)
        build(ref_root, tree)
        build(our_root, tree)
        ref = subprocess.run(["bash", "-c", script], input=stdin, capture_output=True,
                             cwd=ref_root, env=ENV, timeout=60)
        sb = Sandbox({MOUNT: LocalDir(our_root)}, cwd=MOUNT,
                     policy=policy or Policy(allow=registry.names()), limits=Limits(seconds=30),
                     env={"LC_ALL": "C.UTF-8", "TZ": "UTC"})
        r = sb.run(script, stdin)
        outs = [ref.stdout, r.stdout]
        if normalize is not None:
            outs = [normalize(o) for o in outs]
        if sort_out is not None:
            outs = [sort_out.join(sorted(o.split(sort_out))) for o in outs]
        return ((ref.returncode, outs[0], ref.stderr, snapshot(ref_root)),
                (r.exit_code, outs[1], r.stderr, snapshot(our_root)))


def compare(script: str, tree: Tree, stdin: bytes = b"", **kw) -> str | None:  # type: ignore[no-untyped-def]
    """None when both runs agree, else a report with a command that rebuilds the case."""
    ref, ours = run_both(script, tree, stdin, **kw)
    if ref == ours:
        return None
    parts = [f"script: {script}", "reproduce: " + reproduce(["bash", "-c", script], tree, stdin)[:1500]]
    for label, a, b in zip(("status", "stdout", "stderr", "tree"), ref, ours):
        if a != b:
            if label == "tree":
                keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
                a, b = ({k: side.get(k, "<missing>") for k in keys[:5]} for side in (a, b))
            parts.append(f"{label}: GNU {repr(a)[:1200]}\n    ours {repr(b)[:1200]}")
    return "\n".join(parts)


def check_all(cases: list, limit: int = 5, **kw) -> None:  # type: ignore[no-untyped-def]
    """Compare every (script, tree[, stdin]) case; fail listing the first mismatches."""
    failures = []
    for case in cases:
        report = compare(*case, **kw)
        if report is not None:
            failures.append(report)
    if failures:
        raise AssertionError(f"{len(failures)}/{len(cases)} cases differ from GNU:\n\n"
                             + "\n\n".join(failures[:limit]))
