"""The body of ``patch``: options, reading the diff, applying each file's hunks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec("bcd:eEfF:g:i:lnNo:p:r:RstTuvV:xYz:B:D:", {
    "backup": (NO_ARG, "b"), "forward": (NO_ARG, "N"), "reverse": (NO_ARG, "R"),
    "input": (REQUIRED, "i"), "output": (REQUIRED, "o"), "strip": (REQUIRED, "p"),
    "dry-run": (NO_ARG, "dry-run"), "force": (NO_ARG, "f"), "batch": (NO_ARG, "t"),
    "silent": (NO_ARG, "s"), "quiet": (NO_ARG, "s"), "fuzz": (REQUIRED, "F"),
    "no-backup-if-mismatch": (NO_ARG, "no-backup-if-mismatch"),
    "backup-if-mismatch": (NO_ARG, "backup-if-mismatch"), "unified": (NO_ARG, "u"),
    "help": (NO_ARG, "help"), "version": (NO_ARG, "v"),
})

VERSION = """GNU patch 2.7.6
Copyright (C) 2003, 2009-2012 Free Software Foundation, Inc.
Copyright (C) 1988 Larry Wall

License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Larry Wall and Paul Eggert
"""

#: Options GNU patch has that this one parses but does not implement: refused, not ignored.
UNSUPPORTED = set("cdeEglnrTxYzVBD")

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class Fatal(Exception):
    """``patch: **** MESSAGE``, exit 2."""


@dataclass
class Hunk:
    """One ``@@`` hunk: old/new start and their lines (each with its newline, if any)."""

    old_start: int
    new_start: int
    lines: list[tuple[str, bytes]]
    text: bytes

    def first(self) -> int:
        """GNU's ``pch_first``: the first old line (the line after an empty old range)."""
        return self.old_start if self.old() else self.old_start + 1

    def old(self) -> list[bytes]:
        """The lines the hunk expects (context and deletions)."""
        return [b for k, b in self.lines if k in " -"]

    def new(self) -> list[bytes]:
        """The lines the hunk leaves (context and additions)."""
        return [b for k, b in self.lines if k in " +"]

    def prefix_context(self) -> int:
        """Leading context lines."""
        n = 0
        for k, _ in self.lines:
            if k != " ":
                break
            n += 1
        return n

    def suffix_context(self) -> int:
        """Trailing context lines."""
        n = 0
        for k, _ in reversed(self.lines):
            if k != " ":
                break
            n += 1
        return n

    def swapped(self) -> "Hunk":
        """The hunk reversed (``-R``)."""
        flip = {"-": "+", "+": "-", " ": " "}
        lines: list[tuple[str, bytes]] = []
        run: list[tuple[str, bytes]] = []
        for k, b in self.lines + [(" ", b"")]:
            if k == " ":  # each block of changes: its deletions first, as pch_swap leaves it
                lines += [(flip[x], y) for x, y in run if x == "+"]
                lines += [(flip[x], y) for x, y in run if x == "-"]
                run = []
                lines.append((k, b))
            else:
                run.append((k, b))
        return Hunk(self.new_start, self.old_start, lines[:-1], self.text)


@dataclass
class FilePatch:
    """The hunks for one file, with the header lines and names the diff gave."""

    old_name: str
    new_name: str
    header: bytes
    old_time: str = ""
    new_time: str = ""
    #: The text from the end of the previous file patch up to the first hunk, and the input
    #: line number of that hunk (GNU's "can't find file to patch at input line N").
    leading: list[bytes] = field(default_factory=list)
    hunk_line: int = 0

    def creates(self) -> bool:
        """The old side is /dev/null or dated the epoch (diff -N's way to say "no file")."""
        return self.old_name == "/dev/null" or _epoch(self.old_time)

    def deletes(self) -> bool:
        """The new side is /dev/null or dated the epoch."""
        return self.new_name == "/dev/null" or _epoch(self.new_time)
    hunks: list[Hunk] = field(default_factory=list)


def _range(start: int, count: int) -> str:
    return f"{start}" if count == 1 else f"{start},{count}"


def _unified(hunk: Hunk) -> bytes:
    """A hunk as GNU writes it to a ``.rej`` file (in the orientation it was tried)."""
    old, new = hunk.old(), hunk.new()
    out = [f"@@ -{_range(hunk.old_start, len(old))} +{_range(hunk.new_start, len(new))} @@\n".encode()]
    for kind, text in hunk.lines:  # (2.7.6 writes a last line without newline as it is)
        out.append(kind.encode() + text)
    return b"".join(out)


