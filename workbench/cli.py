"""The ``hipwb`` command: ``hipwb doctor``, ``hipwb compile FILE.hip``, ``hipwb inspect
FILE.hsaco`` and ``hipwb corpus DIR`` from a shell.

Exit codes: 0 ok, 1 compile error (or no toolchain to compile with; for ``corpus``: a file of
the corpus did not compile; for ``inspect``: a file that is no code object hipwb reads), 2 usage
error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .compile_options import block_size

EXIT_OK, EXIT_COMPILE, EXIT_USAGE = 0, 1, 2
_PASSED_THROUGH = ("-std=", "-f", "-W", "-w", "-m")  # clang flags taken without --option


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``hipwb`` parser and its subparsers by command (for their usage lines)."""
    p = argparse.ArgumentParser(
        prog="hipwb", description="hipwb: compile and inspect AMD GPU HIP kernels.")
    sub = p.add_subparsers(dest="command", metavar="{doctor,compile,inspect,corpus}")
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
    c.add_argument("--block", type=block_size, help="block size for the occupancy summary")
    c.add_argument("--no-cache", action="store_true", help="compile even if cached")
    c.add_argument("--option", dest="options", action="append", default=[], metavar="FLAG",
                   help="a clang flag, e.g. --option=-std=c++20 (flags spelled -std=, -f..., "
                        "-W..., -w and -m... are taken as they are, as hipcc takes them)")
    i = sub.add_parser("inspect", help="resources, occupancy and ISA of code objects built "
                                       "anywhere (.hsaco, an offload bundle, a HIP program)")
    i.add_argument("files", nargs="+", metavar="FILE", help="code object files (one per arch)")
    i.add_argument("--isa", action="store_true", help="also print the ISA")
    i.add_argument("--json", action="store_true", help="machine-readable output")
    i.add_argument("--block", type=block_size, help="block size for the occupancy summary")
    k = sub.add_parser("corpus", help="compile every HIP file of a folder (a checkout) and "
                                      "tabulate what compiles; --run smoke-runs the kernels")
    k.add_argument("dir", help="folder to search for .hip files (and .cpp/.cu/.cc/.cxx files "
                               "that define a __global__ function)")
    k.add_argument("--arch", default="gfx942", help="comma-separated gfx targets (default "
                                                    "gfx942); --run uses the first")
    k.add_argument("-D", dest="defines", action="append", default=[], metavar="X[=Y]")
    k.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR")
    k.add_argument("--option", dest="options", action="append", default=[], metavar="FLAG",
                   help="a clang flag for every file, e.g. --option=-std=c++20 (flags "
                        "spelled -std=, -f..., -W..., -w and -m... are taken as they are)")
    k.add_argument("--compile-commands", metavar="FILE",
                   help="compile_commands.json: each file's own -I/-D/-std/-f flags")
    k.add_argument("--run", action="store_true", help="smoke-run each kernel once on the "
                   "emulator (one workgroup, zero-filled buffers): does it execute?")
    k.add_argument("--jobs", type=int, help="files compiled at once (default: up to 4)")
    k.add_argument("--json", action="store_true", help="machine-readable output")
    return p, {"doctor": d, "compile": c, "inspect": i, "corpus": k}


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
    if args.arch is not None:
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
    options = [*(["-mwavefrontsize64"] if args.wave64 else []), *args.options]
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
    except ValueError as e:  # a file name or define compile() refuses (control characters)
        return _usage(parser, str(e))
    seconds = time.perf_counter() - t0
    from .widgets.compile_report import CompileReport, module_summary

    if args.json:
        print(json.dumps(module_summary(module, block=args.block, seconds=seconds), indent=2))
    else:
        print(CompileReport(module, source=source, seconds=seconds, block=args.block,
                            show_isa=args.isa, title=args.file).text())
    return EXIT_OK


def _inspect(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .codeobject import CodeObjectError
    from .loader import load
    from .widgets.compile_report import CompileReport, module_summary

    missing = [f for f in args.files if not Path(f).is_file()]
    if missing:
        return _usage(parser, f"no such file: {missing[0]}")
    try:
        module = load(args.files)
    except CodeObjectError as e:
        print(f"hipwb: {e}", file=sys.stderr)
        return EXIT_COMPILE
    if args.json:
        print(json.dumps(module_summary(module, block=args.block), indent=2))
    else:
        print(CompileReport(module, block=args.block, show_isa=args.isa,
                            title=", ".join(args.files)).text())
    return EXIT_OK


def _corpus(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .compile_options import parse_archs, parse_defines
    from .corpus import run_corpus
    from .toolchain import ToolchainError

    if not Path(args.dir).is_dir():
        return _usage(parser, f"not a folder: {args.dir} (hipwb corpus takes a checkout's "
                              "folder; hipwb compile takes one file)")
    try:
        archs = parse_archs(args.arch)
        defines = parse_defines(args.defines)
    except ValueError as e:
        return _usage(parser, str(e))
    if args.jobs is not None and args.jobs < 1:
        return _usage(parser, f"--jobs must be at least 1, got {args.jobs}")

    def progress(f) -> None:
        if not args.json:
            mark = "ok " if f.ok else "ERR"
            print(f"  {mark} {f.path} ({f.seconds:.1f} s)", file=sys.stderr, flush=True)

    try:
        rep = run_corpus(args.dir, archs, include_dirs=args.includes, defines=defines,
                         options=args.options, compile_commands=args.compile_commands,
                         run=args.run, jobs=args.jobs, progress=progress)
    except ValueError as e:
        return _usage(parser, str(e))
    except ToolchainError as e:
        print(f"hipwb: {e}", file=sys.stderr)
        return EXIT_COMPILE
    print(json.dumps(rep.json(), indent=2) if args.json else rep.text())
    return EXIT_OK if rep.compiled == len(rep.files) else EXIT_COMPILE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hipwb`` command line; returns the exit code."""
    parser, subs = _parser()
    try:
        args, extra = parser.parse_known_args(argv)
        # The flags a Makefile passes hipcc (-std=c++20 -ffast-math -w ...) are clang options:
        # taken as they are; anything else unknown stays a usage error.
        unknown = [a for a in extra if not a.startswith(_PASSED_THROUGH)]
        if unknown or (extra and args.command in ("doctor", "inspect")):
            parser.error(f"unrecognized arguments: {' '.join(unknown or extra)}")
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0)
    if extra:
        args.options = [*args.options, *extra]
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "corpus":
        return _corpus(subs["corpus"], args)
    if args.command == "inspect":
        return _inspect(subs["inspect"], args)
    return _compile(subs["compile"], args)


if __name__ == "__main__":
    sys.exit(main())
