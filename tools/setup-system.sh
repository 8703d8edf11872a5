#!/usr/bin/env bash
# System packages hipwb needs, installed with apt when missing: one script for the Makefile's
# set-up (`make lab`, `make test`) and for Binder-style builds, so the two cannot drift.
#
#   tools/setup-system.sh llvm      LLVM >= 20 with the AMDGPU target (22 preferred, 19 fallback),
#                                   and AMD's device math library (rocm-device-libs: ocml.bc)
#   tools/setup-system.sh chromium  Debian's chromium (browser tests)
#   tools/setup-system.sh binder    as root, for binder/Dockerfile: the LLVM above plus what
#                                   `make setup` needs (python3-venv, make), nothing else
#
# An LLVM is "found" when a folder has clang, ld.lld, llvm-objdump and llvm-readelf: the same
# search hipwb's toolchain.py does (HIPWB_LLVM_DIR, ROCm's, /usr/lib/llvm-{22,21,20}/bin).
set -euo pipefail
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

have_llvm() {  # $@: minimum major versions' folders to accept
    for d in "${HIPWB_LLVM_DIR:-}" "${ROCM_PATH:-/opt/rocm}/llvm/bin" /opt/rocm/llvm/bin "$@"; do
        [ -n "$d" ] && [ -x "$d/clang" ] && [ -x "$d/ld.lld" ] && [ -x "$d/llvm-objdump" ] \
            && [ -x "$d/llvm-readelf" ] && return 0
    done
    return 1
}

apt_install() {
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "$@"
}

# AMD's device math library (ocml.bc, 485 KB .deb): hipwb links it for HIP's library math
# (log1pf, erfinvf, double exp, ...: workbench/devlib.py). Without it those functions are
# refused at compile time with a message, everything else works.
have_ocml() {
    for d in "${HIPWB_DEVICE_LIB_PATH:-}" /usr/lib/*/amdgcn/bitcode /usr/lib/amdgcn/bitcode \
             /opt/rocm/amdgcn/bitcode; do
        [ -n "$d" ] && [ -f "$d/ocml.bc" ] && return 0
    done
    return 1
}
ensure_ocml() {
    have_ocml || apt_install rocm-device-libs \
        || echo "rocm-device-libs could not be installed: HIP library math (log1pf, ...) is off"
}

case "${1:-}" in
llvm)
    ensure_ocml
    if have_llvm /usr/lib/llvm-22/bin /usr/lib/llvm-21/bin /usr/lib/llvm-20/bin; then exit 0; fi
    echo "No LLVM >= 20 with the AMDGPU target found: installing clang-22 lld-22 llvm-22"
    if apt_install clang-22 lld-22 llvm-22; then exit 0; fi
    if have_llvm /usr/lib/llvm-19/bin; then
        echo "LLVM 22 could not be installed; using the LLVM 19 found (no gfx950: see hipwb doctor)"
        exit 0
    fi
    echo "LLVM 22 is not packaged here: installing clang-19 lld-19 llvm-19 (no gfx950)"
    apt_install clang-19 lld-19 llvm-19
    ;;
chromium)
    if command -v chromium >/dev/null 2>&1; then exit 0; fi
    echo "Installing Debian's chromium for the browser tests"
    apt_install chromium
    ;;
binder)
    "$0" llvm
    # the rest of a Binder image is `make setup EXTRAS=dev,binder` as the notebook user:
    # the same venv, torch (CPU), package, and labextension steps as `make lab` / `make test`
    apt_install python3 python3-venv python3-pip make ca-certificates
    ;;
*)
    echo "usage: $0 llvm|chromium|binder" >&2
    exit 2
    ;;
esac
