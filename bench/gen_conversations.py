"""Generate a realistic, reproducible ``conversations.jsonl`` for the benchmarks.

    python bench/gen_conversations.py OUT [--mb 100] [--seed 1]

Each line is ``{"role": "user"|"assistant", "content": ..., "timestamp": ...}`` with
English-like content drawn from a fixed vocabulary (Zipf-weighted), so words such as
``budget``, ``pricing`` and ``project`` occur at realistic rates. About 330 bytes a line, so
100 MB is about 300,000 lines. The same seed always gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta, timezone

WORDS = (
    "the of and to a in is it you that he was for on are with as I his they be at one have this "
    "from or had by hot word but what some we can out other were all there when up use your how "
    "said an each she which do their time if will way about many then them write would like so "
    "these her long make thing see him two has look more day could go come did number sound no "
    "most people my over know water than call first who may down side been now find any new work "
    "part take get place made live where after back little only round man year came show every "
    "good me give our under name very through just form sentence great think say help low line "
    "differ turn cause much mean before move right boy old too same tell does set three want air "
    "well also play small end put home read hand port large spell add even land here must big "
    "high such follow act why ask men change went light kind off need house picture try us again "
    "animal point mother world near build self earth father project budget pricing meeting "
    "deadline report customer invoice schedule design review release feature bug deploy server "
    "database memory notes summary question answer prefer concise detailed coffee tea weekend "
    "travel Berlin London Tokyo Monday Friday quarter revenue estimate contract proposal draft"
).split()


def generate(out_path: str, megabytes: float, seed: int) -> int:
    """Write about ``megabytes`` MB of JSONL to ``out_path``; return the number of lines."""
    rng = random.Random(seed)
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(WORDS))]
    target = int(megabytes * 1_000_000)
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    written = 0
    lines = 0
    with open(out_path, "w", encoding="utf-8") as f:
        while written < target:
            n = max(3, int(rng.gauss(60, 25)))
            words = rng.choices(WORDS, weights, k=n)
            words[0] = words[0].capitalize()
            content = " ".join(words) + rng.choice([".", "?", "!", "."])
            t += timedelta(seconds=rng.randint(5, 600))
            role = "user" if lines % 2 == 0 else "assistant"
            line = json.dumps(
                {"role": role, "content": content, "timestamp": t.strftime("%Y-%m-%dT%H:%M:%SZ")}
            ) + "\n"
            f.write(line)
            written += len(line)
            lines += 1
    return lines


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(generate(a.out, a.mb, a.seed))


if __name__ == "__main__":
    main()
