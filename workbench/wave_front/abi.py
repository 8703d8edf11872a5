"""Wave's kernel ABI: which bytes a Wave kernel's code object takes, from the Python call.

A Wave kernel is called with its parameters in the order the ``@tkw.wave`` function declares
them: ``Memory[...]`` buffers (torch tensors or numpy arrays here) and scalars. The code object
IREE builds takes them in another order, the one Wave's own runtime launches it with
(``wave_lang/kernel/wave/runtime/runtime.cpp``, ``launch``; the dispatch function's
``KernelSignature.linear_bindings`` in ``wave_lang/kernel/compiler/kernel_codegen.py``):

1. the buffers Wave found are only read (usage INPUT), in declaration order, as 64-bit pointers;
2. the buffers it writes (OUTPUT), in declaration order;
3. the scalars, in declaration order, 32 bits each (an int as a 32-bit integer, a float as a
   float32);
4. each dynamic symbol (``WaveCompileOptions.dynamic_symbols``) as two 32-bit words, low then
   high: IREE passes an ``index`` as an i64 split in two (runtime.cpp's comment).

A dynamic symbol's value is read from the shape of the first buffer that has it as a dimension
(``LaunchableWave.symbols_args_map``, ``wave_lang/kernel/wave/wave.py``), and the grid is Wave's
``kernel_launch_info.grid`` evaluated with the symbols bound to scalar arguments and then the
dynamic symbols, as ``invoke_with_wave_runtime`` does (``wave_lang/kernel/wave/utils/
run_utils.py``). Every other dimension is fixed by the hyperparameters at compile time (for a
``Memory`` with a physical layout, by the layout), so an array of another shape is refused
before the launch, naming the parameter; only where Wave's launchers, which check nothing, are
relied on by Wave's own templates and tests is there more latitude (``Abi._buffer``: a
read-only buffer may be strided or longer in its first dimension; integer ``Memory`` takes any
elements of its width as raw bits).
"""

from __future__ import annotations

import inspect
import math
import typing
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..codeobject import KernelArg
from ..errors import ArgumentTypeError, HipwbError, LaunchError
from ..runtime.args import array_dtype, contiguous, is_array

# Element type of a buffer -> the C type hipwb's launch checks arrays against (runtime/
# ctypes_map.py); fp8 tensors go to 8-bit pointers (runtime/args.py), packed sub-byte types to
# void (no element check: the shape check below still applies).
_POINTEE = {
    "float16": "_Float16", "bfloat16": "__bf16", "float32": "float", "float64": "double",
    "int8": "signed char", "uint8": "unsigned char", "int16": "short", "int32": "int",
    "int64": "long", "bool": "bool",
}


class WaveAbiError(HipwbError, RuntimeError):
    """The code object Wave built does not take the arguments Wave's runtime would pass it."""


@dataclass(frozen=True)
class Param:
    """One parameter of the ``@tkw.wave`` function: a ``Memory`` buffer or a scalar."""

    name: str
    index: int  # position in the Python signature
    kind: str  # "buffer" or "scalar"
    wave_type: str  # as Wave prints it: "Memory[M, K].of(f16)", "i32"
    dtype: str  # buffer element / scalar type as numpy names it: "float16", "int32"
    shape: tuple[Any, ...] = ()  # buffer: the symbolic shape (sympy expressions)
    symbol: str | None = None  # scalar bound to an index symbol (SymbolBind): its name
    # buffer with a physical layout (tkl.MemoryLayout): the array's shape, None where it is
    # the symbolic shape's dimension at that position (dispatch_codegen.get_dynamic_dims)
    layout: tuple[Any, ...] | None = None

    @property
    def dims(self) -> str:
        """The symbolic shape as written: ``(M, K)``."""
        return "(" + ", ".join(str(d) for d in self.shape) + ")"


