"""look: differential tests against util-linux 2.38.1's look (bytes, exit status, stderr)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

WORDS = ["apple", "Apple", "applet", "apply", "banana", "band", "Band", "bandana", "can't", "cant",
         "co-op", "coop", "dog", "Dog", "dogma", "e", "eel", "émile", "zebra", "Zulu", "a b", "a\tb",
         "ab", "abc", "abd", "", "x", "xy", "xyz", "memory", "mem", "MEM", "note", "notes", "1st",
         "10", "2nd", "a\x00c", "über", "-dash", "_under"]


def gen_file(rng: random.Random) -> bytes:
    """A random word list, usually sorted the way look expects (plain, folded or dictionary
    order), sometimes not sorted at all; sometimes without a final newline."""
    words = [rng.choice(WORDS) + (rng.choice(WORDS) if rng.random() < 0.3 else "")
             for _ in range(rng.randint(1, 60))]
    kind = rng.random()
    if kind < 0.4:
        words.sort(key=lambda w: w.encode())
    elif kind < 0.7:
        words.sort(key=lambda w: w.encode().lower())
    elif kind < 0.9:
        words.sort(key=lambda w: bytes(b for b in w.encode().lower() if chr(b).isalnum() and b < 128 or b in (9, 32)))
    else:
        rng.shuffle(words)
    data = "\n".join(words).encode()
    if rng.random() < 0.85:
        data += b"\n"
    return data


def make_case(rng: random.Random) -> tuple[list[str], dict[str, bytes], dict[str, str] | None]:
    """One generated look command over a generated file."""
    data = gen_file(rng)
    words = data.split(b"\n")
    prefix = rng.choice(words).decode("utf-8", "replace")
    prefix = prefix[: rng.randint(0, len(prefix))] if rng.random() < 0.7 else rng.choice(WORDS)
    if rng.random() < 0.2:
        prefix = prefix.swapcase()
    prefix = prefix.replace("\x00", "")
    argv = ["look"]
    for flag in ("-d", "-f"):
        if rng.random() < 0.35:
            argv.append(flag)
    if rng.random() < 0.15:
        argv += ["-t", rng.choice(["a", "p", "-", " ", "n"])]
    argv += [prefix, "words"]
    if rng.random() < 0.1:
        return ["look", prefix], {"words": data}, {"WORDLIST": "words"}
    return argv, {"words": data}, None


@pytest.mark.parametrize("seed", range(4))
def test_generated(seed: int) -> None:
    """200 generated sorted (and some unsorted) files, 50 per seed."""
    rng = random.Random(seed)
    for _ in range(50):
        argv, files, env = make_case(rng)
        tcs.compare(argv, files=files, env=env)


FILES = {"w": b"apple\nApple\nbanana\nband\nBand\nco-op\ncoop\n", "e": b"",
         "nonl": b"aa\nab\nac", "z": b"a\x00b\nab\n"}

LINES = ["b w", "B w", "-f B w", "-d coop w", "-d co-op w", "-df CO-OP w", "'' w", "a e", "a nope",
         "a", "-a a", "-z", "--bogus", "", "a b c", "-t", "-t a apple w", "-t p apple w",
         "--terminate=n banana w", "a nonl", "ac nonl", "ab z", "a z", "-h", "--help", "-V",
         "--version", "-- -x w", "--alph coop w", "--ignore-case APPLE w", "a d"]


@pytest.mark.parametrize("args", LINES, ids=repr)
def test_lines(args: str) -> None:
    import shlex
    tcs.compare(["look", *shlex.split(args)], files=FILES, dirs=["d"])
