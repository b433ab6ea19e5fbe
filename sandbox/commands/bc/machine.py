"""GNU bc 1.07.1's loader (load.c) and virtual machine (execute.c, storage.c), output included.

Code text from the parser is loaded byte for byte as GNU loads it, so
``Runtime error (func=F, adr=N)`` names GNU's addresses. The machine checks the time budget
every few thousand instructions, bounds the depth of function calls, and every number it makes
goes through ``number.check`` (``NumberLimit`` past the sandbox's digit and scale bounds).
The ``-l`` functions are ``Function`` entries with a ``native`` body (``libmath.py``): a call
binds their parameters as for any function, then computes the result in Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sandbox.commands.bc import number as bn
from sandbox.commands.bc.number import ONE, ZERO, Num

BC_BASE_MAX = 2147483647
BC_SCALE_MAX = 2147483647
BC_DIM_MAX = 16777215
#: Deepest nesting of bc function calls we run.
MAX_CALL_DEPTH = 2000
#: Most array elements alive at once (all arrays, all instances, copies for calls included).
MAX_ARRAY_CELLS = 4_000_000


class Halt(Exception):
    """``halt`` ran (or ``quit``): bc exits with status 0."""


class Refused(Exception):
    """The sandbox refuses to go on; ``str()`` is the one-line message."""


@dataclass
class Function:
    """One bc function: its code bytes, labels, parameters and autos (GNU's list order)."""

    name: str
    code: list[int] = field(default_factory=list)
    labels: dict[int, int] = field(default_factory=dict)
    defined: bool = False
    params: list[tuple[int, bool]] = field(default_factory=list)
    autos: list[int] = field(default_factory=list)
    #: ``Machine.decode``'s cache.
    decoded: list | None = None
    #: A math library function (``libmath``): called with the arguments and the caller's scale.
    native: Callable[[list[Num], int, Callable[[], None]], Num] | None = None


class BcArray:
    """An array instance: index -> number (missing means zero)."""

    __slots__ = ("values",)

    def __init__(self, values: dict[int, Num] | None = None):
        self.values = values if values is not None else {}


class Output:
    """stdout with bc's column count and ``\\``-newline wrapping (``out_char``/``out_schar``)."""

    def __init__(self, write: Callable[[bytes], object], line_size: int):
        self.write = write
        self.line_size = line_size
        self.col = 0
        self.parts: list[str] = []
        self.size = 0

    def emit(self, text: str, wrap: bool = True) -> None:
        """Write characters as ``out_char`` does (``wrap=False``: ``out_schar`` under -s)."""
        if not text:
            return
        if "\n" in text:
            pieces = text.split("\n")
            for i, piece in enumerate(pieces):
                if i:
                    self.put("\n")
                    self.col = 0
                self.emit(piece, wrap)
            return
        limit = self.line_size
        if not wrap:  # out_schar under -s: no column count
            self.put(text)
            return
        if limit == 0:
            self.put(text)
            self.col += len(text)
            return
        while text:
            room = limit - 2 - self.col
            if room < 0:
                room = 0
            if len(text) <= room:
                self.put(text)
                self.col += len(text)
                return
            self.put(text[:room] + "\\\n")
            text = text[room:]
            self.col = 0

    def put(self, s: str) -> None:
        """Buffer text as is (no column count: printf, readline)."""
        self.parts.append(s)
        self.size += len(s)
        if self.size > 65536:
            self.flush()

    def flush(self) -> None:
        """Write what is buffered."""
        if self.parts:
            data = "".join(self.parts).encode("latin-1")
            self.parts = []
            self.size = 0
            self.write(data)


def format_number(num: Num, base: int) -> str:
    """``bc_out_num``'s characters for ``num`` in ``base`` (wrapping is the caller's)."""
    if num.is_zero():
        return "0"
    if base == 10:
        return num.text()
    out = ["-"] if num.is_neg() else []
    a = abs(num.m)
    p = bn.pow10(num.scale)
    ip, frac = divmod(a, p)
    width = len(str(base - 1))
    if ip:
        ds: list[int] = []
        _to_base(ip, base, ds)
        if base <= 16:
            out.append("".join("0123456789ABCDEF"[d] for d in ds))
        else:
            out.append("".join(" " + str(d).rjust(width, "0") for d in ds))
    if num.scale > 0:
        out.append(".")
        t = 1
        first = True
        fs = num.scale
        limit = bn.pow10(fs)  # t_num->n_len <= scale  <=>  t < 10**scale
        fm = frac  # frac_part = fm / 10**fs, kept at scale fs (truncating products)
        while t < limit:
            prod = fm * base
            digit, fm = divmod(prod, p)
            if base <= 16:
                out.append("0123456789ABCDEF"[digit])
            else:
                out.append(("" if first else " ") + str(digit).rjust(width, "0"))
            first = False
            t *= base
    return "".join(out)


def _to_base(n: int, base: int, out: list[int]) -> None:
    """Digits of ``n`` in ``base``, most significant first (divide and conquer)."""
    if n < base ** 8 or n.bit_length() < 2000:
        ds = []
        while n:
            n, d = divmod(n, base)
            ds.append(d)
        out.extend(reversed(ds))
        return
    k = 1
    while base ** (2 * k) <= n:
        k *= 2
    high, low = divmod(n, base ** k)
    _to_base(high, base, out)
    tail: list[int] = []
    _to_base(low, base, tail)
    out.extend([0] * (k - len(tail)))
    out.extend(tail)


class GlibcRandom:
    """glibc's ``random()`` (TYPE_3, seed 1), for bc's ``random()``."""

    def __init__(self, seed: int = 1):
        r = [0] * 34
        r[0] = seed
        for i in range(1, 31):
            hi, lo = divmod(r[i - 1], 127773)
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r[i] = word
        for i in range(31, 34):
            r[i] = r[i - 31]
        self.r = r
        for _ in range(310):
            self._next()

    def _next(self) -> int:
        r = self.r
        v = (r[-31] + r[-3]) & 0xFFFFFFFF
        r.append(v)
        if len(r) > 64:
            del r[:-34]
        return v >> 1

    def next(self) -> int:
        """The next value."""
        return self._next()


class Machine:
    """Loaded functions, variables and the stacks of one bc run."""

    def __init__(self, out: Output, err: Callable[[str], None], f_names: list[str],
                 v_names: list[str], a_names: list[str], check_time: Callable[[], None],
                 std_only: bool = False):
        self.out = out
        self.err = err
        self.f_names = f_names
        self.v_names = v_names
        self.a_names = a_names
        self.check_time = check_time
        self.std_only = std_only
        #: -w: warn about non-standard settings.
        self.warn = False
        self.functions: dict[int, Function] = {0: Function("(main)")}
        self.variables: dict[int, list[Num]] = {}
        self.arrays: dict[int, list[BcArray]] = {}
        self.array_cells = 0
        self.i_base = 10
        self.o_base = 10
        self.scale = 0
        self.ex: list[Num] = []
        self.fn_stack: list[tuple[int, int, int]] = []
        self.runtime_error = False
        self.func = 0
        self.addr = 0
        self.random = GlibcRandom()
        # loader state
        self.load_func = 0
        self.load_str = False
        self.load_const = False
        self.save_func = 0
        self.read_input: Callable[[], Num | None] | None = None

    # -- loading (load.c) ------------------------------------------------------------------

    def function(self, n: int) -> Function:
        """Function ``n`` (created empty when first named)."""
        f = self.functions.get(n)
        if f is None:
            name = self.f_names[n] if n < len(self.f_names) else str(n)
            f = self.functions[n] = Function(name)
        return f

    def init_load(self) -> None:
        """``init_load``: empty the main program."""
        self.functions[0] = Function("(main)")
        self.load_func = 0
        self.load_str = False
        self.load_const = False

    def load_code(self, code: str) -> None:
        """``load_code``: append a piece of code text (``@i``/``@r`` commands included)."""
        i, n = 0, len(code)
        while i < n:
            f = self.function(self.load_func)
            c = code[i]
            if self.load_str:
                if c == '"':
                    self.load_str = False
                f.code.append(ord(c) & 0xFF)
                i += 1
                continue
            if self.load_const:
                if c == "\n":
                    i += 1
                elif c == ":":
                    self.load_const = False
                    f.code.append(ord(":"))
                    i += 1
                elif c == ".":
                    f.code.append(ord("."))
                    i += 1
                else:
                    f.code.append(ord(c) + 10 - ord("A") if c >= "A" else ord(c) - ord("0"))
                    i += 1
                continue
            if c == '"':
                self.load_str = True
            elif c == "N":
                i, label = _long_val(code, i + 1)
                f.labels[label] = len(f.code)
            elif c in "BJZ":
                f.code.append(ord(c))
                i, label = _long_val(code, i + 1)
                if label > 65535:
                    raise Refused("Program too big.")
                f.code.append(label & 0xFF)
                f.code.append(label >> 8)
            elif c == "F":
                i, fn = _long_val(code, i + 1)
                new = Function(self.f_names[fn] if fn < len(self.f_names) else str(fn))
                self.functions[fn] = new
                i += 1  # the ','
                params: list[tuple[int, bool]] = []
                while code[i] != ".":
                    if code[i] == ",":
                        i += 1
                        continue
                    ref = code[i] == "*"
                    if ref:
                        i += 1
                    i, name = _long_val(code, i)
                    params.insert(0, (name, ref))
                i += 1
                autos: list[int] = []
                while code[i] != "[":
                    if code[i] == ",":
                        i += 1
                        continue
                    i, name = _long_val(code, i)
                    autos.insert(0, name)
                new.params = params
                new.autos = autos
                self.save_func = self.load_func
                self.load_func = fn
            elif c == "]":
                f.defined = True
                self.load_func = self.save_func
            elif c == "C":
                f.code.append(ord("C"))
                i, fn = _long_val(code, i + 1)
                _add_name(f.code, fn)
                if code[i] == ",":
                    i += 1
                while code[i] != ":":
                    f.code.append(ord(code[i]))
                    i += 1
                f.code.append(ord(":"))
            elif c == "c":
                f.code.append(ord("c"))
                f.code.append(ord(code[i + 1]))
                i += 1
            elif c == "K":
                f.code.append(ord("K"))
                self.load_const = True
            elif c in "dilsAMLS":
                f.code.append(ord(c))
                i, name = _long_val(code, i + 1)
                _add_name(f.code, name)
            elif c == "@":
                i += 1
                if code[i] == "i":
                    self.init_load()
                elif code[i] == "r":
                    self.execute()
            elif c == "\n":
                pass
            else:
                f.code.append(ord(c) & 0xFF)
            i += 1

    # -- variables (storage.c) -------------------------------------------------------------

    def get_var(self, n: int) -> list[Num]:
        """The stack of simple variable ``n``."""
        st = self.variables.get(n)
        if st is None:
            st = self.variables[n] = [ZERO]
        return st

    def get_array(self, n: int) -> BcArray:
        """The current instance of array ``n``."""
        st = self.arrays.get(n)
        if st is None:
            st = self.arrays[n] = [BcArray()]
        return st[-1]

    def load_var(self, n: int) -> None:
        """``load_var``."""
        if n == 0:
            self.ex.append(bn.from_int(self.i_base))
        elif n == 1:
            self.ex.append(bn.from_int(self.o_base))
        elif n == 2:
            self.ex.append(bn.from_int(self.scale))
        elif n == 3:
            self.ex.append(bn.from_int(-1))
        else:
            self.ex.append(self.get_var(n)[-1])

    def store_var(self, n: int) -> None:
        """``store_var``: the top of the stack into variable ``n`` (it stays on the stack)."""
        value = self.ex[-1]
        if n > 3:
            self.get_var(n)[-1] = value
            return
        if n == 3:
            return
        toobig = False
        if value.is_neg():
            if n == 0:
                self.rt_warn("negative ibase, set to 2")
                temp = 2
            elif n == 1:
                self.rt_warn("negative obase, set to 2")
                temp = 2
            else:
                self.rt_warn("negative scale, set to 0")
                temp = 0
        else:
            temp = value.to_long()
            if not value.is_zero() and temp == 0:
                toobig = True
        if n == 0:
            if temp < 2 and not toobig:
                self.i_base = 2
                self.rt_warn("ibase too small, set to 2")
            elif temp > 36 or toobig or self.std_only and temp > 16:
                if self.std_only:
                    self.i_base = 16
                    self.rt_warn("ibase too large, set to 16")
                else:
                    self.i_base = 36
                    self.rt_warn("ibase too large, set to 36")
            else:
                if temp > 16 and self.warn:
                    self.rt_warn("ibase larger than 16 is non-standard")
                self.i_base = temp
        elif n == 1:
            if temp < 2 and not toobig:
                self.o_base = 2
                self.rt_warn("obase too small, set to 2")
            elif temp > BC_BASE_MAX or toobig:
                self.o_base = BC_BASE_MAX
                self.rt_warn(f"obase too large, set to {BC_BASE_MAX}")
            else:
                self.o_base = temp
        else:
            if temp > BC_SCALE_MAX or toobig:
                self.scale = BC_SCALE_MAX
                self.rt_warn(f"scale too large, set to {BC_SCALE_MAX}")
            else:
                self.scale = temp

    def incr_var(self, n: int, step: int) -> None:
        """``incr_var`` / ``decr_var``."""
        if n == 0:
            if step > 0:
                if self.i_base < 16:
                    self.i_base += 1
                else:
                    self.rt_warn("ibase too big in ++")
            elif self.i_base > 2:
                self.i_base -= 1
            else:
                self.rt_warn("ibase too small in --")
        elif n == 1:
            if step > 0:
                if self.o_base < BC_BASE_MAX:
                    self.o_base += 1
                else:
                    self.rt_warn("obase too big in ++")
            elif self.o_base > 2:
                self.o_base -= 1
            else:
                self.rt_warn("obase too small in --")
        elif n == 2:
            if step > 0:
                if self.scale < BC_SCALE_MAX:
                    self.scale += 1
                else:
                    self.rt_warn("Scale too big in ++")
            elif self.scale > 0:
                self.scale -= 1
            else:
                self.rt_warn("scale can not be negative in -- ")
        else:
            st = self.get_var(n)
            st[-1] = (bn.add if step > 0 else bn.sub)(st[-1], ONE, 0)

    def _index(self, num: Num, name: int) -> int | None:
        idx = num.to_long()
        if idx < 0 or idx > BC_DIM_MAX or (idx == 0 and not num.is_zero()):
            self.rt_error(f"Array {self.a_names[name]} subscript out of bounds.")
            return None
        return idx

    def load_array(self, n: int) -> None:
        """``load_array``: replace the index on top with the element."""
        idx = self._index(self.ex[-1], n)
        if idx is not None:
            self.ex[-1] = self.get_array(n).values.get(idx, ZERO)

    def store_array(self, n: int) -> None:
        """``store_array``: value on top, index under it; leaves the value."""
        idx = self._index(self.ex[-2], n)
        if idx is not None:
            value = self.ex.pop()
            values = self.get_array(n).values
            if idx not in values:
                self.add_cells(1)
            values[idx] = value
            self.ex[-1] = value

    def incr_array(self, n: int, step: int) -> None:
        """``incr_array`` / ``decr_array``: pops the index."""
        num = self.ex[-1]
        idx = num.to_long()
        if idx < 0 or idx > BC_DIM_MAX:
            self.rt_error(f"Array {self.a_names[n]} subscript out of bounds.")
            return
        arr = self.get_array(n)
        self.ex.pop()
        if idx not in arr.values:
            self.add_cells(1)
        arr.values[idx] = (bn.add if step > 0 else bn.sub)(arr.values.get(idx, ZERO), ONE, 0)

    def add_cells(self, count: int) -> None:
        """Account for array elements; refuse past ``MAX_ARRAY_CELLS``."""
        self.array_cells += count
        if self.array_cells > MAX_ARRAY_CELLS:
            raise Refused(f"bc: arrays would hold more than {MAX_ARRAY_CELLS} elements (refused)")

    def auto_var(self, n: int) -> None:
        """Push a fresh instance of a variable (n > 0) or array (n < 0)."""
        if n > 0:
            self.get_var(n).append(ZERO)
        else:
            self.get_array(-n)
            self.arrays[-n].append(BcArray())

    def pop_vars(self, names: list[int]) -> None:
        """Drop the instances ``auto_var`` pushed."""
        for n in names:
            if n > 0:
                st = self.variables.get(n)
                if st and len(st) > 1:
                    st.pop()
            else:
                st2 = self.arrays.get(-n)
                if st2 and len(st2) > 1:
                    gone = st2.pop()
                    if not any(gone is other for other in st2) and not self._shared(gone):
                        self.array_cells -= len(gone.values)

    # -- messages --------------------------------------------------------------------------

    def _shared(self, arr: BcArray) -> bool:
        """True when ``arr`` is still an instance of some array (passed by reference)."""
        return any(arr is inst for st in self.arrays.values() for inst in st)

    def rt_error(self, message: str) -> None:
        """``rt_error``: report and stop the current run."""
        self.out.flush()
        self.err(f"Runtime error (func={self.f_names[self.func]}, adr={self.addr}): {message}\n")
        self.runtime_error = True

    def rt_warn(self, message: str) -> None:
        """``rt_warn``."""
        self.out.flush()
        self.err(f"Runtime warning (func={self.f_names[self.func]}, adr={self.addr}): {message}\n")

    # -- the machine (execute.c) -----------------------------------------------------------

    def byte(self, code: list[int]) -> int:
        """The next code byte."""
        b = code[self.addr]
        self.addr += 1
        return b

    def _name(self, code: list[int]) -> int:
        n = self.byte(code)
        if n & 0x80:
            n = ((n << 8) & 0x7F00) + self.byte(code)
        return n

    def decode(self, f: Function) -> list[tuple[str, object, int] | None]:
        """The instructions of ``f`` by address: (opcode, operand, address after it)."""
        if f.decoded is not None:
            return f.decoded
        code = f.code
        n = len(code)
        out: list[tuple[str, object, int] | None] = [None] * (n + 1)
        a = 0
        while a < n:
            op = chr(code[a])
            i = a + 1
            arg: object = None
            if op in "lsidLSAM":
                arg = code[i]
                i += 1
                if arg & 0x80:  # type: ignore[operator]
                    arg = ((arg << 8) & 0x7F00) + code[i]  # type: ignore[operator]
                    i += 1
            elif op == "K":
                j = i
                while j < n and code[j] != 58:
                    j += 1
                arg = (code[i:j], {})
                i = j + 1
            elif op in "BZJ":
                label = code[i] + (code[i + 1] << 8)
                i += 2
                arg = f.labels.get(label, n)
            elif op == "c":
                arg = chr(code[i])
                i += 1
            elif op in "wO":
                j = i
                while j < n and code[j] != 34:
                    if op == "O" and code[j] == 92:
                        j += 1
                    j += 1
                arg = _string_text(code[i:j + 1], op == "O")
                i = j + 1
            elif op == "C":
                arg = i
                i = n  # a call reads its own operand bytes
            out[a] = (op, arg, i)
            if op == "C":
                # the bytes after a call are decoded from where the call ends
                j = a + 1
                fn = code[j]
                j += 1
                if fn & 0x80:
                    j += 1
                while j < n and code[j] != 58:
                    j += 1
                a = j + 1
                continue
            a = i
        f.decoded = out
        return out

    def execute(self) -> None:
        """Run function 0 (the current main program) from its start."""
        self.func = 0
        self.addr = 0
        self.runtime_error = False
        ex = self.ex
        steps = 0
        f = self.functions[0]
        dec = self.decode(f)
        ncode = len(f.code)
        addr = 0
        try:
            while True:
                if addr >= ncode:
                    if self.func == 0:
                        break
                    # a function's code always ends with 0R: not reached
                    break
                steps += 1
                if steps & 0xFF == 0:
                    self.check_time()
                ins = dec[addr]
                if ins is None:  # inside a call's operands: not reached by GNU's code
                    self.addr = addr
                    self.rt_error("bad instruction")
                    break
                op, arg, nxt = ins
                self.addr = addr = nxt
                if op in "+-*/%^":
                    b, a = ex[-1], ex[-2]
                    if op == "+":
                        r: Num | None = bn.add(a, b, 0)
                    elif op == "-":
                        r = bn.sub(a, b, 0)
                    elif op == "*":
                        r = bn.mul(a, b, self.scale)
                    elif op == "/":
                        r = bn.div(a, b, self.scale)
                        if r is None:
                            self.rt_error("Divide by zero")
                            break
                    elif op == "%":
                        if b.is_zero():
                            self.rt_error("Modulo by zero")
                            break
                        r = bn.mod(a, b, self.scale)
                    else:
                        r = self._raise(a, b)
                        if self.runtime_error:
                            break
                    ex.pop()
                    ex[-1] = r  # type: ignore[assignment]
                    if r.m.bit_length() > 50_000:  # type: ignore[union-attr]
                        self.check_time()
                elif op == "l":
                    n = arg
                    if n > 4:  # type: ignore[operator]
                        st = self.variables.get(n)  # type: ignore[arg-type]
                        ex.append(st[-1] if st else ZERO)
                    else:
                        self.load_var(n)  # type: ignore[arg-type]
                elif op == "s":
                    n = arg
                    if n > 4:  # type: ignore[operator]
                        st = self.variables.get(n)  # type: ignore[arg-type]
                        if st:
                            st[-1] = ex[-1]
                        else:
                            self.variables[n] = [ex[-1]]  # type: ignore[index]
                    else:
                        self.store_var(n)  # type: ignore[arg-type]
                elif op in "ZBJ":
                    if op == "J":
                        addr = arg  # type: ignore[assignment]
                    else:
                        zero = ex.pop().m == 0
                        if zero == (op == "Z"):
                            addr = arg  # type: ignore[assignment]
                elif op == "K":
                    base = self.i_base if self.func == 0 else self.fn_stack[-1][2]
                    digits_, cache = arg  # type: ignore[misc]
                    value = cache.get(base)
                    if value is None:
                        value = cache[base] = self._constant(digits_, base)
                    ex.append(value)
                elif op == "0":
                    ex.append(ZERO)
                elif op == "1":
                    ex.append(ONE)
                elif op == "p":
                    ex.pop()
                elif op in "=#<{>}":
                    c = bn.compare(ex[-2], ex[-1])
                    ex.pop()
                    ok = {"=": c == 0, "#": c != 0, "<": c < 0, "{": c <= 0, ">": c > 0, "}": c >= 0}[op]
                    ex[-1] = ONE if ok else ZERO
                elif op == "!" or op == "T":
                    ex[-1] = ONE if ex[-1].is_zero() else ZERO
                elif op == "n":
                    ex[-1] = bn.sub(ZERO, ex[-1], 0)
                elif op in "WP":
                    value = ex[-1]
                    self.out.emit(format_number(value, self.o_base))
                    if op == "W":
                        self.out.emit("\n")
                    self.get_var(4)[-1] = value
                    ex.pop()
                elif op == "D":
                    ex.append(ex[-1])
                elif op == "x":
                    ex[-1], ex[-2] = ex[-2], ex[-1]
                elif op == "L":
                    self.load_array(arg)  # type: ignore[arg-type]
                elif op == "S":
                    self.store_array(arg)  # type: ignore[arg-type]
                elif op in "AM":
                    self.incr_array(arg, 1 if op == "A" else -1)  # type: ignore[arg-type]
                elif op in "id":
                    self.incr_var(arg, 1 if op == "i" else -1)  # type: ignore[arg-type]
                elif op == "C":
                    self.addr = arg  # type: ignore[assignment]
                    self._call(self.functions[self.func].code)
                    f = self.functions[self.func]
                    dec = self.decode(f)
                    ncode = len(f.code)
                    addr = self.addr
                elif op == "R":
                    if self.func != 0:
                        callee = self.functions[self.func]
                        self.pop_vars(callee.autos)
                        self.pop_vars([n for n, _ in callee.params])
                        self.func, addr, _ = self.fn_stack.pop()
                        self.addr = addr
                        f = self.functions[self.func]
                        dec = self.decode(f)
                        ncode = len(f.code)
                    else:
                        self.rt_error("Return from main program.")
                elif op == "c":
                    self._special(arg)  # type: ignore[arg-type]
                elif op == "w":
                    self.out.emit(arg, not self.std_only)  # type: ignore[arg-type]
                elif op == "O":
                    self.out.emit(arg, not self.std_only)  # type: ignore[arg-type]
                elif op == "h":
                    raise Halt()
                elif op == "&":
                    b2 = ex.pop()
                    ex[-1] = ONE if (not ex[-1].is_zero() and not b2.is_zero()) else ZERO
                elif op == "|":
                    b2 = ex.pop()
                    ex[-1] = ONE if (not ex[-1].is_zero() or not b2.is_zero()) else ZERO
                else:
                    self.rt_error(f"bad instruction: inst={op}")
                if self.runtime_error:
                    break
        finally:
            while self.func != 0:
                callee = self.functions[self.func]
                self.pop_vars(callee.autos)
                self.pop_vars([n for n, _ in callee.params])
                self.func, self.addr, _ = self.fn_stack.pop()
            self.ex.clear()
            self.out.flush()

    def _raise(self, a: Num, b: Num) -> Num:
        """``^`` as execute.c runs bc_raise, then its check of 0 raised to a negative power."""
        if b.scale != 0:
            self.rt_warn("non-zero scale in exponent")
        e = b.to_long()
        r: Num | None = ZERO
        if e == 0 and b.int_part() != 0 or abs(e) > 2147483649:  # 1.07.1's bound, as measured
            self.rt_error("exponent too large in raise")
        elif not (a.is_zero() and e < 0):
            r = bn.power(a, e, self.scale)
        if a.is_zero() and b.is_neg():
            self.rt_error("divide by zero")
        return r if r is not None else ZERO

    def _constant(self, ds: list[int], base: int) -> Num:
        """A ``K`` constant's digits (values 0..35, 46 for ``.``) as a number in ``base``."""
        if base == 10:
            if len(ds) == 1 and ds[0] < 36:
                return bn.from_int(ds[0])
            if 46 in ds:
                k = ds.index(46)
                ip, fp = ds[:k], ds[k + 1:]
            else:
                ip, fp = ds, []
            text = "".join(str(min(d, 9)) for d in ip) + "".join(str(min(d, 9)) for d in fp)
            return bn.check(bn.parse_digits(text or "0"), len(fp))
        feed = iter(ds + [58])
        return self._convert(lambda: next(feed), base)

    @staticmethod
    def _convert(read: Callable[[], int], base: int) -> Num:
        """``push_constant``: digits read one by one, each clamped to ``base - 1``."""
        ch = read()
        neg = False
        if ch == ord("-"):
            neg = True
            ch = read()
        elif ch == ord("+"):
            ch = read()
        build = 0
        if ch < 36:
            first = ch
            ch = read()
            if ch < 36 and first >= base:
                first = base - 1
            build = first
        while ch < 36:
            if ch >= base:
                ch = base - 1
            build = build * base + ch
            ch = read()
        result = Num(build, 0)
        if ch == 46:
            ch = read()
            if ch >= base and ch < 36:
                ch = base - 1
            frac, divisor, nd = 0, 1, 0
            while ch < 36:
                frac = frac * base + ch
                divisor *= base
                nd += 1
                ch = read()
                if ch < 36 and ch >= base:
                    ch = base - 1
            if nd > bn.MAX_SCALE:
                raise bn.NumberLimit(f"a constant with {nd} fraction digits")
            q = bn.div(Num(frac, 0), Num(divisor, 0), nd)
            assert q is not None
            result = bn.add(result, q, 0)
        if neg:
            result = bn.sub(ZERO, result, 0)
        return result

    def _call(self, code: list[int]) -> None:
        fn = self._name(code)
        callee = self.functions.get(fn)
        if callee is None or not callee.defined:
            self.rt_error(f"Function {self.f_names[fn]} not defined.")
            return
        if len(self.fn_stack) >= MAX_CALL_DEPTH:
            raise Refused(f"bc: function calls nested more than {MAX_CALL_DEPTH} deep (refused)")
        params = list(callee.params)
        pi = 0
        while True:
            ch = chr(self.byte(code))
            if ch == ":":
                break
            if pi < len(params):
                name, ref = params[pi]
                if ch == "0" and name > 0:
                    self.get_var(name).append(self.ex[-1])
                elif ch == "1" and name < 0:
                    src_n = self.ex[-1].to_long()
                    src_stack = self.arrays.setdefault(src_n, [BcArray()])
                    src = src_stack[-1]
                    self.get_array(-name)
                    if ref:
                        self.arrays[-name].append(src)
                    else:
                        self.add_cells(len(src.values))
                        self.arrays[-name].append(BcArray(dict(src.values)))
                else:
                    if name < 0:
                        self.rt_error(f"Parameter type mismatch parameter {self.a_names[-name]}.")
                    else:
                        # GNU prints v_names[n], which holds the name of variable n + 1
                        shown = self.v_names[name + 1] if name + 1 < len(self.v_names) else "(null)"
                        self.rt_error(f"Parameter type mismatch, parameter {shown}.")
                self.ex.pop()
            else:
                self.rt_error("Parameter number mismatch")
                return
            pi += 1
        if pi < len(params) or self.runtime_error:
            self.rt_error("Parameter number mismatch")
            return
        if callee.native is not None:
            # bound like a user function's parameters (same messages), then run natively
            values = [self.get_var(name).pop() for name, _ in params]
            values.reverse()
            self.ex.append(callee.native(values, self.scale, self.check_time))
            return
        for a in callee.autos:
            self.auto_var(a)
        self.fn_stack.append((self.func, self.addr, self.i_base))
        self.func = fn
        self.addr = 0

    def _special(self, which: str) -> None:
        ex = self.ex
        if which == "L":
            v = ex[-1]
            if v.scale != 0 and abs(v.int_part()) == 0:
                ex[-1] = bn.from_int(v.scale)
            else:
                ex[-1] = bn.from_int(v.n_len() + v.scale)
        elif which == "S":
            ex[-1] = bn.from_int(ex[-1].scale)
        elif which == "R":
            r = bn.sqrt(ex[-1], self.scale)
            if r is None:
                self.rt_error("Square root of a negative number")
            else:
                ex[-1] = r
        elif which == "I":
            raise Refused("bc: read() is not supported in the sandbox (refused)")
        elif which == "X":
            ex.append(bn.from_int(self.random.next()))

_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "q": '"', "r": "\r", "t": "\t", "\\": "\\"}


def _string_text(raw: list[int], escapes: bool) -> str:
    """The characters a ``w`` (as is) or ``O`` (with bc's escapes) string writes."""
    chars = []
    i = 0
    while i < len(raw):
        ch = chr(raw[i])
        i += 1
        if ch == '"':
            break
        if ch != "\\" or not escapes:
            chars.append(ch)
            continue
        if i >= len(raw):
            break
        ch = chr(raw[i])
        i += 1
        if ch == '"':
            break
        chars.append(_ESCAPES.get(ch, ""))
    return "".join(chars)


def _long_val(code: str, i: int) -> tuple[int, int]:
    """``long_val``: an optionally negative decimal at ``code[i]``; returns (next index, value)."""
    neg = False
    if i < len(code) and code[i] == "-":
        neg = True
        i += 1
    v = 0
    while i < len(code) and code[i].isdigit():
        v = v * 10 + ord(code[i]) - 48
        i += 1
    return i, -v if neg else v


def _add_name(code: list[int], n: int) -> None:
    if n < 128:
        code.append(n)
    else:
        code.append(((n >> 8) & 0xFF) | 0x80)
        code.append(n & 0xFF)
