"""Differential tests of ``find`` against GNU findutils 4.9, through the whole sandbox (so
``-exec`` goes through the guard and ``ctx.run_command``).

GNU lists a directory in readdir order (ext4: hash order), ours in sorted order: outputs are
compared as sorted records (``-print0`` records, or lines); ``-depth``/``-prune``/``-mindepth``
semantics still show in which records appear. Generated cases (``FIND_CASES``, default 320):
random trees with names holding spaces, newlines, unicode and invalid UTF-8, random sizes and
mtimes (set with os.utime, away from the day/minute boundaries), random expressions.
Owner names differ by design (the sandbox's virtual ``user``), so ``%u``/``%g`` are left out.
"""

from __future__ import annotations

import os
import random
import shlex
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, compare, missing  # noqa: E402

from sandbox import Policy  # noqa: E402

pytestmark = pytest.mark.skipif(missing("find") is not None, reason=str(missing("find")))

NOW = int(time.time())  # whole seconds: backends report mtime as a float (no exact ns)
TREE = {"a.txt": b"hello\n", "d/b.txt": b"x" * 1000, "d/e/c.md": b"", "d/empty": None,
        "sp ace": b"1", ".hid": b"h", "big": b"z" * 5000, "old.txt": (b"o\n", NOW - 40 * 86400 - 3600),
        "new.md": (b"n\n", NOW - 1800), "d/e/week": (b"w", NOW - 7 * 86400 - 43200)}

