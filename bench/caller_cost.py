"""Per-call cost of the COBOL caller: the same program called straight from the worker (as before)
and through the generated COBOL caller, in one runtime, in one run, rounds interleaved.

    python bench/caller_cost.py [--calls N] [--rounds R]

Each round pipelines N calls of the bundled ADD program per path on one worker and reports calls/s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bundled_add import call_sync, compiled_add

from cobol_mcp.cobol.prepare.driver import build_driver
from cobol_mcp.cobol.runtime.pool import Runtime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    program, spec, sizes, buffers = compiled_add()
    runtime = Runtime(max_workers=1, timeout=30)
    runtime.load("direct", program.module, spec.entry_symbol, sizes)
    runtime.load("caller", program.module, spec.entry_symbol, sizes, driver=build_driver(), program_id=spec.program_id)
    rates: dict[str, list[float]] = {"direct": [], "caller": []}
    try:
        for name in rates:  # warm: load both into the worker
            call_sync(runtime, name, buffers)
        for _ in range(args.rounds):
            for name in rates:
                rates[name].append(args.calls / pipelined(runtime, name, buffers, args.calls))
    finally:
        runtime.close()
    for name, values in rates.items():
        print(f"{name:7s} {statistics.median(values):10,.0f} calls/s (median of {args.rounds} rounds of {args.calls})")
    slower = 1e6 / statistics.median(rates["caller"]) - 1e6 / statistics.median(rates["direct"])
    print(f"the caller costs {slower:+.2f} us per call")


def pipelined(runtime: Runtime, name: str, buffers: Any, count: int) -> float:
    done = [0]

    def finished(result: Any) -> None:
        assert result.ok and result.return_code == 0, result
        done[0] += 1

    start = time.perf_counter()
    for _ in range(count):
        runtime.submit(name, buffers, finished)
        if runtime.waiting:
            runtime.run_once(0)
    while done[0] < count:
        runtime.run_once(1.0)
        runtime.expire()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
