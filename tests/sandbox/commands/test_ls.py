"""ls: unit tests and differential tests against GNU ls (owner/group columns normalised)."""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.ls import human_size  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

SKIP = fsup.gnu_available("ls")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
OWNER_RE = re.compile(rb"^([-d][rwxsStT-]{9}[.+]? +\d+ )\S+ \S+ ", re.M)


def normalize_owner(out: bytes) -> bytes:
    """The only normalisation: GNU's owner and group names become the jail's ``user user``."""
    return OWNER_RE.sub(rb"\1user user ", out)


def test_names_one_per_line() -> None:
    code, out, err = run_command(["ls", "w"], files={"w/b": b"", "w/a": b"", "w/.h": b"", "w/d/x": b""})
    assert (code, out, err) == (0, b"a\nb\nd\n", b"")


def test_missing_operand_is_exit_2() -> None:
    code, out, err = run_command(["ls", "nope"])
    assert code == 2 and err == b"ls: cannot access 'nope': No such file or directory\n"


def test_human_size() -> None:
    assert [human_size(n) for n in (0, 1023, 1024, 1025, 1536, 4096, 10239, 10240, 1048575, 1048576, 1048577,
                                    5 << 30)] == \
        ["0", "1023", "1.0K", "1.1K", "1.5K", "4.0K", "10K", "10K", "1.0M", "1.0M", "1.1M", "5.0G"]


NOW = int(time.time())


def sample_tree(rng: random.Random) -> fsup.Tree:
    names = ["a", "B", "b.txt", ".hidden", "é", "Z", "a b", "-dash", "x\ny", "\udcff", "_u", "10", "9", "a.b.c",
             "old~", ".rc~"]
    tree: fsup.Tree = {}
    for name in rng.sample(names, rng.randint(1, len(names))):
        body = rng.choice([b"", b"x", b"y" * rng.randint(1, 20000), b"z" * rng.choice([1023, 1024, 4096, 4097, 1048577])])
        mtime = rng.choice([fsup.BASE_MTIME, NOW - 3600, NOW - 86400 * 200, NOW - 86400 * 170,
                            NOW + 86400 * 30, 946684800, fsup.BASE_MTIME + rng.randint(0, 10**7)])
        tree[name] = (body, mtime)
    for d in rng.sample(["d1", "d2", ".hd", "d1/sub", "d1/sub/deep", "empty"], rng.randint(0, 6)):
        if "/" in d and d.rsplit("/", 1)[0] not in tree:
            continue
        tree[d] = (None, rng.choice([fsup.BASE_MTIME, NOW - 100]))
        for name in rng.sample(["f", "g", ".dot", "h.txt"], rng.randint(0, 3)):
            tree[f"{d}/{name}"] = (b"q" * rng.randint(0, 9000), rng.choice([fsup.BASE_MTIME, NOW - 500]))
    return tree


FLAGS = ["-a", "-A", "-1", "-l", "-h", "-R", "-t", "-r", "-S", "-d"]


