"""The bundled ADD program, compiled, for the benchmarks that drive the runtime without a server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cobol_mcp.cobol.prepare.programs import compile_programs
from cobol_mcp.cobol.records.codec import encode_inputs

ADD = Path(__file__).resolve().parent.parent / "src" / "cobol_mcp" / "programs" / "add.cob"


def compiled_add() -> tuple[Any, Any, list[int], list[bytes]]:
    """(compiled program, its spec, record sizes, the records of add(1.10, 2.20))."""
    (program,) = compile_programs(ADD)
    assert not isinstance(program, str), program
    spec = program.spec
    return program, spec, [record.size for record in spec.records], encode_inputs(spec, {"a": "1.10", "b": "2.20"})


def call_sync(runtime: Any, name: str, buffers: Any) -> Any:
    """One call run to completion on a Runtime's own loop (its CallResult)."""
    box: list[Any] = []
    runtime.submit(name, buffers, box.append)
    runtime.flush()
    while not box:
        deadline = runtime.next_deadline()
        runtime.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
        runtime.expire()
    return box[0]
