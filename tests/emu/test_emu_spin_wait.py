"""Waves waiting for each other through global memory (the scheduler's "Spin-waits" rule).

Why: the lock-step scheduler runs the group with the lowest PC; a workgroup spinning on a
lock (atomicCAS in a loop) sits at a lower PC than the workgroup past the loop that holds it,
so before the rule the holder never ran and the launch hit its timeout. Triton's serial
reductions and stream-K kernels take such locks (tl.atomic_cas in a while loop,
tests/triton_front/test_more_kernels.py). Each workgroup here waits for its turn: the lock
holds the next workgroup id; the order the workgroups took the lock must be 0, 1, 2, ...
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel

TICKET = r'''
extern "C" __global__ void ticket(int* lock, int* order, int* spins) {
  if (threadIdx.x == 0) {
    int me = blockIdx.x, k = 0;
    while (atomicCAS(lock, me, -1) != me) k++;  // my turn: lock == me
    order[me] = atomicAdd(&order[64], 1);
    spins[me] = k;
    atomicExch(lock, me + 1);
  }
}
'''


@pytest.fixture(scope="module")
def ticket():
    return Kernel(wb.compile(TICKET, "gfx942"), "ticket", device="emulator")


@pytest.mark.parametrize("blocks,threads", [(2, 64), (12, 64), (8, 256)])
def test_workgroups_take_a_lock_in_turn(ticket, blocks, threads):
    lock = np.zeros(1, np.int32)
    order = np.zeros(65, np.int32)
    spins = np.full(64, -1, np.int32)
    ticket[blocks, threads](lock, order, spins, timeout=60)
    assert lock[0] == blocks and list(order[:blocks]) == list(range(blocks))
    assert spins[0] == 0 and (spins[1:blocks] > 0).all()  # the others did wait


CHAIN = r'''
extern "C" __global__ void chain(int* flags, int* out) {
  // workgroup 0 waits for 1, which waits for 2: the waiters spin in two different loops (two
  // PCs), and the turn must reach workgroup 2 wherever its code lies
  if (threadIdx.x == 0) {
    int b = blockIdx.x;
    if (b == 0) {
      while (atomicAdd(&flags[1], 0) == 0) {}
      out[0] = atomicAdd(&out[3], 1);
    } else if (b == 1) {
      while (atomicAdd(&flags[2], 0) == 0) {}
      out[1] = atomicAdd(&out[3], 1);
      atomicExch(&flags[1], 1);
    } else {
      out[2] = atomicAdd(&out[3], 1);
      atomicExch(&flags[2], 1);
    }
  }
}
'''


def test_waiters_at_different_loops_pass_the_turn_on():
    k = Kernel(wb.compile(CHAIN, "gfx942"), "chain", device="emulator")
    flags, out = np.zeros(3, np.int32), np.zeros(4, np.int32)
    k[3, 64](flags, out, timeout=60)
    assert list(out) == [2, 1, 0, 3]
