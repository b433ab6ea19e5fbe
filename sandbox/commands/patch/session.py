"""One run of patch: the options, where messages go, the file being patched (GNU's
``inname``/``inerrno``/``instat``), the reversed-patch state, and GNU's questions, answered
as without a terminal (the default answer, after printing the question)."""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.commands.patch.files import Files, as_str
from sandbox.commands.patch.names import dangerous, quotearg
from sandbox.commands.patch.options import SILENT, VERBOSE, Options
from sandbox.commands.patch.reader import PatchReader
from sandbox.fs.base import FileStat, FSError

#: The status of a file that is not there (GNU: a regular file of size 0).
MISSING = FileStat("file", 0, 0.0)


class Session:
    """GNU patch's globals for one run."""

    def __init__(self, ctx: CommandContext, opts: Options, data: bytes, msg) -> None:
        self.ctx = ctx
        self.opts = opts
        self.msg = msg
        self.reader = PatchReader(data, self.say, opts.verbosity == VERBOSE)
        self.reader.diff_type = opts.diff_type
        self.files = Files(ctx, self.say, opts.verbosity == VERBOSE)
        self.inname: bytes | None = (opts.inname.encode("utf-8", "surrogateescape")
                                     if opts.inname is not None else None)
        self.inerrno = -1
        self.instat: FileStat = MISSING
        self.reverse = opts.reverse
        self.skip_rest_of_patch = False

    # -- messages -------------------------------------------------------------------------

    def say(self, text: str | bytes) -> None:
        """A message on patch's standard output (stderr with ``-o -``)."""
        self.msg.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape"))

    def ask(self, prompt: str) -> None:
        """A question: without a terminal GNU prints it, a newline, and takes the default."""
        self.say(prompt + "\n")

    def ok_to_reverse(self, message: str) -> bool:
        """GNU's ``ok_to_reverse``: -N skips, -f goes on unreversed, -t reverses, otherwise
        the two unanswered questions (and the patch is skipped)."""
        opts = self.opts
        silent = opts.verbosity == SILENT
        if opts.noreverse or not (opts.force and silent):
            self.say(message)
        if opts.noreverse:
            self.say("  Skipping patch.\n")
            self.skip_rest_of_patch = True
            return False
        if opts.force:
            if not silent:
                self.say("  Applying it anyway.\n")
            return False
        if opts.batch:
            self.say("  Ignoring -R.\n" if self.reverse else "  Assuming -R.\n")
            return True
        self.ask("  Ignore -R? [n] " if self.reverse else "  Assume -R? [n] ")
        self.ask("Apply anyway? [n] ")
        if not silent:
            self.say("Skipping patch.\n")
        self.skip_rest_of_patch = True
        return False

    def maybe_reverse(self, name: bytes, nonexistent: bool, is_empty: bool) -> bool:
        """The dialogue for a patch that would create an existing file, delete a missing one
        or empty an empty one; True when it looked reversed."""
        says = self.reader.says_nonexistent
        rev = int(self.reverse)
        looks_reversed = int(not is_empty) < says[rev ^ int(is_empty)]
        if (is_empty and says[rev ^ int(nonexistent)] == 1
                and says[(1 - rev) ^ int(nonexistent)] == 2):
            return False
        if looks_reversed:
            action = "delete" if nonexistent else "empty out" if is_empty else "create"
            state = ("does not exist" if nonexistent else "is already empty" if is_empty
                     else "already exists")
            when = ", when reversed," if self.reverse else ""
            if self.ok_to_reverse(f"The next patch{when} would {action} the file "
                                  f"{quotearg(name)},\nwhich {state}!"):
                self.reverse = not self.reverse
        return looks_reversed

    # -- files ----------------------------------------------------------------------------

    def stat_file(self, name: bytes) -> tuple[int, FileStat]:
        """(errno, status) of a file the patch names; names that climb above the working
        directory count as missing (GNU's safe_stat refuses them)."""
        depth = 0
        for part in name.split(b"/"):
            if part == b"..":
                depth -= 1
                if depth < 0:
                    return errno.EXDEV, MISSING
            elif part not in (b"", b"."):
                depth += 1
        try:
            return 0, self.ctx.stat(as_str(name))
        except FSError as err:
            return err.errno or errno.ENOENT, MISSING

    def is_dir(self, name: bytes) -> bool:
        """Is ``name`` an existing directory?"""
        err, st = self.stat_file(name)
        return not err and st.is_dir

    def name_is_valid(self, name: bytes) -> bool:
        """Refuse (once per header, with GNU's message) an absolute name or one with ``..``."""
        r = self.reader
        if name in r.invalid_names:
            return False
        if not dangerous(name):
            return True
        self.say(f"Ignoring potentially dangerous file name {quotearg(name)}\n")
        if len(r.invalid_names) < 2:
            r.invalid_names.append(name)
        return False
