"""Cold compile of a folder of generated CALLable programs: one cobc at a time against one per CPU.

    python bench/compile_bench.py [--programs 200] [--jobs N]

Each program is a small, distinct one (its own record sizes and arithmetic), so no two share a cache
entry; every run starts with an empty cache. Prints seconds and programs/s for both, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from cobol_mcp.cobol.prepare.programs import scan_folder

PROGRAM = """\
IDENTIFICATION DIVISION.
PROGRAM-ID. CALC-{n:04d}.
*> Generated program {n}: a rate applied to an amount, with {n} as its constant.
DATA DIVISION.
LINKAGE SECTION.
01 CALC-{n:04d}-IN.
   05 AMOUNT PIC S9({digits})V99.
   05 RATE PIC 9V9(4).
01 CALC-{n:04d}-OUT.
   05 RESULT PIC S9({wide})V99.
PROCEDURE DIVISION USING CALC-{n:04d}-IN CALC-{n:04d}-OUT.
    COMPUTE RESULT ROUNDED = AMOUNT * RATE + {n}
    GOBACK.
"""


def generate(folder: Path, count: int) -> None:
    for n in range(count):
        digits = 3 + n % 12
        (folder / f"calc-{n:04d}.cob").write_text(PROGRAM.format(n=n, digits=digits, wide=digits + 3))


def timed(folder: Path, jobs: int) -> float:
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        scan = scan_folder(folder, cache_dir=Path(cache), jobs=jobs)
        elapsed = time.perf_counter() - start
    if scan.errors or not scan.programs:
        raise SystemExit(f"compile failed: {scan.errors[:3]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as src:
        folder = Path(src)
        generate(folder, args.programs)
        serial = timed(folder, 1)
        parallel = timed(folder, args.jobs)
    print(f"{args.programs} programs, {os.cpu_count()} CPUs")
    print(f"{'jobs':>6} {'seconds':>9} {'programs/s':>11}")
    for jobs, seconds in ((1, serial), (args.jobs, parallel)):
        print(f"{jobs:>6} {seconds:>9.1f} {args.programs / seconds:>11.1f}")
    print(f"parallel / serial time: {parallel / serial:.2f}")


if __name__ == "__main__":
    main()
