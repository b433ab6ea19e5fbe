"""The ``memtool`` command line (argparse sub-commands; rich output).

Sub-commands register themselves in ``build_parser`` through ``add_<name>(subparsers)``
functions that set ``func`` (a callable taking the parsed ``argparse.Namespace`` and returning
an exit status); other modules extend the CLI the same way (``memtool.migrate.add_cli``).

Every command that works on a memory takes ``--path DIR`` (default ``$MEMTOOL_PATH`` or
``.memory``), ``--scope KEY`` and ``--plain``. Output is rich (colours, tables) on a terminal
and plain text when piped or with ``--plain``. Errors are one line on stderr, exit status 1
(2 for usage errors).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterator, Sequence

#: Exit status of a command that failed (usage errors exit 2, as argparse does).
EXIT_FAILURE = 1


class CliError(Exception):
    """A failure reported as ``memtool CMD: MESSAGE`` on stderr with exit status 1."""


# -- output -----------------------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with terminal control characters (escape sequences a stored line could use to
    rewrite the screen) shown as ``^[``-style notation; newlines and tabs are kept."""
    return _CONTROL.sub(lambda m: "^" + chr((ord(m.group()) + 64) % 128) if ord(m.group()) < 0x80
                        else f"\\x{ord(m.group()):02x}", text)


class Output:
    """Where a command prints: a rich console on a terminal, plain text otherwise.

    On a terminal, control characters in memory content are made visible (``visible``) so a
    stored escape sequence cannot act on the user's terminal; piped output is left exact.
    """

    def __init__(self, plain: bool | None = None, stream: Any = None):
        stream = stream if stream is not None else sys.stdout
        terminal = _isatty(stream)
        self.plain = bool(plain) or not terminal
        self.clean: Callable[[str], str] = visible if terminal else (lambda text: text)
        self.stream = stream
        self._console: Any = None

    @property
    def console(self) -> Any:
        """The rich console (only used when not plain)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False, soft_wrap=True)
        return self._console

    def line(self, text: str = "", style: str | None = None) -> None:
        """Print one line (styled when rich)."""
        text = self.clean(text)
        if self.plain:
            self.stream.write(text + "\n")
        else:
            from rich.text import Text

            self.console.print(Text(text, style=style or ""))
        self.flush()

    def heading(self, text: str) -> None:
        """A section heading: ``== text ==`` when plain, a bold rule when rich."""
        if self.plain:
            self.stream.write(f"== {text} ==\n")
        else:
            self.console.rule(f"[bold]{_escape(text)}[/bold]", align="left")

    def table(self, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Rows as a table (tab-separated when plain, one row a line)."""
        if self.plain:
            for row in rows:
                self.stream.write("\t".join(self.clean(str(c).replace("\n", " ")) for c in row) + "\n")
        else:
            from rich.table import Table

            table = Table(*columns, show_lines=False, highlight=False)
            for row in rows:
                table.add_row(*[_escape(self.clean(str(c))) for c in row])
            self.console.print(table)
        self.flush()

    def raw(self, text: str) -> None:
        """Text as given (no markup, no styling; control characters visible on a terminal)."""
        self.stream.write(self.clean(text))
        self.flush()

    def flush(self) -> None:
        """Flush the stream (watch and sh print while running)."""
        try:
            self.stream.flush()
        except (OSError, ValueError):
            pass


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _error(command: str, message: str) -> int:
    sys.stderr.write(f"memtool {command}: {message}\n")
    sys.stderr.flush()
    return EXIT_FAILURE


# -- shared options ---------------------------------------------------------------------------


