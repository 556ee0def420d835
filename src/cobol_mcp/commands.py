"""`call` (run one tool once, for people and shell scripts) and `check` (a CI step for COBOL; it also
shows each LINKAGE item's direction and the reason for it)."""

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

        for _, folder in options.programs:
            for warning in unresolved_calls(Path(folder), options.source_format):
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
