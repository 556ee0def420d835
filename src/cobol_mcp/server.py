"""Assemble a server from options: backends of COBOL programs, one catalog, one runtime."""

from __future__ import annotations

from . import __version__, log, manifest
from .catalog import Catalog
from .cobol.runtime.pool import Runtime
from .cobol.tool import CobolTool
from .options import SERVER_NAME
from .protocol.model import Resource, ServerModel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .cobol.console_tool import ConsoleTool
    from .cobol.prepare.entries import Entry, SqlEntry
    from .cobol.runtime.pool import ReaderLoop
    from .cobol.tool import Presentation
    from .manifest import Manifest
    from .options import Options


class Server:
    def __init__(
        self,
        model: ServerModel,
        catalog: Catalog,
        runtime: Runtime,
        errors: list[str],
        options: Options | None = None,
        found: Manifest | None = None,
    ) -> None:
        self.model = model
        self.catalog = catalog
        self.runtime = runtime
        self.errors = errors  # programs that could not be served, one message each
        self.options = options
        self.found = found  # the manifest the tools were built from

    def reload(self, found: Manifest) -> bool:
        """Serve the tools of a newly made manifest: a new catalog and tools list, swapped in at once.
        A program that no longer compiles keeps its last good version. Calls in flight finish on the
        module they started with. Returns whether the tools list changed."""
        assert self.options is not None and self.found is not None
        found = keep_last_good(self.found, found)
        found.pop("call_folder", None)  # the kept entries may differ from the new manifest's: make it again
        catalog = build_catalog(found, self.runtime, self.options)
        self.runtime.set_library_path([manifest.call_folder(found, self.options)])
        for message in found["errors"]:
            log.error(f"not reloaded: {message}")
        for message in found["warnings"]:
            if message not in self.found["warnings"]:  # said once, at the reload that brought it
                log.warning(message)
        definitions = tuple(catalog.definitions())
        changed = definitions != self.model.tools
        self.catalog, self.found, self.errors = catalog, found, list(found["errors"])
        self.model.instructions = skipped_text(self.errors)
        if changed:
            self.model.replace_tools(definitions)
        return changed


def keep_last_good(old: Manifest, new: Manifest) -> Manifest:
    """``new`` with the old entry of every program whose source the new scan failed on."""
    failed = [message for message in new["errors"]]
    backends: dict[str, list[Entry]] = {}
    for name, entries in new["backends"].items():
        names = {entry["tool_name"] for entry in entries}
        kept = [
            entry
            for entry in old["backends"].get(name, [])
            if entry["tool_name"] not in names and entry["kind"] == "callable" and _failed(entry["source"], failed)
        ]
        backends[name] = [*entries, *kept]
    merged = new.copy()
    merged["backends"] = backends
    return merged


def _failed(source: str, messages: list[str]) -> bool:
    return bool(source) and any(message.startswith(f"{source}:") for message in messages)


