"""Finding the next file patch and the file it patches (pch.c's ``intuit_diff_type`` and
``there_is_another_patch``): which diff format follows, the names its headers give, and
GNU's choice among them (existing files first, then fewest components, shortest name,
greedily as ``best_name`` does; for a file the patch creates, the name needing the fewest new
directories)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch import names as nm
from sandbox.commands.patch.files import split_lines
from sandbox.commands.patch.hunk import OutOfMemory
from sandbox.commands.patch.options import (CONTEXT_DIFF, ED_DIFF, NEW_CONTEXT_DIFF, NO_DIFF,
                                            NORMAL_DIFF, SILENT, UNI_DIFF, VERBOSE, Fatal)
from sandbox.commands.patch.reader import INDEX, NEW, OLD

if TYPE_CHECKING:
    from sandbox.commands.patch.session import Session

_SPACE = b" \t\n\v\f\r"
_KIND = {UNI_DIFF: "a unified diff", CONTEXT_DIFF: "a context diff",
         NEW_CONTEXT_DIFF: "a new-style context diff", NORMAL_DIFF: "a normal diff",
         ED_DIFF: "an ed script"}


def ed_command_letter(line: bytes) -> str:
    """GNU's ``get_ed_command_letter``: the command of an ``ed`` line diff -e writes (``Na``,
    ``N,Mc``, ``N,Md``, ``Ni``, ``s/.//``), or ``""``."""
    p = 0
    n = len(line)
    pair = False
    if p < n and 0x30 <= line[p] <= 0x39:
        p += 1
        while p < n and 0x30 <= line[p] <= 0x39:
            p += 1
        if p < n and line[p] == 0x2C:
            p += 1
            if not (p < n and 0x30 <= line[p] <= 0x39):
                return ""
            while p < n and 0x30 <= line[p] <= 0x39:
                p += 1
            pair = True
    if p >= n:
        return ""
    letter = chr(line[p])
    p += 1
    if letter in "ai":
        if pair:
            return ""
    elif letter == "s":
        if line[p:p + 4] != b"/.//":
            return ""
        p += 4
    elif letter not in "cd":
        return ""
    while p < n and line[p] in b" \t":
        p += 1
    return letter if line[p:p + 1] == b"\n" else ""


def _is_command(s: bytes, before: bool) -> bool:
    """Whether the line is a normal-diff command (``3c3``, ``5,7d4``, ``0a1,2``); as in GNU,
    a line that starts with no digit, or with digits not followed by ``a``/``c``/``d``,
    leaves the previous line's answer (``before``)."""
    if not s[:1].isdigit():
        return before
    t = 1
    while t < len(s) and (s[t:t + 1].isdigit() or s[t] == 0x2C):
        t += 1
    if s[t:t + 1] not in (b"d", b"c", b"a"):
        return before
    t += 1
    while t < len(s) and (s[t:t + 1].isdigit() or s[t] == 0x2C):
        t += 1
    while t < len(s) and s[t] in b" \t":
        t += 1
    if s[t:t + 1] == b"\r":
        t += 1
    return s[t:t + 1] == b"\n"


