"""Per-call cost of a console program (a run unit: one process per call) against a CALLable
subprogram (a call into a warm worker), measured side by side in one server, in one run.

    python bench/console_cost.py [--calls N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cobol_mcp.options import Options
from cobol_mcp.server import build_server

PROGRAMS = Path(__file__).resolve().parent.parent / "tests" / "console_programs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    calls = parser.parse_args().calls
    server = build_server(Options(programs=[("console", str(PROGRAMS))]))
    loop: Any = server.runtime.loop

    def call(name: str, arguments: dict[str, Any]) -> Any:
        box: list[Any] = []
        server.catalog.call(name, arguments, box.append)
        while not box:
            loop.run_once(0.05)
        return box[0]

    cases = [
        ("add (callable, worker)", "add", {"a": "1.5", "b": "2.25"}),
        ("console_calc (run unit)", "console_calc", {"input": "1.5\n2.25"}),
    ]
    for _, name, arguments in cases:
        call(name, arguments)  # warm up
    for label, name, arguments in cases:
        start = time.perf_counter()
        for _ in range(calls):
            call(name, arguments)
        per_call = (time.perf_counter() - start) / calls
        print(f"{label:28} {per_call * 1000:8.3f} ms per call ({calls} calls)")
    server.runtime.close()


if __name__ == "__main__":
    main()
