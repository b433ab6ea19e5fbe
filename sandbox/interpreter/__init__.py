"""The interpreter: runs a parsed, guarded script (``core.Shell``) with word expansion
(``expand``), shell patterns (``patterns``), bounded pipes and captures (``pipes``) and the
shell builtins (``builtins``)."""
