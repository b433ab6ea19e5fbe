"""``patch`` (GNU patch 2.7.6): apply a diff to the files it names.

``patch [OPTION]... [ORIGFILE [PATCHFILE]]``; the patch comes from ``-i FILE``, PATCHFILE or
stdin. Unified, context (old and new style) and normal diffs and ed scripts are read as GNU
reads them (pch.c), several file patches per input; the file to patch is chosen by GNU's rules
(an existing file among the names given, fewest components, shortest basename, shortest name);
each hunk is located outward from where the previous ones left it, with up to ``-F`` lines of
fuzz; GNU's messages, ``.rej`` files (unified or context format), ``.orig`` backups, the
dialogues for reversed or already applied patches (answered as without a terminal), exit
status 0, 1 (hunks failed) or 2 (trouble). Options: ``-p -i -o (- for stdout) -r -d -R -N -f
-t -s -b -E -F -c -e -n -u --dry-run --verbose --binary --reject-format
--[no-]backup-if-mismatch``; the rest of GNU's are refused.

Modules: ``options`` (command line), ``source`` (reading the patch's lines), ``reader`` and
``hunk`` (the current file patch and hunk), ``unified``/``context``/``normal``/``ed`` (one
per diff format), ``intuit`` (finding the next file patch and its file), ``apply`` (locating
and applying hunks), ``reject`` (.rej text), ``files`` (backups, output, deletions),
``session`` (one run's state and questions), ``main`` (the loop).
"""

from __future__ import annotations

from sandbox.commands.patch.main import run, writes

__all__ = ["run", "writes"]