def intuit_diff_type(sess: "Session", need_header: bool) -> int:
    """Scan from where the last file patch ended to the next one's first hunk; set the
    reader's names, timestamps and start, and the session's file to patch."""
    r = sess.reader
    src = r.src
    strip = sess.opts.strippath
    r.names = [None, None, None]
    r.invalid_names = []
    r.timestr = [None, None]
    if r.diff_type in (ED_DIFF, NORMAL_DIFF):
        need_header = False
    r.rfc934_nesting = 0
    r.timestamp = [-1, -1]
    r.says_nonexistent = [0, 0]
    src.seek(r.base)
    src.input_line = r.bline - 1
    this_line = 0
    first_command_line = -1
    first_ed_command_letter = ""
    fcl_line = 0
    this_is_a_command = False
    stars_this_line = False
    retval = NO_DIFF
    diff_type = r.diff_type
    while True:
        previous_line = this_line
        last_line_was_command = this_is_a_command
        stars_last_line = stars_this_line
        this_line = src.tell()
        chars_read = src.pget_line(0, 0, False, False)
        if not chars_read:
            if first_ed_command_letter:
                r.start = first_command_line
                r.sline = fcl_line
                retval = ED_DIFF
                break
            r.start = this_line
            r.sline = src.input_line
            return NO_DIFF
        buf = src.buf
        strip_trailing_cr = chars_read >= 2 and buf[chars_read - 2] == 0x0D
        indent = 0
        k = 0
        while k < len(buf) and buf[k] in b" \tX":
            indent = (indent + 8) & ~7 if buf[k] == 9 else indent + 1
            k += 1
        s = buf[k:]
        this_is_a_command = _is_command(s, this_is_a_command)
        if not need_header and first_command_line < 0:
            letter = ed_command_letter(s)
            if letter or this_is_a_command:
                first_command_line = this_line
                first_ed_command_letter = letter
                fcl_line = src.input_line
                r.indent = indent
                r.strip_trailing_cr = strip_trailing_cr
        if not stars_last_line and s.startswith(b"*** "):
            _fetch(r, s[4:], strip, OLD, OLD)
            need_header = False
        elif s.startswith(b"+++ "):
            _fetch(r, s[4:], strip, OLD, OLD)  # (swapped with NEW below)
            need_header = False
            r.strip_trailing_cr = strip_trailing_cr
        elif s.startswith(b"Index:"):
            ok, name, _, _ = nm.fetchname(s[6:], strip, False)
            if ok:
                r.names[INDEX] = name
            need_header = False
            r.strip_trailing_cr = strip_trailing_cr
        elif s.startswith(b"Prereq:"):
            t = 7
            while t < len(s) and s[t] in _SPACE:
                t += 1
            start = t
            while t < len(s) and s[t] not in _SPACE:
                t += 1
            if t < len(s) and s[t + 1:].strip(_SPACE):
                sess.say(f"Prereq: with multiple words at line {this_line} of patch\n")
            r.revision = s[start:t] or None
        else:
            t = 0
            while s[t:t + 2] == b"- ":
                t += 2
            if s[t:t + 4] == b"--- ":
                ok, name, timestr, stamp = nm.fetchname(s[t + 4:], strip, True)
                if ok:
                    if name is not None:
                        r.names[NEW] = name
                        r.timestr[NEW] = timestr
                    if stamp is not None and stamp != nm.NO_STAMP:
                        r.timestamp[NEW] = stamp
                        r.rfc934_nesting = t >> 1
                need_header = False
                r.strip_trailing_cr = strip_trailing_cr
        if need_header:
            continue
        if diff_type in (NO_DIFF, ED_DIFF) and first_command_line >= 0 and s == b".\n":
            r.start = first_command_line
            r.sline = fcl_line
            retval = ED_DIFF
            break
        if diff_type in (NO_DIFF, UNI_DIFF) and s.startswith(b"@@ -"):
            # The names, timestamps and their texts were read backwards: swap them.
            r.timestamp.reverse()
            r.names[OLD], r.names[NEW] = r.names[NEW], r.names[OLD]
            r.timestr.reverse()
            u = 4
            if s[u:u + 1] == b"0" and not s[u + 1:u + 2].isdigit():
                r.says_nonexistent[OLD] = 1 + (not r.timestamp[OLD])
            while u < len(s) and s[u] not in b" \n":
                u += 1
            while s[u:u + 1] == b" ":
                u += 1
            if s[u:u + 1] == b"+" and s[u + 1:u + 2] == b"0" and not s[u + 2:u + 3].isdigit():
                r.says_nonexistent[NEW] = 1 + (not r.timestamp[NEW])
            r.indent = indent
            r.start = this_line
            r.sline = src.input_line
            retval = UNI_DIFF
            if (not ((r.names[OLD] or not r.timestamp[OLD]) and (r.names[NEW] or not r.timestamp[NEW]))
                    and not r.names[INDEX] and need_header):
                sess.say(f"missing header for unified diff at line {r.sline} of patch\n")
            break
        stars_this_line = s.startswith(b"********")
        if (diff_type in (NO_DIFF, CONTEXT_DIFF, NEW_CONTEXT_DIFF) and stars_last_line
                and s.startswith(b"*** ")):
            if s[4:5] == b"0" and not s[5:6].isdigit():
                r.says_nonexistent[OLD] = 1 + (not r.timestamp[OLD])
            nl = s.find(b"\n")
            r.indent = indent
            r.strip_trailing_cr = strip_trailing_cr
            r.start = previous_line
            r.sline = src.input_line - 1
            retval = NEW_CONTEXT_DIFF if s[nl - 1:nl] == b"*" else CONTEXT_DIFF
            # Scan the first hunk to see whether the file contents appear to be deleted.
            saved = (r.base, r.bline)
            src.seek(previous_line)
            src.input_line -= 2
            try:
                got = r.another_hunk(retval, False)
            except OutOfMemory:
                raise Fatal("out of memory") from None
            if got and not r.hunk.repl_lines and r.hunk.newfirst == 1:
                r.says_nonexistent[NEW] = 1 + (not r.timestamp[NEW])
            r.next_intuit_at(*saved)
            if (not ((r.names[OLD] or not r.timestamp[OLD]) and (r.names[NEW] or not r.timestamp[NEW]))
                    and not r.names[INDEX] and need_header):
                sess.say(f"missing header for context diff at line {r.sline} of patch\n")
            break
        if (diff_type in (NO_DIFF, NORMAL_DIFF) and last_line_was_command
                and (s.startswith(b"< ") or s.startswith(b"> "))):
            r.start = previous_line
            r.sline = src.input_line - 1
            r.indent = indent
            retval = NORMAL_DIFF
            break
    _choose_file(sess)
    return retval


