"""A jailed, pure-Python bash sandbox: parser front end, AST guard, interpreter, virtual FS.

Nothing here knows about memory; ``memtool`` builds on it.

    from sandbox import Sandbox, Policy, Limits
    sb = Sandbox(mounts={"/.memory": ".memory"}, cwd="/.memory")
    r = sb.run("grep -c pricing conversations.jsonl")
"""

from sandbox.errors import (
    BrokenPipe, GuardViolation, LimitExceeded, SandboxError, UnsupportedSyntax,
)
from sandbox.limits import Limits
from sandbox.policy import Policy

__all__ = [
    "Sandbox", "Result", "Policy", "Limits", "SandboxError", "UnsupportedSyntax",
    "GuardViolation", "LimitExceeded", "BrokenPipe",
]


def __getattr__(name: str):  # lazy: importing sandbox.fs or sandbox.commands stays cheap
    if name in ("Sandbox", "Result"):
        from sandbox import api
        return getattr(api, name)
    raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
