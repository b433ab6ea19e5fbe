"""The sandbox's virtual identity: who ``whoami``, ``id``, ``hostname``, ``uname`` and ``ls -l``
say the script runs as. Fixed values, never the host's (the jail must not reveal them)."""

from __future__ import annotations

#: The only user (and its primary and only group) of the virtual user database.
USER = "user"
UID = 1000
GROUP = "user"
GID = 1000
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