def build_catalog(found: Manifest, runtime: Runtime, options: Options) -> Catalog:
    catalog = Catalog()
    presentations: dict[str, Presentation] = {}
    for name, entries in found["backends"].items():
        if any(entry["bundled"] for entry in entries):
            from .bundled import PRESENTATIONS

            presentations = PRESENTATIONS
        tools: list[CobolTool | ConsoleTool] = []
        folder_sql: dict[str, Any] = {}  # PROGRAM-ID -> the folder's EXEC SQL programs, prepared (sqlbridge.served)
        folder_cics: dict[str, Any] = {}  # PROGRAM-ID -> the folder's CICS programs' commands (sqlbridge.cics_worker)
        # CALLable programs of a folder with EXEC SQL ones may CALL them: their calls get a session too (the C
        # worker's: the Python worker serves no exchange)
        callers_sql = found["worker"] is not None and any(entry.get("sql") for entry in entries)
        refused = _database_refused(name, entries, found, options)
        if refused is not None:
            found["errors"].append(refused)
        for entry in entries:
            if refused is not None and (entry.get("sql") or entry.get("cics")):
                continue  # (the one message above says why)
            timeout = float(entry["timeout"]) if "timeout" in entry else options.timeout  # (read back exact: a Decimal)
            if entry["kind"] == "console":
                # Loaded only when a folder has console programs: it brings subprocess and tempfile,
                # which a server of CALLable programs does not need at start-up.
                from .cobol.console_tool import ConsoleTool

                data_dir = options.data_dir_for(name) or found["folders"][name]["data_dir"]  # --data-dir wins
                batch = None
                if entry.get("sql"):  # a DB2 batch program: its statements are answered while it runs
                    url = options.database_for(name) or found["folders"][name]["database"]
                    batch = _sql_services(entry["sql"], url, data_dir, None, found["errors"], folder_sql,
                                          found["folders"][name].get("sql"))  # fmt: skip
                    if batch is None:
                        continue
                elif entry.get("sql_calls"):  # no EXEC SQL of its own: the subprograms' it CALLs
                    from .sqlbridge.served import FolderSql

                    batch = FolderSql(folder_sql)
                tools.append(ConsoleTool(entry, runtime.loop, timeout=timeout, data_dir=data_dir, services=batch,
                                         library_path=manifest.call_folder(found, options)))  # fmt: skip
            else:
                presentation = presentations.get(entry["tool_name"]) if entry["bundled"] else None
                if entry.get("channel") and entry.get("cics"):  # a channel-style CICS program: its containers
                    from .sqlbridge.cics_channel_tool import ChannelTool

                    presentation = ChannelTool(entry["channel"], entry["program_id"])
                services = None
                if entry.get("sql"):  # EXEC SQL: prepared against the folder's database now, or refused
                    data_dir = options.data_dir_for(name) or found["folders"][name]["data_dir"]
                    url = options.database_for(name) or found["folders"][name]["database"]
                    services = _sql_services(entry["sql"], url, data_dir, runtime, found["errors"], folder_sql,
                                             found["folders"][name].get("sql"))  # fmt: skip
                    if services is None:
                        continue
                elif callers_sql and not entry.get("cics") and not entry["bundled"]:
                    from .sqlbridge.served import FolderSql

                    services = FolderSql(folder_sql, runtime)
                if entry.get("cics"):  # EXEC CICS: its folder's datasets created now, or refused
                    data_dir = options.data_dir_for(name) or found["folders"][name]["data_dir"]
                    settings = found["folders"][name]
                    url = options.database_for(name) or settings.get("database")
                    services = _cics_services(entry, url, data_dir, settings.get("datasets"),
                                              runtime, found["errors"], services, folder_sql, folder_cics)  # fmt: skip
                    if services is None:
                        continue
                tool = CobolTool(entry, runtime, backend=name, timeout=timeout, presentation=presentation,
                                 services=services)  # fmt: skip
                if entry.get("cics") and services is not None:  # it runs the transactions STARTed for its program
                    services.serve_started(tool, plain=not entry.get("variant"))
                tools.append(tool)
        catalog.add_backend(name, tools)
    return catalog


def _database_refused(name: str, entries: list[Any], found: Manifest, options: Options) -> str | None:
    """Why the database of backend ``name``'s EXEC SQL and CICS programs can be neither opened nor created,
    naming where it was given (--database, the folder's cobol-mcp.toml, or the default file); None: it can,
    or no program of the folder needs it."""
    used = next((entry.get("sql") or entry.get("cics") for entry in entries if entry.get("sql") or entry.get("cics")),
                None)  # fmt: skip
    if used is None:
        return None
    from pathlib import Path

    from .db.url import database, unusable

    settings = found["folders"][name]
    given, url = options.database_for(name), settings.get("database")
    data_dir = options.data_dir_for(name) or settings["data_dir"]
    folder = Path(used["folder"])
    try:
        why = unusable(database(given or url, folder, data_dir))
    except ValueError:
        return None  # (a bad URL: each program's load says so)
    if why is None:
        return None
    if given:
        where = f"--database {given}"
    elif url:
        where = f"{folder / 'cobol-mcp.toml'}: [folder] database = {url!r}"
    else:
        where = f"the folder's database {database(None, folder, data_dir).target}"
    return f"{where}: the database cannot be opened or created: {why}"


def _sql_services(
    sql: SqlEntry,
    url: str | None,
    data_dir: str | None,
    runtime: Runtime | None,
    errors: list[str],
    folder: dict[str, Any] | None = None,
    sql_options: Any = None,
) -> Any:
    """The program's SQL prepared against its folder's database, or None with the reason in ``errors``
    (``runtime``: a callable program's, whose statements run off its reply loop; None for a run unit's,
    whose statements run on its channel's thread); it joins ``folder``, the folder's programs whose
    statements one call may reach. Loaded only for a folder with EXEC SQL programs (the database drivers
    are not on the start-up path)."""
    from .cobol import LinkageError
    from .sqlbridge.served import load_served

    try:
        return load_served(sql, url, data_dir, runtime, folder, sql_options)
    except (LinkageError, OSError, ValueError) as exc:
        _refused(errors, str(exc))
        return None