HAND = [
    "find", "find .", "find . -name '*.txt'", "find d -type d", "find . -type f -size -1k",
    "find . -empty", "find . -maxdepth 1", "find . -mindepth 2", "find d -depth",
    "find . -name d -prune -o -print", "find . -path './d/*'", "find . -wholename './d/e*'",
    "find . -ipath './D/*'", "find . -iwholename '*B.TXT'",
    "find . -regex '.*\\.\\(md\\|txt\\)'", "find . -iregex '.*\\.TXT'", "find . -regex '.*\\.md+'",
    "find . -regex './[a-c].*'", "find . -regex '(.*)'",
    "find . -regextype posix-extended -regex '.*(md|txt)'", "find . -regextype posix-basic -regex '.*\\(md\\)'",
    "find . -regextype egrep -regex '.*/[a-z]{3}'", "find . -regextype sed -regex '.*x\\{1,\\}.*'",
    "find . -regextype nope -regex x", "find . -regex '.*['", "find . -regextype posix-extended -regex '('",
    "find . -printf '%p %s %d %y %m %f %h %P %H %k %b %n %Y %l %M\\n'",
    "find d -type f -printf '%T@ %t %TY-%Tm-%Td %TT %TS %T+ %Tc %Tr %Tj %a %A@ %A+\\n'",  # no %c/%C: no ctime in the sandbox
    "touch -d '2020-01-02 03:04:05.123456789' d/f1 && find d/f1 -printf '%T@ %t %TT %T+\\n'",
    "find d -printf '%5s|%-5s|%05d|%.2p|%10.3p|%+4d|%#m|%-6m|\\n'",
    "find d -printf 'a\\tb\\\\c\\0d\\101\\n' | cat -A", "find d -printf 'x\\cy\\n'",
    "find d -printf '%z\\n'", "find d -printf 'a\\qb\\n'", "find d -printf '%'", "find d -printf '%T'",
    "find d -printf '%%\\n'", "find d/b.txt -printf 'x\\\\'",
    "find . -iname 'A*'", "find . -exec echo x {} \\;", "find . -exec echo x{}y \\;",
    "find . -type f -exec printf '%s\\n' {} +", "find d -execdir echo {} \\;",
    "find d -execdir printf '%s\\n' {} +",
    "find . -type f -exec grep -l x {} +", "find . -exec false \\; -print",
    "find . -exec echo x{} +", "find . -exec echo {} {} +", "find . -exec", "find . -exec echo",
"find . -type f -exec false {} +; echo $?",
    "find . -name nope -o -name a.txt", "find nope; echo $?", "find a.txt nope d; echo $?",
    "find . -foo", "find . -name", "find . -a", "find . -o", "find . -name x -o", "find . !",
    "find . \\( \\)", "find . \\( -name x", "find . \\)", "find . -name x \\)", "find . x",
    "find . -name x y", "find . -type q", "find . -type fd", "find . -type f,f", "find . -type f,",
    "find . -type ''", "find . -type f,d", "find . -type l,p,s", "find . -maxdepth x",
    "find . -mindepth -1", "find . -maxdepth 0", "find d e", "find . -size 1x", "find . -size +",
    "find . -size ''", "find . -mtime +", "find . -mtime x", "find . -newer nope; echo $?",
    "find . \\( -name a.txt -o -name b.txt \\) -print", "find . ! -type d", "find . -not -name '*.*'",
    "find . -name '*.txt' -a -size +0", "find . -name '*.txt' -and -size +0",
    "find . -name '*.txt' -or -name '*.md'", "find . -name '*.txt' , -name '*.md'",
    "find . -name '*.txt' -print , -name '*.md' -print0 | tr '\\0' '\\n' | sort", "find . -newer old.txt",
    "find . -mtime +30", "find . -mtime -1", "find . -mtime 7", "find . -mtime +6",
    "find . -mtime 40", "find . -mmin -60", "find . -mmin +60", "find . -mmin 30",
    "find . -atime -1", "find . -amin +1000", "find . -mtime -1.5", "find . -daystart -mtime 0",
    "find . -print0", "find . -size +1", "find . -size -2c", "find . -size 1000c", "find . -size 2",
    "find . -size +4k", "find . -size -1M", "find . -size 1w", "find . -size +0G",
    "find d -maxdepth 0", "find . -true -false", "find . -false -o -true", "find a.txt -quit",
    "find a.txt -name a.txt -quit -o -print; echo $?", "find . -name '*.txt' -print -quit | wc -l",
"find -P . -name a.txt",
    "find . -name a.txt -maxdepth 1", "find . -warn -name a.txt -maxdepth 1",
    "find . -name 'a/b'", "find . -warn -name 'a/b'", "find . -depth -name d -prune",
    "find . -delete -prune", "find . -noleaf -xdev -mount -name a.txt",
    "find ./ -name a.txt", "find d/ -name b.txt", "find d// -maxdepth 1", "find ./d/../d -name c.md",
    "find . -name '[ab]*'", "find . -name '[!a]*.txt'", "find . -name '*[[:digit:]]*'",
    "find . -name '\\*'", "find . -name '.*'", "find . -name '?'", "find . -name '[a-c].txt'",
    "find . -empty -type d", "find . -type d -empty -o -type f -empty",
    "find . -printf '%P\\n' -name d -prune", "find . -ls | wc -l", "find --version | head -1",
    "find --help", "find -help", "find -version", "find --version",
    "find d -perm 755", "find d -perm -u+x", "find d -perm /o+w", "find d -perm 0644",
    "find d -perm -644", "find d -perm /111", "find d -perm g=r", "find d -perm u=rwx,go=rx",
    "find d -perm x; echo $?", "find d -perm /u=w,g=w", "find d -perm -", "find d -links 2",
    "find d -links +1", "find d -links x", "find . -readable", "find . -executable",
    "find . -nouser", "find . -nogroup", "find . -lname x", "find . -samefile a.txt",
    "find . -samefile nope", "find . -used 1", "find . -inum x", "find . -user nobodyx",
    "find . -group nogroupx", "find . -uid x", "find . -xtype f",
    "find . -newermt '2021-03-04 05:00'", "find . -newermt '2021-03-04 05:07'", "find . -newermt bogus",
    "find . -newermt @1614834000", "find . -newermt '2026-01-01'", "find . -newerBt x", "find . -newerXt x",
    "find . -newertm x", "find . -newermm old.txt", "find . -newerma a.txt", "find . -newermt '1 day ago'",
    # "," as GNU 4.9's optimiser orders it (stable sort by cost within side-effect-free runs)
    "find . -type d , -true", "find . -true , -type d", "find . -name a.txt , -type d",
    "find . -type d , -name a.txt", "find . -false , -name a.txt", "find . -name a.txt , -false",
    "find . -type f , -size +0 , -name a.txt", "find . -name a.txt , -name big",
    "find . -newer old.txt , -name big", "find . \\( -type d , -name a.txt \\) -print",
    "find . -type d , -name a.txt -o -name big", "find . -type d , \\( -name a.txt -o -name big \\)",
    "find . -type d , ! -name a.txt", "find . -empty , -type d", "find . -type d , -empty",
    "find . -size 0 , -type d", "find . -empty , -size +0", "find . -empty , \\( -name a -o -name big \\)",
    "find . -readable , -type d", "find . -readable , -empty", "find . -inum 1 , -type d",
    "find . -type d , -name a.txt , -empty , -name big", "find . -regex '.*a.*' , -name big",
    "find . -name big , -regex '.*a.*'", "find . \\( -type d , -true \\) -o -name zz",
    "find . -type d , -prune , -true", "find . -true , -prune , -type d",
    "find . -type d , -printf '%p\\n' , -name a.txt", "find . -empty , -print , -type d",
    "find . -mtime +30 , -name '*.md' , -type f", "find . -type f , -size +0 , -name a.txt , -empty",
    "find . -executable , -type f", "find . -mtime +30 , -name '*.md' , -type f",
    # -ls with the inode and the owner masked (virtual: 0 and user)
    "find d -ls | sed -E 's/^ *[0-9]+ +//; s/ (root|user) +(root|user) +/ U G /'",
]