def params(kernel: Any) -> tuple[Param, ...]:
    """The parameters of a ``@tkw.wave`` function, read as Wave reads them (the type hints of
    its Python function: ``LaunchableWave.__init__``, wave_lang/kernel/wave/wave.py)."""
    from wave_lang.kernel.lang.wave_types import Memory, SymbolBind
    from wave_lang.kernel.wave.utils.general_utils import wave_dtype_to_torch

    fn = kernel._f
    hints = typing.get_type_hints(fn)
    out = []
    for i, name in enumerate(inspect.signature(fn).parameters):
        hint = hints.get(name)
        if inspect.isclass(hint) and issubclass(hint, Memory):
            shape = tuple(hint.symbolic_shape)
            layout = getattr(hint, "physical_layout", None)
            if layout is not None:
                # Wave sizes the memref by the layout, its unknown (None) dimensions from the
                # symbolic dimensions at the same positions (codegen/emitter.py, the buffer's
                # reinterpret_cast), so both have one rank
                layout = tuple(layout.shape)
                if len(layout) != len(shape):
                    raise ArgumentTypeError(
                        f"wb.wave: {kernel._name} parameter {name} has a physical layout of "
                        f"rank {len(layout)} ({hint}) for a shape of rank {len(shape)}; hipwb "
                        f"launches layouts of the shape's rank only")
            dt = _torch_name(wave_dtype_to_torch, hint.dtype, name, kernel)
            out.append(Param(name, i, "buffer", str(hint), dt, shape, layout=layout))
            continue
        symbol = None
        if inspect.isclass(hint) and issubclass(hint, SymbolBind):
            symbol, hint = name, hint.dtype  # Wave binds it to index_symbol(name)
        if not (hasattr(hint, "bitwidth") and hasattr(hint, "is_float_asm")):
            raise ArgumentTypeError(
                f"wb.wave: {kernel._name} parameter {name} is annotated {hint!r}, neither a "
                f"tkl.Memory[...] buffer nor a scalar type (tkl.i32, tkl.f32)")
        if hint.bitwidth() != 32 or not (hint.is_float_asm() or hint.is_int_asm()):
            # Wave's runtime passes every scalar as 32 bits (runtime.cpp: scalarSize)
            raise ArgumentTypeError(
                f"wb.wave: {kernel._name} parameter {name} is a {hint} scalar; Wave's kernel "
                f"ABI passes scalars as 32 bits, so hipwb launches i32 and f32 scalars only")
        dt = "float32" if hint.is_float_asm() else "int32"
        out.append(Param(name, i, "scalar", str(hint), dt, symbol=symbol))
    return tuple(out)


def _torch_name(convert: Any, wave_dtype: Any, name: str, kernel: Any) -> str:
    try:
        return str(convert(wave_dtype)).removeprefix("torch.")
    except ValueError:
        raise ArgumentTypeError(f"wb.wave: {kernel._name} parameter {name} holds {wave_dtype} "
                                f"elements, which have no torch dtype to launch with") from None


