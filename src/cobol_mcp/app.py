"""Assemble a server from options: backends of COBOL programs, one catalog, one runtime."""

from __future__ import annotations

import os

from . import __version__, log, manifest
from .catalog import Catalog
from .cobol.runtime import Runtime
from .cobol.tool import CobolTool
from .protocol.session import Resource, ServerModel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

SERVER_NAME = "cobol-mcp-server"
BUNDLED_BACKEND = "cobol"
PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


class Options:
    """What shapes the server (the command line's choices)."""

    def __init__(self, *, programs: list[tuple[str, str | Path]] | None = None, bundled: bool = True,
                 expose_source: bool = False, strict_lifecycle: bool = False, max_message_bytes: int = 4 << 20,
                 timeout: float = 10.0, workers: int | None = None, source_format: str | None = None,
                 cache_dir: str | Path | None = None, rebuild: bool = False, worker_spin: float = 0.0003) -> None:
        self.programs = [(name, str(folder)) for name, folder in programs or []]  # (backend name, folder)
        self.bundled = bundled
        self.expose_source = expose_source
        self.strict_lifecycle = strict_lifecycle
        self.max_message_bytes = max_message_bytes
        self.timeout = timeout
        self.workers = workers
        self.source_format = source_format
        self.cache_dir = cache_dir
        self.rebuild = rebuild
        # After a reply a worker polls this long for its next call before sleeping: waking a process
        # costs more than a COBOL call. It yields the CPU between polls, so it never holds up others.
        self.worker_spin = worker_spin


class Server:
    def __init__(self, model: ServerModel, catalog: Catalog, runtime: Runtime, errors: list[str]) -> None:
        self.model = model
        self.catalog = catalog
        self.runtime = runtime
        self.errors = errors  # programs that could not be served, one message each


def backend_name(spec: str) -> tuple[str, str]:
    """`NAME=PATH` or `PATH` (named after the folder)."""
    name, sep, path = spec.partition("=")
    if not sep:
        return os.path.basename(os.path.abspath(spec)), spec
    return name, path


def build_server(options: Options, loop: object | None = None) -> Server:
    found = None if options.rebuild else manifest.load(options)
    if found is None:
        found = manifest.make(options)
    runtime = Runtime(loop, max_workers=options.workers, timeout=options.timeout, defer_writes=loop is not None,
                      spin=options.worker_spin)
    catalog = Catalog()
    presentations: dict[str, object] = {}
    for name, entries in found["backends"].items():
        if any(entry["bundled"] for entry in entries):
            from .bundled import PRESENTATIONS

            presentations = PRESENTATIONS  # type: ignore[assignment]
        tools = [
            CobolTool(entry, runtime, backend=name, timeout=options.timeout,
                      presentation=presentations.get(entry["tool_name"]) if entry["bundled"] else None)  # type: ignore[arg-type]
            for entry in entries
        ]
        catalog.add_backend(name, tools)  # type: ignore[arg-type]
    for message in found["errors"]:
        log.error(f"skipped: {message}")
    model = ServerModel(
        name=SERVER_NAME,
        version=__version__,
        title="COBOL MCP server",
        tools=tuple(catalog.definitions()),
        resources=tuple(Resource(uri, name, "text/x-cobol", text, description)
                        for uri, name, text, description in found["resources"]),
    )
    return Server(model, catalog, runtime, list(found["errors"]))