def _common_options() -> argparse.ArgumentParser:
    """``--path``, ``--scope`` and ``--plain``, shared by every memory command."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--path", default=None, metavar="DIR",
                   help="memory directory (default: $MEMTOOL_PATH or .memory)")
    p.add_argument("--scope", default=None, metavar="KEY", help="scope key, e.g. user:42")
    p.add_argument("--plain", action="store_true", help="plain text output (default when piped)")
    return p


def memory_path(args: argparse.Namespace) -> str:
    """The memory directory named by ``--path`` (or ``$MEMTOOL_PATH``, or ``.memory``)."""
    return args.path or os.environ.get("MEMTOOL_PATH") or ".memory"


def open_memory(args: argparse.Namespace, *, must_exist: bool = True, inspect: bool = False,
                **options: Any) -> Any:
    """The ``Memory`` named by ``--path``/``--scope``; ``CliError`` when it cannot be opened.

    ``must_exist``: refuse a missing directory instead of creating it. ``inspect``: open the
    directory read-only, so nothing (not even a missing file) is created.
    """
    from memtool.errors import MemtoolError
    from memtool.memory import Memory
    from memtool.stores.local import LocalStore

    path = memory_path(args)
    if must_exist and not os.path.isdir(path):
        raise CliError(f"{path}: no memory directory here; create one with: memtool init {path}")
    kwargs: dict[str, Any] = dict(options)
    if getattr(args, "scope", None) is not None:
        kwargs["scope"] = args.scope
    try:
        if inspect:
            return Memory(LocalStore(path, read_only=True), **kwargs)
        kwargs.setdefault("gitignore", not must_exist)
        return Memory(path, **kwargs)
    except (MemtoolError, ValueError, TypeError) as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None


def _handled(name: str, fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Wrap a command so ``CliError`` and filesystem errors become one line and exit 1."""

    def run(args: argparse.Namespace) -> int:
        from sandbox.fs.base import FSError

        try:
            return fn(args)
        except CliError as e:
            return _error(name, str(e))
        except FSError as e:
            return _error(name, f"{e.path}: {e}" if getattr(e, "path", None) else str(e))
        except BrokenPipeError:
            try:
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
            except OSError:
                pass
            return EXIT_FAILURE

    run.__doc__ = fn.__doc__
    return run


