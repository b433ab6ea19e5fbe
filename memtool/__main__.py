"""``python -m memtool``: the memtool command line."""

import sys

from memtool.cli import main

sys.exit(main())