def _fetch(r, at: bytes, strip: int, name_slot: int, stamp_slot: int) -> None:
    ok, name, timestr, stamp = nm.fetchname(at, strip, True)
    if not ok:
        return
    if name is not None:
        r.names[name_slot] = name
        r.timestr[name_slot] = timestr
    if stamp is not None:
        r.timestamp[stamp_slot] = stamp


def _choose_file(sess: "Session") -> None:
    """The scan_exit part of ``intuit_diff_type``: set ``inname`` (GNU's POSIX-with-changes
    rules), with the dialogue for a patch that would create an existing file or delete a
    missing one."""
    r = sess.reader
    i = None
    st: list = [None, None, None]
    errs = [0, 0, 0]
    if sess.inname is None:
        i0 = None
        if (r.names[OLD] or r.names[NEW]) and r.names[INDEX]:
            r.names[INDEX] = None
        for k in (OLD, NEW, INDEX):
            if r.names[k] is None:
                continue
            if i0 is not None and r.names[i0] == r.names[k]:
                errs[k] = errs[i0]
                st[k] = st[i0]
            else:
                errs[k], st[k] = sess.stat_file(r.names[k])
                if not errs[k] and sess.files.deleted_later(r.names[k]):
                    errs[k] = 2
            i0 = k
        i = best_name(sess, r.names, [bool(e) for e in errs])
        if (i0 is not None and (i is None or st[i].is_file)
                and sess.maybe_reverse(r.names[i0 if i is None else i], i is None,
                                       i is None or st[i].size == 0)
                and i is None):
            i = i0
        if i is None and r.says_nonexistent[int(sess.reverse)]:
            newdirs: dict[int, int] = {}
            for k in (OLD, NEW, INDEX):
                if r.names[k] is not None:
                    name = r.names[k]
                    newdirs[k] = (nm.prefix_components(name)
                                  - nm.prefix_components(name, sess.is_dir))
            low = min(newdirs.values()) if newdirs else 0
            ignore = [newdirs.get(k, 0) - low > 0 for k in (OLD, NEW, INDEX)]
            i = best_name(sess, r.names, ignore)
    if i is None:
        if sess.inname is not None:
            sess.inerrno, sess.instat = sess.stat_file(sess.inname)
            if sess.inerrno or sess.instat.is_file:
                sess.maybe_reverse(sess.inname, bool(sess.inerrno),
                                   bool(sess.inerrno) or sess.instat.size == 0)
        else:
            sess.inerrno = -1
    else:
        sess.inname = r.names[i]
        sess.inerrno = errs[i]
        sess.instat = st[i]


def _base_len(name: bytes) -> int:
    """gnulib's ``base_len``, which GNU patch calls on the whole name: its length without
    trailing slashes (so "the shortest basename" compares whole names)."""
    n = len(name)
    while n > 1 and name[n - 1] == 0x2F:
        n -= 1
    return n


