"""``patch`` (GNU patch 2.7.6) for unified diffs: apply a diff to the files it names.

``patch [OPTION]... [ORIGFILE [PATCHFILE]]``; the patch comes from ``-i FILE``, PATCHFILE or
stdin. Supported: ``-p N``, ``-i FILE``, ``-o FILE``, ``-R``, ``-N``, ``-f``, ``-t``, ``-s``,
``-b`` (and the default backup of a file whose patch did not apply exactly, as NAME.orig),
``--no-backup-if-mismatch``, ``-F N``, ``--dry-run``. Each hunk is located as GNU's
``locate_hunk`` does (outward from where the previous hunks left it, then with up to 2 lines of
fuzz dropped from the context), with GNU's messages (``patching file X``, ``Hunk #1 succeeded
at N (offset K lines).``, ``Hunk #1 FAILED at N.``, ``1 out of 2 hunks FAILED -- saving
rejects to file X.rej``); the first hunk of a file that only applies reversed gets GNU's
reversed-patch dialogue, answered as without a terminal (no). Exit 0, 1 (hunks failed), 2
(trouble). Files named by the patch are known only once it is read, so ``writes`` declares the
working directory (or the ``-o`` file).
"""

from __future__ import annotations

from sandbox.commands.patch.main import run, writes

__all__ = ["run", "writes"]