def _add(subparsers: argparse._SubParsersAction, name: str, fn: Callable[[argparse.Namespace], int],
         **kwargs: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(name, parents=[_common_options()], **kwargs)
    p.set_defaults(func=_handled(name, fn))
    return p


# -- demo -------------------------------------------------------------------------------------


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


# -- init -------------------------------------------------------------------------------------


def add_init(subparsers: argparse._SubParsersAction) -> None:
    """``memtool init [PATH] [--scope KEY]``."""
    p = subparsers.add_parser("init", parents=[_common_options()],
                              help="create a memory directory from the templates")
    p.add_argument("dir", nargs="?", default=None, metavar="PATH",
                   help="memory directory (default: --path, $MEMTOOL_PATH or .memory)")
    try:
        from memtool.migrate import add_init_arguments

        add_init_arguments(p)
    except ImportError:
        pass
    p.set_defaults(func=_handled("init", cmd_init))


def cmd_init(args: argparse.Namespace) -> int:
    """Bootstrap a memory and say what was created."""
    if getattr(args, "dsn", None):
        from memtool.migrate import cmd_init_dsn

        return cmd_init_dsn(args)
    if args.dir is not None:
        args.path = args.dir
    path = memory_path(args)
    mem = open_memory(args, must_exist=False)
    out = Output(args.plain)
    created = ", ".join(mem.created) if mem.created else "nothing (all files exist)"
    where = path if mem.scope is None else f"{path} (scope {mem.scope})"
    out.line(f"{where}: created {created}", style="green" if mem.created else None)
    return 0


# -- show -------------------------------------------------------------------------------------

_NOTE_DATE = re.compile(r"^-\s*(\d{4}-\d{2}-\d{2})")


def split_notes(text: str) -> tuple[str, list[str]]:
    """(the header before the first entry, the ``- `` entries with their continuation lines)."""
    header: list[str] = []
    entries: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("- ") or line == "-":
            entries.append([line])
        elif entries and (line.startswith((" ", "\t")) or not line.strip()):
            entries[-1].append(line)
        elif entries:
            entries.append([line])
        else:
            header.append(line)
    return "\n".join(header).strip(), ["\n".join(e).rstrip() for e in entries if "\n".join(e).strip()]


def notes_recent_first(text: str) -> list[str]:
    """Entries of notes.md, most recent first (dated entries by date, then file order reversed)."""
    _, entries = split_notes(text)
    indexed = list(enumerate(entries))

    def key(item: tuple[int, str]) -> tuple[str, int]:
        m = _NOTE_DATE.match(item[1])
        return (m.group(1) if m else "", item[0])

    return [e for _, e in sorted(indexed, key=key, reverse=True)]


def _read_text(mem: Any, name: str) -> str:
    from sandbox.fs.base import FSError

    try:
        return mem.store.read_bytes(name).decode("utf-8", "replace")
    except FSError:
        return ""


def add_show(subparsers: argparse._SubParsersAction) -> None:
    """``memtool show [-n N] [--json]``."""
    p = _add(subparsers, "show", cmd_show, help="core memory, notes and the last turns",
             description="Show core memory with its size against the budget, the notes (most "
             "recent first) and the last turns of the conversation.")
    p.add_argument("-n", "--turns", type=int, default=10, metavar="N", help="turns to show (default 10)")
    p.add_argument("--notes", type=int, default=20, metavar="N", help="notes to show (default 20)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")


def cmd_show(args: argparse.Namespace) -> int:
    """Print core memory, notes and recent turns."""
    mem = open_memory(args, inspect=True)
    core = mem.core_text()
    budget = mem.core.budget
    notes = notes_recent_first(_read_text(mem, "notes.md"))
    turns, bad_lines = _recent(mem, max(args.turns, 0))
    if args.json:
        json.dump({"path": memory_path(args), "scope": mem.scope,
                   "core": {"text": core, "chars": len(core), "budget": budget},
                   "notes": notes[: max(args.notes, 0)], "turns": turns,
                   "skipped_lines": bad_lines}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    out = Output(args.plain)
    over = len(core) > budget
    out.heading(f"core.md ({len(core)}/{budget} chars{', OVER BUDGET' if over else ''})")
    out.raw(core if core.endswith("\n") or not core else core + "\n")
    shown = notes[: max(args.notes, 0)]
    more = f", {len(notes) - len(shown)} older not shown" if len(notes) > len(shown) else ""
    out.heading(f"notes.md ({len(notes)} notes, most recent first{more})")
    for note in shown:
        out.line(note)
    out.heading(f"conversations.jsonl (last {len(turns)} turns)")
    _print_turns(out, turns)
    if bad_lines:
        out.line(f"({bad_lines} malformed line(s) skipped; run: memtool doctor)", style="yellow")
    return 0


def _print_turns(out: Output, turns: list[dict[str, Any]]) -> None:
    colours = {"user": "cyan", "assistant": "green", "tool": "magenta", "system": "yellow"}
    for t in turns:
        role = str(t.get("role", "?"))
        content = t.get("content", "")
        if not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False)
        stamp = str(t.get("timestamp", ""))
        if out.plain:
            out.line(f"[{stamp}] {role}: {content}")
        else:
            from rich.text import Text

            text = Text()
            text.append(out.clean(f"[{stamp}] "), style="dim")
            text.append(out.clean(f"{role}: "), style=f"bold {colours.get(role, 'white')}")
            text.append(out.clean(content))
            out.console.print(text)
    out.flush()


# -- log --------------------------------------------------------------------------------------


def parse_since(value: str, now: datetime | None = None) -> datetime:
    """``--since``: an ISO date/time (UTC unless it says), ``today``, ``yesterday`` or ``3d``/``12h``/``30m``."""
    now = now or datetime.now(timezone.utc)
    v = value.strip().lower()
    if v == "today":
        return now.replace(hour=0, minute=0, second=0, microsecond=0)
    if v == "yesterday":
        return now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=1)
    m = re.fullmatch(r"(\d+)\s*([smhdw])", v)
    if m:
        unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}[m.group(2)]
        return now - timedelta(**{unit: int(m.group(1))})
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise CliError(f"--since: cannot read {value!r}; use YYYY-MM-DD, an ISO time, today, "
                       "yesterday or an age such as 3d, 12h, 30m") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _timestamp(turn: dict[str, Any]) -> datetime | None:
    ts = turn.get("timestamp")
    if not isinstance(ts, str):
        return None
    try:
        when = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def iter_turns(mem: Any) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """(line number, turn or None for a malformed line) for every non-blank line of the log."""
    from memtool.conversations import parse_turn
    from sandbox.fs.base import FSError

    try:
        f = mem.store.open_read("conversations.jsonl")
    except FSError as e:
        if e.errno == 2:
            return
        raise
    with f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            yield number, parse_turn(raw)


