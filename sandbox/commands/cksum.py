"""``cksum``: checksum and count the bytes of files (GNU coreutils 9.1).

``-a/--algorithm`` ``crc`` (the POSIX CRC, default), ``sysv``, ``bsd``, ``md5``, ``sha1``,
``sha224``, ``sha256``, ``sha384``, ``sha512``, ``blake2b`` (``-l BITS``), ``sm3``; the digest
algorithms print BSD-tagged lines unless ``--untagged``, take ``-z`` and verify with ``-c`` and
its ``--quiet --status --strict -w --ignore-missing`` (see ``_digests``).

``-c`` without ``-a`` reads only tagged lines, each naming its algorithm (GNU's
``algorithm_from_tag``). ``--debug`` is accepted and prints nothing.
"""

from __future__ import annotations

import errno
import hashlib
import io

from sandbox.commands import _digests as dg
from sandbox.commands._sums import bsd_line, bsd_sum, crc_posix, sysv_line, sysv_sum
from sandbox.commands._quoting import quote, quotef
from sandbox.commands._textutil import ArgmatchError
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

ALGORITHMS = ["bsd", "sysv", "crc", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "sm3"]
LEGACY = {"bsd", "sysv", "crc"}

SPEC = OptionSpec(
    "a:bcl:twz",
    {
        "binary": (NO_ARG, "b"),
        "text": (NO_ARG, "t"),
        "algorithm": (REQUIRED, "a"),
        "check": (NO_ARG, "c"),
        "length": (REQUIRED, "l"),
        "tag": (NO_ARG, "tag"),
        "untagged": (NO_ARG, "untagged"),
        "zero": (NO_ARG, "z"),
        "ignore-missing": (NO_ARG, "ignore-missing"),
        "quiet": (NO_ARG, "quiet"),
        "status": (NO_ARG, "status"),
        "strict": (NO_ARG, "strict"),
        "warn": (NO_ARG, "w"),
        "debug": (NO_ARG, "debug"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -c, --check           read checksums from the FILEs and check them
  -l, --length=BITS     digest length in bits; must not exceed the max for
                          the blake2 algorithm and must be a multiple of 8
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines
      --help        display this help and exit
      --version     output version information and exit

DIGEST: sysv bsd crc md5 sha1 sha224 sha256 sha384 sha512 blake2b sm3
"""

_DIGEST_ALGOS = {
    "md5": dg.ALGOS["md5sum"], "sha1": dg.ALGOS["sha1sum"], "sha224": dg.ALGOS["sha224sum"],
    "sha256": dg.ALGOS["sha256sum"], "sha384": dg.ALGOS["sha384sum"], "sha512": dg.ALGOS["sha512sum"],
    "blake2b": dg.ALGOS["b2sum"], "sm3": dg.Algo("sm3", "SM3", 256, lambda: hashlib.new("sm3")),
}


def run(ctx: CommandContext) -> int:
    """Run ``cksum``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="cksum (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    algo, tag, check, zero, bits = "crc", True, False, False, 0
    flags: set[str] = set()
    try:
        for key, value in opts:
            if key in ("b", "t"):  # accepted by GNU's getopt, then refused with the bare Try line
                ctx.stderr.write(b"Try 'cksum --help' for more information.\n")
                return 1
            if key == "a":
                if value not in ALGORITHMS:  # GNU matches exactly: no abbreviations
                    lines = [f"invalid argument {quote(value or '')} for {quote('--algorithm')}", "Valid arguments are:"]
                    raise ArgmatchError("\n".join(lines + [f"  - {quote(a)}" for a in ALGORITHMS]))
                algo = value or ""
            elif key == "c":
                check = True
            elif key == "l":
                bits = dg._parse_length(ctx, value or "", dg.ALGOS["b2sum"])
            elif key == "tag":
                tag = True
            elif key == "untagged":
                tag = False
            elif key == "z":
                zero = True
            elif key in ("status", "w", "quiet"):
                flags -= {"status", "w", "quiet"}
                flags.add(key)
            elif key != "debug":
                flags.add(key)
    except ArgmatchError as e:
        return ctx.usage_error(str(e))
    except dg._Fatal as e:
        if str(e):
            ctx.error(str(e))
        return 1
    if bits and algo != "blake2b":
        ctx.error("--length is only supported with --algorithm=blake2b")
        return 1
    chosen = any(k == "a" for k, _ in opts)
    if check and algo in LEGACY and chosen:
        ctx.error("--check is not supported with --algorithm={bsd,sysv,crc}")
        return 1
    if zero and check:
        return ctx.usage_error("the --zero option is not supported when verifying checksums")
    message = dg.check_only_problem(flags, check)
    if message:
        return ctx.usage_error(message)
    operands = operands or ["-"]
    if algo in LEGACY and not check:
        return _legacy(ctx, algo, operands, zero, bool(parsed[1]))
    if check and not chosen:  # each tagged line names its algorithm
        d = dg._Digester(ctx, dg.Algo("cksum", "CRC", 32, hashlib.md5), 32)
        d.auto_tags = {name.upper() if name != "blake2b" else "BLAKE2b": a for name, a in _DIGEST_ALGOS.items()}
    else:
        d = dg._Digester(ctx, _DIGEST_ALGOS[algo], bits or _DIGEST_ALGOS[algo].bits)
    if not check:
        return dg._print_digests(d, operands, tag, False, zero)
    o = dg._CheckOptions(quiet="quiet" in flags, status="status" in flags, strict="strict" in flags,
                         warn="w" in flags, ignore_missing="ignore-missing" in flags)
    ok = True
    for operand in operands:
        ok = dg._check_file(d, operand, o, bool(bits)) and ok
    return 0 if ok else 1


def _legacy(ctx: CommandContext, algo: str, operands: list[str], zero: bool, named: bool) -> int:
    status = 0
    for name in operands:
        try:
            with ctx.open_read("/dev/stdin" if name == "-" else name) as stream:
                if algo == "crc":
                    crc, total = crc_posix(ctx, stream)
                    text = f"{crc} {total}"
                elif algo == "bsd":
                    text = bsd_line(*bsd_sum(ctx, stream))
                else:
                    text = sysv_line(*sysv_sum(ctx, stream))
        except FSError as e:
            if e.errno == errno.EISDIR and algo == "crc":  # GNU opens it; the failed read is
                crc, total = crc_posix(ctx, io.BytesIO())  # its end: the CRC of nothing
                text = f"{crc} {total}"
            else:
                ctx.error(f"{quotef(name)}: {e}")
                status = 1
                continue
        if named:
            text += " " + name
        ctx.stdout.write(text.encode("utf-8", "surrogateescape") + (b"\0" if zero else b"\n"))
    return status
