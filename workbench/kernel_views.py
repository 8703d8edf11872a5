"""The inspection views a front end's kernel (TritonKernel, WaveKernel) passes to its hipwb Kernel.

Why one mixin: ``kern.isa``, ``kern.resources``, ``kern.matrix_instructions()`` read the same on
a Triton or a Wave kernel as on a HIP one; each front end only says which Kernel it stands for
(its ``kernel`` property).
"""

from __future__ import annotations

from typing import Any


class KernelViews:
    """``isa``, ``isa_for``, ``resources``, ``matrix_instructions``, ``pressure`` of
    ``self.kernel`` (a ``workbench.runtime.kernel.Kernel``)."""

    kernel: Any

    @property
    def isa(self):
        """The ISA listing of the first arch (with source lines where the code object has
        line tables)."""
        return self.kernel.isa

    def isa_for(self, arch: str | None = None):
        return self.kernel.isa_for(arch)

    @property
    def resources(self):
        return self.kernel.resources

    def matrix_instructions(self, arch: str | None = None):
        """The MFMA/WMMA instructions the kernel's matrix products became (per arch), with their
        register layouts from the catalog: ``kern.matrix_instructions()[0].A``."""
        return self.kernel.matrix_instructions(arch)

    def pressure(self, arch: str | None = None):
        """Live registers at each instruction, their peaks and where they are."""
        return self.kernel.pressure(arch)
