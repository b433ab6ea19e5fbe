"""Build hook for the optional C accelerator (``sandbox._native._linescan``).

Everything else about the package is in pyproject.toml. The extension is optional: without a
working compiler the install still succeeds and grep uses its pure-Python paths.
"""

import sys

from setuptools import Extension, setup

_ARGS = [] if sys.platform == "win32" else ["-O3", "-std=c99"]

setup(ext_modules=[Extension("sandbox._native._linescan", ["sandbox/_native/_linescan.c"],
                             extra_compile_args=_ARGS, optional=True)])
