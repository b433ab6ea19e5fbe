"""File-command gaps found by the memory-directory corpus (round 12), against bash + the real
tools over a realistic ``.memory`` tree: ``name/`` operands that are not directories (find,
tree, touch, tee), ``missing/..`` and ``file/.`` (du, stat), find -ls's escaped names and
-printf's numeric flags,
split's output names in messages, ``cp -r`` of a directory into itself, ``mv`` of
``.``/``..``, rm's ``.``/``..`` check and trailing slashes, ``file`` on tar archives, ``tree -c``
and tree's time order in whole seconds."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile

import pytest

from tests.sandbox.commands.files_support import gnu_available
from tests.sandbox.shell.shell_difftools import check

MEMORY: dict[str, bytes] = {
    ".memory/notes.md": b"# Notes\n\n- 2024-01-03 user prefers tabs\n- TODO: review budget\n",
    ".memory/core.md": b"# Core\nname: Ada\nrole: engineer\n",
    ".memory/conversations.jsonl": b'{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n',
    ".memory/topics/python.md": b"# Python\n- uses uv\n",
    ".memory/topics/rust.md": b"# Rust\n- learning\n",
    ".memory/topics/Travel Plans.md": b"# Travel\nParis in May\n",
    ".memory/archive/2023/notes-2023.md": b"# Old notes\n",
    ".memory/archive/2023/conv-2023.jsonl": b'{"role":"user","content":"old"}\n',
    ".memory/archive/2024-01/summary.md": b"summary\n",
    ".memory/archive/empty/.keep": b"",
    ".memory/.index": b"notes.md\ncore.md\n",
    ".memory/scratch.txt": b"",
}


def _findutils() -> str | None:
    path = shutil.which("find")
    if path is None:
        return "reference tool 'find' is not installed"
    out = subprocess.run([path, "--version"], capture_output=True).stdout
    return None if b"GNU findutils" in out else "reference tool 'find' is not GNU findutils"


def _version_of(tool: str, prefix: bytes) -> str | None:
    path = shutil.which(tool)
    if path is None:
        return f"reference tool {tool!r} is not installed"
    out = subprocess.run([path, "--version"], capture_output=True).stdout
    return None if out.startswith(prefix) else f"reference tool {tool!r} is not the expected version"


def _needs(why: str | None) -> pytest.MarkDecorator:
    return pytest.mark.skipif(why is not None, reason=why or "")


FIND = [
    "find .memory/core.md/; echo $?", "find .memory/core.md// .memory/topics/ -maxdepth 0; echo $?",
    "find .memory/core.md/ -name x -print; echo $?", "find .memory/nosuch/ .memory/core.md; echo $?",
    # -ls escapes names as findutils' print_name_with_quoting (every byte but NUL and '/')
    "mkdir q && cd q && for c in $(seq 1 255); do [ $c = 47 ] && continue; printf -v n \"x\\\\$(printf %03o $c)y\"; "
    ": > \"$n\"; done; find . -type f -ls | awk '{ $1=$2=$3=$4=$5=$6=$7=$8=$9=$10=\"\"; print}' | LC_ALL=C sort",
    "mkdir n && cd n && touch $'new\\nline.md' 'tab\tx' 'q\"d' \"it's\" 'a\\b' 'sp ace' $'\\xff' 'caf\u00e9'; "
    "find . -ls | awk '{print $NF}' | sort",
    "mkdir '.memory/sp dir'; find '.memory/sp dir' -ls | awk '{print $11, $12}'",
    # -printf: %d and %m are C's %d and %o, the other numbers strings, %S C's %g
    "for d in b k s d m n M y f p h H P F l Y S; do printf '%s=' $d; "
    "find .memory/core.md -printf \"[%05$d|%+5$d|% 5$d|%#5$d|%-5$d|%.1$d]\\n\"; done",
    "find .memory -maxdepth 0 -printf '[%05d|%+5d|% 5d|%#5d|%-5d|%.3d|%05m|%+5m|%#m|%#5m|%-5m|%.5m|%.0d|%#.0m]\\n'",
    "find .memory/core.md .memory/scratch.txt -printf '[%0S|%05S|%+5S|%.2S|%#S|%-6S|%e]\\n' 2>&1",
    "find .memory/archive -printf '%-3d|%03d|%.2d|%+d|%#o|%-#6m|%06.3m|%m\\n' | sort",
    "find .memory -maxdepth 0 -printf '[%#o|%-5q|%05.2w|%.3Q|%z]\\n'",
    "find .memory -maxdepth 0 -printf '%5{\\n'; echo $?", "find .memory -maxdepth 0 -printf 'a%(\\n'; echo $?",
    "find .memory -maxdepth 0 -printf '%[\\n'; echo $?",
]


@_needs(_findutils())
@pytest.mark.parametrize("script", FIND)
def test_find_start_point_file_slash(script: str) -> None:
    check(script, files=MEMORY)


TREE = [
    "tree .memory/core.md/; echo $?", "tree .memory/core.md/ .memory/topics; echo $?",
    "tree .memory/core.md; echo $?", "tree -c -L 1 .memory/topics | tail -1",
    "tree -c --noreport .memory/archive/empty",
    "cd .memory/topics && touch -d '2024-01-01 12:00:00.7' rust.md && touch -d '2024-01-01 12:00:00.2' python.md"
    " && touch -d '2024-01-01 11:59:59.9' 'Travel Plans.md' && tree -t --noreport . && tree -tr . && tree --sort=mtime .",
]


@_needs(_version_of("tree", b"tree v2."))
@pytest.mark.parametrize("script", TREE)
def test_tree_file_slash_and_time_order(script: str) -> None:
    check(script, files=MEMORY)


TOUCH_TEE = [
    "touch .memory/core.md/; echo $?", "touch new/; echo $?; ls", "touch -c new/; echo $?",
    "touch -c .memory/core.md/; echo $?", "touch nod/x/; echo $?", "touch -c nod/x/; echo $?",
    "touch .memory/core.md/x/; echo $?", "touch -d 2020-01-01 .memory/topics/ && stat -c %Y .memory/topics",
    "touch new// a; echo $?; ls",
    "echo a | tee new/; echo $?; ls", "echo a | tee .memory/core.md/; echo $?",
    "echo a | tee -a .memory/core.md/ ok; echo $?; cat ok", "echo a | tee nod/x/; echo $?",
    "echo a | tee .memory/core.md/x/; echo $?", "echo a | tee .memory/topics/; echo $?",
]


@_needs(gnu_available("touch") or gnu_available("tee"))
@pytest.mark.parametrize("script", TOUCH_TEE)
def test_touch_tee_name_slash(script: str) -> None:
    check(script, files=MEMORY)


SPLIT = [
    "split -l 1 .memory/core.md nodir/x; echo $?", "split -l 1 .memory/core.md .memory/core.md/x; echo $?",
    "split -n 2 .memory/core.md nodir/p; echo $?", "split -b 5 .memory/core.md 'sp ace/'; echo $?",
    "mkdir xaa; split -l 1 .memory/core.md; echo $?; ls",
]


@_needs(gnu_available("split"))
@pytest.mark.parametrize("script", SPLIT)
def test_split_names_its_output_as_built(script: str) -> None:
    check(script, files=MEMORY)


#: Only cases whose outcome does not depend on inode numbers: cp lists a directory in inode
#: order, so where the new copy falls among its siblings decides what is copied before it.
CP_INTO_ITSELF = [
    "mkdir e && cp -r e e; echo $?; find e | sort", "mkdir e && cp -rv e e; echo $?",
    "mkdir -p d/sub && cp -r d d/sub; echo $?; find d | sort", "mkdir -p d/sub && cp -rv d d/sub/; echo $?",
    "mkdir -p a/b/c && cp -r a a/b/c; echo $?; find a | sort",
    "mkdir -p d/d && cp -r d d; echo $?; find d | sort",
    "mkdir e f && cp -r e f e; echo $?; find e f | sort",
    "mkdir -p d/sub && cp -a d d/sub/x; echo $?; find d | sort",
]


@_needs(gnu_available("cp"))
@pytest.mark.parametrize("script", CP_INTO_ITSELF)
def test_cp_directory_into_itself(script: str) -> None:
    check(script, files=MEMORY)


MV_DOTS = [
    "mv . x; echo $?", "mkdir t; mv . t; echo $?", "mv . ../; echo $?", "mv .memory/. t; echo $?",
    "mkdir t; mv .memory/. t; echo $?; ls .memory | wc -l", "mv -v ./. x; echo $?", "mv -n . x; echo $?",
    "mv . .memory/..; echo $?", "mv .// x; echo $?", "mv .memory/.. x; echo $?",
    "cd .memory && mv . ../m2; echo $?", "mv .memory/topics/.. x; echo $?",
    "mv .memory/topics/python.md/. x; echo $?",
]


@_needs(gnu_available("mv"))
@pytest.mark.parametrize("script", MV_DOTS)
def test_mv_refuses_dot_sources(script: str) -> None:
    check(script, files=MEMORY)


RM = [
    "mkdir -p e/d && touch e/f; rm -d e/d/.; echo $?; rm e/d/.; rm -f e/d/.; rm -d e/f/.; rm -r e/f/.; "
    "rm -rf e/f/..; rm -d e/f/..; rm e/nosuch/.; rm -r e/nosuch/.; rm -d .; rm .; rm -f ..; echo $?",
    "rm -r .memory/.; echo $?", "rm -r /.; echo $?", "rm -r .memory/topics/python.md/.; echo $?",
    "rm -rf .memory/topics/python.md/.; echo $?", "rm -d .memory/archive/empty/.; echo $?",
    "rm .memory/archive/empty/.keep; rm -d .memory/archive/empty/.; echo $?",
    "rm -rv .memory/topics/. .memory/topics/rust.md; echo $?",
    "rm nosuch//; echo $?", "rm -r nosuch///; echo $?", "rm .memory/topics//; echo $?",
    "rm -v -d .memory/archive/2024-01//; echo $?", "rm -rv .memory/archive/2024-01//; echo $?",
    "rm .memory/core.md//; echo $?", "rm -rf //; echo $?", "rm -rf ///; echo $?", "rm -r //.//; echo $?",
]


@_needs(gnu_available("rm"))
@pytest.mark.parametrize("script", RM)
def test_rm_dots_and_trailing_slashes(script: str) -> None:
    check(script, files=MEMORY)


def _tar(fmt: int, magic: bytes | None = None) -> bytes:
    """A tar archive of two memory files (built once, so both sides read the same bytes);
    ``magic`` rewrites the header's magic and checksum (``b""``: a v7 header)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as tf:
        for name, body in ((".memory/core.md", MEMORY[".memory/core.md"]), (".memory/notes.md", b"n\n")):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(body), 1700000000, 0o644
            tf.addfile(info, io.BytesIO(body))
    data = bytearray(out.getvalue())
    if magic is not None:
        data[257:265] = magic.ljust(8, b"\0")
        data[148:156] = b" " * 8
        data[148:156] = b"%06o\0 " % sum(data[:512])
    return bytes(data)


