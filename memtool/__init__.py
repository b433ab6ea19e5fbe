"""memtool: durable, plain-file memory for LLM agents.

``Memory`` bootstraps a ``.memory/`` directory (or a store and scope), renders core memory into
the system prompt before every model call, records conversation turns, and offers two tools:
``memory`` (structured, Anthropic ``memory_20250818`` compatible) and ``bash`` (a jailed shell).
"""

from memtool.errors import CoreBudgetExceeded, MemtoolError, ScopeError, SecretRefused
from memtool.memory import NO_SCOPE, Memory
from memtool.secrets import SecretScanner
from memtool.stores.base import Store, SubStore
from memtool.stores.local import LocalStore
from memtool.stores.memory import MemoryStore

__all__ = [
    "Memory", "NO_SCOPE", "MemtoolError", "ScopeError", "SecretRefused", "CoreBudgetExceeded",
    "SecretScanner", "Store", "SubStore", "LocalStore", "MemoryStore",
]
__version__ = "0.1.0"