def best_name(sess: "Session", names: list[bytes | None], ignore: list[bool]) -> int | None:
    """GNU's ``best_name``, greedy as it is: walking the names in order, keep the fewest
    directory components, then (among names not beaten so far) the shortest ``base_len``,
    then the shortest name; the first name matching all three minimums wins, so a later name
    with fewer components but a longer name matches nothing. A dangerous name (absolute,
    ``..``) is refused with a message."""
    inf = 1 << 62
    cmin = bmin = lmin = inf
    comps: dict[int, int] = {}
    bases: dict[int, int] = {}
    lens: dict[int, int] = {}
    for k in (OLD, NEW, INDEX):
        name = names[k]
        if name is None or ignore[k]:
            continue
        comps[k] = nm.prefix_components(name)
        if cmin < comps[k]:
            continue
        cmin = comps[k]
        bases[k] = _base_len(name)
        if bmin < bases[k]:
            continue
        bmin = bases[k]
        lens[k] = len(name)
        if lmin < lens[k]:
            continue
        lmin = lens[k]
    for k in (OLD, NEW, INDEX):
        name = names[k]
        if (name is not None and not ignore[k] and sess.name_is_valid(name)
                and comps.get(k) == cmin and bases.get(k) == bmin and lens.get(k) == lmin):
            return k
    return None


def there_is_another_patch(sess: "Session", need_header: bool) -> bool:
    """Find the next file patch; print what GNU prints about it (``--verbose``'s commentary,
    indentation, stripped CRs, a file it cannot find) and return False at the end."""
    r = sess.reader
    verbose = sess.opts.verbosity == VERBOSE
    if r.base != 0 and r.base >= r.filesize:
        if verbose:
            sess.say("done\n")
        return False
    if verbose:
        sess.say("Hmm...")
    r.diff_type = intuit_diff_type(sess, need_header)
    if r.diff_type == NO_DIFF:
        if verbose:
            sess.say("  Ignoring the trailing garbage.\ndone\n" if r.base
                     else "  I can't seem to find a patch in there anywhere.\n")
        if not r.base and r.filesize:
            raise Fatal("Only garbage was found in the patch input.")
        return False
    if sess.skip_rest_of_patch:
        r.src.seek(r.start)
        r.src.input_line = r.sline - 1
        return True
    if verbose:
        sess.say(f"  {'L' if r.base == 0 else 'The next patch l'}ooks like "
                 f"{_KIND[r.diff_type]} to me...\n")
    if sess.opts.no_strip_trailing_cr:
        r.strip_trailing_cr = False
    if sess.opts.verbosity != SILENT:
        if r.indent:
            sess.say(f"(Patch is indented {r.indent} space{'' if r.indent == 1 else 's'}.)\n")
        if r.strip_trailing_cr:
            sess.say("(Stripping trailing CRs from patch; use --binary to disable.)\n")
        if sess.inname is None:
            sess.say(f"can't find file to patch at input line {r.sline}\n")
            if r.diff_type not in (ED_DIFF, NORMAL_DIFF):
                sess.say("Perhaps you should have used the -p or --strip option?\n"
                         if sess.opts.strippath == -1
                         else "Perhaps you used the wrong -p or --strip option?\n")
    skip_to(sess, r.start, r.sline)
    if sess.inname is None:
        if sess.opts.force or sess.opts.batch:
            sess.say("No file to patch.  Skipping patch.\n")
        else:
            sess.ask("File to patch: ")
            sess.ask("Skip this patch? [y] ")
            if sess.opts.verbosity != SILENT:
                sess.say("Skipping patch.\n")
        sess.skip_rest_of_patch = True
    return True


def skip_to(sess: "Session", pos: int, line: int) -> None:
    """Go to the file patch's start, showing the text before it when no file was found (or
    with ``--verbose``)."""
    r = sess.reader
    src = r.src
    if (sess.opts.verbosity == VERBOSE or sess.inname is None) and r.base < pos:
        sess.say("The text leading up to this was:\n--------------------------\n")
        text = r.src.data[r.base:pos]
        for piece in split_lines(text):
            sess.say(b"|" + piece)
        sess.say("--------------------------\n")
    src.seek(pos)
    src.input_line = line - 1
