"""``semantics.GENERATIONS`` stays the map of the semantics tree: every family module has an
entry naming the ISA generations it serves, and every entry names a module that exists and
registers semantics in the table."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from workbench.emu import semantics
from workbench.emu.decoder import registry
from workbench.emu.semantics import GENERATIONS, families_of

SEM = Path(semantics.__file__).parent


def _family_modules() -> set[str]:
    return {".".join(p.relative_to(SEM).with_suffix("").parts) for p in SEM.rglob("*.py")
            if p.name != "__init__.py" and p.parent != SEM}


def test_every_family_module_has_its_generations():
    assert set(GENERATIONS) == _family_modules()


@pytest.mark.parametrize("family", sorted(GENERATIONS))
def test_each_entry_is_a_module_that_registers_or_serves_the_table(family):
    importlib.import_module(f"workbench.emu.semantics.{family}")
    registered = {registry.family_of(m) for m in registry.known_mnemonics()}
    # the VALU table (its rows register under their own family), the one-wave SALU fast path and
    # the shared memory ops and the buffer addressing register no mnemonic of their own
    helpers = {"valu.table", "scalar.salu1", "memory.memops", "memory.buffer_address"}
    assert (family in registered) != (family in helpers), family
    assert GENERATIONS[family] and set(GENERATIONS[family]) <= set(semantics.ALL)


def test_families_of_a_generation():
    assert "valu.cvtscale" in families_of("CDNA4") and "valu.cvtscale" not in families_of("CDNA3")
    assert "matrix.wmma" in families_of("RDNA3") and "matrix.mfma" not in families_of("RDNA4")
    with pytest.raises(ValueError, match="unknown ISA generation 'gfx942'"):
        families_of("gfx942")
