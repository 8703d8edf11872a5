# The two commands in the README: `make lab` and `make test`. Each does all set-up first:
# an LLVM with the AMDGPU target (clang/lld/llvm >= 19), a .venv, and the package with [dev].
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.hipwb-installed
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Jupyter refuses to start as root unless told (containers, CI images, Binder-like hosts).
ROOTOPT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
LLVM_OK := $(shell for d in "$$HIPWB_LLVM_DIR" "$$ROCM_PATH/llvm/bin" /opt/rocm/llvm/bin \
             /usr/lib/llvm-20/bin /usr/lib/llvm-19/bin; do \
             [ -n "$$d" ] && [ -x "$$d/clang" ] && [ -x "$$d/ld.lld" ] && \
             [ -x "$$d/llvm-objdump" ] && [ -x "$$d/llvm-readelf" ] && { echo yes; break; }; done)

.PHONY: lab test setup llvm lint bench clean

lab: setup
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOTOPT) $(LABOPTS)

test: setup
	$(BIN)/ruff check workbench tests
	$(BIN)/pytest -q tests
	$(BIN)/pytest -q -p no:cacheprovider --nbval --nbval-sanitize-with notebooks/sanitize.cfg \
	    notebooks

setup: llvm $(STAMP)

llvm:
ifneq ($(LLVM_OK),yes)
	@echo "No LLVM >= 19 with the AMDGPU target found: installing clang-19 lld-19 llvm-19"
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq clang-19 lld-19 llvm-19
endif

$(STAMP): pyproject.toml
	[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# The CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build.
	$(BIN)/python -c "import torch" 2>/dev/null || $(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check workbench tests

bench: setup
	for f in tests/bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
