"""``python -m tests.fuzz [--minutes M] [--seed S] [--limit SECONDS]``: a long fuzz campaign.

Prints the number of cases run and every distinct problem with a minimised reproducer; exits 1
when it found any."""

from __future__ import annotations

import argparse
import sys
import time

from tests.fuzz.campaign import Campaign


def main(argv: list[str] | None = None) -> int:
    """Run the campaign from the command line."""
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=None, help="default: the current time")
    ap.add_argument("--limit", type=float, default=1.0, help="each case's time limit (s)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"fuzz: seed {seed}, {args.minutes:g} minutes", flush=True)
    report = Campaign(seed, limit=args.limit).run(args.minutes * 60)
    print(report.summary())
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
