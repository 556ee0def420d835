"""Assemble a server from options: backends of COBOL programs, one catalog, one runtime."""

from __future__ import annotations

from . import __version__, log, manifest
from .catalog import Catalog
from .cobol.console_tool import ConsoleTool
from .cobol.runtime.pool import Runtime
from .cobol.tool import CobolTool
from .options import SERVER_NAME
from .protocol.model import Resource, ServerModel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .cobol.tool import Presentation
    from .options import Options

class Server:
    def __init__(self, model: ServerModel, catalog: Catalog, runtime: Runtime, errors: list[str]) -> None:
        self.model = model
        self.catalog = catalog
        self.runtime = runtime
        self.errors = errors  # programs that could not be served, one message each


def build_server(options: Options, loop: object | None = None) -> Server:
    found = None if options.rebuild else manifest.load(options)
    if found is None:
        found = manifest.make(options)
    runtime = Runtime(loop, max_workers=options.workers, timeout=options.timeout, defer_writes=loop is not None,
                      spin=options.worker_spin)
    catalog = Catalog()
    presentations: dict[str, Presentation] = {}
    for name, entries in found["backends"].items():
        if any(entry["bundled"] for entry in entries):
            from .bundled import PRESENTATIONS

            presentations = PRESENTATIONS
        tools: list[CobolTool | ConsoleTool] = [
            ConsoleTool(entry, runtime.loop, timeout=options.timeout, data_dir=options.data_dir)
            if entry.get("kind") == "console" else
            CobolTool(entry, runtime, backend=name, timeout=options.timeout,
                      presentation=presentations.get(entry["tool_name"]) if entry["bundled"] else None)
            for entry in entries
        ]
        catalog.add_backend(name, tools)
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
