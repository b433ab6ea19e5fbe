"""Where memory files live: every store is a sandbox ``FileSystem`` with ``lock()``.

``local`` (a directory on disk, the default), ``memory`` (in-process, for tests) and
``postgres`` (shared by many processes and machines, optional extra).
"""

from memtool.stores.base import Store, SubStore, open_store

__all__ = ["Store", "SubStore", "open_store"]