def _normalize(data: bytes) -> bytes:
    return data


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    sep = b"\0" if "print0" in script else b"\n"
    if "-quit" in script or "printf '%'" in script or "-printf '%T'" in script:
        sep = None  # type: ignore[assignment]
    report = compare(script, TREE, sort_out=sep)
    assert report is None, report


@pytest.mark.parametrize("script", ["find . -follow",
                                    "find . -ok echo {} \\;", "find . -okdir echo {} \\;"])
def test_refused_in_one_line(script: str) -> None:
    """-follow is refused, there is no terminal to ask: one line, exit 1, no output. (A leading
    -L/-H changes nothing in a jail without links: test_corpus_files_misc.py compares them.)"""
    from exec_support import run_both
    _, ours = run_both(script, TREE)
    assert ours[0] == 1 and ours[1] == b"" and ours[2].count(b"\n") == 1, ours[:3]
    assert b"sandbox" in ours[2], ours[2]


def test_delete_through_the_jail() -> None:
    check_all([("find d -name '*.txt' -delete; find . | sort", TREE),
               ("find d -delete; echo $?; find . | sort", TREE),
               ("find . -type f -name '*.md' -delete -print | sort; find . | sort", TREE),
               ("find d/e -depth -delete; ls", TREE)])


def test_delete_refuses_protected_files() -> None:
    from exec_support import run_both  # noqa: F401
    from sandbox import commands as registry
    from sandbox.api import Sandbox
    from sandbox.fs.memory import MemoryFS
    sb = Sandbox({"/": MemoryFS({"log.jsonl": b"x", "n.md": b"y"})},
                 policy=Policy(allow=registry.names(), protected=frozenset({"/log.jsonl"})))
    r = sb.run("find / -maxdepth 1 -type f -name 'log*' -delete")
    assert r.exit_code == 126 or b"Permission denied" in r.stderr, r
    r = sb.run("cd / && find . -maxdepth 1 -type f -delete; ls /")
    assert b"log.jsonl" in r.stdout and b"cannot delete" in r.stderr, r


_NAMES = ["a", "b.txt", "notes.md", "sp ace", "new\nline", "ünï", "日本.md", "bad\udcffname",
          ".hidden", "x-1", "[br]", "*star", "q?", "M.TXT", "z.log"]


