"""The ``bash`` tool: the jailed sandbox shell over the memory directory.

The memory store is mounted at ``/.memory`` (also the working directory); the policy allows
the memory allowlist, protects the append-only files (``conversations.jsonl``) and can be
read-only. The result is one string: stdout, then stderr, then ``[exit code N]`` when the
status is not zero, cut at ``max_output_chars`` with a marker saying how much was cut.

Memory rules hold here too: a script containing a secret is refused before it runs, and a run
that takes ``core.md`` over its budget is undone (the old core.md is written back) and reported.
Every run that changes core.md reports ``[core.md: N/B chars]`` in the tool's string result.
The separate-stream form (``run_parts``, for native shell tools and ``memtool sh``) keeps stderr
as bash prints it: it adds that line only when core.md is near its budget
(``NEAR_BUDGET``) or a change was undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sandbox.fs.base import FileSystem, FSError
from sandbox.limits import Limits
from sandbox.policy import DEFAULT_ALLOW, Policy

from memtool.core import CoreMemory
from memtool.errors import CoreBudgetExceeded
from memtool.layout import CORE
from memtool.secrets import SecretScanner

MOUNT = "/.memory"
GUARD_EXIT = 126
#: Share of the core budget from which the separate-stream form reports core.md's size.
NEAR_BUDGET = 0.9


@dataclass
class BashToolConfig:
    """Options of the bash tool."""

    allow: frozenset[str] = DEFAULT_ALLOW
    read_only: bool = False
    append_only: frozenset[str] = frozenset({"conversations.jsonl"})
    limits: Limits = field(default_factory=lambda: Limits(seconds=10.0))
    max_output_chars: int = 16_000


def sandbox_available() -> bool:
    """True if the sandbox's ``Sandbox`` class can be imported."""
    return _sandbox_class() is not None


def _sandbox_class() -> Any:
    try:
        from sandbox.api import Sandbox  # type: ignore[import-not-found]
    except ImportError:
        try:
            from sandbox import Sandbox  # type: ignore[attr-defined]
        except ImportError:
            return None
    return Sandbox


def format_result(stdout: bytes, stderr: bytes, exit_code: int, max_chars: int) -> str:
    """stdout, stderr, ``[exit code N]`` (if not 0), cut at ``max_chars`` with a marker."""
    out = stdout.decode("utf-8", "replace")
    err = stderr.decode("utf-8", "replace")
    text = out
    if err:
        if text and not text.endswith("\n"):
            text += "\n"
        text += err
    if exit_code != 0:
        if text and not text.endswith("\n"):
            text += "\n"
        text += f"[exit code {exit_code}]"
    if len(text) > max_chars:
        cut = len(text) - max_chars
        text = text[:max_chars] + f"\n[output cut: {cut} more characters not shown; narrow the command, e.g. with grep, head or tail]"
    return text if text else "(no output)"


