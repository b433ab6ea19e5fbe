"""``sed``: GNU sed 4.9 for the sandbox (stream editor; reads files through the jail).

Options: ``-n -e -f -E -r -i[SUFFIX] -s -z -u -l N --posix`` and their long forms.
Refused: ``--debug``, the ``e`` command and the ``e`` flag of ``s`` (they run shell commands).
``r R w W`` and ``-i`` touch files only through the sandbox filesystem, so inside the jail,
under the policy and the write budget. Exit status as GNU: 1 for a bad script or usage,
2 when an input file cannot be read, 4 for an I/O error, or the ``q``/``Q`` exit code.
"""

from __future__ import annotations

from sandbox.commands.sed.main import run, writes

__all__ = ["run", "writes"]
