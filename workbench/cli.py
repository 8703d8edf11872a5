"""The ``hipwb`` command: ``hipwb doctor`` and ``hipwb compile FILE.hip`` from a shell.

Exit codes: 0 ok, 1 compile error (or no toolchain to compile with), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

EXIT_OK, EXIT_COMPILE, EXIT_USAGE = 0, 1, 2


def _parser() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The ``hipwb`` parser and its ``compile`` subparser."""
    p = argparse.ArgumentParser(
        prog="hipwb", description="hipwb: compile and inspect AMD GPU HIP kernels.")
    sub = p.add_subparsers(dest="command", metavar="{doctor,compile}")
    sub.required = True
    d = sub.add_parser("doctor", help="show the toolchain, targets, devices and versions found")
    d.add_argument("--json", action="store_true", help="machine-readable output")
    c = sub.add_parser("compile", help="compile a .hip file; print resources and occupancy")
    c.add_argument("file", help="HIP source file")
    c.add_argument("--arch", help="comma-separated gfx targets (default: the ROCm GPU's, else "
                                  "gfx942)")
    c.add_argument("--isa", action="store_true", help="also print the ISA with source lines")
    c.add_argument("--json", action="store_true", help="machine-readable output")
    c.add_argument("-D", dest="defines", action="append", default=[], metavar="X[=Y]")
    c.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR")
    c.add_argument("-O", dest="opt", default="3", choices=["0", "1", "2", "3", "s", "z"])
    c.add_argument("--wave64", action="store_true", help="compile RDNA targets for wave64")
    c.add_argument("--block", type=int, help="block size for the occupancy summary")
    c.add_argument("--no-cache", action="store_true", help="compile even if cached")
    return p, c


def _usage(parser: argparse.ArgumentParser, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"hipwb: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _doctor(args: argparse.Namespace) -> int:
    from .doctor import doctor

    rep = doctor()
    if args.json:
        out = {"ok": rep.ok, "fixes": rep.fixes,
               "sections": {s: [c.__dict__ for c in cs] for s, cs in rep.sections.items()}}
        print(json.dumps(out, indent=2))
    else:
        print(rep.text())
    return EXIT_OK if rep.ok else EXIT_COMPILE


def _compile(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from . import compiler
    from .compile_options import parse_archs, parse_defines
    from .toolchain import ToolchainError

    path = Path(args.file)
    if not path.is_file():
        return _usage(parser, f"no such file: {args.file}")
    try:
        source = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        return _usage(parser, f"cannot read {args.file}: {e}")
    if args.arch:
        arch_text = args.arch
    else:
        from .doctor import rocm_gpu_arch

        arch_text = rocm_gpu_arch() or "gfx942"
    try:
        archs = parse_archs(arch_text)
        defines = parse_defines(args.defines)
    except ValueError as e:
        return _usage(parser, str(e))
    includes = [*args.includes, str(path.resolve().parent)]  # quoted includes beside the file
    options = ["-mwavefrontsize64"] if args.wave64 else []
    t0 = time.perf_counter()
    try:
        module = compiler.compile(source, archs, options, defines=defines, include_dirs=includes,
                                  opt_level=args.opt, filename=args.file, first_line=1,
                                  cache=not args.no_cache)
    except compiler.CompileError as e:
        errors = [d for d in e.diagnostics if d.severity in ("error", "fatal error")]
        text = str(e)
        if errors:  # our one-line summary replaces the message's own first line
            d = errors[0]
            print(f"{d.file}:{d.line}: error: {d.message} [{e.arch}]", file=sys.stderr)
            text = text.split("\n", 1)[1] if "\n" in text else ""
        if text:
            print(text, file=sys.stderr)
        return EXIT_COMPILE
    except ToolchainError as e:
        print(f"hipwb: {e}", file=sys.stderr)
        return EXIT_COMPILE
    seconds = time.perf_counter() - t0
    from .widgets.compile_report import CompileReport, module_summary

    if args.json:
        print(json.dumps(module_summary(module, block=args.block, seconds=seconds), indent=2))
    else:
        print(CompileReport(module, source=source, seconds=seconds, block=args.block,
                            show_isa=args.isa, title=args.file).text())
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hipwb`` command line; returns the exit code."""
    parser, compile_parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0)
    if args.command == "doctor":
        return _doctor(args)
    return _compile(compile_parser, args)


if __name__ == "__main__":
    sys.exit(main())
