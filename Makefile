# The two commands in the README: `make lab` and `make test`. Each does all set-up first:
# an LLVM with the AMDGPU target (22 preferred, >= 19 accepted: tools/setup-system.sh), a .venv,
# and the package with [dev].
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.hipwb-installed
# triton: wb.triton / %%triton (tests/triton_front and the Triton notebook need it)
# wave: wb.wave (tests/wave_front needs it)
EXTRAS  ?= dev,pybind,sweep,triton,wave
# Jupyter refuses to start as root unless told (containers, CI images, Binder-like hosts).
ROOTOPT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
# The documentation (docs/conf.py): every warning and broken reference fails (-W -n), all pages
# are re-read each time (-E) so a warning is never hidden by an up-to-date page.
SPHINX  := $(BIN)/sphinx-build -W --keep-going -n -E -q -c docs -b html . build/docs
.PHONY: lab test setup llvm chromium labextension lint bench docs clean e2e-full

lab: setup
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOTOPT) $(LABOPTS)

# make test: ruff; the suite and the notebooks (nbval) in one session on every core
# (pytest-xdist -n auto --dist loadgroup: the tests that hold a port, a browser or the wall clock
# share one worker, and each notebook's cells run in order on one, see tests/conftest.py), with
# its 15 slowest tests; the docs. The sweeps marked @pytest.mark.sample (corpus kernels x
# archs, tutorial steps x shapes, emulator corpus x archs) run a deterministic sample that still
# runs every kernel/step; `make test FULL=1` (or HIPWB_FULL=1) runs every case.
FULL ?= $(HIPWB_FULL)
test: setup chromium
	$(BIN)/ruff check workbench tests
	HIPWB_FULL=$(FULL) $(BIN)/pytest -q -n auto --dist loadgroup --durations=15 \
	    --nbval --nbval-sanitize-with notebooks/sanitize.cfg tests notebooks
	$(SPHINX)

setup: llvm $(STAMP) labextension

llvm:
	tools/setup-system.sh llvm

chromium:  # the browser of tests/e2e (Debian's; Playwright downloads nothing)
	tools/setup-system.sh chromium

# The JupyterLab extension: rebuilt (npm) only when extensions/hipwb-lab's sources changed, then
# linked into the venv, as setuptools' editable installs skip data-files (a wheel copies them).
labextension: $(STAMP)
	tools/build-labextension.sh $(BIN)/python
	mkdir -p $(VENV)/share/jupyter/labextensions
	rm -rf $(VENV)/share/jupyter/labextensions/hipwb-lab
	ln -s $(CURDIR)/workbench/labextension/hipwb-lab $(VENV)/share/jupyter/labextensions/

$(STAMP): pyproject.toml
	[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# The CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build.
	$(BIN)/python -c "import torch" 2>/dev/null || $(BIN)/pip install -q torch==2.13.0
	# Fails loudly when an extra would replace the CPU torch (a CUDA torch, nvidia-* packages).
	$(BIN)/python tools/check_dry_run.py $(BIN)/pip $(EXTRAS)
	$(BIN)/pip install -q -e '.[$(EXTRAS)]'
	touch $(STAMP)

# Every notebook as a user meets it: Run All in JupyterLab in chromium (0 errors, 0 console
# errors, every widget drawn), then save, restart the kernel and reopen (every widget output shows
# its static picture; the file stays small). make test does this for 00, 02, 06 and 07.
e2e-full: setup chromium
	PYTHONPATH=$(CURDIR) $(BIN)/python tools/run_all_in_lab.py --save-reopen

lint: setup
	$(BIN)/ruff check workbench tests

docs: setup  # HTML into build/docs (open build/docs/index.html)
	$(SPHINX)

bench: setup
	for f in tests/bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
