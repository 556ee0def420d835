"""The Python worker against the C worker, in one run, rounds interleaved: how long a fresh worker
takes from spawn to the reply of its first call (load the module, call it), the CPU each spends per
pipelined call, and its memory.

    python bench/worker_cost.py [--starts N] [--calls N] [--rounds R]

The call is the bundled ADD program through the COBOL caller, as the server makes it. CPU is the
worker process's own utime + stime (/proc/PID/stat) over the calls, so the server's share is not in it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from bundled_add import call_sync, compiled_add

from cobol_mcp.cobol.prepare.driver import build_driver
from cobol_mcp.cobol.prepare.native_worker import build_worker
from cobol_mcp.cobol.runtime.pool import Runtime

TICK = os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--spin", type=float, default=0.0003, help="the workers' spin (the server's default)")
    args = parser.parse_args()
    program, spec, sizes, buffers = compiled_add()
    driver = build_driver()
    native = build_worker()
    assert native is not None, "the C worker did not build"
    workers = {"python": None, "c": str(native)}

    def runtime(worker: str | None) -> Runtime:
        made = Runtime(max_workers=1, timeout=30, worker=worker, spin=args.spin)
        made.load("add", program.module, spec.entry_symbol, sizes, driver=driver, program_id=spec.program_id)
        return made

    starts: dict[str, list[float]] = {name: [] for name in workers}
    for _ in range(args.starts):
        for name, worker in workers.items():
            made = runtime(worker)
            began = time.perf_counter()
            result = call_sync(made, "add", buffers)
            starts[name].append(time.perf_counter() - began)
            assert result.ok, result
            made.close()
    cpu: dict[str, list[float]] = {name: [] for name in workers}
    rss: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, worker in workers.items():
            made = runtime(worker)
            call_sync(made, "add", buffers)
            pid = made._workers[0].pid
            before = cpu_seconds(pid)
            pipelined(made, buffers, args.calls)
            cpu[name].append((cpu_seconds(pid) - before) / args.calls)
            rss[name] = peak_rss(pid)
            made.close()
    for name in workers:
        print(
            f"{name:6s} spawn to first reply {statistics.median(starts[name]) * 1e3:6.1f} ms "
            f"(median of {args.starts}); "
            f"{statistics.median(cpu[name]) * 1e6:5.1f} us CPU per pipelined call (median of {args.rounds} x "
            f"{args.calls}); peak RSS {rss[name] / 1024:.1f} MB"
        )


def pipelined(runtime: Runtime, buffers: Any, count: int) -> None:
    done = [0]

    def finished(result: Any) -> None:
        assert result.ok, result
        done[0] += 1

    for _ in range(count):
        runtime.submit("add", buffers, finished)
        while runtime.waiting:
            runtime.run_once(0.01)
            runtime.expire()
    while done[0] < count:
        runtime.run_once(0.01)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


if __name__ == "__main__":
    main()
