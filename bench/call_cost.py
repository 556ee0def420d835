"""Where the server's CPU per pipelined `tools/call add` goes, in one run.

    python bench/call_cost.py [--server ./run.sh] [--calls N] [--rounds R]

1. Through the real server (stdio, pipelined, N messages at once): the main process's CPU per `ping`
   (what any request costs: read, parse, route, reply, write) and per `add` call, and its COBOL
   worker's, from /proc/PID/stat.
2. The worker runtime alone (no protocol, no codec): submit prebuilt records, take the replies.
3. The tool's own steps in-process (no pipes): the request read into a ToolCall, the arguments
   checked and encoded up to the runtime, the reply decoded and presented. A loop of calls keeps
   them in the caches, so these are lower bounds.

Medians over the rounds. The server's figure per call is what caps pipelined throughput: compare it
with the parts, and with a peer's CPU per request from ../shared/bench/mcpbench.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from worker_cost import cpu_seconds

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=str(ROOT / "run.sh"))
    parser.add_argument("--calls", type=int, default=30000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    served: dict[str, list[float]] = {"ping": [], "add": [], "add, worker": []}
    runtime: list[float] = []
    for _ in range(args.rounds):
        main_cpu, _ = pipelined(args.server.split(), "ping", args.calls)
        served["ping"].append(main_cpu)
        main_cpu, worker_cpu = pipelined(args.server.split(), "add", args.calls)
        served["add"].append(main_cpu)
        served["add, worker"].append(worker_cpu)
        runtime.append(runtime_alone(args.calls))
    print(f"{'through the server, pipelined (CPU per message)':58s}")
    print(f"  {'ping: main process':56s} {statistics.median(served['ping']):6.1f} us")
    print(f"  {'add: main process':56s} {statistics.median(served['add']):6.1f} us")
    print(f"  {'add: its COBOL worker':56s} {statistics.median(served['add, worker']):6.1f} us")
    print(f"  {'the worker runtime alone (submit to reply, no protocol)':56s} {statistics.median(runtime):6.1f} us")
    print("the tool's steps in-process (warm: lower bounds)")
    for name, cost in stages().items():
        print(f"  {name:56s} {cost:6.1f} us")


def pipelined(command: list[str], method: str, count: int) -> tuple[float, float]:
    """(main process, worker) CPU microseconds per message for `count` messages written at once."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    first = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": "1", "b": "2"}},
        },
    ]
    proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in first))
    proc.stdin.flush()
    proc.stdout.readline()
    proc.stdout.readline()  # the worker is up and the codec loaded
    messages = []
    for n in range(count):
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": n + 2, "method": method}
        if method == "add":
            message |= {
                "method": "tools/call",
                "params": {"name": "add", "arguments": {"a": f"{n % 1000}.25", "b": "2.2"}},
            }
        messages.append(json.dumps(message).encode() + b"\n")
    blob = b"".join(messages)
    workers = children(proc.pid)
    main_before, workers_before = cpu_seconds(proc.pid), [cpu_seconds(pid) for pid in workers]
    writer = threading.Thread(target=lambda: (proc.stdin.write(blob), proc.stdin.flush()))  # type: ignore[union-attr]
    writer.start()
    for _ in range(count):
        line = proc.stdout.readline()
        assert b'"error"' not in line and b'"isError"' not in line, line
    writer.join()
    main_cpu = cpu_seconds(proc.pid) - main_before
    worker_cpu = sum(cpu_seconds(pid) - before for pid, before in zip(workers, workers_before, strict=True))
    proc.stdin.close()
    proc.wait(60)
    return main_cpu * 1e6 / count, worker_cpu * 1e6 / count


def runtime_alone(count: int) -> float:
    """The parent's CPU microseconds per call of the runtime, driven as the stdio loop drives it."""
    from bundled_add import call_sync, compiled_add

    from cobol_mcp.cobol.prepare.driver import build_driver
    from cobol_mcp.cobol.prepare.native_worker import build_worker
    from cobol_mcp.cobol.runtime.pool import Runtime

    program, spec, sizes, buffers = compiled_add()
    worker = build_worker()
    runtime = Runtime(max_workers=1, timeout=30, worker=str(worker) if worker else None, defer_writes=True)
    runtime.load("add", program.module, spec.entry_symbol, sizes, driver=build_driver(), program_id=spec.program_id)
    try:
        call_sync(runtime, "add", buffers)
        done = [0]

        def finished(result: Any) -> None:
            done[0] += 1

        started, sent = time.process_time(), 0
        while done[0] < count:
            if sent < count and runtime.waiting < 512:
                for _ in range(min(500, count - sent)):
                    runtime.submit("add", buffers, finished)
                sent = min(count, sent + 500)
            runtime.flush()
            runtime.run_once(0.01)
            runtime.expire()
        return (time.process_time() - started) * 1e6 / count
    finally:
        runtime.close()


def stages(count: int = 20000) -> dict[str, float]:
    """In-process CPU microseconds of the steps of one add call, the runtime replaced by a recorder."""
    from cobol_mcp.cobol.runtime.frames import CallResult
    from cobol_mcp.options import Options
    from cobol_mcp.protocol.session import Session
    from cobol_mcp.server import build_server

    server = build_server(Options())
    session = Session(server.model)
    tool: Any = server.catalog.tool("add")
    submitted: list[Any] = []

    class Recorder:
        def submit(self, name: str, buffers: list[bytes], callback: Any, timeout: Any = None) -> int:
            submitted[:] = [buffers, callback]
            return 1

    tool.runtime = Recorder()
    line = (
        b'{"jsonrpc":"2.0","id":12345,"method":"tools/call",'
        b'"params":{"name":"add","arguments":{"a":"123.25","b":"2.20"}}}'
    )
    call: Any = session.receive(line)
    results: list[Any] = []
    server.catalog.call("add", call.arguments, results.append, 1)
    buffers, callback = submitted
    reply = CallResult(True, 0, [buffers[0], b"00000000000000000000000000012545000000"], "")
    callback(reply)
    assert b'"sum":"125.45"' in session.tool_result(call, results[-1])

    def timed(step: Callable[[], object]) -> float:
        step()
        started = time.process_time()
        for _ in range(count):
            step()
        return (time.process_time() - started) * 1e6 / count

    try:
        costs = {
            "the request line read into a ToolCall (session.receive)": timed(lambda: session.receive(line)),
            "arguments checked and encoded, up to the runtime": timed(
                lambda: server.catalog.call("add", call.arguments, results.append, 1)
            ),
        }
        # A call's flight takes one reply only; the tool's own callback (without a flight) takes many.
        tool.start(call.arguments, results.append)
        finished = submitted[1]
        costs["the reply's records decoded, presented, the line made"] = timed(
            lambda: (finished(reply), session.tool_result(call, results.pop()))
        )
        return costs
    finally:
        server.runtime.close()


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(child) for child in handle.read().split()]


if __name__ == "__main__":
    main()