_EPOCH = re.compile(r"^\t1970-01-01 00:00:00(?:\.0+)? [+-]0000$|^\tThu Jan  1 00:00:00 1970$")


def _epoch(stamp: str) -> bool:
    return bool(_EPOCH.match(stamp))


def _name_of(line: bytes) -> str:
    text = line[4:].rstrip(b"\n").decode("utf-8", "surrogateescape")
    return text.split("\t")[0]


def _time_of(line: bytes) -> str:
    text = line[4:].rstrip(b"\n").decode("utf-8", "surrogateescape")
    return text[text.index("\t"):] if "\t" in text else ""


def parse_patch(data: bytes) -> list[FilePatch]:
    """Every file patch of a unified diff (text around them is ignored, as GNU does)."""
    lines = data.splitlines(keepends=True)
    patches: list[FilePatch] = []
    i = 0
    since = 0
    while i < len(lines):
        if (lines[i].startswith(b"--- ") and i + 2 < len(lines) and lines[i + 1].startswith(b"+++ ")
                and _HUNK.match(lines[i + 2])):
            fp = FilePatch(_name_of(lines[i]), _name_of(lines[i + 1]), lines[i] + lines[i + 1],
                           _time_of(lines[i]), _time_of(lines[i + 1]),
                           lines[since:i + 2], i + 3)
            i += 2
            while i < len(lines):
                m = _HUNK.match(lines[i])
                if not m:
                    break
                old_len = int(m.group(2)) if m.group(2) is not None else 1
                new_len = int(m.group(4)) if m.group(4) is not None else 1
                start = i
                i += 1
                body: list[tuple[str, bytes]] = []
                old_seen = new_seen = 0
                while i < len(lines) and (old_seen < old_len or new_seen < new_len):
                    line = lines[i]
                    kind = chr(line[0]) if line else ""
                    if line in (b"\n", b"\r\n"):
                        kind, line = " ", b" " + line
                    if kind not in " -+":
                        break
                    body.append((kind, line[1:]))
                    old_seen += kind in " -"
                    new_seen += kind in " +"
                    i += 1
                    if i < len(lines) and lines[i].startswith(b"\\"):
                        k, b = body[-1]
                        body[-1] = (k, b[:-1] if b.endswith(b"\n") else b)
                        i += 1
                fp.hunks.append(Hunk(int(m.group(1)), int(m.group(3)), body, b"".join(lines[start:i])))
            patches.append(fp)
            since = i
            continue
        i += 1
    return patches


def _strip(name: str, strip: int | None) -> str:
    if strip is None:
        return name.rsplit("/", 1)[-1]
    parts = name.split("/")
    if strip >= len(parts):
        return parts[-1] if strip == len(parts) - 1 else ""
    rest = parts[strip:]
    return "/".join(rest)


def _pick_name(ctx: CommandContext, fp: FilePatch, strip: int | None) -> tuple[str, bool]:
    """(file to patch, whether the patch creates it)."""
    names = [n for n in (fp.old_name, fp.new_name) if n != "/dev/null"]
    stripped = [_strip(n, strip) for n in names]
    stripped = [s for s in stripped if s]
    for s in stripped:
        try:
            if ctx.stat(s).is_file:
                return s, False
        except FSError:
            pass
    creates = fp.old_name == "/dev/null" or all(h.old_start == 0 for h in fp.hunks)
    if not stripped:
        return "", creates
    best = min(stripped, key=lambda s: (s.count("/"), len(s.rsplit("/", 1)[-1]), len(s)))
    return best, creates


