#!/usr/bin/env python3
"""Scale-out benchmark: `tools/call add` through nginx (deploy/nginx/cobol-mcp.conf) to 1, 2 and 3 replicas.

Three `--stateless` replicas run on loopback; for each configuration an nginx (Debian's package, the
recipe with its upstream list cut to the first N replicas, access log off) is started in front, and
bench/http_bench.py's closed-loop load generator (C keep-alive connections over raw asyncio sockets,
each sending its next stateless 2025-11-25 `tools/call add` once the previous reply is complete)
measures requests/s. "direct" is the same load on one replica without nginx, for reference. The
configurations take turns for --rounds rounds; each window is bounded in time and in requests.

    python bench/nginx_bench.py                      # 32 clients, 2 rounds of 3 s per configuration
    python bench/nginx_bench.py --concurrency 64 --rounds 3 --nginx-workers 2

Needs nginx (apt-get install nginx) and a Python with uvicorn (the running one by default). Note that
on one machine the replicas, nginx and the load generator share the same CPUs: more replicas only
help as far as there are CPUs for them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from http_bench import Run, Server, free_port, percentile  # noqa: E402

from tests.deploy.nginx import STATELESS, Nginx, nginx_binary, site_config  # noqa: E402


def window(port: int, concurrency: int, args: argparse.Namespace) -> Run:
    run = Run(port, concurrency, args.warmup, args.seconds, args.max_requests)
    run.elapsed = asyncio.run(run.go())
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", type=int, default=32, help="closed-loop clients (default 32)")
    parser.add_argument("--replicas", type=int, default=3, help="most replicas (default 3: 1, 2 and 3 are measured)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured window per configuration and round")
    parser.add_argument("--warmup", type=float, default=0.5, help="unmeasured warm-up before each window")
    parser.add_argument("--max-requests", type=int, default=100_000, help="most requests measured per window")
    parser.add_argument("--rounds", type=int, default=2, help="windows per configuration, taking turns")
    parser.add_argument("--nginx-workers", default="auto", help="nginx worker_processes (default auto: one per CPU)")
    parser.add_argument("--cobol-workers", type=int, default=None, help="each replica's --cobol-workers")
    parser.add_argument("--python", default=sys.executable, help="Python for cobol-mcp-server (needs uvicorn)")
    args = parser.parse_args()
    if nginx_binary() is None:
        raise SystemExit("nginx is not installed (apt-get install nginx)")

    env = {"PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    replicas: list[Server] = []
    fronts: dict[str, Nginx] = {}
    runs: dict[str, list[Run]] = {}
    try:
        for n in range(args.replicas):
            port = free_port()
            cmd = [args.python, "-m", "cobol_mcp", "--transport", "http", "--stateless", "--port", str(port)]
            cmd += ["--log-level", "warning"]
            if args.cobol_workers:
                cmd += ["--cobol-workers", str(args.cobol_workers)]
            replicas.append(Server(f"replica {n + 1}", cmd, port, env))
        for replica in replicas:
            replica.wait_ready("/healthz")
        scratch = Path(tempfile.mkdtemp(prefix="nginx-bench-"))
        for n in range(1, args.replicas + 1):
            site = site_config(STATELESS, [r.port for r in replicas[:n]])
            front = Nginx(scratch / f"nginx-{n}", site, workers=args.nginx_workers, access_log=False)
            fronts[f"nginx, {n} replica{'s' if n > 1 else ''}"] = front
        for front in fronts.values():
            front.wait_ready()
        targets = {"direct, 1 replica": replicas[0].port, **{name: front.port for name, front in fronts.items()}}
        runs = {name: [] for name in targets}
        print(
            f"loopback, {os.cpu_count()} CPUs, {args.concurrency} keep-alive clients, nginx worker_processes "
            f"{args.nginx_workers}; {args.rounds} round(s) of {args.seconds:g} s per configuration",
            file=sys.stderr,
        )
        for round_number in range(args.rounds):
            for name, port in targets.items():
                run = window(port, args.concurrency, args)
                runs[name].append(run)
                rps = len(run.latencies) / run.elapsed
                print(f"  round {round_number + 1} {name:<20} {rps:>9.1f} req/s  errors {run.errors}", file=sys.stderr)
    finally:
        for front in fronts.values():
            front.stop()
        for replica in replicas:
            replica.stop()

    print(f"\n{'configuration':<20} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    errors = 0
    for name, done in runs.items():
        latencies = sorted(t for run in done for t in run.latencies)
        elapsed = sum(run.elapsed for run in done)
        errors += sum(run.errors for run in done)
        rps = len(latencies) / elapsed if elapsed else 0.0
        p50, p99 = percentile(latencies, 0.5) * 1e3, percentile(latencies, 0.99) * 1e3
        print(f"{name:<20} {rps:>9.1f} {p50:>8.2f} {p99:>8.2f} {sum(run.errors for run in done):>6}")
        for run in done:
            for sample in run.error_samples:
                print(f"  error sample: {sample}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