def _tree(rng: random.Random) -> dict:
    tree: dict = {}
    dirs = [""]
    for _ in range(rng.randint(1, 14)):
        parent = rng.choice(dirs)
        name = rng.choice(_NAMES) + (str(rng.randint(0, 9)) if rng.random() < 0.4 else "")
        path = f"{parent}/{name}" if parent else name
        if path in tree or any(k.startswith(path + "/") for k in tree):
            continue
        # relative to the moment the case runs, half a minute away from -mmin boundaries
        mtime = int(time.time()) - rng.choice([0.3, 1.5, 3.5, 10.5, 40.5]) * 86400 \
            - rng.choice([0, 1, 5, 30]) * 60 - 30
        mtime = int(mtime)
        if rng.random() < 0.3:
            tree[path] = (None, mtime)
            dirs.append(path)
        else:
            size = rng.choice([0, 1, 511, 512, 513, 1024, 3000, 5000])
            tree[path] = (b"y" * size, mtime)
    return tree


def _expr(rng: random.Random, depth: int = 0) -> list[str]:
    r = rng.random()
    if depth < 2 and r < 0.25:
        # ",": GNU 4.9's optimiser swaps the arms of a comma when the left one costs more
        # (find . -type d , -true prints only directories); so does ours.
        op = rng.choice(["-o", "-a", "", ","])
        return ["("] + _expr(rng, depth + 1) + ([op] if op else []) + _expr(rng, depth + 1) + [")"]
    if depth < 2 and r < 0.35:
        return ["!"] + _expr(rng, depth + 1)
    kind = rng.random()
    if kind < 0.2:
        return [rng.choice(["-name", "-iname"]), rng.choice(["*.txt", "*.md", "?", "[a-c]*", "*e*", "*[0-9]", ".*", "*\n*", "日*", "M*"])]
    if kind < 0.3:
        return [rng.choice(["-path", "-ipath"]), rng.choice(["./*/*", "*a*", "./b*", "*/*.md"])]
    if kind < 0.4:
        return ["-regex", rng.choice([".*\\.txt", ".*/[a-z]+", "\\./.*\\(md\\|log\\)", ".*[0-9]", ".*"])]
    if kind < 0.5:
        return ["-type", rng.choice(["f", "d", "f,d"])]
    if kind < 0.6:
        return ["-size", rng.choice(["+0", "-1", "1", "+1k", "-2k", "512c", "+3", "0"])]
    if kind < 0.7:
        return [rng.choice(["-mtime", "-atime"]), rng.choice(["+1", "-2", "3", "+10", "-40", "0", "+0"])]
    if kind < 0.75:
        return ["-mmin", rng.choice(["+60", "-600", "+5000"])]
    if kind < 0.8:
        return ["-empty"]
    if kind < 0.85:
        return [rng.choice(["-true", "-false"])]
    if kind < 0.9:
        return ["-prune"]
    return [rng.choice(["-print", "-print0"])] if rng.random() < 0.5 else ["-name", "*"]


def _case(rng: random.Random) -> tuple[str, dict, bytes]:
    tree = _tree(rng)
    opts: list[str] = []
    if rng.random() < 0.3:
        opts += ["-maxdepth", str(rng.randint(0, 3))]
    if rng.random() < 0.2:
        opts += ["-mindepth", str(rng.randint(0, 2))]
    if rng.random() < 0.15:
        opts.append("-depth")
    expr = _expr(rng)
    starts = ["."]
    tops = sorted({k.split("/")[0] for k in tree})
    if rng.random() < 0.3 and tops:
        starts = rng.sample(tops, min(len(tops), rng.randint(1, 2)))
    action = rng.choice([["-print0"], ["-printf", "%p|%s|%d|%y|%P|%f|%h|%TY%Tm%Td\\0"],
                         ["-printf", "%k %b %m\\0"], ["-exec", "printf", "<%s>\\0", "{}", ";"],
                         ["-exec", "printf", "[%s]\\0", "{}", "+"]])
    if "-print0" in expr or "-print" in expr:
        action = ["-print0"] if "-print" in expr else []
        expr = [("-print0" if w == "-print" else w) for w in expr]
    script = "find " + shlex.join(starts + opts + expr + action)
    return script, tree, b"\0"


