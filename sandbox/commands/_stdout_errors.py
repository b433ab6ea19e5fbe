"""What each command prints, and the status it exits with, when its standard output refuses
a write: a closed descriptor (``>&-``, EBADF) or a full device (``> /dev/full``, ENOSPC).

Most GNU programs end with gnulib's ``close_stdout``: ``NAME: write error: REASON``, status 1.
Some say it otherwise, exit with their own status, or say nothing: what is recorded here was
measured from the programs themselves (coreutils 9.1, grep 3.8, sed 4.9, findutils 4.9,
diffutils 3.8, util-linux 2.38, tar 1.34, gzip 1.12, xxd, glibc's iconv). Not a command (the
leading underscore keeps it out of the registry).
"""

from __future__ import annotations

import errno

#: Exit status other than 1 after the failure.
_STATUS = {"grep": 2, "ls": 2, "sort": 2, "diff": 2, "sed": 4, "env": 125, "printenv": 2,
           "expr": 3, "xxd": 3, "getopt": 3, "tar": 2}
#: Programs whose output is still buffered when they close it: a full device shows no reason.
_REASON_LOST_AT_CLOSE = frozenset({"du", "wc", "cksum", "md5sum", "sha1sum", "sha224sum",
                                   "sha256sum", "sha384sum", "sha512sum", "b2sum"})
#: Programs that never see a closed stdout (they don't check the close): nothing, status 0.
_SILENT_WHEN_CLOSED = frozenset({"rev", "column", "hexdump", "strings", "look", "getopt", "tar",
                                 "tree"})
#: Programs that say nothing either way.
_SILENT = frozenset({"strings", "tree", "file"})


def stdout_failure(name: str, exc: OSError) -> tuple[str, int]:
    """(the lines to print on stderr, each starting with the program's name; the exit
    status) for the command ``name`` whose write to stdout raised ``exc``."""
    if name in ("egrep", "fgrep"):  # GNU's wrapper scripts exec grep
        name = "grep"
    reason = "Bad file descriptor" if exc.errno == errno.EBADF else (exc.strerror or "I/O error")
    closed = exc.errno == errno.EBADF
    if name in _SILENT:
        return "", (1 if name == "file" else 0)
    if closed and name in _SILENT_WHEN_CLOSED:
        return "", 0
    if name == "cmp":  # it writes only about files that differ (status 1)
        return ("", 1) if closed else (f"cmp: standard output: {reason}\n", 2)
    status = _STATUS.get(name, 1)
    if name == "sed":
        text = f"sed: couldn't {'close' if closed else 'flush'} stdout: {reason}\n"
    elif name == "sort":
        text = f"sort: fflush failed: 'standard output': {reason}\nsort: write error\n"
    elif name == "diff" or (name == "cat" and closed):
        text = f"{name}: standard output: {reason}\n"
    elif name == "find":
        text = f"find: \u2018standard output\u2019: {reason}\nfind: write error" + (
            f": {reason}\n" if closed else "\n")
    elif name == "tee":
        text = f"tee: 'standard output': {reason}\n"
    elif name == "xxd":
        text = f"xxd: {reason}\n"
    elif name == "iconv":
        text = f"iconv: error while closing output file: {reason}\n"
    elif name in ("gzip", "gunzip", "zcat"):
        text = f"\n{name}: stdout: {reason}\n"
    elif name == "tar":
        text = f"tar: -: Cannot write: {reason}\ntar: Error is not recoverable: exiting now\n"
    elif name in _REASON_LOST_AT_CLOSE and not closed:
        text = f"{name}: write error\n"
    else:
        text = f"{name}: write error: {reason}\n"
    return text, status
