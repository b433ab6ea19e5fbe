"""patch's main loop (patch.c's ``main``): for each file patch in the input, find the file,
apply the hunks (or run the ed script), put the result, the backup and the rejects in place."""

from __future__ import annotations

import dataclasses
import errno
import posixpath

from sandbox.commands.base import CommandContext
from sandbox.commands.options import UsageError, parse
from sandbox.commands.patch import ed as edmod
from sandbox.commands.patch.apply import Applier, OutState
from sandbox.commands.patch.files import CREATED, as_str, split_lines
from sandbox.commands.patch.hunk import OutOfMemory
from sandbox.commands.patch.intuit import there_is_another_patch
from sandbox.commands.patch.names import quotearg
from sandbox.commands.patch.options import (ED_DIFF, NO_DIFF, SILENT, SPEC, USAGE, VERBOSE,
                                            VERSION, Fatal, Usage, parse_options)
from sandbox.commands.patch.reject import abort_hunk
from sandbox.commands.patch.session import MISSING, Session
from sandbox.fs.base import FSError


def writes(args: list[str]) -> list[str]:
    """What patch may write: the ``-o`` file and its ``.rej``, else the working directory
    (``-d``'s, if given; the files the patch names are known only once it is read); the
    ``-r`` file; with ``--dry-run`` only the ``-o`` file (GNU writes it all the same);
    nothing for ``--help`` or ``--version``."""
    try:
        pairs, _ = parse(SPEC, args)
    except UsageError:
        return []
    keys = {k for k, _ in pairs}
    if keys & {"help", "v"}:
        return []
    base = "."
    for key, value in pairs:
        if key == "d" and value:
            base = posixpath.join(base, value) if base != "." else value
    def at(name: str) -> str:
        return posixpath.join(base, name) if base != "." else name

    values = dict(pairs)
    outfile = values.get("o")
    rej = values.get("r")
    if "dry-run" in keys:  # (GNU still writes the -o file)
        return [at(outfile)] if outfile and outfile != "-" else []
    out = [at(outfile)] if outfile and outfile != "-" else [] if outfile else [base]
    if rej and rej != "-":
        out.append(at(rej))
    elif outfile and rej is None:
        out.append(at(outfile + ".rej"))
    return out


def _chdir(ctx: CommandContext):
    def chdir(target: str) -> None:
        try:
            path = ctx.path(target)
            if not ctx.fs.stat(path).is_dir:
                raise FSError(errno.ENOTDIR, path)
        except FSError as err:
            raise Fatal(f"Can't change to directory {quotearg(target)} : {err.strerror}") from None
        ctx.cwd = path
    return chdir


def run(ctx: CommandContext) -> int:
    """Run ``patch``."""
    ctx = dataclasses.replace(ctx)  # (-d changes this copy's working directory)
    try:
        opts = parse_options(ctx.args, _chdir(ctx))
    except Usage as err:
        if str(err):
            ctx.error(str(err))
        ctx.stderr.write(b"patch: Try 'patch --help' for more information.\n")
        return 2
    except Fatal as err:
        ctx.stderr.write(f"patch: **** {err}\n".encode("utf-8", "surrogateescape"))
        return 2
    if opts.help:
        ctx.stdout.write(USAGE.encode())
        return 0
    if opts.version:
        ctx.stdout.write(VERSION.encode())
        return 0
    if opts.unsupported:
        ctx.stderr.write(f"patch: **** option {opts.unsupported} is not supported here\n".encode())
        return 2
    main = _Main(ctx, opts)
    try:
        return main.run()
    except Fatal as err:
        main.finish_output()
        ctx.stderr.write(f"patch: **** {err}\n".encode("utf-8", "surrogateescape"))
        return 2


class _RetryPlanB(Exception):
    """Start the current file patch again (after 'Ran out of memory using Plan A')."""


_BLANKS = (b" ", b"\t", b"\n", b"\v", b"\f", b"\r")