class BashTool:
    """Runs scripts in the sandbox over one memory store."""

    def __init__(self, store: FileSystem, core: CoreMemory, scanner: SecretScanner,
                 config: BashToolConfig | None = None):
        self.store = store
        self.core = core
        self.scanner = scanner
        self.config = config or BashToolConfig()
        self._sandbox: Any = None

    def sandbox(self) -> Any:
        """The sandbox of this tool (made on first use and reused: it caches parsed scripts)."""
        if self._sandbox is None:
            sandbox_cls = _sandbox_class()
            if sandbox_cls is None:
                return None
            self._sandbox = sandbox_cls(mounts={MOUNT: self.store}, cwd=MOUNT, policy=self.policy(),
                                        limits=self.config.limits)
        return self._sandbox

    def policy(self) -> Policy:
        """The sandbox policy of this tool."""
        protected = frozenset(f"{MOUNT}/{name}" for name in self.config.append_only)
        return Policy(allow=frozenset(self.config.allow), read_only=self.config.read_only,
                      protected=protected)

    def allowed_list(self) -> str:
        """The allowed commands, sorted, comma-separated."""
        return ", ".join(sorted(self.config.allow))

    def _core_state(self) -> tuple[object, str | None]:
        try:
            version = self.store.stat(CORE).version
        except FSError:
            return None, None
        return version, self.core.text()

    def run_parts(self, command: str) -> tuple[str, str, int]:
        """Run one script with the same rules as ``run``; (stdout, stderr, exit status) apart,
        for native shell tools that report them separately (refusals: stderr and 126; a core
        budget undo, or the size line once core.md is near its budget: on stderr)."""
        if not isinstance(command, str) or not command.strip():
            return "", "Error: `command` is empty; give a shell command such as: cat /.memory/core.md\n", 2
        found = self.scanner.find(command)
        if found:
            return "", (f"Error: refused to run a command containing a secret ({found[0].kind}); "
                        f"memory must not hold secrets. Nothing was run.\n"), GUARD_EXIT
        try:
            sb = self.sandbox()
        except Exception as e:
            return "", f"Error: the bash tool could not start ({type(e).__name__}).\n", 1
        if sb is None:
            return "", "Error: the bash tool is not available in this installation (no sandbox).\n", 1
        before_version, before_text = self._core_state()
        try:
            result = sb.run(command)
        except Exception as e:  # the sandbox promises no exceptions; never let one reach the model
            return "", f"Error: the command could not run ({type(e).__name__}).\n", 1
        err = result.stderr.decode("utf-8", "replace")
        note = self._after_core_change(before_version, before_text, quiet=True).strip()
        if note:
            err += note + "\n"
        return result.stdout.decode("utf-8", "replace"), err, result.exit_code

    def run(self, command: str) -> str:
        """Run one script; always returns the model-facing string."""
        if not isinstance(command, str) or not command.strip():
            return "Error: `command` is empty; give a shell command such as: cat /.memory/core.md"
        found = self.scanner.find(command)
        if found:
            return (f"Error: refused to run a command containing a secret ({found[0].kind}); "
                    f"memory must not hold secrets. Nothing was run.")
        try:
            sb = self.sandbox()
        except Exception as e:
            return f"Error: the bash tool could not start ({type(e).__name__}); use the memory tool."
        if sb is None:
            return "Error: the bash tool is not available in this installation (no sandbox); use the memory tool."
        before_version, before_text = self._core_state()
        try:
            result = sb.run(command)
        except Exception as e:  # the sandbox promises no exceptions; never let one reach the model
            return f"Error: the command could not run ({type(e).__name__}); nothing else was done."
        text = format_result(result.stdout, result.stderr, result.exit_code, self.config.max_output_chars)
        if result.exit_code == GUARD_EXIT and b"(allowed:" not in result.stderr and b"command" in result.stderr:
            text += f"\nAllowed commands: {self.allowed_list()}. No other programs exist here."
        return text + self._after_core_change(before_version, before_text)

    def _after_core_change(self, before_version: object, before_text: str | None,
                           quiet: bool = False) -> str:
        """What to add after a run that may have changed core.md: "" when it did not, else the
        size line (with ``quiet``, only once core.md is near its budget), or the error and the
        size line when the change took it over budget and was undone."""
        try:
            after_version = self.store.stat(CORE).version
        except FSError:
            after_version = None
        if after_version == before_version and after_version is not None:
            return ""
        if after_version is None and before_version is None:
            return ""
        after_text = self.core.text()
        if after_version is not None and after_text != before_text:
            try:
                self.core.check_budget(after_text, before_text or "")
            except CoreBudgetExceeded as e:
                if before_text is not None:
                    with self.store.lock(CORE):
                        self.store.write_bytes(CORE, before_text.encode("utf-8"))
                return f"\nError: {e}. The change to core.md was undone.\n" + self.core.report(len(before_text or ""))
        if quiet and len(after_text) < NEAR_BUDGET * self.core.budget:
            return ""
        return "\n" + self.core.report(len(after_text))