def _cics_services(
    entry: Any,
    url: str | None,
    data_dir: str | None,
    datasets: str | None,
    runtime: Runtime,
    errors: list[str],
    sql: Any = None,
    folder: dict[str, Any] | None = None,
    cics: dict[str, Any] | None = None,
) -> Any:
    """The CICS program's runtime on its folder's database and datasets (with ``sql``, its EXEC SQL's
    prepared program: one unit of work for both), or None with the reason in ``errors``."""
    from .cobol import LinkageError
    from .sqlbridge.cics_served import load_cics

    try:
        return load_cics(entry["cics"], entry["program_id"], url, data_dir, datasets, runtime, sql, folder, cics)
    except (LinkageError, OSError, ValueError) as exc:
        _refused(errors, str(exc))
        return None


def _refused(errors: list[str], message: str) -> None:
    """Add a program's refusal to ``errors``, naming the user's files, once (each of its tool variants
    meets the same one)."""
    from .cobol.source.copybooks import user_paths

    message = user_paths(message)
    if message not in errors:
        errors.append(message)


def build_server(options: Options, loop: ReaderLoop | None = None, *, say_skipped: bool = True) -> Server:
    """The server of ``options``; ``say_skipped``: log each program that could not be served (`check`
    lists them itself)."""
    found = None if options.rebuild else manifest.load(options)
    if found is None:
        found = manifest.make(options)
    runtime = Runtime(
        loop,
        max_workers=options.workers,
        timeout=options.timeout,
        defer_writes=loop is not None,
        spin=options.worker_spin,
        library_path=[manifest.call_folder(found, options)],
        worker=found["worker"],
    )
    catalog = build_catalog(found, runtime, options)
    for settings in found["folders"].values():  # an application folder: what was found where
        for line in settings.get("layout", ()):
            log.info(line)
    for message in found["warnings"]:
        log.warning(message)
    for message in found["errors"] if say_skipped else ():
        log.error(f"skipped: {message}")
    model = ServerModel(
        name=SERVER_NAME,
        version=__version__,
        title="COBOL MCP server",
        instructions=skipped_text(found["errors"]),
        tools=tuple(catalog.definitions()),
        resources=tuple(
            Resource(uri, name, "text/x-cobol", text, description)
            for uri, name, text, description in found["resources"]
        ),
        list_changed=options.watch,
        reloadable=options.watch,
    )
    return Server(model, catalog, runtime, list(found["errors"]), options, found)


SKIPPED_SHOWN = 5  # messages in the instructions at most, each cut at SKIPPED_CHARS
SKIPPED_CHARS = 300


def skipped_text(errors: list[str]) -> str | None:
    """The programs that could not be served, told where a client sees them (the initialize result's
    instructions; stderr is hidden by most desktop clients): short and bounded, None when all are served."""
    if not errors:
        return None
    shown = [e if len(e) <= SKIPPED_CHARS else e[: SKIPPED_CHARS - 3] + "..." for e in errors[:SKIPPED_SHOWN]]
    more = f"\n- and {len(errors) - SKIPPED_SHOWN} more" if len(errors) > SKIPPED_SHOWN else ""
    lines = "\n".join(f"- {e}" for e in shown)
    return (
        f"{len(errors)} COBOL program(s) could not be served and are not among the tools:\n{lines}{more}\n"
        "`cobol-mcp-server check --programs DIR` shows why in full."
    )


GC_THRESHOLD = 20_000  # allocations between young-generation collections (Python's default: 700)


def settle() -> None:
    """Once a server is built: what start-up made lives as long as the process, so it is kept out of
    the cyclic collector's scans; a call makes a few short-lived objects that reference counting
    frees (cycles are rare), so young collections run less often (~7% of the CPU of a stdio call)."""
    import gc

    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def end_run_units() -> int:
    """Kill the process group of every console or batch program still running (the server is going
    away); how many. Nothing is imported when no run unit was ever started."""
    import sys

    rununit = sys.modules.get("cobol_mcp.cobol.runtime.rununit")
    return 0 if rununit is None else int(rununit.kill_all())
