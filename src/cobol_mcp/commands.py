"""`call` (run one tool once, for people and shell scripts), `check` (a CI step for COBOL; it also
shows each LINKAGE item's direction and the reason for it) and `db` (`apply` DB2 DDL and data to a
folder's database, `load` its CICS datasets anew)."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from typing import Any

from .cobol.console_tool import ConsoleTool
from .cobol.linkage.model import Field, ProgramSpec
from .cobol.tool import CobolTool
from .jsontext import dumps, dumps_pretty
from .options import Options
from .server import build_server

_decode = json.JSONDecoder(parse_float=Decimal).decode


def parse_arguments(pairs: list[str], schema: dict[str, Any]) -> dict[str, Any]:
    """`key=value` pairs; a value is JSON where it parses, except for string-only properties."""
    arguments: dict[str, Any] = {}
    properties = schema.get("properties", {})
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            raise ValueError(f"argument {pair!r} is not key=value")
        if properties.get(key, {}).get("type") == "string":
            arguments[key] = text
            continue
        try:
            arguments[key] = _decode(text)
        except ValueError:
            arguments[key] = text
    return arguments


def call_command(options: Options, tool: str, pairs: list[str], as_json: bool) -> int:
    server = build_server(options)
    try:
        found = server.catalog.tool(tool)
        schema = found.definition()["inputSchema"] if found else {}
        try:
            arguments = parse_arguments(pairs, schema)
        except ValueError as exc:
            print(f"cobol-mcp-server call: {exc}", file=sys.stderr)
            return 2
        box: list[Any] = []
        server.catalog.call(tool, arguments, box.append)
        while not box:
            server.runtime.run_once(0.05)
            server.runtime.expire()
        result = box[0]
        if isinstance(result, BaseException):
            print(f"cobol-mcp-server call: internal error: {result!r}", file=sys.stderr)
            return 2
        for block in result.get("content", []):
            if block.get("type") == "text":
                print(block["text"])
        if as_json and "structuredContent" in result:
            print(dumps(result["structuredContent"]))
        return 1 if result.get("isError") else 0
    finally:
        server.runtime.close()


def directions_report(spec: ProgramSpec, variant: str | None = None) -> list[str]:
    """One line per elementary LINKAGE item: its path, direction and the reason for it; an argument that
    is required and reported back also says how to make it a result only (``variant``: in the table of
    the tool variant ``[programs.PROGRAM.tools.VARIANT]``)."""
    table = f"programs.{spec.program_id}" + (f".tools.{variant}" if variant else "")
    items: list[tuple[str, Field]] = []

    def walk(f: Field, path: str) -> None:
        if not f.exposed and f.level not in (1, 77):
            return
        path = f"{path}.{f.name}" if path else f.name
        if f.is_group:
            for child in f.children:
                walk(child, path)
        else:
            items.append((path, f))

    for record in spec.records:
        walk(record.field, "")
    names = [f.name.upper() for _, f in items]
    lines = []
    for path, f in items:
        shown = _SHOWN.get(f.direction, f.direction) + (", optional" if f.optional else "")
        line = f"  {path}: {shown} - {f.reason or 'by its name'}"
        if f.direction == "inout" and not f.optional:
            key = f.name if names.count(f.name.upper()) == 1 else f'"{path}"'
            line += (f'; a required argument, reported back (to change: direction = "out" or "in" under '
                     f"[{table}.fields.{key}] in cobol-mcp.toml)")  # fmt: skip
        lines.append(line)
    return lines


_SHOWN = {"in": "in", "out": "out", "inout": "in/out", "none": "unused"}


def check_command(options: Options) -> int:
    """Compile and derive every program; print the tool list with schemas; fail on any error."""
    server = build_server(options, say_skipped=False)  # each error is listed below, once
    try:
        print(dumps_pretty({"tools": list(server.model.tools)}))
        for name in server.catalog.names:
            tool = server.catalog.tool(name)
            if isinstance(tool, ConsoleTool):
                print(tool.summary(), file=sys.stderr)
                report = getattr(tool.services, "report", None)  # EXEC SQL: its statements
                for line in report() if report is not None else []:
                    print(line, file=sys.stderr)
            elif tool is not None:
                inputs = ", ".join(tool.definition()["inputSchema"].get("properties", {})) or "none"
                variant = tool.variant if isinstance(tool, CobolTool) else None
                via = f" ({tool.program_id}, tools.{variant})" if isinstance(tool, CobolTool) and variant else ""
                print(f"{name}: callable{via}, inputs: {inputs}", file=sys.stderr)
                if isinstance(tool, CobolTool) and not tool.bundled:  # your programs, not the bundled three
                    for line in directions_report(tool.spec, tool.variant):
                        print(line, file=sys.stderr)
                    report = getattr(tool.services, "report", None)  # EXEC SQL: its statements
                    for line in report() if report is not None else []:
                        print(line, file=sys.stderr)
        from pathlib import Path

        from .cobol.prepare.calls import unresolved_calls
        from .cobol.prepare.discover import folder_layout

        for _, folder in options.programs:
            layout = folder_layout(Path(folder))  # an application folder's programs are in its subfolders
            found = None if layout.flat else layout.sources()
            for warning in unresolved_calls(Path(folder), options.source_format, found):
                print(f"warning: {warning}", file=sys.stderr)
        for message in server.errors:
            print(f"error: {message}", file=sys.stderr)
        if server.errors:
            print(f"{len(server.errors)} program(s) could not be served", file=sys.stderr)
            return 1
        print(f"{len(server.model.tools)} tool(s) ready", file=sys.stderr)
        return 0
    finally:
        server.runtime.close()


def db_command(argv: list[str]) -> int:
    """`db apply FILE...` and `db load [DATASET...]` on a programs folder's database."""
    import argparse
    from pathlib import Path

    from .cobol import LinkageError
    from .cobol.prepare.overrides import read_overrides
    from .db.url import database

    parser = argparse.ArgumentParser(
        prog="cobol-mcp-server db",
        description="The database of a --programs folder: `apply` runs DB2 DDL and data (SPUFI input) in it, "
        "all in one transaction; `load` defines the folder's CICS datasets (cobol-mcp.toml's [[datasets]]) anew "
        "and loads them from their load files, replacing their records.",
    )
    parser.add_argument("action", choices=("apply", "load"))
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE|DATASET",
        help="apply: DB2 SQL files (statements ended by ';', -- comments); "
        "load: the datasets to load (default: every one with a load file)",
    )
    parser.add_argument(
        "--programs", required=True, metavar="[NAME=]DIR", help="the programs folder the database is for"
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="[NAME=]URL",
        help="sqlite:///PATH (relative to DIR) or postgresql://user@host:port/db "
        "(default: cobol-mcp.db in the folder's data directory, else in DIR)",
    )
    parser.add_argument(
        "--data-dir", default=None, metavar="[NAME=]DIR", help="the folder's data directory (--data-dir)"
    )
    # The folder's other options, as the server and `check` take them: one command line serves for all
    for option, metavar in (("--copybooks", "DIR"), ("--dialect", "[NAME=]STD")):
        parser.add_argument(option, action="append", default=[], metavar=metavar,
                            help="accepted as the server takes it (the database does not depend on it)")  # fmt: skip
    parser.add_argument("--source-format", choices=("free", "fixed"), default=None, help="accepted, as --dialect")
    args = parser.parse_args(argv)
    name, sep, path = args.programs.partition("=")
    folder = Path(path if sep and "/" not in name else args.programs)
    if not folder.is_dir():
        print(f"cobol-mcp-server db: --programs {folder}: not a folder", file=sys.stderr)
        return 2
    if args.action == "apply" and not args.files:
        parser.error("apply needs at least one FILE")

    def own(value: str | None) -> str | None:  # NAME=VALUE for this folder's name, or a bare value
        if value is None or not sep or value.startswith(("sqlite:", "postgresql:", "postgres:")):
            return value
        given, named, rest = value.partition("=")
        return rest if named and given == name else value

    try:
        settings = read_overrides(folder).settings
        url = own(args.database) or settings.get("database")
        db = database(url, folder, own(args.data_dir) or settings.get("data-dir"))
        if args.action == "load":
            return _db_load(folder, db, args.files, settings.get("datasets"))
        from .db.apply import ApplyError, apply_files

        try:
            count = apply_files([Path(f) for f in args.files], db)
        except ApplyError as exc:
            raise ValueError(str(exc)) from None
    except (ValueError, LinkageError) as exc:
        done = "applied" if args.action == "apply" else "loaded"
        print(f"cobol-mcp-server db {args.action}: {exc}; nothing was {done}", file=sys.stderr)
        return 1
    print(f"applied {count} statement(s) to {db.target if db.kind == 'sqlite' else 'the PostgreSQL database'}")
    return 0


