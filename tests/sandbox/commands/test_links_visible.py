"""Symbolic links and special files that a host process put in the jail are seen as what they
are and never followed at the OS level: ``find -type l/p``, ``-lname``, ``-xtype``, ``%y %Y
%l``, ``ls -l`` (``l``/``p`` and ``name -> target``), ``ls -F``, ``readlink`` (the link's text),
``readlink -f/-e/-m`` and ``realpath`` (links resolved by name inside the jail), ``test -h -L
-p -e -f -d`` and ``[[ ]]``, ``stat`` (``%F %N``, ``-L``) and ``du`` (``-P -L -H``).

The fixture is built with the real ``ln -s`` and ``mkfifo`` in a temporary directory that is
mounted at its own host path, so absolute paths read the same; every script runs under real
bash + GNU there and under the sandbox; stdout and status must be identical (stderr too where
the script sends it to stdout). Reading a file through a link stays refused in one line."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import Policy, Sandbox
from sandbox import commands as registry

pytestmark = pytest.mark.skipif(shutil.which("mkfifo") is None or shutil.which("ln") is None,
                                reason="GNU coreutils (ln, mkfifo) not installed")

FIXTURE = """
mkdir -p dir sub/deep one/two du_test/sub
echo hi > dir/file; echo x > one/two/f; printf 'y%.0s' $(seq 5000) > du_test/xyz
ln -s file dir/link; ln -s /nowhere/x dir/dangle; ln -s ../one dir/up
ln -s loop1 loop2; ln -s loop2 loop1; ln -s dir dlink; ln -s ../../one sub/deep/rel
mkfifo dir/fifo; ln -s one uno; ln -s . self; ln -s one/two/f slink
ln -s xyz du_test/link; ln -s ../xyz du_test/sub/up; ln -s "$PWD/one" abs
"""

SCRIPTS = [
    # find: -L/-H report a link that loops (and test nothing for it)
    "find -L dir loop1 -maxdepth 1 2>&1 | sort; echo $?", "find -L loop1 2>&1; echo $?",
    "find -H loop2 -print 2>&1; echo $?", "find loop1 2>&1; echo $?",
    "find -L dir loop2 uno -type l 2>&1 | sort",
    # find
    "find . | sort", "find . -type l | sort", "find dir -type l -o -type p | sort",
    "find . -type f | sort", "find dir -type l,f | sort", "find . -xtype d 2>&1 | sort",
    "find . -lname '*one*' | sort", "find . -ilname '*NOWHERE*'", "find dir -empty",
    "find dir -printf '%y %p %l\\n' | sort", "find dir -printf '%Y %p\\n' | sort",
    "find -L dir -name file", "find -H dlink", "find dlink self", "find dir -size 0 | sort",
    "find . -type l -exec readlink {} \\; | sort", "find dir -name 'f*' -printf 'x\\n'",
    "find dir -ls | cut -c10-25,60- | sort", "find dir -newer dir/file | sort",
    # ls
    "ls dir", "ls -l dir | cut -c1-11,40-", "ls -F dir", "ls --file-type dir", "ls -p dir",
    "ls -l slink | cut -c1-10,40-", "ls dlink", "ls -d dlink", "ls -l dlink | cut -c1,40-",
    "ls dir/dangle", "ls -ls dir | cut -c1-14", "ls -1 dir/fifo dir/link", "ls -R sub",
    # readlink / realpath
    "readlink dir/link", "readlink dir/link dir/dangle dir/file; echo $?",
    "readlink -f dir/link", "readlink -f dir/dangle; echo $?", "readlink -e dir/dangle; echo $?",
    "readlink -m dir/dangle/a/../b", "readlink -f dlink/up/two/f", "readlink -e sub/deep/rel/two",
    "readlink -f loop1; echo $?", "readlink -f self/self/dir/link", "readlink -f uno/two/../two/f",
    "readlink -n dir/link", "readlink -z dir/link dir/up | od -c", "readlink -f abs/two",
    "realpath dlink/up uno/two", "realpath -s dlink/up", "realpath -e dir/dangle 2>&1; echo $?",
    "realpath -m dir/dangle/q", "realpath --relative-to=dlink uno/two", "realpath -L dlink/../one",
    "realpath -P dlink/../one", "realpath -es dlink/link; echo $?", "realpath -s dlink/..",
    "realpath loop1 2>&1; echo $?", "readlink -f dir/fifo", "realpath -q dir/dangle/x/y; echo $?",
    # test
    "for i in d f L h s p e S b c; do for f in dir dir/file dir/link dir/fifo dir/dangle loop1 "
    "dlink self/dir dlink/link dlink/up/two; do test -$i $f && echo -n \"$i:$f \"; done; done; echo",
    "[[ -L dir/link && -f dir/link && -e self/dir && ! -e dir/dangle ]] && echo y",
    "test dir/link -ef dir/link && echo same; [ -h slink ] && echo link",
    # stat
    "stat -c '%F %N %s %a %A %h' dir/link dir/fifo dir/file dir dlink",
    "stat -L -c '%F %n %s' dir/link dlink self/dir", "stat -c '%f %b' dir/link dir/fifo",
    "stat --printf '%N|%F\\n' dir/dangle", "stat dir/dangle | head -2",
    "stat -L dir/dangle 2>&1; echo $?", "stat -c %n dlink/link self/dir/file",
    # du
    "du -a dir | sort", "du -ab dir | sort", "du -ksL du_test", "du -ksH du_test/link",
    "du -kL du_test | sort", "du -kaL du_test | sort", "du -k dlink; du -kD dlink | tail -1",
    "du -s . | cut -f1",
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("links")
    subprocess.run(["bash", "-c", FIXTURE], cwd=root, check=True)
    return root


def _both(tree: Path, script: str) -> tuple[tuple[bytes, int], tuple[bytes, int]]:
    ref = subprocess.run(["bash", "-c", script], cwd=tree, capture_output=True,
                         env={"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"})
    sb = Sandbox({str(tree): tree}, cwd=str(tree), policy=Policy(allow=registry.names()))
    r = sb.run(script)
    return (ref.stdout, ref.returncode), (r.stdout, r.exit_code)


@pytest.mark.parametrize("script", SCRIPTS)
def test_links_and_fifos_seen_as_gnu_sees_them(tree: Path, script: str) -> None:
    ref, ours = _both(tree, script)
    assert ours == ref, script


NAMES = ["dir", "dir/file", "dir/link", "dir/fifo", "dir/dangle", "loop1", "dlink", "self",
         "self/dir/link", "uno/two", "dlink/up/two/f", "abs", "nope", "dir/link/x"]


@pytest.mark.parametrize("tool", ["readlink", "readlink -f", "readlink -e", "readlink -m",
                                  "realpath", "realpath -e", "realpath -m", "realpath -s",
                                  "realpath -es", "realpath -ms"])
def test_generated_canonical_names(tree: Path, tool: str) -> None:
    # every name alone and in pairs, with `.`/`..` spliced in: the same lines and status
    cases = list(NAMES) + [f"{a}/../{b}" for a, b in itertools.islice(
        itertools.product(NAMES, NAMES[:6]), 0, None, 7)]
    script = "; ".join(f"{tool} {c} 2>/dev/null; echo \"{c} $?\"" for c in cases)
    ref, ours = _both(tree, script)
    assert ours == ref, tool


def test_reading_through_a_link_is_still_refused(tree: Path) -> None:
    sb = Sandbox({str(tree): tree}, cwd=str(tree), policy=Policy(allow=registry.names()))
    r = sb.run("cat dir/link; cat self/dir/file; cat dir/fifo")
    assert r.stdout == b"" and r.exit_code == 1
    assert r.stderr.count(b"\n") == 3 and b"Symbolic link refused" in r.stderr
    assert b"Special file refused" in r.stderr


def test_a_link_out_of_the_jail_resolves_inside_it(tmp_path: Path) -> None:
    (tmp_path / "j").mkdir()
    (tmp_path / "secret").write_text("s\n")
    (tmp_path / "j" / "out").symlink_to(tmp_path / "secret")
    (tmp_path / "j" / "up").symlink_to("../../..")
    sb = Sandbox({"/m": tmp_path / "j"}, cwd="/m", policy=Policy(allow=registry.names()))
    r = sb.run("readlink -f out; readlink -f up/etc; test -e out || echo gone; "
               "find -L . -xtype f; cat out up/secret 2>&1 | wc -l")
    # out names a host path: inside the jail that name does not exist (readlink -f fails)
    assert r.stdout.decode().splitlines() == ["/etc", "gone", "2"], r
    assert str(tmp_path) not in r.stderr.decode()


@pytest.mark.parametrize("script", [
    "find . -samefile dir/file | sort", "find . -samefile other", "find . -samefile perm",
    "for f in su sg st other; do for o in u g k; do test -$o $f && echo \"$o $f\"; done; done",
    "[[ -u su && -g sg && -k st && ! -u other ]] && echo bits",
])
def test_hard_links_and_mode_bits_a_host_set(tmp_path: Path, script: str) -> None:
    """Two names of one file (a hard link made on the host) are ``-samefile``; set-id and
    sticky bits set on the host answer ``test -u -g -k`` (the sandbox can set neither)."""
    subprocess.run(["bash", "-c", "mkdir dir perm && echo x > dir/file && ln dir/file perm/hardlink"
                    " && echo y > other && touch su sg && chmod 4755 su && chmod 2755 sg"
                    " && mkdir st && chmod 1777 st"], cwd=tmp_path, check=True)
    ref, ours = _both(tmp_path, script)
    assert ours == ref, script


@pytest.mark.parametrize("script", [
    "mv link1 link2 && [ ! -e link1 -a -L link2 ] && readlink link2",
    "mv file1 link1 dir1 && ls dir1 && readlink dir1/link1",
    "mv link1 file1; readlink file1; ls",
    "mv -v link1 dangle; readlink dangle",
    "mv -n link1 file1; readlink link1",
    "mv d/l file1 2>&1; ls d; mv d/l dir1 && readlink dir1/l",
    "mv link1/ x 2>&1; echo $?",
])
def test_mv_moves_a_link_as_itself(tmp_path: Path, script: str) -> None:
    """``mv`` of a symbolic link renames the link (rename(2) never follows it), as GNU's."""
    for where in ("ref", "ours"):
        subprocess.run(["bash", "-c", "mkdir dir1 && echo one > file1 && ln -s file1 link1 && "
                        "ln -s /nowhere dangle && mkdir d && ln -s ../file1 d/l"], cwd=tmp_path, check=True)
        if where == "ref":
            ref = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True,
                                 env={"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"})
        else:
            sb = Sandbox({str(tmp_path): tmp_path}, cwd=str(tmp_path), policy=Policy(allow=registry.names()))
            r = sb.run(script)
        subprocess.run(["bash", "-c", "rm -rf ./*"], cwd=tmp_path, check=True)
    assert (r.stdout, r.exit_code, r.stderr) == (ref.stdout, ref.returncode, ref.stderr), script
