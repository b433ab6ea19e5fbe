"""``Memory``: one memory directory (or store and scope) with its core, log and two tools.

    from memtool import Memory
    mem = Memory(".memory")                       # or Memory(store=..., scope="user:42")
    system = mem.system_prompt("You are a helpful assistant.")
    mem.record("user", "I prefer metric units.")
    tools = mem.tools.openai_chat()               # or .anthropic(), .openai_responses()
    result = mem.call("memory", {"command": "view", "path": "/memories/core.md"})
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Mapping

from sandbox.fs.base import FileSystem
from sandbox.limits import Limits
from sandbox.policy import DEFAULT_ALLOW, DESTRUCTIVE

from memtool.conversations import Conversations
from memtool.approval import Approver
from memtool.history import History, Retention, VersionedStore, VersionLog, acting, open_log
from memtool.core import DEFAULT_BUDGET, CoreMemory
from memtool.recall.block import DEFAULT_RECALL_BUDGET

#: The embedder of ``Memory()``'s default ranking: BM25 fused with the word vectors shipped
#: with memtool (``memtool.recall.semantic.StaticEmbedder``; no model is loaded).
DEFAULT_EMBEDDER = "static"
from memtool.rotation import Rotation
from memtool.layout import bootstrap, ensure_gitignored
from memtool.scopes import scope_prefix, validate_scope
from memtool.secrets import SecretScanner
from memtool.stores.base import PathOrStore, SubStore, open_store
from memtool.stores.local import LocalStore
from memtool.tools import TOOL_NAMES, Toolset
from memtool.tools.bash_tool import BashTool, BashToolConfig
from memtool.tools.memory_tool import MemoryTool, MemoryToolConfig


class _NoScope:
    """The default of ``Memory(scope=...)``: one memory for the whole agent."""

    def __repr__(self) -> str:
        return "NO_SCOPE"


#: Pass (or omit) ``scope=NO_SCOPE`` for an unscoped memory. ``scope=None`` is refused, because
#: a missing user id must never silently select the shared memory.
NO_SCOPE: Any = _NoScope()


class Memory:
    """Durable memory for one agent, session or user.

    ``path_or_store``: a directory (default ``.memory``) or a store; ``store=`` says the same
    by keyword. ``scope``: a key such as ``"user:42"`` whose files live in their own
    sub-directory (refused: empty, ``None``, ``"undefined"``, ``"user:None"``...).
    ``core_budget``: characters allowed in core.md (default 4,000). ``tools``: which tools are
    offered. ``read_only``: both tools refuse writes. ``allow``: the bash tool's allowlist.
    ``secrets``: refuse/redact secrets (True, False, or a ``SecretScanner``).
    ``append_only``: files neither tool may change. ``fsync``: flush appends and writes to
    disk (local stores). ``gitignore``: add a local directory to its git work tree's
    ``.gitignore``. ``versions``: record every change to a file as a version (True: a log
    beside the files for local and in-memory stores; False; or a ``VersionLog``), kept by
    ``retention`` (``Retention(count=, age=)``); see ``history()``, ``restore()``, ``diff()``.
    ``approve``: ``callback(ApprovalRequest) -> True | False | "reason"``, asked before either
    tool changes a file (``memtool.approval``); reads never ask, a denied call changes nothing.
    ``recall_budget``: tokens of the recalled block ``system_prompt(query=...)`` adds.
    ``embedder``: what search and recall fuse BM25 with (cosine similarity of unit vectors):
    an ``Embedder`` (``memtool.recall.semantic``) or a spec for ``make_embedder``; the default
    ``"static"`` is the word vectors shipped with memtool (no model); None: BM25 alone.
    ``rotation``: ``Rotation(older_than=seconds, max_bytes=..., check_every=500)`` makes
    ``record()`` move old turns to ``archive/`` (see ``rotate()``).
    """

    def __init__(
        self,
        path_or_store: PathOrStore | None = None,
        *,
        store: FileSystem | None = None,
        scope: str | None = NO_SCOPE,
        core_budget: int = DEFAULT_BUDGET,
        tools: Iterable[str] = TOOL_NAMES,
        read_only: bool = False,
        allow: Iterable[str] | None = None,
        secrets: bool | SecretScanner = True,
        append_only: Iterable[str] = ("conversations.jsonl",),
        max_file_bytes: int = 1 << 20,
        max_depth: int = 6,
        bash_limits: Limits | None = None,
        bash_output_chars: int = 16_000,
        search_limit: int = 20,
        fsync: bool = False,
        gitignore: bool = True,
        versions: bool | VersionLog = True,
        retention: Retention | None = None,
        approve: Approver | None = None,
        recall_budget: int = DEFAULT_RECALL_BUDGET,
        rotation: "Rotation | None" = None,
        embedder: Any = DEFAULT_EMBEDDER,
    ):
        if path_or_store is not None and store is not None:
            raise TypeError("give either a path/store or store=, not both")
        target = store if store is not None else (path_or_store if path_or_store is not None else ".memory")
        if isinstance(target, (str, os.PathLike)):
            base: FileSystem = LocalStore(os.fspath(target), fsync=fsync)
            if gitignore:
                ensure_gitignored(os.fspath(target))
        else:
            base = open_store(target)
        self.base_store = base
        self.scope = None if scope is NO_SCOPE else validate_scope(scope)
        if self.scope is not None:
            sub = SubStore(base, scope_prefix(self.scope))
            if not base.read_only:
                sub.makedirs()
            self.store: FileSystem = sub
        else:
            self.store = base
        self.created = bootstrap(self.store)
        append_only = frozenset(append_only)
        self._append_only = append_only
        #: The version log (None when versions are off or the store has none).
        self.versions: VersionLog | None = open_log(base, versions, retention, fsync)
        #: What the tools write through: the store, recording versions when they are on.
        self.tool_store: FileSystem = self.store
        self._history: History | None = None
        if self.versions is not None:
            versioned = VersionedStore(self.store, self.versions,
                                       prefix=scope_prefix(self.scope) if self.scope is not None else "",
                                       excluded=append_only)
            self.tool_store = versioned
            self._history = History(self.versions, versioned)
        self.scanner = secrets if isinstance(secrets, SecretScanner) else SecretScanner(enabled=bool(secrets))
        self.core = CoreMemory(self.store, budget=core_budget)
        self.conversations = Conversations(self.store, self.scanner,
                                           append_only="conversations.jsonl" in append_only)
        self.memory_tool = MemoryTool(
            self.tool_store, self.core, self.scanner,
            MemoryToolConfig(read_only=read_only, append_only=append_only,
                             max_file_bytes=max_file_bytes, max_depth=max_depth,
                             search_limit=search_limit),
            ranker=self._ranker,
        )
        self.bash_tool = BashTool(
            self.tool_store, self.core, self.scanner,
            BashToolConfig(allow=frozenset(allow) if allow is not None else self.default_allow(),
                           read_only=read_only, append_only=append_only,
                           limits=bash_limits or Limits(seconds=10.0),
                           max_output_chars=bash_output_chars),
        )
        self.tools = Toolset(self.memory_tool, self.bash_tool, tuple(tools))
        #: The approval callback (None: every write goes ahead).
        self.approve: Approver | None = approve
        #: Tokens (chars / 4) of the recalled block ``system_prompt(query=...)`` may add.
        self.recall_budget = recall_budget
        #: Semantic recall's ``Embedder`` (``memtool.recall.semantic``; None: BM25 only).
        self.embedder = embedder
        #: When ``record()`` moves old turns to ``archive/`` (None: only ``rotate()`` does).
        self.rotation = rotation
        self._records_unchecked = rotation.check_every if rotation is not None else 0

    def __repr__(self) -> str:
        return f"Memory({self.base_store!r}, scope={self.scope!r})"

    # -- core -----------------------------------------------------------------------------

    def default_allow(self) -> frozenset[str]:
        """The bash tool's allowlist when none is given: every command that reads or writes no
        more than a redirection can, plus ``DESTRUCTIVE`` (``rm mv cp rmdir truncate find
        unlink gzip gunzip tar patch install``) when every change is versioned (so whatever
        they destroy can be restored)."""
        return DEFAULT_ALLOW | DESTRUCTIVE if self.versions is not None else DEFAULT_ALLOW

    def system_prompt(self, instructions: str = "", query: str | None = None,
                      recall_budget: int | None = None) -> str:
        """``instructions``, today's date and core.md (read now) in ``<memory name="core">``.

        With ``query`` (the user's message), a ``<memory name="recalled">`` block follows: the
        notes and past turns most relevant to it, dated, labelled as possibly out of date,
        within ``recall_budget`` tokens (default ``Memory(recall_budget=800)``). A recall that
        fails leaves the block out; it never fails the call. Nothing is recorded."""
        if query is None:
            return self.core.system_prompt(instructions)
        prompt = self.core.system_prompt(instructions)
        try:
            from memtool.recall import recall_block

            budget = self.recall_budget if recall_budget is None else recall_budget
            block = (recall_block(self.store, query, budget, index=self._ranker())
                     if isinstance(query, str) else "")
        except Exception:  # recall is a bonus: a broken store or file never breaks the prompt
            block = ""
        if not block:
            return prompt
        return prompt.rstrip("\n") + "\n\n" + block + "\n"

    def search(self, query: str, k: int = 10, paths: Iterable[str] | None = None) -> list:
        """The ``k`` most relevant units (note entries, paragraphs, conversation turns) of
        every memory file for ``query``, best first: ``Hit``s with ``file``, ``line``,
        ``date``, ``role``, ``snippet``, ``score`` (``memtool.recall``). ``paths``: files or
        directories relative to the memory (default: all of it, archives included)."""
        from memtool.recall import search

        index = self._ranker()
        if index is not None:
            return index.search(query, k=k, paths=paths).hits
        return search(self.store, query, k=k, paths=paths).hits

    def _ranker(self) -> Any:
        """What searches: the semantic index (BM25 fused with cosine) when an embedder is
        set, else the BM25 index; None where the files are scanned."""
        index = self.recall_index()
        if index is None or self.embedder is None:
            return index
        if isinstance(self.embedder, str):
            from memtool.recall.semantic import make_embedder

            self.embedder = make_embedder(self.embedder)
        semantic = getattr(self, "_semantic_index", None)
        if semantic is None or semantic.embedder is not self.embedder:
            if type(index).__name__ == "PgRecallIndex":
                from memtool.stores.postgres.vectors import PgSemanticIndex as Semantic
            else:
                from memtool.recall.semantic import SemanticIndex as Semantic
            semantic = self._semantic_index = Semantic(index, self.embedder)
        return semantic

    def recall_index(self) -> Any:
        """The recall index of this memory, made on first use: a
        ``memtool.recall.index.RecallIndex`` kept in this object and, for a local directory,
        saved in its hidden ``.memtool/recall/``; on PostgreSQL a
        ``memtool.stores.postgres.recall.PgRecallIndex``, kept and answered in the database.
        None on other stores, which are searched by reading the files."""
        index = getattr(self, "_recall_index", None)
        if index is None:
            from memtool.recall.index import RecallIndex
            from memtool.stores.memory import MemoryStore

            base = self.base_store
            trust = False
            if type(base).__name__ == "PostgresStore":
                # kept and answered in the database, shared by every process
                from memtool.stores.postgres.recall import PgRecallIndex

                prefix = scope_prefix(self.scope) if self.scope is not None else ""
                index = self._recall_index = PgRecallIndex(base, prefix=prefix)
                return index
            if isinstance(base, LocalStore):
                cache = None if base.read_only else os.path.join(base.path, ".memtool", "recall")
            elif (isinstance(base, MemoryStore) or type(base).__name__ == "PostgresStore"):
                # kept in this process; no inodes: the log (append-only for both tools) counts
                # as appended to when it grows with its indexed bytes unchanged
                cache, trust = None, "conversations.jsonl" in self._append_only
            else:
                return None
            index = self._recall_index = RecallIndex(self.store, cache, key=self.scope or "",
                                                     trust_appends=trust)
        return index

    def evaluate(self, fixture: Any) -> Any:
        """Recall figures (hit@1/3/5, MRR, recalled block tokens) on a fixture (a path, JSON
        text or dict; see ``memtool.eval``), loaded into a scratch in-memory store with this
        memory's recall settings; this memory is not touched."""
        from memtool.eval import evaluate

        return evaluate(fixture, recall_budget=self.recall_budget, embedder=self.embedder)

    def core_text(self) -> str:
        """The current content of core.md."""
        return self.core.text()

    # -- recall ---------------------------------------------------------------------------

    def record(self, role: str, content: Any, **extra: Any) -> dict[str, Any]:
        """Append one turn to conversations.jsonl (secrets redacted); return what was written.
        With ``Memory(rotation=Rotation(...))``, every ``check_every`` records the log's old
        turns move to ``archive/`` (a rotation that fails never fails the record)."""
        turn = self.conversations.record(role, content, **extra)
        if self.rotation is not None:
            self._records_unchecked += 1
            if self._records_unchecked >= self.rotation.check_every:
                self._records_unchecked = 0
                try:
                    self.rotate(self.rotation.older_than, self.rotation.max_bytes)
                except Exception:  # rotation is housekeeping: the turn is recorded
                    pass
        return turn

    def rotate(self, older_than: float | None = None, max_bytes: int | None = None) -> Any:
        """Move the oldest turns of conversations.jsonl (older than ``older_than`` seconds,
        then more while it is larger than ``max_bytes``) to
        ``archive/conversations-YYYY-MM.jsonl``; nothing is lost or duplicated and
        concurrent ``record()`` calls are not blocked (``memtool.rotation``). Returns a
        ``RotationResult`` (turns and bytes moved, archive files)."""
        from memtool.rotation import rotate

        return rotate(self.store, older_than=older_than, max_bytes=max_bytes)

    def recent(self, n: int = 20) -> list[dict[str, Any]]:
        """The last ``n`` turns, oldest first (read from the end of the file, then from the
        archive's newest files)."""
        return self.conversations.recent(n)

    # -- tools ----------------------------------------------------------------------------

    def call(self, name: str, arguments: Mapping[str, Any] | str | bytes | None, *,
             approved: bool = False) -> str:
        """Run tool ``name`` (``memory`` or ``bash``) with a dict or JSON string of arguments.
        ``approved=True``: a person already allowed this call (a framework's own approval
        step), so ``approve`` is not asked again."""
        self.notice_edits()
        with acting(str(name)[:20], _detail(name, arguments)):
            if self.approve is not None and not approved:
                return self._call_approved(name, arguments, self.tools.offered)
            if name == "bash" and "bash" in self.tools.offered:
                return self._bash_atomic(lambda: self._dry_run(name, arguments, self.tools.offered))
            return self.tools.call(name, arguments)

    def bash(self, command: str) -> str:
        """Run a shell command over the memory directory; the model-facing result string."""
        if "bash" in self.tools.offered:
            return self.call("bash", {"command": command})
        self.notice_edits()
        with acting("bash", command):
            if self.approve is not None:
                return self._call_approved("bash", {"command": command}, ("bash",))
            return self._bash_atomic(lambda: self._dry_run("bash", {"command": command}, ("bash",)))

    def shell(self, command: str) -> tuple[str, str, int]:
        """Run a shell command as the bash tool does, with stdout, stderr and the exit status
        apart (for native shell tools: Claude's ``bash_20250124``, OpenAI's ``shell``). With
        ``approve`` set, the call asks first; a denial is stderr with status 1."""
        self.notice_edits()
        with acting("bash", command if isinstance(command, str) else ""):
            if self.approve is not None:
                from memtool.approval import ApprovalConflict, apply, denial

                overlay, _result, request = self._dry_run("bash", {"command": command}, ("bash",))
                if request is not None:
                    try:
                        answer = self.approve(request)
                    except Exception as e:
                        answer = f"the approval check failed ({type(e).__name__})"
                    reason = denial(answer)
                    if reason is not None:
                        return "", f"Error: this change was not approved: {reason}. Nothing was changed.\n", 1
                    try:
                        apply(overlay, self.tool_store, request.changes)
                    except ApprovalConflict as e:
                        return "", f"Error: {e} changed while this call waited for approval; nothing was changed.\n", 1
                    # the dry run's own output is what the model sees
                    return _split_result(_result)
            return self._bash_atomic(lambda: self._dry_bash_parts(command),
                                     lambda message: ("", f"bash: {message}\n", 1))

    def _dry_run(self, name: str, arguments: Any, offered: tuple[str, ...]) -> tuple[Any, str, Any]:
        """(overlay, result, ApprovalRequest or None): the call run on an overlay that keeps
        its changes in memory; the request is None when it would change nothing."""
        from memtool.approval import ApprovalRequest, OverlayStore

        overlay = OverlayStore(self.tool_store)
        core = CoreMemory(overlay, budget=self.core.budget)
        dry = Toolset(MemoryTool(overlay, core, self.scanner, self.memory_tool.config),
                      BashTool(overlay, core, self.scanner, self.bash_tool.config), offered)
        result = dry.call(name, arguments)
        changes = overlay.changes()
        dirs = overlay.created_dirs() + overlay.removed_dirs()
        if not changes and not dirs:
            return overlay, result, None
        return overlay, result, ApprovalRequest(str(name), _arguments(arguments), _detail(name, arguments),
                                                changes, dirs)

    def _dry_bash_parts(self, command: str) -> tuple[Any, Any, Any]:
        """``_dry_run`` of a bash command, its result as (stdout, stderr, status)."""
        from memtool.approval import ApprovalRequest, OverlayStore

        overlay = OverlayStore(self.tool_store)
        tool = BashTool(overlay, CoreMemory(overlay, budget=self.core.budget), self.scanner, self.bash_tool.config)
        result = tool.run_parts(command)
        changes, dirs = overlay.changes(), overlay.created_dirs() + overlay.removed_dirs()
        if not changes and not dirs:
            return overlay, result, None
        return overlay, result, ApprovalRequest("bash", {"command": command}, str(command), changes, dirs)

    def _bash_atomic(self, dry_run: Callable[[], tuple[Any, Any, Any]],
                     failed: Callable[[str], Any] | None = None) -> Any:
        """A bash call whose writes are applied together under the files' locks, never over a
        change made meanwhile by someone else (then it runs again): ``approval.run_atomically``.
        A change that cannot be applied is ``failed(message)`` (default: the bash tool's text)."""
        if self.tool_store.read_only:
            return dry_run()[1]
        from memtool.approval import run_atomically

        return run_atomically(dry_run, self.tool_store,
                              failed or (lambda message: f"bash: {message}\n[exit code 1]"))

    def preview(self, name: str, arguments: Mapping[str, Any] | str | bytes | None) -> Any:
        """What the call would change, as an ``ApprovalRequest`` (None: it changes nothing),
        without changing anything; for a framework's own approval step."""
        if name not in self.tools.offered:
            return None
        return self._dry_run(name, arguments, self.tools.offered)[2]

    def _call_approved(self, name: str, arguments: Any, offered: tuple[str, ...]) -> str:
        """Run the call on an overlay; ask ``approve`` about its changes; apply them if allowed."""
        from memtool.approval import ApprovalConflict, apply, denial

        overlay, result, request = self._dry_run(name, arguments, offered)
        if request is None:
            return result  # a read (or a refused write): nothing to ask
        changes = request.changes
        try:
            answer = self.approve(request)  # type: ignore[misc]
        except Exception as e:  # a broken callback denies, never crashes the tool
            answer = f"the approval check failed ({type(e).__name__})"
        reason = denial(answer)
        if reason is not None:
            return f"Error: this change was not approved: {reason}. Nothing was changed."
        try:
            apply(overlay, self.tool_store, changes)
        except ApprovalConflict as e:
            return (f"Error: {e} changed while this call waited for approval; nothing was "
                    f"changed. Read it again and retry.")
        return result

    # -- history --------------------------------------------------------------------------

    @property
    def history_api(self) -> History:
        """The ``History`` of this memory; ``HistoryError`` when versions are off."""
        if self._history is None:
            from memtool.history import HistoryError

            raise HistoryError("this memory keeps no versions (versions=False, or a store without a version log)")
        return self._history

    def notice_edits(self) -> list:
        """Record changes made outside the tools (a person's edit) as versions, by content
        hash; done before every tool call. Returns the new versions."""
        if self._history is None or self.tool_store.read_only:
            return []
        try:
            return self._history.store.scan()
        except OSError as e:  # an unwritable history must not stop the tools (writes refuse)
            import logging

            logging.getLogger("memtool.history").warning("could not record outside edits: %s", e)
            return []

    def history(self, path: str | None = None, limit: int | None = None) -> list:
        """Versions of ``path`` (a file or directory; None: every file), newest first: each
        with ``id``, ``time``, ``actor``, ``detail``, ``path``, ``kind`` and ``summary``."""
        self.notice_edits()
        return self.history_api.entries(_rel_path(path), limit)

    def restore(self, path: str | None, version_id: int | str) -> list:
        """Put ``path`` (None: the whole memory) back as it was right after ``version_id``;
        itself recorded as new versions (returned), so it can be undone."""
        return self.history_api.restore(_rel_path(path), version_id)

    def diff(self, path: str, a: int | str | None = None, b: int | str | None = None) -> str:
        """Unified diff of ``path`` from version ``a`` (default: before its newest change) to
        ``b`` (default: now)."""
        self.notice_edits()
        return self.history_api.diff(_rel_path(path) or "", a, b)

    def content_at(self, path: str, version_id: int | str) -> bytes | None:
        """What ``path`` held right after ``version_id`` (None: it did not exist)."""
        return self.history_api.content_at(_rel_path(path) or "", version_id)


def _rel_path(path: str | None) -> str | None:
    """``/memories/x``, ``/.memory/x`` or ``x`` as a store path (None/root: None)."""
    if path is None:
        return None
    from memtool.tools.paths import PathRefused, resolve

    try:
        rel = resolve(path, max_depth=64).rel
    except PathRefused as e:
        from memtool.history import HistoryError

        raise HistoryError(f"{e.path}: {e.reason}") from None
    return rel or None


def _split_result(text: str) -> tuple[str, str, int]:
    """A bash tool result string split back into (output, "", status) (``[exit code N]``)."""
    import re

    m = re.search(r"\n?\[exit code (\d+)\]$", text.split("\n[core.md:")[0])
    code = int(m.group(1)) if m else 0
    out = text[:m.start()] + text[m.end():] if m else text
    if out == "(no output)":
        out = ""
    return out, "", code


def _arguments(arguments: Any) -> dict[str, Any]:
    """A tool call's arguments as a dict (JSON text parsed; anything else: empty)."""
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if isinstance(arguments, (str, bytes)):
        import json

        try:
            value = json.loads(arguments or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}
    return {}


def _detail(name: str, arguments: Any) -> str:
    """What a tool call was asked to do, for its versions: the command, or the arguments."""
    if isinstance(arguments, Mapping):
        if name == "bash" and isinstance(arguments.get("command"), str):
            return arguments["command"]
        try:
            import json

            return json.dumps(dict(arguments), ensure_ascii=False, default=str)[:2000]
        except (TypeError, ValueError):
            return repr(arguments)[:2000]
    if isinstance(arguments, bytes):
        return arguments.decode("utf-8", "replace")[:2000]
    return str(arguments)[:2000] if arguments is not None else ""