class _Main:
    """The loop over file patches."""

    def __init__(self, ctx: CommandContext, opts) -> None:
        self.ctx = ctx
        self.opts = opts
        self.sess: Session | None = None
        #: The ``-o`` output, shared by every file patch (GNU keeps one stream open).
        self.outstate: OutState | None = OutState() if opts.outfile else None
        self.rejects_started = False
        #: GNU reads the file to patch into memory (Plan A) until a hunk needs too much.
        self.plan_a = True

    def finish_output(self) -> None:
        """Write what the ``-o`` stream holds (also on a fatal error, as stdio flushes it)."""
        if self.outstate is None:
            return
        data = self.outstate.text()
        if self.opts.outfile == "-":
            if data:
                self.ctx.stdout.write(data)
        else:
            try:
                self.ctx.write_bytes(self.opts.outfile, data)
            except FSError:
                pass
        self.outstate = None

    def run(self) -> int:
        ctx, opts = self.ctx, self.opts
        msg = ctx.stderr if opts.outfile == "-" else ctx.stdout
        if opts.outfile and opts.outfile != "-":
            try:
                ctx.write_bytes(opts.outfile, b"")
            except FSError as err:
                raise Fatal(f"Can't create file {quotearg(opts.outfile)} : {err.strerror}") from None
        source = opts.patchname
        try:
            data = ctx.read_bytes(source) if source and source != "-" else ctx.stdin.read()
        except FSError as err:
            raise Fatal(f"Can't open patch file {quotearg(source or '')} : {err.strerror}") from None
        sess = Session(ctx, opts, data, msg)
        self.sess = sess
        somefailed = False
        apply_empty_patch = opts.inname is not None and opts.outfile is not None
        explicit = opts.inname is not None
        first = True
        while True:
            if not first:
                self._reinitialize(explicit)
            first = False
            found = there_is_another_patch(sess, sess.inname is None)
            if not (found or apply_empty_patch):
                break
            apply_empty_patch = False
            before = sess.reader.base
            try:
                somefailed |= self._one_file()
            except _RetryPlanB:
                continue
            ctx.budget.check_time()
            if found and sess.reader.base == before:
                # Nothing was consumed (an ``N,Ma`` line then ``.``: GNU finds the same "ed
                # script" again forever); stop instead.
                break
        self.finish_output()
        sess.files.delete_files()
        return 1 if somefailed else 0

    def _reinitialize(self, explicit: bool) -> None:
        sess = self.sess
        sess.reader.re_patch()
        if not explicit:
            sess.inname = None
        sess.inerrno = -1
        sess.reader.diff_type = NO_DIFF
        sess.reverse = self.opts.reverse
        sess.skip_rest_of_patch = False
        sess.reader.revision = None

    def _one_file(self) -> bool:
        """Patch one file; True if something failed."""
        sess, opts, ctx = self.sess, self.opts, self.ctx
        r = sess.reader
        h = r.hunk
        somefailed = False
        hunk = 0
        failed = 0
        mismatch = False
        outname: bytes | None = None
        rejects: list[bytes] = []
        silent = opts.verbosity == SILENT
        verbose = opts.verbosity == VERBOSE
        if sess.skip_rest_of_patch:
            somefailed = True
        if not sess.skip_rest_of_patch:
            outname = (opts.outfile.encode("utf-8", "surrogateescape") if opts.outfile
                       else sess.inname)
        if not sess.skip_rest_of_patch and not self._get_input_file():
            sess.skip_rest_of_patch = True
            somefailed = True
        if not sess.skip_rest_of_patch and not opts.dry_run and not opts.outfile:
            # GNU creates its temporary output beside the file, making missing directories
            # (they stay, even when the patch then fails).
            sess.files.makedirs(as_str(outname))
        outstate = self.outstate if opts.outfile else OutState()
        data = b""
        if not sess.skip_rest_of_patch and not sess.inerrno and sess.instat.size:
            try:
                data = ctx.read_bytes(as_str(sess.inname))
            except FSError as err:
                raise Fatal(f"Can't open file {quotearg(sess.inname)} : {err.strerror}") from None
        if r.diff_type == ED_DIFF:
            somefailed |= sess.skip_rest_of_patch
            script = edmod.collect_script(r)
            if not opts.outfile:
                outstate.zero_output = False
            if not opts.dry_run and not sess.skip_rest_of_patch:
                try:
                    result = edmod.run_ed(None if sess.inerrno else data, script, sess.say)
                except edmod.EdFailed:
                    raise Fatal("ed FAILED") from None
                outstate.write(result)
                if not opts.outfile:
                    outstate.zero_output = not result
        else:
            apply_anyway = False
            if opts.outfile:
                # One -o stream for every file: each file patch pretends it ends a line.
                outstate.after_newline = True
            lines = split_lines(data)
            ap = Applier(lines, outstate, sess.say, ctx.budget.check_time)
            if not sess.skip_rest_of_patch and r.revision is not None:
                self._report_revision(data)
            if not sess.skip_rest_of_patch and not silent:
                verb = "checking" if opts.dry_run else "patching"
                name = quotearg(outname)
                if outname != sess.inname:
                    sess.say(f"{verb} file {name} (read from ")
                    sess.say(sess.inname + b")\n")
                else:
                    sess.say(f"{verb} file {name}\n")
                if verbose:
                    sess.say("Using Plan A...\n")  # (also on the second try)
            while self._another_hunk():
                where = 0
                fuzz = 0
                mymaxfuzz = min(opts.maxfuzz, max(h.prefix_context, h.suffix_context))
                hunk += 1
                if not sess.skip_rest_of_patch:
                    while True:
                        where = ap.locate_hunk(h, fuzz)
                        if not where or fuzz or ap.in_offset:
                            mismatch = True
                        if (hunk == 1 and not where and not (opts.force or apply_anyway)
                                and sess.reverse == opts.reverse):
                            h.swap()
                            where = ap.locate_hunk(h, fuzz)
                            label = ("Unreversed" if sess.reverse
                                     else "Reversed (or previously applied)")
                            if where and sess.ok_to_reverse(f"{label} patch detected!"):
                                sess.reverse = not sess.reverse
                            else:
                                h.swap()
                                if where:
                                    apply_anyway = True
                                    fuzz -= 1
                                    where = 0
                        if sess.skip_rest_of_patch or where:
                            break
                        fuzz += 1
                        if fuzz > mymaxfuzz:
                            break
                    if sess.skip_rest_of_patch and not opts.outfile:
                        ap.out = None
                newwhere = (where if where else h.first) + ap.out_offset
                says_created = r.says_nonexistent[int(sess.reverse)] == 2
                if (sess.skip_rest_of_patch
                        or (where == 1 and says_created and sess.instat.size)
                        or not where or not ap.apply_hunk(h, where)):
                    rejects.append(abort_hunk(r, not failed, sess.reverse, ap.out_offset,
                                              opts.reject_format))
                    failed += 1
                    if verbose or (not sess.skip_rest_of_patch and not silent):
                        endings = (" (different line endings)" if not sess.skip_rest_of_patch
                                   and ap.check_line_endings(h, newwhere) else "")
                        what = "ignored" if sess.skip_rest_of_patch else "FAILED"
                        sess.say(f"Hunk #{hunk} {what} at {newwhere}{endings}.\n")
                elif verbose or (not silent and (fuzz or ap.in_offset)):
                    text = f"Hunk #{hunk} succeeded at {newwhere}"
                    if fuzz:
                        text += f" with fuzz {fuzz}"
                    if ap.in_offset:
                        text += f" (offset {ap.in_offset} line{'' if ap.in_offset == 1 else 's'})"
                    sess.say(text + ".\n")
            if not sess.skip_rest_of_patch:
                if not ap.spew_output():
                    sess.say("Skipping patch.\n")
                    sess.skip_rest_of_patch = True
        # Put the output where it belongs.
        if not sess.skip_rest_of_patch and not opts.outfile:
            name = as_str(outname)
            backup = opts.backup or (opts.backup_if_mismatch and (mismatch or failed))
            deletes = r.says_nonexistent[int(not sess.reverse)] == 2
            if outstate.zero_output and (opts.remove_empty_files or deletes):
                if not opts.dry_run:
                    sess.files.delete_later(name, backup)
            else:
                if not outstate.zero_output and deletes:
                    mismatch = True
                    somefailed = True
                    if not silent:
                        sess.say(f"Not deleting file {quotearg(outname)} as content differs "
                                 "from patch\n")
                if not opts.dry_run:
                    if failed < hunk or r.diff_type == ED_DIFF:
                        sess.files.move_file(outstate.text(), name, backup)
                    elif backup:
                        sess.files.backup_copy(name)
        if r.diff_type != ED_DIFF and failed:
            somefailed = True
            text = (f"{failed} out of {hunk} hunk{'' if hunk == 1 else 's'} "
                    f"{'ignored' if sess.skip_rest_of_patch else 'FAILED'}")
            rejname = opts.rejname
            if outname is not None and rejname != "-":
                rej = rejname if rejname is not None else as_str(outname) + ".rej"
                if not opts.dry_run:
                    sess.say(f"{text} -- saving rejects to file {quotearg(rej)}\n")
                    self._save_rejects(rej, b"".join(rejects), rejname is not None)
                else:
                    sess.say(text + "\n")
            else:
                sess.say(text + "\n")
        return somefailed

    def _another_hunk(self) -> bool:
        """The next hunk; a hunk too big for memory makes GNU try again with its Plan B (the
        same file patch from its start), then give up."""
        sess = self.sess
        try:
            return sess.reader.another_hunk(sess.reader.diff_type, sess.reverse)
        except OutOfMemory:
            if sess.skip_rest_of_patch or not self.plan_a:
                raise Fatal("out of memory") from None
            if self.opts.outfile:
                raise Fatal("out of memory using Plan A") from None
            sess.say("\n\nRan out of memory using Plan A -- trying again...\n\n")
            self.plan_a = False
            raise _RetryPlanB() from None

    def _save_rejects(self, rej: str, data: bytes, named: bool) -> None:
        files = self.sess.files
        if named:
            if self.rejects_started:
                files.append(rej, data)
            else:
                try:
                    self.ctx.write_bytes(rej, data)
                except FSError as err:
                    raise Fatal(f"Can't create file {quotearg(rej)} : {err.strerror}") from None
                self.rejects_started = True
            return
        if files.exists(rej) and files.state.get(files._key(rej)) == CREATED:
            files.append(rej, data)
        else:
            files.move_file(data, rej, False)

    def _report_revision(self, data: bytes) -> None:
        """inp.c's Prereq check: the file must contain the ``Prereq:`` word between blanks."""
        sess, opts = self.sess, self.opts
        rev = sess.reader.revision
        size, n = len(data), len(rev)
        found = False
        if n <= size:
            limit = size - n
            s = data.find(rev[:1], 0, limit + 1)
            while 0 <= s <= limit:
                if (data[s:s + n] == rev and (s == 0 or data[s - 1] in b" \t\n\v\f\r")
                        and (s + 1 == limit or data[s + n:s + n + 1] in _BLANKS)):
                    found = True
                    break
                s = data.find(rev[:1], s + 1, limit + 1)
        shown = quotearg(rev)
        if found:
            if opts.verbosity == VERBOSE:
                sess.say(f"Good.  This file appears to be the {shown} version.\n")
        elif opts.force:
            if opts.verbosity != SILENT:
                sess.say(f"Warning: this file doesn't appear to be the {shown} version -- "
                         "patching anyway.\n")
        elif opts.batch:
            raise Fatal(f"This file doesn't appear to be the {shown} version -- aborting.")
        else:
            sess.ask(f"This file doesn't appear to be the {shown} version -- patch anyway? [n] ")
            raise Fatal("aborted")

    def _get_input_file(self) -> bool:
        """inp.c's ``get_input_file``: the file's status; a directory is refused."""
        sess = self.sess
        if sess.inerrno == -1:
            sess.inerrno, sess.instat = sess.stat_file(sess.inname)
        if sess.inerrno:
            sess.instat = MISSING
        elif not sess.instat.is_file:
            sess.say(f"File {quotearg(sess.inname)} is not a regular file -- refusing to patch\n")
            return False
        return True
