"""A jailed, pure-Python bash sandbox: bashlex front end, AST guard, interpreter, virtual FS.

Nothing here knows about memory; ``memtool`` builds on it.
"""