TAR_FILES = {"gnu.tar": _tar(tarfile.GNU_FORMAT), "ustar.tar": _tar(tarfile.USTAR_FORMAT),
             "pax.tar": _tar(tarfile.PAX_FORMAT), "v7.tar": _tar(tarfile.USTAR_FORMAT, b"")}
FILE_TAR = [
    "file gnu.tar ustar.tar pax.tar v7.tar", "file -i gnu.tar ustar.tar v7.tar", "file -b --mime-type pax.tar",
    "file - < gnu.tar", "head -c 512 ustar.tar > h; file h", "head -c 511 ustar.tar > h; file h",
    "head -c 1024 /dev/zero > z; file z", "file -z gnu.tar",
]


@_needs(_version_of("file", b"file-5."))
@pytest.mark.parametrize("script", FILE_TAR)
def test_file_names_tar_archives(script: str) -> None:
    check(script, files={**MEMORY, **TAR_FILES})


DOT_OPERANDS = [
    "du .memory/nosuch/..; echo $?", "du -s .memory/core.md/..; echo $?", "du -s .memory/core.md/.; echo $?",
    "du -s .memory/topics/.. | cut -f2", "du -sh .memory/nosuch/../topics .memory/topics; echo $?",
    "du -L -s .memory/nosuch/..; echo $?",
    "stat -c %n .memory/nosuch/.. .memory/core.md/..; echo $?", "stat -c %n .memory/core.md/.; echo $?",
    "stat -c '%n %F' .memory/topics/.. .memory/topics/.", "stat -L -c %n .memory/nosuch/.; echo $?",
]


@_needs(gnu_available("du") or gnu_available("stat"))
@pytest.mark.parametrize("script", DOT_OPERANDS)
def test_du_stat_dot_needs_a_directory(script: str) -> None:
    check(script, files=MEMORY)