class _Patcher:
    """One run: the options and the messages of GNU patch."""

    def __init__(self, ctx: CommandContext, opts: dict[str, str | None]):
        self.ctx = ctx
        self.reverse = "R" in opts
        self.forward = "N" in opts
        self.force = "f" in opts
        self.batch = "t" in opts
        self.silent = "s" in opts
        self.dry = "dry-run" in opts
        self.backup = "b" in opts
        self.backup_mismatch = "no-backup-if-mismatch" not in opts
        self.fuzz = 2
        if opts.get("F") is not None:
            self.fuzz = int(opts["F"] or "0")
        self.output = opts.get("o")
        self.strip: int | None = None
        self.status = 0

    def say(self, text: str, always: bool = False) -> None:
        """A line of patch's normal output (stdout); ``-s`` keeps only the ``always`` ones."""
        if always or not self.silent:
            self.ctx.stdout.write(text.encode("utf-8", "surrogateescape"))

    def locate(self, lines: list[bytes], hunk: Hunk, fuzz: int, in_offset: int,
               last_frozen: int) -> int | None:
        """GNU's ``locate_hunk``: the 1-based line where the hunk applies, or None."""
        pattern = hunk.old()
        pat_lines = len(pattern)
        first_guess = hunk.first() + in_offset
        if not pat_lines:  # a null range matches always
            return first_guess
        prefix, suffix = hunk.prefix_context(), hunk.suffix_context()
        context = max(prefix, suffix)
        prefix_fuzz = fuzz + prefix - context
        suffix_fuzz = fuzz + suffix - context
        n = len(lines)
        max_where = n - (pat_lines - suffix_fuzz) + 1
        min_where = last_frozen + 1
        max_pos = max_where - first_guess
        max_neg = first_guess - min_where
        max_offset = max(max_pos, max_neg)
        if first_guess <= max_neg:
            max_neg = first_guess - 1

        def match(base: int, pf: int, sf: int) -> bool:
            for k in range(pf, pat_lines - sf):
                idx = base - 1 + k
                if idx < 0 or idx >= n or lines[idx] != pattern[k]:
                    return False
            return True

        if prefix_fuzz < 0 and hunk.old_start <= 1:
            if suffix_fuzz < 0 and (pat_lines != n or prefix < last_frozen):
                return None
            offset = 1 - first_guess
            if last_frozen <= prefix and offset <= max_pos and match(first_guess + offset, 0,
                                                                     max(suffix_fuzz, 0)):
                return first_guess + offset
            return None
        if prefix_fuzz < 0:
            prefix_fuzz = 0
        if suffix_fuzz < 0:
            offset = first_guess - (n - pat_lines + 1)
            if offset <= max_neg and match(first_guess - offset, prefix_fuzz, 0):
                return first_guess - offset
            return None
        # Offsets whose both candidates lie outside the file cannot match: skip them (the
        # first match found is the same), so a hostile start line cannot make this loop long.
        start_offset = 0 if max_pos >= 0 else max(0, first_guess - max_where)
        for offset in range(start_offset, max_offset + 1):
            if offset <= max_pos and match(first_guess + offset, prefix_fuzz, suffix_fuzz):
                return first_guess + offset
            if 0 < offset <= max_neg and match(first_guess - offset, prefix_fuzz, suffix_fuzz):
                return first_guess - offset
            if offset & 255 == 0:
                self.ctx.budget.check_time()
        return None

    def _dialogue(self, fp: FilePatch, name: str, origfile: str | None, action: str,
                  problem: str) -> None:
        """GNU's ok_to_reverse for a patch that would delete a missing file or create an
        existing one: -N skips, -t applies it reversed, otherwise the unanswered questions."""
        total = len(fp.hunks)
        word = "hunk" if total == 1 else "hunks"
        when = ", when reversed," if self.reverse else ""
        label = f"The next patch{when} would {action} the file {name},\n{problem}"
        if self.forward:
            self.say(f"{label}  Skipping patch.\n", always=True)
        elif self.force:
            if not self.silent:
                self.say(f"{label}  Applying it anyway.\n")
            self.apply_file(fp, name, True, origfile, reversed_ok=True)
            return
        elif self.batch:
            self.say(f"{label}  {'Ignoring' if self.reverse else 'Assuming'} -R.\n", always=True)
            self.reverse = not self.reverse
            try:
                self.apply_file(fp, name, True, origfile, reversed_ok=True)
            finally:
                self.reverse = not self.reverse
            return
        else:
            self.say(f"{label}  {'Ignore' if self.reverse else 'Assume'} -R? [n] \n", always=True)
            self.say("Apply anyway? [n] \n", always=True)
            self.say("Skipping patch.\n")
        self.say(f"{total} out of {total} {word} ignored\n", always=True)
        self.status = 1

    def apply_file(self, fp: FilePatch, name: str, creates: bool, origfile: str | None,
                   reversed_ok: bool = False) -> None:
        ctx = self.ctx
        target = origfile or name
        total = len(fp.hunks)
        word = "hunk" if total == 1 else "hunks"
        creates_file = fp.deletes() if self.reverse else fp.creates()
        deletes_file = fp.creates() if self.reverse else fp.deletes()
        if not origfile and not reversed_ok and not _exists(ctx, name):
            if deletes_file and not creates_file:
                self._dialogue(fp, name, origfile, "delete", "which does not exist!")
                return
            if not creates_file:
                self.say(f"can't find file to patch at input line {fp.hunk_line}\n")
                if "/" in fp.old_name + fp.new_name:
                    self.say("Perhaps you used the wrong -p or --strip option?\n")
                text = b"".join(b"|" + line if line.endswith(b"\n") else b"|" + line + b"\n"
                                for line in fp.leading)
                self.say("The text leading up to this was:\n--------------------------\n"
                         + text.decode("utf-8", "surrogateescape")
                         + "--------------------------\n", always=True)
                if self.batch or self.force:
                    self.say("No file to patch.  Skipping patch.\n", always=True)
                else:
                    self.say("File to patch: \nSkip this patch? [y] \n", always=True)
                    self.say("Skipping patch.\n")
                self.say(f"{total} out of {total} {word} ignored\n", always=True)
                self.status = 1
                return
        if (not origfile and not reversed_ok and creates_file and not deletes_file
                and _exists(ctx, name) and ctx.stat(name).size > 0):
            self._dialogue(fp, name, origfile, "create", "which already exists!")
            return
        verb = "checking" if self.dry else "patching"
        if self.output:
            self.say(f"{verb} file {self.output} (read from {target})\n")
        else:
            self.say(f"{verb} file {target}\n")
        try:
            data = ctx.read_bytes(target)
            exists = True
        except FSError:
            data, exists = b"", False
        lines = data.splitlines(keepends=True)
        hunks = [h.swapped() if self.reverse else h for h in fp.hunks]
        reverse = self.reverse
        out: list[bytes] = []
        pos = 0  # lines of ``lines`` already copied (GNU's last_frozen_line)
        in_offset = 0
        out_delta = 0
        failed: list[Hunk] = []
        mismatch = False
        skip_rest = False
        for number in range(1, len(hunks) + 1):
            hunk = hunks[number - 1]  # (re-read: the list is swapped after "Assuming -R")
            where = None
            fuzz = 0
            if not skip_rest:
                maxfuzz = min(self.fuzz, max(hunk.prefix_context(), hunk.suffix_context()))
                while True:
                    where = self.locate(lines, hunk, fuzz, in_offset, pos)
                    if where is None or fuzz or (where - hunk.first()) != 0:
                        mismatch = True
                    if number == 1 and where is None and not self.force:
                        swapped = hunk.swapped()
                        where2 = self.locate(lines, swapped, fuzz, in_offset, pos)
                        if where2 is not None:
                            label = "Unreversed" if reverse else "Reversed (or previously applied)"
                            if self.forward:
                                self.say(f"{label} patch detected!  Skipping patch.\n", always=True)
                                skip_rest = True
                            elif self.batch:
                                verb = "Ignoring" if reverse else "Assuming"
                                self.say(f"{label} patch detected!  {verb} -R.\n", always=True)
                                reverse = not reverse
                                hunks = [h.swapped() for h in hunks]
                                hunk = hunks[0]
                                where = where2
                            else:
                                verb = "Ignore" if reverse else "Assume"
                                self.say(f"{label} patch detected!  {verb} -R? [n] \n", always=True)
                                self.say("Apply anyway? [n] \n", always=True)
                                self.say("Skipping patch.\n")
                                skip_rest = True
                    if skip_rest or where is not None or fuzz >= maxfuzz:
                        break
                    fuzz += 1
            if where is None:
                failed.append(Hunk(hunk.old_start + out_delta, hunk.new_start + out_delta,
                                   hunk.lines, hunk.text))
                if not skip_rest:
                    self.say(f"Hunk #{number} FAILED at {hunk.first() + out_delta}.\n")
                continue
            in_offset = where - hunk.first()
            old = hunk.old()
            start = where - 1
            # GNU's apply_hunk: copy the file up to each change; context stays the file's own
            # and trailing context is not frozen (a later hunk may still match there).
            k = start
            for kind, text in hunk.lines:
                if kind == " ":
                    k += 1
                elif kind == "-":
                    out.extend(lines[pos:k])
                    pos = k = k + 1
                else:
                    out.extend(lines[pos:k])
                    pos = max(pos, k)
                    out.append(text)
            newwhere = where + out_delta
            out_delta += len(hunk.new()) - len(old)
            if fuzz or in_offset:
                msg = f"Hunk #{number} succeeded at {newwhere}"
                if fuzz:
                    msg += f" with fuzz {fuzz}"
                if in_offset:
                    msg += f" (offset {in_offset} line{'' if in_offset == 1 else 's'})"
                self.say(msg + ".\n")
        out.extend(lines[pos:])
        if failed:
            self.status = 1
            total = len(hunks)
            word = "hunk" if total == 1 else "hunks"
            what = "ignored" if skip_rest else "FAILED"
            if self.dry:
                self.say(f"{len(failed)} out of {total} {word} {what}\n", always=True)
            else:
                rej = (self.output or target) + ".rej"
                self.say(f"{len(failed)} out of {total} {word} {what} -- saving rejects to file "
                         f"{rej}\n", always=True)
        if self.dry:
            return
        # A line the patch left without newline gets one when more lines follow it.
        result = b"".join(line if line.endswith(b"\n") or k == len(out) - 1 else line + b"\n"
                          for k, line in enumerate(out))
        if skip_rest and self.output:
            ctx.write_bytes(self.output, b"")  # (GNU has created it already)
        if not skip_rest:
            if not self.output and (self.backup or (self.backup_mismatch and mismatch)):
                ctx.write_bytes(target + ".orig", data)  # (-b backs up a created file as empty)
            if not result and (fp.creates() if reverse else fp.deletes()) and not self.output:
                if exists:
                    ctx.remove(target)
            else:
                ctx.write_bytes(self.output or target, result)
        if failed:
            # GNU's print_header_line: the names as stripped by -p, their timestamps.
            names = [(fp.old_name, fp.old_time), (fp.new_name, fp.new_time)]
            if reverse:
                names.reverse()
            header = b""
            for tag, (raw, stamp) in zip(("---", "+++"), names):
                shown = _strip(raw, self.strip) if raw != "/dev/null" else ""
                header += f"{tag} {shown or '/dev/null'}{stamp}\n".encode("utf-8", "surrogateescape")
            ctx.write_bytes((self.output or target) + ".rej",
                            header + b"".join(_unified(h) for h in failed))


