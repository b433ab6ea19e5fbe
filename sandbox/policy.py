"""What a script may run and write: the allowlist, read-only mode, protected paths, approval."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Callable

#: Commands allowed by default: every command that reads, the ones that write no more than a
#: redirection can (``mkdir touch tee``, ``split``/``mktemp`` creating new files, ``awk``'s and
#: ``sed -i``'s edits), and the commands that run commands (their commands are checked by the
#: guard against this same list). ``rm``, ``mv``, ``cp``, ``rmdir``, ``truncate``, ``find``
#: (``-delete``), ``unlink``, ``gzip``/``gunzip`` (they remove their input), ``tar`` (``-x``
#: overwrites), ``patch`` and ``install`` can destroy a file that nothing keeps a copy of, so
#: they must be allowed explicitly; memtool adds them where every change is versioned.
DEFAULT_ALLOW: frozenset[str] = frozenset(
    "cat grep egrep fgrep sed jq awk tail head echo printf ls wc sort uniq cut tr mkdir touch "
    "tee date seq basename dirname xargs env printenv timeout nice nohup expr bc sleep yes "
    "which whoami id hostname uname tree file diff cmp comm join nl tac rev paste fold fmt "
    "expand unexpand column split shuf tsort od xxd hexdump strings base64 base32 md5sum "
    "sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum stat du readlink "
    "realpath mktemp ln chmod chown dd numfmt factor basenc csplit pr nproc tty sync logname "
    "pathchk link zcat gawk more less envsubst getopt iconv look getconf locale".split()
)

#: What may destroy content: allowed by default only where every change can be undone.
DESTRUCTIVE: frozenset[str] = frozenset(
    "rm mv cp rmdir truncate find unlink gzip gunzip tar patch install".split())

#: Approval callback: (script, virtual paths it may write) -> True to run it, False to refuse.
Approver = Callable[[str, list[str]], bool]


@dataclass(frozen=True)
class Policy:
    """The policy of a ``Sandbox``.

    ``allow``: command names that may run (shell builtins such as ``cd`` or ``test`` are always
    available, except the forbidden ones). ``read_only``: refuse every write before anything
    runs. ``protected``: virtual paths or ``fnmatch`` globs that no command may write, append to,
    remove or rename (e.g. an append-only conversation log). ``approve``: optional callback that
    sees each script and the files it may write, and can refuse it. ``dynamic``: also run
    code made at run time (``eval``, ``source``/``.`` of a jail file, ``bash -c``/``sh -c``,
    command names that are not literal words), each string or name checked by the guard when
    it runs (off by default: then the guard sees every command before anything runs).
    """

    allow: frozenset[str] = DEFAULT_ALLOW
    read_only: bool = False
    protected: frozenset[str] = field(default_factory=frozenset)
    approve: Approver | None = None
    dynamic: bool = False

    def is_protected(self, vpath: str) -> bool:
        """True if ``vpath`` (absolute, normalised) matches a protected path or glob."""
        if not self.protected:
            return False
        return any(vpath == p or fnmatch.fnmatchcase(vpath, p) for p in self.protected)

    def may_write(self, vpath: str) -> bool:
        """True if a script may change ``vpath``: what ``test -w`` and ``find -writable`` say
        (the sandbox reads and writes with its own rights, as root does, whatever the bits)."""
        return not self.read_only and not self.is_protected(vpath)