@dataclass(frozen=True)
class Abi:
    """How one compiled Wave kernel is called: its parameters, which buffers it writes, the
    symbol values fixed at compile time and those read at launch, and Wave's grid function."""

    name: str
    params: tuple[Param, ...]
    outputs: frozenset[str]  # names of the buffers Wave found written (usage OUTPUT)
    static: dict[str, int]  # hyperparameters with integer values, by symbol name
    dynamic: tuple[str, ...]  # WaveCompileOptions.dynamic_symbols, in order
    sources: dict[str, tuple[int, int]]  # dynamic symbol -> (parameter index, dimension)
    grid_fn: Any = field(repr=False, compare=False)  # kernel_launch_info.grid
    grid_text: str = ""  # kernel_launch_info.grid_str
    block: tuple[int, int, int] = (1, 1, 1)

    @property
    def order(self) -> tuple[Param, ...]:
        """The parameters in the code object's order: inputs, outputs, scalars."""
        bufs = [p for p in self.params if p.kind == "buffer"]
        return (*(p for p in bufs if p.name not in self.outputs),
                *(p for p in bufs if p.name in self.outputs),
                *(p for p in self.params if p.kind == "scalar"))

    @property
    def grid_symbols(self) -> tuple[str, ...]:
        """The symbols Wave's grid function takes, in order: those bound to scalar arguments,
        then the dynamic ones (``LaunchableWave``: ``grid_symbols``, wave.py)."""
        return (*(p.symbol for p in self.params if p.symbol), *self.dynamic)

    def signature(self) -> str:
        """``gemm(a, b, c)``: the call as the Wave function declares it."""
        return f"{self.name}({', '.join(p.name for p in self.params)})"

    # -- the code object's arguments -------------------------------------------------------
    def named_args(self, args: tuple[KernelArg, ...], arch: str) -> tuple[KernelArg, ...]:
        """The code object's arguments (``arg0``... as loaded) named and typed by the Wave
        function, after checking they are laid out as Wave's runtime passes them."""
        want: list[KernelArg] = []  # offsets filled from the code object's below
        for p in self.order:
            if p.kind == "buffer":
                c = _POINTEE.get(p.dtype, "unsigned char" if p.dtype.startswith("float8")
                                 else "void")
                const = p.name not in self.outputs
                want.append(KernelArg(p.name, f"{'const ' if const else ''}{c} *", 0, 8,
                                      "global_buffer", c, const))
            else:
                c = "float" if p.dtype == "float32" else "int"
                want.append(KernelArg(p.name, c, 0, 4, "by_value"))
        for s in self.dynamic:
            want += [KernelArg(f"{s}_{half}", "unsigned int", 0, 4, "by_value")
                     for half in ("lo", "hi")]
        if [(a.size, a.kind) for a in args] != [(w.size, w.kind) for w in want]:
            expect = ", ".join(f"{w.name} ({w.size} bytes)" for w in want)
            have = ", ".join(f"{a.size} bytes {a.kind}" for a in args)
            raise WaveAbiError(
                f"{self.name} ({arch}): the code object takes {len(args)} arguments ({have}) "
                f"but Wave's runtime passes {len(want)} ({expect}); this wave-lang lays out "
                f"kernel arguments differently from the 3.9.1 hipwb knows")
        return tuple(replace(w, offset=a.offset) for a, w in zip(args, want))

    # -- a launch --------------------------------------------------------------------------
    def bind(self, args: tuple) -> tuple[list[Any], tuple[int, int, int], dict[str, int]]:
        """(the code object's argument values, the grid, the symbol values) of one call with
        ``args`` in the Wave function's order; a wrong count, kind, shape or dtype raises
        LaunchError naming the parameter."""
        if len(args) != len(self.params):
            raise LaunchError(f"{self.signature()} takes {len(self.params)} argument(s) but "
                              f"{len(args)} were given")
        out: dict[str, Any] = {}
        for p, v in zip(self.params, args):
            self._check_kind(p, v)
            if p.kind == "scalar":
                out[p.name] = _scalar(p, v, self.name)
        values = dict(self.static)
        for p in self.params:
            if p.symbol:
                values[p.symbol] = int(out[p.name])
        for s in self.dynamic:
            i, d = self.sources[s]
            shape = args[i].shape
            values[s] = int(shape[d]) if d < len(shape) else -1  # the shape check names it
        for p, v in zip(self.params, args):
            if p.kind == "buffer":
                out[p.name] = self._buffer(p, v, values)
        kernel_values = [out[p.name] for p in self.order]
        for s in self.dynamic:
            kernel_values += [np.uint32(values[s] & 0xFFFFFFFF), np.uint32(values[s] >> 32)]
        return kernel_values, self.grid([values[s] for s in self.grid_symbols]), values

    def grid(self, symbol_values: list[int]) -> tuple[int, int, int]:
        """Wave's grid function at these symbol values (``grid_symbols`` order)."""
        # run_utils.invoke_with_wave_runtime gives the function `math` the same way (a grid
        # read back from Wave's cache is eval'd text that may call math.ceil)
        globs = getattr(self.grid_fn, "__globals__", None)
        if globs is not None:
            globs.setdefault("math", math)
        g = tuple(int(x) for x in self.grid_fn(list(symbol_values)))
        g = g + (1,) * (3 - len(g))
        if len(g) != 3 or min(g) < 1:
            named = dict(zip(self.grid_symbols, symbol_values))
            raise LaunchError(f"{self.name}: Wave's grid {self.grid_text} gives {g} for "
                              f"{named}: every dimension must be >= 1 workgroup")
        return g  # type: ignore[return-value]

    def _check_kind(self, p: Param, v: Any) -> None:
        where = f"{self.name}: argument {p.name} ({p.wave_type})"
        if p.kind == "buffer" and not is_array(v):
            raise LaunchError(f"{where} is a buffer but got {type(v).__name__} {v!r:.40}; "
                              f"pass a torch tensor or a numpy array")
        if p.kind == "scalar" and is_array(v):
            raise LaunchError(f"{where} is a scalar but got an array "
                              f"({type(v).__name__}); pass a Python number")

    def _buffer(self, p: Param, v: Any, values: dict[str, int]) -> Any:
        where = f"{self.name}: argument {p.name} ({p.wave_type})"
        dims = p.shape if p.layout is None else tuple(
            d if phys is None else phys for d, phys in zip(p.shape, p.layout))
        want = tuple(_dim(d, values) for d in dims)
        got = tuple(int(n) for n in v.shape)
        # The first dimension of a buffer the kernel only reads changes no address (row-major
        # strides leave it out) and Wave's launchers check no shape: it may be longer (Wave's
        # paged decode attention reads S + 1 entries of request_indices: Memory[S]), and is
        # free when a dynamic symbol read from another argument sizes it (its extend
        # attention's kv_indices: Memory[N_KV], N_KV read from k; the kernel reads only the
        # entries its index arrays name, and the emulator faults on any read past the array)
        if (got != want and p.name not in self.outputs and len(got) == len(want) and got
                and got[1:] == want[1:] and (isinstance(want[0], int) and got[0] >= want[0]
                                            or self._sized_elsewhere(p, dims[0]))):
            got = want
        if got != want:
            sizes = ", ".join(f"{d}={w}" for d, w in zip(dims, want) if str(d) != str(w))
            raise LaunchError(f"{where} must have shape {want} ({sizes}; the kernel was "
                              f"compiled for these sizes), got {got}")
        dt = array_dtype(v)
        if dt != p.dtype:
            # integer Memory that a kernel bitcasts (Wave's scaled-MMA kernels read fp4/fp8
            # data and e8m0 scales as i8) takes any elements of its width, as raw bits: Wave's
            # tests pass uint8 and float8_e5m2 tensors (wave_gemm_mxfp_test.py)
            if _INT_BYTES.get(p.dtype) != _itemsize(v):
                raise LaunchError(f"{where} holds {p.dtype} elements, got a {dt} "
                                  f"{type(v).__name__}")
            v = _as_bits(v, p.dtype)
        if contiguous(v):
            return v
        # Wave's launchers run a strided tensor as a contiguous copy (wave_lang/runtime/
        # launch.py, Launchable.__call__; run_utils.invoke_with_wave_runtime): right for a
        # buffer the kernel only reads (Wave's decode attention test passes v.permute(...)),
        # while the writes to a copy of an output would never reach the caller's array
        if p.name in self.outputs:
            raise LaunchError(f"{where} is written by the kernel, so it must be contiguous in "
                              f"memory (Wave would write a contiguous copy and drop it); pass "
                              f"a contiguous array and copy it back into the view yourself")
        return v.contiguous() if hasattr(v, "contiguous") else v.copy(order="C")

    def _sized_elsewhere(self, p: Param, dim: Any) -> bool:
        """Whether ``dim`` holds a dynamic symbol read from another argument than ``p``."""
        names = {s.name for s in getattr(dim, "free_symbols", ())}
        return any(self.sources[s][0] != p.index for s in self.dynamic if s in names)