def _recent(mem: Any, n: int) -> tuple[list[dict[str, Any]], int]:
    """The last ``n`` turns (read from the end of the log) and how many bad lines were skipped."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        turns = mem.recent(n)
    return turns, len(caught)


def add_log(subparsers: argparse._SubParsersAction) -> None:
    """``memtool log [-n N] [--role R] [--since DATE] [--grep PAT]``."""
    p = _add(subparsers, "log", cmd_log, help="conversation history, readable",
             description="Print the conversation history (the last N turns that pass the filters).")
    p.add_argument("-n", type=int, default=20, metavar="N", help="last N matching turns (default 20; 0 = all)")
    p.add_argument("--role", action="append", metavar="R", help="only turns of role R (repeatable)")
    p.add_argument("--since", metavar="DATE", help="only turns at or after DATE (ISO, today, 3d, 12h)")
    p.add_argument("--grep", metavar="PAT", help="only turns whose content matches regex PAT")
    p.add_argument("-i", "--ignore-case", action="store_true", help="--grep ignores case")
    p.add_argument("--json", action="store_true", help="print the matching turns as JSON lines")


def _log_match(turn: dict[str, Any], roles: set[str], since: datetime | None,
               pattern: re.Pattern[str] | None) -> bool:
    """True if ``turn`` passes the ``--role``, ``--since`` and ``--grep`` filters."""
    if roles and turn.get("role") not in roles:
        return False
    if since is not None:
        when = _timestamp(turn)
        if when is None or when < since:
            return False
    if pattern is not None:
        content = turn.get("content", "")
        if not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False)
        if not pattern.search(content):
            return False
    return True


def cmd_log(args: argparse.Namespace) -> int:
    """Print the filtered history."""
    from collections import deque

    since = parse_since(args.since) if args.since else None
    pattern = None
    if args.grep is not None:
        try:
            pattern = re.compile(args.grep, re.IGNORECASE if args.ignore_case else 0)
        except re.error as e:
            raise CliError(f"--grep: invalid regular expression: {e}") from None
    mem = open_memory(args, inspect=True)
    roles = set(args.role or ())
    keep: deque[dict[str, Any]] = deque(maxlen=args.n if args.n > 0 else None)
    if args.n > 0 and not roles and since is None and pattern is None:
        turns, skipped = _recent(mem, args.n)  # read from the end: fast on a huge log
        keep.extend(turns)
    else:
        skipped = 0
        for _, turn in iter_turns(mem):
            if turn is None:
                skipped += 1
            elif _log_match(turn, roles, since, pattern):
                keep.append(turn)
    if args.json:
        for turn in keep:
            sys.stdout.write(json.dumps(turn, ensure_ascii=False) + "\n")
    else:
        _print_turns(Output(args.plain), list(keep))
    if skipped:
        sys.stderr.write(f"memtool log: skipped {skipped} malformed line(s); run: memtool doctor\n")
    return 0


# -- search -----------------------------------------------------------------------------------

_HIT = re.compile(r"^(.+?):(\d+):(.*)$")


def add_search(subparsers: argparse._SubParsersAction) -> None:
    """``memtool search TERMS...``."""
    p = _add(subparsers, "search", cmd_search, help="the memory tool's search, as a table",
             description="Run the structured tool's ranked search (BM25 over word stems, "
             "stop words ignored; each note entry, paragraph or turn shown as its best line).")
    p.add_argument("terms", nargs="+", metavar="TERM")
    p.add_argument("--in", dest="where", metavar="PATH", help="search only this file or directory")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="lines shown (default 20)")


def cmd_search(args: argparse.Namespace) -> int:
    """Print the search hits as a table; exit 1 when nothing matched."""
    mem = open_memory(args, inspect=True, search_limit=max(args.limit, 1))
    call: dict[str, Any] = {"command": "search", "query": " ".join(args.terms)}
    if args.where:
        call["path"] = args.where
    result = mem.memory_tool.run(_memory_args(call))
    hits: list[list[str]] = []
    trailer: list[str] = []
    for line in result.splitlines():
        m = _HIT.match(line)
        if m and not line.startswith(("Error", "... ")):
            hits.append([m.group(1), m.group(2), m.group(3)])
        else:
            trailer.append(line)
    if not hits:
        if result.startswith("Error"):
            raise CliError(result.removeprefix("Error: "))
        Output(args.plain).line(result)
        return EXIT_FAILURE
    out = Output(args.plain)
    out.table(["file", "line", "text"], hits)
    for line in trailer:
        out.line(line, style="dim")
    return 0


_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhdw]?)")
_DURATION_UNITS = {"": 86400, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_duration(text: str) -> float:
    """``90d``, ``12h``, ``2w``, ``30`` (days) as seconds; ``CliError`` otherwise."""
    m = _DURATION.fullmatch(text.strip())
    if not m:
        raise CliError(f"invalid age {text!r}: use a number with s, m, h, d or w (e.g. 90d)")
    return float(m.group(1)) * _DURATION_UNITS[m.group(2)]


def add_archive(subparsers: argparse._SubParsersAction) -> None:
    """``memtool archive [--older-than AGE] [--max-mb N]``."""
    p = _add(subparsers, "archive", cmd_archive,
             help="move old turns of conversations.jsonl to archive/conversations-YYYY-MM.jsonl",
             description="Rotate the conversation log: turns older than --older-than (default "
             "90d), then more while the log is larger than --max-mb, move to one archive file "
             "per month, in order. Nothing is lost or copied twice; agents recording at the "
             "same time are not blocked.")
    p.add_argument("--older-than", default="90d", metavar="AGE",
                   help="age of the turns moved: 90d, 12h, 2w, 3600s (default 90d)")
    p.add_argument("--max-mb", type=float, default=None, metavar="N",
                   help="also move the oldest turns while the log is larger than N MB")


def cmd_archive(args: argparse.Namespace) -> int:
    """Rotate and say what moved."""
    from memtool.rotation import RotationError

    mem = open_memory(args)
    max_bytes = int(args.max_mb * 1_000_000) if args.max_mb is not None else None
    if max_bytes is not None and max_bytes < 0:
        raise CliError("--max-mb must not be negative")
    try:
        result = mem.rotate(parse_duration(args.older_than), max_bytes)
    except RotationError as e:
        raise CliError(str(e)) from None
    out = Output(args.plain)
    if not result.turns:
        out.line("nothing to archive")
        return 0
    out.line(f"moved {result.turns} turns ({result.bytes} bytes) to {', '.join(result.files)}")
    return 0


def _memory_args(call: dict[str, Any]) -> Any:
    from memtool.tools.schemas import MemoryArgs

    return MemoryArgs.model_validate(call)


# -- tool -------------------------------------------------------------------------------------

def tool_failed(name: str, result: str) -> int:
    """Exit status for a tool result: the bash ``[exit code N]``, 1 for a memory-tool error."""
    if name == "bash":
        m = re.search(r"\[exit code (\d+)\]\s*$", result.split("\n[core.md:")[0])
        if m:
            return int(m.group(1)) or EXIT_FAILURE
        return EXIT_FAILURE if result.startswith("Error:") else 0
    first = result.split("\n", 1)[0]
    if first.startswith(("Error", "No replacement was performed")):
        return EXIT_FAILURE
    if first.startswith("The path ") and first.endswith("does not exist. Please provide a valid path."):
        return EXIT_FAILURE
    return 0


def add_tool(subparsers: argparse._SubParsersAction) -> None:
    """``memtool tool NAME JSON``."""
    p = _add(subparsers, "tool", cmd_tool, help="call a tool with JSON arguments, print its result",
             description="Call the memory or bash tool with JSON arguments (- reads them from "
             "stdin) and print exactly the string the model would get.")
    p.add_argument("name", choices=["memory", "bash"])
    p.add_argument("arguments", metavar="JSON", help="a JSON object, or - for stdin")
    p.add_argument("--read-only", action="store_true", help="as the model gets it in read-only mode")


def cmd_tool(args: argparse.Namespace) -> int:
    """Run one tool call; exit non-zero when the tool reports an error."""
    raw = args.arguments
    if raw == "-":
        try:
            raw = sys.stdin.read()
        except (OSError, ValueError, UnicodeDecodeError) as e:
            raise CliError(f"cannot read the arguments from standard input: {e}") from None
    mem = open_memory(args, read_only=args.read_only)
    result = mem.call(args.name, raw)
    sys.stdout.write(result if result.endswith("\n") else result + "\n")
    return tool_failed(args.name, result)


# -- sh ---------------------------------------------------------------------------------------


def add_sh(subparsers: argparse._SubParsersAction) -> None:
    """``memtool sh [-c CMD]``."""
    p = _add(subparsers, "sh", cmd_sh, help="the sandboxed shell over the memory, as the model gets it",
             description="Run the bash tool's sandbox over the memory directory (mounted at "
             "/.memory, the working directory) with the same allowlist, policy and limits as the "
             "model. Interactive with history when no -c is given.")
    p.add_argument("-c", dest="script", metavar="CMD", help="run CMD and exit with its status")
    p.add_argument("--read-only", action="store_true", help="refuse every write, as in read-only mode")


class MemoryShell:
    """Runs scripts exactly as the bash tool does, but prints raw stdout/stderr."""

    def __init__(self, mem: Any):
        self.mem = mem
        self.tool = mem.bash_tool
        self.sandbox = self.tool.sandbox()
        if self.sandbox is None:
            raise CliError("the sandbox is not available in this installation")

    def run(self, script: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
        """(exit status, stdout, stderr) of one script, with the tool's secret and budget rules."""
        found = self.mem.scanner.find(script)
        if found:
            return 126, b"", (f"memtool sh: refused: the command contains a secret ({found[0].kind}); "
                              f"memory must not hold secrets. Nothing was run.\n").encode()
        before = self.tool._core_state()
        result = self.sandbox.run(script, stdin)
        note = self.tool._after_core_change(*before, quiet=True).strip()
        err = result.stderr
        code = result.exit_code
        if note:
            err += (note + "\n").encode("utf-8")
            if note.startswith("Error:"):
                code = code or EXIT_FAILURE
        return code, result.stdout, err