def _exists(ctx: CommandContext, name: str) -> bool:
    try:
        return bool(name) and ctx.stat(name).is_file
    except FSError:
        return False


def writes(args: list[str]) -> list[str]:
    """What patch may write: the ``-o`` file, else the working directory (the files the patch
    names are known only once it is read); nothing for ``--dry-run``."""
    try:
        opts, _ = parse(SPEC, args)
    except UsageError:
        return []
    keys = {k for k, _ in opts}
    if keys & {"help", "v", "dry-run"}:
        return []
    values = dict(opts)
    return [values["o"] or ""] if values.get("o") else ["."]


def run(ctx: CommandContext) -> int:
    """Run ``patch``."""
    try:
        opts_list, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        ctx.error(str(err))
        ctx.stderr.write(b"patch: Try 'patch --help' for more information.\n")
        return 2
    opts = dict(opts_list)
    unsupported = [key for key, _ in opts_list if key in UNSUPPORTED]
    if unsupported:
        ctx.stderr.write(f"patch: **** option -{unsupported[0]} is not supported here (unified "
                         "diffs in the working directory only)\n".encode())
        return 2
    if "v" in opts:
        ctx.stdout.write(VERSION.encode())
        return 0
    strip = None
    if opts.get("p") is not None:
        try:
            strip = int(opts["p"] or "")
        except ValueError:
            ctx.stderr.write(f"patch: **** strip count {opts['p']} is not a number\n".encode())
            return 2
    origfile = operands[0] if operands else None
    source = opts.get("i") or (operands[1] if len(operands) > 1 else None)
    try:
        data = ctx.read_bytes(source) if source and source != "-" else ctx.stdin.read()
    except FSError as e:
        ctx.stderr.write(f"patch: **** Can't open patch file {source} : {e.strerror}\n".encode())
        return 2
    patches = parse_patch(data)
    if not data:
        return 0
    if not patches:
        ctx.stderr.write(b"patch: **** Only garbage was found in the patch input.\n")
        return 2
    patcher = _Patcher(ctx, opts)
    patcher.strip = strip
    for fp in patches:
        name, creates = _pick_name(ctx, fp, strip)
        patcher.apply_file(fp, name, creates, origfile)
    return patcher.status