def _db_load(folder: Any, db: Any, names: list[str], toml: str | None) -> int:
    """`db load [DATASET...]`: the datasets of the folder's cobol-mcp.toml defined anew and loaded."""
    import tomllib
    from pathlib import Path

    from .db.cics.fct import parse_datasets, reload_datasets

    if toml is None:
        raise ValueError(f"{folder}/cobol-mcp.toml defines no [[datasets]]")
    text = Path(toml).read_text(encoding="utf-8")
    defs = parse_datasets(tomllib.loads(text).get("datasets", []), Path(toml), text, folder)
    if names:
        known = {d.name.upper(): d for d in defs}
        missing = [n for n in names if n.upper() not in known]
        if missing:
            raise ValueError(f"{toml}: no [[datasets]] named {', '.join(missing)} (names: "
                             f"{', '.join(d.name for d in defs) or 'none'})")  # fmt: skip
        defs = [known[n.upper()] for n in dict.fromkeys(names)]
    else:
        defs = [d for d in defs if d.load is not None]
    counts = reload_datasets(db, defs)
    where = db.target if db.kind == "sqlite" else "the PostgreSQL database"
    for d in defs:
        print(
            f"loaded {d.name}: {counts[d.name]} record(s) from {d.load}" if d.load else f"defined {d.name} anew, empty"
        )
    print(f"{len(counts)} dataset(s) defined anew in {where}")
    return 0