@needs_gnu
@pytest.mark.parametrize("seed", range(10))
def test_random_trees_and_flags(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(20):
        tree = sample_tree(rng)
        flags = rng.sample(FLAGS, rng.randint(0, 5))
        if rng.random() < 0.3:
            flags = ["-" + "".join(f[1] for f in flags)] if flags else flags
        top = sorted({k.split("/")[0] for k in tree})
        operands = rng.sample(top + ["nope", "."], rng.randint(0, 3))
        if rng.random() < 0.8:
            operands = ["--"] + operands
        else:
            operands = [o for o in operands if not o.startswith("-")]
        argv = ["ls"] + flags + operands
        # One level down, so that .. is inside the compared tree.
        nested = {"t/" + name: spec for name, spec in tree.items()}
        nested["t"] = (None, rng.choice([fsup.BASE_MTIME, NOW - 10]))
        cases.append((argv, nested, b"", normalize_owner, "t"))
    fsup.check_all(cases)


@needs_gnu
def test_dot_and_dotdot_from_a_subdirectory() -> None:
    tree = {"top": (None, fsup.BASE_MTIME), "top/a": (b"a", fsup.BASE_MTIME), "top/.b": (b"bb", NOW - 60),
            "top/sub": (None, NOW - 7200), "other": (b"x" * 5000, fsup.BASE_MTIME)}
    cases = [(["ls"] + flags, tree, b"", normalize_owner, "top")
             for flags in (["-a"], ["-la"], ["-lA"], ["-laR"], ["-lat"], ["-laS"], ["-lar"], ["-ld", ".", ".."],
                           ["-l", ".."], ["-aR", ".."], ["-lh", ".."], ["-a1"], ["-Aa"], ["-aA"], ["-l1"], ["-1l"])]
    fsup.check_all(cases)


@needs_gnu
def test_bad_options() -> None:
    cases = [(["ls", flag], {"a": b""}) for flag in ("-y", "--nope", "--al", "--reverse=x", "-lz")]
    fsup.check_all(cases)


# -- the formats and options of the full ls ------------------------------------------------------

MODE = rb"[-d][rwxsStT-]{9}[.+]?"


def ids_normalizer(flags: list[str]) -> "fsup.Callable[[bytes], bytes]":
    """GNU's owner/group columns (as many as ``flags`` print) become the jail's."""
    text = " ".join(flags)
    short = "".join(f[1:] for f in flags if f.startswith("-") and not f.startswith("--"))
    owner = "g" not in short
    group = not ({"o", "G"} & set(short)) and "--no-group" not in text
    numeric = "n" in short or "--numeric-uid-gid" in text
    ours = ([b"1000" if numeric else b"user"] if owner else []) + ([b"1000" if numeric else b"user"] if group else [])
    if not ours:
        return lambda out: out
    pattern = re.compile(rb"^([ 0-9.,?A-Za-z]*?" + MODE + rb" +\d+ )" + rb"\S+ " * len(ours), re.M)
    replacement = b"".join(o + b" " for o in ours)
    return lambda out: pattern.sub(lambda m: m.group(1) + replacement, out)


def nested_tree(rng: random.Random) -> fsup.Tree:
    """A random tree one level down (``t``), so that ``..`` is inside the compared tree."""
    nested: fsup.Tree = {"t/" + name: spec for name, spec in sample_tree(rng).items()}
    nested["t"] = (None, rng.choice([fsup.BASE_MTIME, NOW - 10]))
    if rng.random() < 0.3:
        nested["t/run.sh"] = (b"#!/bin/sh\n", fsup.BASE_MTIME)
    return nested


NEW_FLAGS = [
    "-C", "-x", "-m", "-1", "-l", "-F", "-p", "--file-type", "-s", "-k", "-h", "--si", "-b", "-q", "-Q", "-N",
    "-X", "-v", "-u", "-o", "-g", "-n", "-G", "-t", "-S", "-r", "-a", "-A", "-d", "-R",
    "--group-directories-first", "--full-time", "--color=never", "--color=auto", "--sort=width",
    "--sort=extension", "--sort=version", "--format=commas", "--format=across", "--format=vertical",
    "--format=long", "--format=single-column", "--indicator-style=classify", "--indicator-style=slash",
    "--indicator-style=none", "--classify", "--classify=never", "--time-style=long-iso",
    "--time-style=full-iso", "--time-style=iso", "--time-style=+%Y/%j", "--time-style=posix-iso",
    "--time-style=locale", "--block-size=K", "--block-size=1K", "--block-size=M", "--block-size=KB",
    "--block-size=KiB", "--block-size=512", "--block-size=si", "--block-size=human-readable",
    "--quoting-style=shell", "--quoting-style=shell-always", "--quoting-style=shell-escape",
    "--quoting-style=shell-escape-always", "--quoting-style=c", "--quoting-style=escape",
    "--quoting-style=locale", "--quoting-style=clocale", "--quoting-style=literal", "--show-control-chars",
    "--quoting-style=c-maybe",
    "-T 4", "-T 0", "-T 1", "-w 0", "-w 1", "-w 20", "-w 40", "-w 100", "-w 7",
    "-I *.txt", "-I d*", "-I .*", "--ignore=[a-c]*", "--hide=*.c", "--hide=?", "-B", "-I \\.h*",
]


def _case(rng: random.Random) -> tuple:
    flags: list[str] = []
    for flag in rng.sample(NEW_FLAGS, rng.randint(1, 4)):
        flags.extend(flag.split(" "))
    tree = nested_tree(rng)
    top = sorted({k.split("/")[1] for k in tree if k.count("/") >= 1})
    operands = rng.sample(top + ["."], rng.randint(0, 2)) if rng.random() < 0.4 else []
    return (["ls"] + flags + ["--"] + operands, tree, b"", ids_normalizer(flags), "t")


@needs_gnu
@pytest.mark.parametrize("seed", range(12))
def test_generated_formats_and_options(seed: int) -> None:
    rng = random.Random(1000 + seed)
    fsup.check_all([_case(rng) for _ in range(25)])


HAND_FLAGS = [
    "-C", "-x", "-m", "-C -w 40", "-x -w 30", "-m -w 20", "-C -w 0", "-x -w 0", "-m -w 0", "-C -w 1", "-x -w 2",
    "-CF", "-p", "-F", "-lF", "--file-type", "-lp", "-Cp", "-s", "-sC", "-sx", "-sm", "-lsh", "-ls", "-k -s",
    "-ks -l", "--block-size=K -l", "--block-size=1K -l", "--block-size=M -ls", "--block-size=KB -l",
    "--block-size=KiB -l", "--block-size=MiB -s", "--block-size=2 -l", "--si -l", "--si -s", "-h -s", "-b", "-q",
    "-Q", "-N", "-bC", "-QC", "-qC", "-lb", "-lq", "-Q -F", "-b -F", "-b --file-type", "-mQ",
    "--quoting-style=shell", "--quoting-style=shell-always", "--quoting-style=shell-escape",
    "--quoting-style=shell-escape-always", "--quoting-style=c", "--quoting-style=escape",
    "--quoting-style=locale", "--quoting-style=clocale", "-C --quoting-style=shell-escape",
    "-l --quoting-style=shell-escape", "-x --quoting-style=shell", "-m --quoting-style=shell-escape",
    "-X", "-v", "-U -d . d1", "-lu", "-u", "-tu", "-lo", "-lg", "-ln", "-lG", "-o", "-g", "-n", "-G",
    "-og", "-on", "--group-directories-first", "--group-directories-first -r", "--group-directories-first -t",
    "--group-directories-first -C", "--time-style=long-iso -l", "--time-style=full-iso -l",
    "--time-style=iso -l", "--time-style=+%Y -l", "--time-style=+%b%n%H -l", "--full-time", "--full-time -o",
    "--color=never", "--color=auto -C", "--color=no -l", "--sort=width", "--sort=extension -r",
    "-lR --time-style=posix-long-iso", "-CR", "-xa", "-CA", "-Cb", "-lQ", "-T 4 -C", "-T 0 -C", "-T 3 -x",
    "-T 1 -C", "-ld --full-time . d1", "-C d1 .", "-m . d1", "-Cd d1 a b.txt",
    "--format=across", "--format=commas", "--format=vertical", "--format=verbose", "-l1", "-1l", "-l -C",
    "-C -l", "-lm", "-ml", "-x -1", "-R -m", "--indicator-style=file-type", "--classify=auto", "-f", "-fl",
    "-ls -f", "-I *.txt", "-I .* -a", "-I . -a", "-I .. -a", "-I * -d .", "--hide=d* -A", "--hide=d*",
    "-B -a", "-I [!a]*", "-I [^a]*", "-I \\.hd -a", "-I *.b.* -R", "--ignore=a --ignore=B",
    # -Z: '?' for each context (no SELinux)
    "-Z", "-lZ", "-1Z", "-sZ", "-ZC", "-Zx -w 30", "-Zm", "-Z --format=commas", "--context -l", "-Zlg", "-ZlG",
    "-Zn", "-Zo", "-Zls", "-Zl --full-time", "-ZR", "-Zd . d1", "-ZF", "-ZsC -w 40", "-lZh",
]


@needs_gnu
def test_hand_written_options() -> None:
    rng = random.Random(99)
    cases = []
    for line in HAND_FLAGS:
        flags = line.split(" ")
        for _ in range(3):
            tree = nested_tree(rng)
            tree["t/d1"] = (None, fsup.BASE_MTIME)
            tree["t/d1/inner"] = (b"i", fsup.BASE_MTIME)
            argv = ["ls"] + flags
            normalize = ids_normalizer(flags)
            if "-U" in flags or "-f" in flags or "-fl" in flags:
                continue  # directory order: compared as sets below
            cases.append((argv, tree, b"", normalize, "t"))
    fsup.check_all(cases)


@needs_gnu
@pytest.mark.parametrize("flags", [["-U"], ["-f"], ["-Ua"], ["-U", "-1", "-F"], ["-fA"], ["-lU"], ["-i"],
                                   ["-1iF", "d1"], ["-il"], ["-i", "-d", ".", "d1"], ["-is"],
                                   ["-iZ"], ["-ilZ"]])
def test_directory_order_and_inodes_as_sets(flags: list[str]) -> None:
    """-U/-f keep the host's directory order and -i its inode numbers: compare what remains."""
    inode = re.compile(rb"^ *\d+ ", re.M)
    for seed in range(5):
        tree = nested_tree(random.Random(seed))
        tree["t/d1"] = (None, fsup.BASE_MTIME)
        ref, ours = fsup.run_pair(["ls", *flags], tree, b"", ids_normalizer(flags), "t")
        ref_lines = sorted(inode.sub(b"", ref[1]).split(b"\n"))
        our_lines = sorted(inode.sub(b"", ours[1]).split(b"\n"))
        assert (ref[0], ref_lines, ref[2]) == (ours[0], our_lines, ours[2]), (flags, seed)


@needs_gnu
def test_option_errors() -> None:
    bad = ["--format=x", "--format=", "--sort=x", "--sort=t", "--time=x", "--indicator-style=x", "--quoting-style=x",
           "--quoting-style=shell-e", "-w", "-w x", "-w -1", "-T x", "--block-size=x", "--block-size=0",
           "--block-size=1X", "--time-style=x -l", "--time-style=l -l", "--time-style=x", "--classify=x",
           "--color=x", "--tabsize=", "--width=1e2", "--format=lo", "--sort=v", "--time-style=full -l",
           "--block-size=1KB -l", "--block-size=99999999999999999999999 -l", "--block-size=1k -s",
           "--block-size=K -s", "--block-size=2b -s", "--block-size=1KX -l", "--block-size=-1 -l",
           "-w 99999999999999999999999 -C", "--quoting-style=c-maybe", "--quoting-style=c-m -C", "--context=x",
           "--cont=x -l"]
    fsup.check_all([(["ls"] + line.split(" "), {"a": b"", "a b": b"", "c\"d": b""}, b"",
                     ids_normalizer(line.split(" "))) for line in bad])


def test_color_always_is_refused_in_one_line() -> None:
    code, out, err = run_command(["ls", "--color=always"])
    assert code == 2 and out == b"" and err.count(b"\n") == 1


def test_columns_from_the_environment() -> None:
    import subprocess
    import tempfile
    names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "a b", "x" * 25]
    files = {f"w/{name}": b"" for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            Path(tmp, name).write_bytes(b"")
        for columns in ("30", "1", "200", "0", "x", "-3"):
            for flags in (["-C"], ["-x"], ["-m"]):
                ref = subprocess.run(["ls", *flags], cwd=tmp, capture_output=True,
                                     env={**fsup.ENV, "COLUMNS": columns})
                ours = run_command(["ls", *flags, "w"], files=files, env={"COLUMNS": columns})
                assert ours == (ref.returncode, ref.stdout, ref.stderr), (columns, flags)
    code, out, err = run_command(["ls", "-C", "w"], files=files, env={"COLUMNS": "x"})
    assert err == "ls: ignoring invalid width in environment variable COLUMNS: \u2018x\u2019\n".encode()


def test_dotdot_of_a_mount_point_shows_the_mount() -> None:
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS
    fs = VirtualFS({"/m": MemoryFS({"a": b"x"})})
    code, out, _ = run_command(["ls", "-la", "--time-style=+%Y"], fs=fs, cwd="/m")
    assert code == 0 and b"1970" not in out
