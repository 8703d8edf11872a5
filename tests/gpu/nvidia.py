"""Whether tests can run on a real NVIDIA GPU: cupy's CUDA build, seeing at least one device."""

from __future__ import annotations

import pytest


def real_cuda_gpu() -> bool:
    """True where cupy is a CUDA (not ROCm) build and sees an NVIDIA GPU."""
    try:
        import cupy

        return (not cupy.cuda.runtime.is_hip) and cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


#: skip marker for the tests that launch on a real NVIDIA GPU
needs_nvidia_gpu = pytest.mark.skipif(not real_cuda_gpu(),
                                      reason="needs cupy (CUDA build) and an NVIDIA GPU; none here")