def _stdin_bytes() -> bytes:
    """All of standard input when it is a pipe or file (b"" for a terminal or none)."""
    if sys.stdin is None or _isatty(sys.stdin):
        return b""
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return b""


def cmd_sh(args: argparse.Namespace) -> int:
    """Run one script (``-c``) or an interactive shell."""
    mem = open_memory(args, read_only=args.read_only)
    shell = MemoryShell(mem)
    if args.script is not None:
        data = _stdin_bytes()
        code, out, err = shell.run(args.script, data)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
        return code
    return _interactive(shell, args)


def history_file() -> str:
    """Where ``memtool sh`` keeps its history: ``$XDG_STATE_HOME/memtool/sh_history``
    (default ``~/.local/state``), never inside the memory the model can read."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "memtool", "sh_history")


def _load_history() -> Any:
    """Enable line editing and load the history; the readline module, or None."""
    try:
        import readline
    except ImportError:
        return None
    readline.set_history_length(1000)
    try:
        readline.read_history_file(history_file())
    except OSError:
        pass
    return readline


def _save_history(readline: Any) -> None:
    if readline is None:
        return
    path = history_file()
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        readline.write_history_file(path)
        os.chmod(path, 0o600)
    except OSError:
        pass


def _interactive(shell: MemoryShell, args: argparse.Namespace) -> int:
    tty = _isatty(sys.stdin)
    readline = _load_history() if tty else None
    try:
        return _repl(shell, args, tty)
    finally:
        _save_history(readline)


def _repl(shell: MemoryShell, args: argparse.Namespace, tty: bool) -> int:
    if tty:
        allowed = shell.tool.allowed_list()
        sys.stderr.write(f"memtool sh: {memory_path(args)} mounted at /.memory. "
                         f"Allowed: {allowed}. Ctrl-D or exit to leave.\n")
    status = 0
    while True:
        prompt = f"memtool:{shell.sandbox.cwd}$ " if hasattr(shell.sandbox, "cwd") else "memtool$ "
        try:
            if tty:
                line = input(prompt)
            else:
                sys.stderr.write(prompt)
                sys.stderr.flush()
                line = sys.stdin.readline()
                if not line:
                    raise EOFError
        except EOFError:
            if tty:
                sys.stderr.write("\n")
            return status
        except KeyboardInterrupt:
            sys.stderr.write("^C\n")
            status = 130
            continue
        script = line.strip()
        if not script:
            continue
        if script in ("exit", "logout", "quit") or script.startswith("exit "):
            word = script.split()[1:] or [str(status)]
            return int(word[0]) if word[0].isdigit() else status
        status, out, err = shell.run(script)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.flush()


# -- watch ------------------------------------------------------------------------------------


def add_watch(subparsers: argparse._SubParsersAction) -> None:
    """``memtool watch``."""
    p = _add(subparsers, "watch", cmd_watch, help="live view of every change to the memory",
             description="Print every change to the memory directory (by a model, another "
             "process or a person in an editor): the file and a coloured diff.")
    p.add_argument("--poll", action="store_true", help="poll instead of file events")
    p.add_argument("--interval", type=float, default=0.5, metavar="S", help="poll interval (default 0.5 s)")
    p.add_argument("--count", type=int, default=0, metavar="N", help="exit after N changes (default: run until Ctrl-C)")
    p.add_argument("--timeout", type=float, default=0, metavar="S", help="exit after S seconds (default: never)")


def cmd_watch(args: argparse.Namespace) -> int:
    """Watch until interrupted (or --count/--timeout)."""
    from memtool.watch import Watcher

    mem = open_memory(args, inspect=True)
    out = Output(args.plain)
    watcher = Watcher(mem.store, local_root=_local_root(mem), poll=args.poll, interval=args.interval)
    out.line(f"watching {memory_path(args)}{'' if mem.scope is None else f' (scope {mem.scope})'}"
             f" ({watcher.mode}); Ctrl-C to stop", style="dim")
    recorder = _version_recorder(mem)
    for change in watcher.changes(count=args.count, timeout=args.timeout):
        _print_change(out, change)
        if recorder is not None:
            recorder.scan()  # the change becomes a version (actor: person), by content hash
    return 0


def _version_recorder(mem: Any) -> Any:
    """A ``VersionedStore`` over a local memory whose ``scan()`` records what changed (the
    memory itself stays read-only for watch), or None for other stores."""
    from memtool.history import VersionedStore, local_log
    from memtool.stores.base import SubStore
    from memtool.stores.local import LocalStore

    base = mem.base_store
    if not isinstance(base, LocalStore):
        return None
    prefix = mem.store.prefix if isinstance(mem.store, SubStore) else ""
    return VersionedStore(mem.store, local_log(base.path), prefix=prefix)


def _local_root(mem: Any) -> str | None:
    """The host directory of a local memory (with its scope), or None for other stores."""
    from memtool.stores.base import SubStore
    from memtool.stores.local import LocalStore

    store = mem.store
    prefix = ""
    if isinstance(store, SubStore):
        prefix = store.prefix
        store = store.base
    root = getattr(store, "path", None) if isinstance(store, LocalStore) else None
    if not isinstance(root, str):
        return None
    return os.path.join(root, prefix) if prefix else root


def _print_change(out: Output, change: Any) -> None:
    stamp = datetime.now().strftime("%H:%M:%S")
    out.line(f"{stamp} {change.kind} {change.path}", style="bold")
    for line in change.diff:
        if out.plain:
            out.raw(line + "\n")
            continue
        style = None
        if line.startswith("+") and not line.startswith("+++"):
            style = "green"
        elif line.startswith("-") and not line.startswith("---"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        out.line(line, style=style)


# -- mcp --------------------------------------------------------------------------------------


def add_mcp(subparsers: argparse._SubParsersAction) -> None:
    """``memtool mcp``."""
    p = _add(subparsers, "mcp", cmd_mcp, help="serve the memory tools over MCP (stdio or HTTP)",
             description="Serve the memory and bash tools (and core memory as a resource) with the "
             "official MCP SDK, over stdio (default) or streamable HTTP.")
    p.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    p.add_argument("--host", default="127.0.0.1", help="HTTP host (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    p.add_argument("--read-only", action="store_true", help="both tools refuse every write")
    p.add_argument("--tools", default="memory,bash", metavar="LIST", help="tools offered (default memory,bash)")
    p.add_argument("--no-resource", action="store_true", help="do not offer core memory as a resource")
    p.add_argument("--approve", action="store_true",
                   help="ask the client's user (MCP elicitation) before any change to memory")


def cmd_mcp(args: argparse.Namespace) -> int:
    """Run the MCP server until the client disconnects."""
    tools = tuple(t for t in args.tools.split(",") if t)
    bad = [t for t in tools if t not in ("memory", "bash")]
    if bad or not tools:
        raise CliError(f"--tools: unknown tool(s) {', '.join(bad) or '(none)'}; choose from memory, bash")
    try:
        from memtool.adapters.mcp_server import build_server, serve
    except ImportError as e:
        raise CliError(f"{e}") from None
    mem = open_memory(args, must_exist=False, read_only=args.read_only, tools=tools)
    server = build_server(mem, resource=not args.no_resource, host=args.host, port=args.port,
                          elicit=args.approve)
    try:
        serve(server, transport=args.transport, host=args.host, port=args.port)
    except KeyboardInterrupt:
        return 0
    except Exception as e:  # one line, never a traceback (e.g. the port is taken)
        group = getattr(e, "exceptions", None)  # an ExceptionGroup from the server's task group
        inner = group[0] if group else e
        message = getattr(inner, "strerror", None) or str(inner) or type(inner).__name__
        raise CliError(f"the server stopped: {message}") from None
    return 0


# -- doctor -----------------------------------------------------------------------------------


def add_doctor(subparsers: argparse._SubParsersAction) -> None:
    """``memtool doctor``."""
    p = _add(subparsers, "doctor", cmd_doctor, help="check the memory directory and say what to fix",
             description="Check files present, conversations.jsonl line by line, core size, "
             "permissions and secrets in existing files; exit 1 when a problem is found.")
    p.add_argument("--json", action="store_true", help="the findings as JSON")


def cmd_doctor(args: argparse.Namespace) -> int:
    """Run the checks; exit 1 if any is an error (warnings alone exit 0)."""
    from memtool.doctor import diagnose

    path = memory_path(args)
    if not os.path.isdir(path):
        raise CliError(f"{path}: no memory directory here; create one with: memtool init {path}")
    mem = open_memory(args, inspect=True)
    findings = diagnose(mem, _local_root(mem))
    if args.json:
        json.dump([f.as_dict() for f in findings], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        out = Output(args.plain)
        styles = {"ok": "green", "warning": "yellow", "error": "bold red"}
        for f in findings:
            out.line(f"{f.level.upper():8} {f.message}", style=styles.get(f.level))
            if f.advice:
                out.line(f"         -> {f.advice}", style="dim")
    return EXIT_FAILURE if any(f.level == "error" for f in findings) else 0


# -- parser -----------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="memtool", description="Durable, plain-file memory for LLM agents.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_demo(subparsers)
    add_init(subparsers)
    add_show(subparsers)
    add_sh(subparsers)
    add_search(subparsers)
    add_log(subparsers)
    add_archive(subparsers)
    add_watch(subparsers)
    add_tool(subparsers)
    add_mcp(subparsers)
    add_doctor(subparsers)
    try:
        from memtool.migrate import add_cli as add_migrate
    except ImportError:
        pass
    else:
        add_migrate(subparsers)
    from memtool.history.cli import add_cli as add_history

    add_history(subparsers)
    from memtool.eval.cli import add_cli as add_eval

    add_eval(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memtool`` script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from memtool.history import acting

    try:
        # Changes made by a command (memtool sh, restore...) are versions by the cli.
        with acting("cli", "memtool " + " ".join(sys.argv[1:] if argv is None else argv)):
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
