"""The sandbox's virtual identity: who ``whoami``, ``id``, ``hostname``, ``uname`` and ``ls -l``
say the script runs as. Fixed values, never the host's (the jail must not reveal them)."""

from __future__ import annotations

#: The only user (and its primary and only group) of the virtual user database.
USER = "user"
UID = 1000
GROUP = "user"
GID = 1000
#: The virtual user database: name -> (uid, primary group, gid). Every system has root; the
#: script runs as ``USER``.
ACCOUNTS: dict[str, tuple[int, str, int]] = {"root": (0, "root", 0), USER: (UID, GROUP, GID)}


def account(name: str) -> tuple[str, int, str, int] | None:
    """(name, uid, group, gid) of a user name or number in ``ACCOUNTS``, or None."""
    for user, (uid, group, gid) in ACCOUNTS.items():
        if name in (user, str(uid)):
            return user, uid, group, gid
    return None


#: ``hostname`` / ``uname -n``.
HOSTNAME = "sandbox"
#: ``uname`` fields, in GNU's order: -s -n -r -v -m -p -i -o.
KERNEL_NAME = "Linux"
KERNEL_RELEASE = "6.1.0"
KERNEL_VERSION = "#1 SMP PREEMPT_DYNAMIC"
MACHINE = "x86_64"
PROCESSOR = "unknown"
HARDWARE_PLATFORM = "unknown"
OPERATING_SYSTEM = "GNU/Linux"
#: ``nproc`` (and ``nproc --all``): the processing units the sandbox reports.
NPROC = 1