def test_generated() -> None:
    rng = random.Random(1549)
    failures = []
    count = int(os.environ.get("FIND_CASES", "320"))
    for _ in range(count):
        script, tree, sep = _case(rng)
        # "-exec ... +": one batch's record order is the walk order; records stay NUL-separated
        report = compare(script, tree, sort_out=sep)
        if report is not None:
            failures.append(report)
    assert not failures, f"{len(failures)}/{count} differ:\n\n" + "\n\n".join(failures[:4])


def test_scandir_hook_gives_the_same_walk() -> None:
    """A filesystem offering ``scandir`` (name, FileStat pairs) walks exactly as listdir+stat."""
    from sandbox.commands.testing import run_command
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS
    files = {"a.txt": b"x", "d/b.md": b"yy", "d/e/c": b"", "z": b"zzz"}
    plain = VirtualFS({"/": MemoryFS(dict(files))})
    fast = VirtualFS({"/": MemoryFS(dict(files))})
    calls = []

    def scandir(path: str):  # type: ignore[no-untyped-def]
        calls.append(path)
        return [(n, fast.stat(path.rstrip("/") + "/" + n)) for n in fast.listdir(path)]

    fast.scandir = scandir  # type: ignore[attr-defined]
    argv = ["find", "/", "-path", "/dev", "-prune", "-o", "-printf", "%p %s %y %d\\n"]
    assert run_command(argv, fs=plain) == run_command(argv, fs=fast)
    assert calls


def test_open_scan_walk_matches_the_protocol_walk(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The walk over held-open directories (``open_scan``: kinds from d_type, children opened
    relative to their parent) gives what listdir+lstat gives: links and special files seen as
    such (never followed), a tree deeper than ``HANDLE_DEPTH``, a mount point below the start,
    and a ``LocalDir`` subclass that hides a name (it must stay hidden)."""
    from sandbox.commands.find.walk import HANDLE_DEPTH
    from sandbox.commands.testing import run_command
    from sandbox.fs.local import LocalDir
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS
    root = tmp_path / "r"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "f").write_bytes(b"x")
    (root / "secret").write_bytes(b"s")
    os.symlink("/etc", root / "a" / "link")
    os.symlink("/etc/passwd", root / "a" / "b" / "pl")
    os.mkfifo(root / "fifo")
    deep = root / "deep"
    deep.mkdir()
    p = deep
    for i in range(HANDLE_DEPTH + 6):
        p = p / f"d{i % 3}"
        p.mkdir()
    (p / "leaf").write_bytes(b"12345")

    class Hiding(LocalDir):
        def listdir(self, path: str) -> list[str]:  # type: ignore[override]
            return [n for n in super().listdir(path) if n != "secret"]

    def fs(kind: str, hooks: bool) -> VirtualFS:
        backend = LocalDir(root) if kind == "plain" else Hiding(root)
        v = VirtualFS({"/w": backend, "/w/a/m": MemoryFS({"x": b"1", "y/z": b""})})
        if not hooks:
            v.open_scan = v.scan_kinds = v.scandir = None  # type: ignore[method-assign,assignment]
        return v

    exprs = [[], ["-size", "+0"], ["-type", "d"], ["-printf", "%p:%y %d %s\\n"],
             ["-name", "d1", "-prune", "-o", "-print0"], ["-depth", "-type", "f"],
             ["-maxdepth", "3"], ["-mindepth", "70", "-printf", "%P\\n"], ["-empty"],
             ["-name", "l*", "-quit"]]
    printed = b""
    for kind in ("plain", "hiding"):
        for e in exprs:
            fast = run_command(["find", "."] + e, fs=fs(kind, True), cwd="/w")
            slow = run_command(["find", "."] + e, fs=fs(kind, False), cwd="/w")
            assert fast == slow, (kind, e, fast, slow)
            assert fast[2] == b"", fast  # nothing refused, nothing followed
            printed += fast[1]
            if kind == "hiding":
                assert b"secret" not in fast[1], fast
    assert b"./a/link:l " in printed and b"./fifo:p " in printed and b"./a/b/pl:l " in printed
    assert b"passwd" not in printed.replace(b"/etc/passwd", b"")  # /etc was never entered
