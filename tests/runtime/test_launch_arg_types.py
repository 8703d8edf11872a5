"""Launch arguments follow the C type whatever its spelling: typedefs (std::size_t, uint) take a
Python int, vector types (uint2, float4, int3) take a tuple / list / small numpy array; each run
for real on the emulator (the kernel writes back what it received)."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.args import element_dtype, vector_type
from workbench.runtime.marshal import check_layout

SRC = r'''
#include <cstddef>
typedef unsigned int uint;
namespace ns { using index_t = long; }
__global__ void typed(std::size_t n, uint m, ns::index_t k, uint2 v, float4 f, int3 q,
                      double2 dd, unsigned long long* out, float* fo, const std::size_t* p) {
    if (threadIdx.x == 0) {
        out[0] = n; out[1] = m; out[2] = (unsigned long long)k; out[3] = v.x; out[4] = v.y;
        out[5] = (unsigned long long)(long long)q.z; out[6] = p[1];
        fo[0] = f.x; fo[1] = f.y; fo[2] = f.z; fo[3] = f.w; fo[4] = (float)(dd.x + dd.y);
    }
}
'''


@pytest.fixture(scope="module")
def k():
    return Kernel(wb.compile(SRC, "gfx942"), "typed", device="emulator")


def test_typedefs_resolved_from_clang_ast(k):
    a = {x.name: x for x in k.info().args}
    assert a["n"].ctype == "std::size_t" and a["n"].canonical == "unsigned long"
    assert a["m"].ctype == "uint" and a["m"].ctype_canonical == "unsigned int"
    assert a["k"].ctype_canonical == "long"
    assert vector_type(a["v"].ctype_canonical) == ("uint32", 2)
    assert vector_type(a["f"].ctype_canonical) == ("float32", 4)
    assert element_dtype(a["p"].pointee) == "uint64"  # std::size_t* (namespace stripped)
    check_layout(k.info())  # metadata offsets agree with the resolved types' alignment


def test_typedef_scalars_and_vectors_reach_the_kernel(k):
    out = np.zeros(8, np.uint64)
    fo = np.zeros(5, np.float32)
    p = np.array([7, 123456789012], np.uint64)
    k[1, 64](2**40 + 3, 4000000000, -5, (11, 2**32 - 1), np.array([1.5, -2, 3, 4.25], np.float32),
             [0, 0, -9], (0.25, 0.5), out, fo, p)
    assert out[:7].tolist() == [2**40 + 3, 4000000000, 2**64 - 5, 11, 2**32 - 1, 2**64 - 9,
                                123456789012]
    assert fo.tolist() == [1.5, -2.0, 3.0, 4.25, 0.75]


def test_vector_and_typedef_errors_are_clear_and_session_survives(k):
    out, fo, p = np.zeros(8, np.uint64), np.zeros(5, np.float32), np.zeros(2, np.uint64)
    good = [1, 2, 3, (1, 2), (1.0, 2.0, 3.0, 4.0), (1, 2, 3), (1.0, 2.0), out, fo, p]

    def call(i, v):
        args = list(good)
        args[i] = v
        k[1, 64](*args)

    with pytest.raises(LaunchError, match=r"argument 3 'v' of typed is a uint2 = "
                                          r"HIP_vector_type<unsigned int, 2> .*pass 2 numbers"):
        call(3, 5)
    with pytest.raises(LaunchError, match=r"'v' .*takes 2 numbers, got 3"):
        call(3, (1, 2, 3))
    with pytest.raises(LaunchError, match=r"element 1 \(\.y\) .*must be in \[0, 4294967295\]"):
        call(3, (1, -1))
    with pytest.raises(LaunchError, match=r"shape \(4,\).*shape \(2, 2\)"):
        call(4, np.zeros((2, 2), np.float32))
    with pytest.raises(LaunchError, match=r"'n' of typed \(std::size_t\) must be in "
                                          r"\[0, 18446744073709551615\], got -1"):
        call(0, -1)
    with pytest.raises(LaunchError, match=r"'m' of typed \(uint\) needs an integer"):
        call(1, 1.5)
    k[1, 64](*good)  # the kernel still launches
    assert out[3] == 1 and fo[3] == 4.0
