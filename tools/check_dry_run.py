"""Fail loudly when installing hipwb's extras would replace the CPU torch with a CUDA build.

`make setup` runs this before `pip install -e '.[EXTRAS]'`: it asks pip for a dry run
(``pip install --dry-run --report``) and refuses when the resolution would install torch (the CPU
torch==2.13.0 installed first must stay) or any NVIDIA CUDA package (nvidia-*, cuda-*: what a
CUDA torch or an unpinned triton dependency would pull, several GB). Usage:
    python tools/check_dry_run.py PIP EXTRAS
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> int:
    pip, extras = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        report = Path(d) / "report.json"
        run = subprocess.run([pip, "install", "--dry-run", "-q", "--report", str(report),
                              "-e", f".[{extras}]"], capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr)
            print(f"check_dry_run: pip cannot resolve .[{extras}] (above)", file=sys.stderr)
            return 1
        names = [(i["metadata"]["name"].lower(), i["metadata"]["version"])
                 for i in json.loads(report.read_text())["install"]]
    bad = [f"{n}=={v}" for n, v in names
           if n == "torch" or n.startswith(("nvidia-", "cuda-"))]
    if bad:
        print(f"check_dry_run: installing .[{extras}] would bring {', '.join(bad)}: a CUDA torch "
              f"or CUDA libraries replacing the CPU torch==2.13.0 (pin the extra that pulls "
              f"them to a version that does not, pyproject.toml)", file=sys.stderr)
        return 1
    print(f"check_dry_run: .[{extras}] keeps the CPU torch "
          f"({len(names)} package(s) to install: {', '.join(n for n, _ in names)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
