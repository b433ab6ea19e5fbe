"""The ``memtool`` command line (argparse sub-commands; rich output).

Sub-commands register themselves in ``build_parser`` through ``add_<name>(subparsers)``
functions that set ``func`` (a callable taking the parsed ``argparse.Namespace`` and returning
an exit status); other modules extend the CLI the same way (``memtool.migrate.add_cli``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence


def add_demo(subparsers: argparse._SubParsersAction) -> None:
    """``memtool demo [--live]``."""
    p = subparsers.add_parser("demo", help="two scripted conversations showing memory carry over",
                              description="Run the two-conversation demo against a fresh copy of "
                              "the example memory (no network, no key). --live uses a real model.")
    p.add_argument("--live", action="store_true",
                   help="use an OpenAI-compatible model (MEMTOOL_MODEL, MEMTOOL_BASE_URL, OPENAI_API_KEY)")
    p.add_argument("--model", help="model name for --live (default: $MEMTOOL_MODEL)")
    p.add_argument("--base-url", help="API base URL for --live (default: $MEMTOOL_BASE_URL)")
    p.add_argument("--keep", metavar="DIR", help="work in DIR (kept afterwards) instead of a temp dir")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo."""
    from memtool.demo import run_demo

    factory = None
    if args.live:
        from memtool.agent import OpenAIModel

        def factory():
            return OpenAIModel(model=args.model, base_url=args.base_url)

        try:
            factory()
        except RuntimeError as e:
            print(f"memtool demo: {e}", file=sys.stderr)
            return 2
    return run_demo(live=args.live, keep=args.keep, model_factory=factory)


def add_init(subparsers: argparse._SubParsersAction) -> None:
    """``memtool init [PATH] [--scope KEY]``."""
    p = subparsers.add_parser("init", help="create a memory directory from the templates")
    p.add_argument("path", nargs="?", default=".memory", help="memory directory (default: .memory)")
    p.add_argument("--scope", help="scope key, e.g. user:42")
    try:
        from memtool.migrate import add_init_arguments

        add_init_arguments(p)
    except ImportError:
        pass
    p.set_defaults(func=cmd_init)


def cmd_init(args: argparse.Namespace) -> int:
    """Bootstrap a memory and say what was created."""
    if getattr(args, "dsn", None):
        from memtool.migrate import cmd_init_dsn

        return cmd_init_dsn(args)
    from memtool.errors import MemtoolError
    from memtool.memory import Memory

    try:
        mem = Memory(args.path, **({"scope": args.scope} if args.scope is not None else {}))
    except (MemtoolError, OSError) as e:
        print(f"memtool init: {e}", file=sys.stderr)
        return 1
    created = ", ".join(mem.created) if mem.created else "nothing (all files exist)"
    print(f"{args.path}: created {created}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="memtool", description="Durable, plain-file memory for LLM agents.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_demo(subparsers)
    add_init(subparsers)
    try:
        from memtool.migrate import add_cli as add_migrate
    except ImportError:
        pass
    else:
        add_migrate(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memtool`` script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
