"""Small option gaps found by the file-management corpus, against bash + the GNU tools."""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SCRIPTS = [
    "file -s notes.md a.txt", "file -sb notes.md", "file -n a.txt", "file -p -b data.jsonl",
    "file -snp empty.txt dir",
    "printf 'a.txt\\nnotes.md\\n' > list && file -f list", "file -f nosuch; echo $?",
    "printf 'a.txt\\n' | file -f -", "printf 'a.txt\\nnotes.md\\n' > list && file -f list data.jsonl",
    "file -r -F '' a.txt", "file -F ' -' a.txt notes.md", "file -0 a.txt data.jsonl | od -c",
    "file -N -F@ a.txt notes.md dir", "file -b -F@ a.txt", "file -k a.txt", "file -z notes.md",
    "file -F: -0 -N a.txt notes.md | tr '\\0' '|'", "file -Z -r a.txt",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_accepted_options(script: str) -> None:
    check(script)


def test_find_printf_sparseness_and_zone() -> None:
    """``%S`` (C's %g of 512-byte blocks over the size, 1 when empty) and ``%TZ`` (UTC)."""
    from tests.sandbox.commands.files_support import check_all
    tree = {"e": b"", "x": b"x", "s": b"1\n" * 3000, "d/f": b"abc"}
    check_all([(["find", ".", "-printf", fmt], tree) for fmt in (
        "%S %p\n", "%TZ %Tz %AZ %CZ %p\n", "%-10S|%p\n", "%S %b %k %s\n")])


RM = [
    "touch a b c; rm -I a b c; echo $?; ls", "touch a b; rm -I -f a b nope; echo $?; ls",
    "touch a; rm -f -I a nope; echo $?", "touch a; rm --interactive=never a nope; echo $?; ls",
    "touch a; rm --interactive=n a; ls", "touch a; rm --interactive=bogus a; echo $?",
    "touch a; rm --interactive=once a; echo $?; ls", "touch a; rm -I -v a",
]


@pytest.mark.parametrize("script", RM)
def test_rm_interactive_once_without_a_question(script: str) -> None:
    check(script)


def test_ls_zero_author_hyperlink() -> None:
    """ls --zero (NUL ends lines, names literal), --author, --hyperlink=never|auto."""
    from tests.sandbox.commands.files_support import check_all

    def owners(out: bytes) -> bytes:  # the host's owner (root here) is the jail's user
        import re
        return re.sub(rb"(?<= )root(?= )", b"user", out)

    tree = {"t/core.md": b"# Core\n", "t/notes.md": b"x\n" * 300, "t/a\nb": b"", "t/d/f": b"f"}
    check_all([(["ls", *flags], tree, b"", owners, "t") for flags in (
        ["--zero"], ["-l", "--zero"], ["--zero", "-C"], ["--zero", "-Q"], ["-Q", "--zero"], ["-g", "--zero"],
        ["--zero", "-1"], ["-s", "--zero"], ["-lh", "--author"], ["-lgo", "--author"], ["-lG", "--author"],
        ["--hyperlink=auto"], ["--hyperlink=never", "-l"], ["--hyperlink=bogus"], ["--zero", "-m"],
        ["--zero", "-R"], ["--author"],
    )])


FIND = [
    "find . -type f a.txt", "find . -name a nosuch", "find . -name '*.md' -print a.txt", "find . -name *.txt",
    "find . ! -name x a.txt", "find . \\( -name x \\) a.txt", "find . -newer a.txt b.txt",
    "find . -maxdepth 1 a.txt", "find -maxdepth 1 . -name a.txt", "find -L . -name a.txt",
    "find -H . -name a.txt", "find -P . -name a.txt", "find . -help | head -2", "find . -name x -version",
    "find -L . -type f | sort", "find . -iname '*.TXT' -o -iname *.md",
]


@pytest.mark.parametrize("script", FIND)
def test_find_misplaced_paths_and_link_options(script: str) -> None:
    check(script)


def test_file_help() -> None:
    check("file --help; echo $?")