_INT_BYTES = {"int8": 1, "int16": 2, "int32": 4, "int64": 8}


def _itemsize(v: Any) -> int:
    return int(v.element_size()) if hasattr(v, "element_size") else int(v.itemsize)


def _as_bits(v: Any, dtype: str) -> Any:
    """``v``'s memory viewed as ``dtype`` elements of the same width (no copy)."""
    if hasattr(v, "element_size"):  # torch
        import torch

        return v.view(getattr(torch, dtype))
    return v.view(dtype)


def _dim(d: Any, values: dict[str, int]) -> int | str:
    """One dimension of a symbolic shape at the symbol values (its text when one has none)."""
    import sympy

    e = sympy.sympify(d)
    known = {s: values[s.name] for s in e.free_symbols if s.name in values}
    e = e.subs(known) if known else e
    return int(e) if e.is_Integer else str(e)


def _scalar(p: Param, v: Any, kernel: str) -> Any:
    """A scalar argument as the 32 bits Wave's runtime passes (runtime.cpp, launch)."""
    where = f"{kernel}: argument {p.name} ({p.wave_type})"
    if p.dtype == "float32":
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer,
                                                                  np.floating)):
            raise LaunchError(f"{where} is a float32 scalar, got {type(v).__name__} {v!r:.40}")
        return np.float32(v)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise LaunchError(f"{where} is an int32 scalar, got {type(v).__name__} {v!r:.40}")
    if not -2**31 <= int(v) < 2**31:
        raise LaunchError(f"{where} is an int32 scalar; {int(v)} is out of its range")
    return np.int32(v)


def make_abi(kernel: Any, parameters: tuple[Param, ...], usages: Any, hyperparams: dict,
             dynamic: tuple[str, ...], launch_info: Any) -> Abi:
    """The Abi of one compile: the buffers' usages as ``WaveCompileOptions.kernel_usages``
    gives them (one per buffer, in declaration order), integer hyperparameters by name."""
    bufs = [p for p in parameters if p.kind == "buffer"]
    names = [getattr(u, "name", str(u)) for u in usages or ()]
    if len(names) != len(bufs):
        raise WaveAbiError(f"{kernel._name}: Wave reports {len(names)} buffer usages for "
                           f"{len(bufs)} Memory parameters ({', '.join(p.name for p in bufs)})")
    static = {}
    for k, v in hyperparams.items():
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            static[str(k)] = int(v)
    sources: dict[str, tuple[int, int]] = {}
    for p in bufs:  # the first buffer with the symbol as a dimension (symbols_args_map)
        for d, sym in enumerate(p.shape):
            sources.setdefault(str(sym), (p.index, d))
    missing = [s for s in dynamic if s not in sources]
    if missing:
        raise WaveAbiError(f"{kernel._name}: dynamic symbol(s) {', '.join(missing)} are no "
                           f"dimension of any Memory parameter, so no launch can give them")
    info = launch_info
    return Abi(kernel._name, parameters,
               frozenset(p.name for p, u in zip(bufs, names) if u == "OUTPUT"), static,
               tuple(dynamic), sources, info.grid, info.grid_str,
               tuple(int(b) for b in info.blocks))

