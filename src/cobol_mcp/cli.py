"""Command line: serve (stdio or HTTP), `call` one tool once, `check` a folder of programs."""

from __future__ import annotations

import os
import sys

from . import __version__, log

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

USAGE = """\
  cobol-mcp-server [options]                      serve MCP on stdio (what MCP clients launch)
  cobol-mcp-server --transport http [options]     serve MCP over Streamable HTTP at /mcp
  cobol-mcp-server call TOOL key=value ... [--json]
  cobol-mcp-server check --programs DIR
  cobol-mcp-server new PROGRAM-NAME [--dir DIR]      write a first program that follows the conventions
  cobol-mcp-server db apply FILE... --programs DIR [--database URL]   DB2 DDL and data into the folder's database
  cobol-mcp-server db load [DATASET...] --programs DIR     CICS datasets (re)loaded from their load files"""


def _parser(command: str) -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="cobol-mcp-server" + ("" if command == "serve" else f" {command}"),
        usage=USAGE if command == "serve" else None,
        description="An MCP server whose tools are COBOL programs compiled by GnuCOBOL.",
    )
    parser.add_argument("--version", action="version", version=f"cobol-mcp-server {__version__}")
    parser.add_argument(
        "--programs",
        action="append",
        default=[],
        metavar="[NAME=]DIR",
        help="serve every CALLable COBOL program in DIR as a tool (repeatable)",
    )
    parser.add_argument(
        "--no-bundled",
        dest="bundled",
        action="store_false",
        help="do not serve the bundled tools (add, format_currency, validate_date)",
    )
    parser.add_argument(
        "--source-format",
        choices=("free", "fixed"),
        default=None,
        help="source format of --programs sources (default: detected per file)",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per-call limit for a COBOL program (default 10)"
    )
    parser.add_argument(
        "--cobol-workers",
        dest="cobol_workers",
        type=int,
        default=None,
        metavar="N",
        help="most COBOL worker processes (default: CPU count; started on demand)",
    )
    parser.add_argument(
        "--data-dir",
        action="append",
        default=[],
        metavar="[NAME=]DIR",
        help="where console programs' files are (their working directory and COB_FILE_PATH); "
        "NAME=DIR for the --programs folder NAME only (repeatable)",
    )
    parser.add_argument(
        "--copybooks",
        action="append",
        default=[],
        metavar="DIR",
        help="also look for copybooks in DIR, for every --programs folder (repeatable; after the program's "
        "folder, its copybooks/ and the sibling ../copybook, ../copybooks, ../cpy, ../copy, ../copylib)",
    )
    parser.add_argument(
        "--dialect",
        action="append",
        default=[],
        metavar="[NAME=]STD",
        help="cobc dialect of --programs sources (cobc -std=STD: ibm, mf, mvs, ...; default: GnuCOBOL's); "
        "NAME=STD for the --programs folder NAME only (repeatable)",
    )
    parser.add_argument("--database", action="append", default=[], metavar="[NAME=]URL",
                        help="EXEC SQL programs' database (over cobol-mcp.toml): sqlite:///PATH (from the folder) "
                        "or postgresql://user@host:port/db; NAME=URL for the --programs folder NAME only")  # fmt: skip
    parser.add_argument("--cache-dir", default=None, help="build cache (default ~/.cache/cobol-mcp-server)")
    parser.add_argument("--rebuild", action="store_true", help="recompile the programs even if cached")
    if command == "serve":
        parser.add_argument(
            "--watch",
            action="store_true",
            help="recompile --programs folders on change; tell clients (tools/list_changed)",
        )
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error", "critical"))
    parser.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="stderr lines as text (default) or one JSON object each, for log shippers",
    )
    if command == "serve":
        parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
        parser.add_argument(
            "--shutdown-grace",
            type=_grace,
            default=30.0,
            metavar="SECONDS",
            help="after SIGTERM, calls in flight get this long to finish before they are killed (default 30)",
        )
        parser.add_argument(
            "--strict-lifecycle",
            action="store_true",
            help="answer requests before initialize with -32002 (default: serve them)",
        )
        parser.add_argument(
            "--max-message-bytes",
            type=int,
            default=4 << 20,
            metavar="N",
            help="longest accepted message line (default 4 MiB)",
        )
        parser.add_argument(
            "--expose-source", action="store_true", help="offer each tool's COBOL source and copybooks as MCP resources"
        )
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--stateless", action="store_true", help="HTTP: no sessions (for load balancers)")
        parser.add_argument(
            "--workers",
            "--http-workers",
            dest="http_workers",
            type=int,
            default=1,
            metavar="N",
            help="HTTP: server processes sharing the port (needs --stateless)",
        )
        parser.add_argument(
            "--auth-token",
            default=os.environ.get("COBOL_MCP_AUTH_TOKEN"),
            help="HTTP: require this bearer token (or set COBOL_MCP_AUTH_TOKEN)",
        )
        parser.add_argument(
            "--allow-origin",
            action="append",
            default=[],
            metavar="ORIGIN",
            help="HTTP: an allowed Origin besides the server's own (repeatable)",
        )
        parser.add_argument(
            "--session-idle",
            type=float,
            default=3600.0,
            metavar="SECONDS",
            help="HTTP: idle sessions end after this long (default 3600)",
        )
        parser.add_argument(
            "--metrics", action="store_true", help="HTTP: serve Prometheus metrics at /metrics (same checks as /mcp)"
        )
        parser.add_argument("--max-sessions", type=int, metavar="N", help="HTTP: open sessions at most (10000)")
        parser.add_argument(
            "--max-calls", type=int, metavar="N", help="HTTP: tool calls running or queued at most (1024)"
        )
        parser.add_argument("--max-connections", type=int, metavar="N", help="HTTP: open connections at most (2048)")
        parser.add_argument(
            "--read-timeout",
            type=float,
            metavar="SECONDS",
            help="HTTP: for a request's headers, then for its body (30)",
        )
        parser.add_argument(
            "--max-head-bytes", type=int, metavar="N", help="HTTP: request line and headers at most (65536)"
        )
        parser.add_argument(
            "--max-buffered-bytes",
            type=int,
            metavar="N",
            help="HTTP: request bodies being read, all together, at most (128 MiB)",
        )
    elif command == "call":
        parser.add_argument("tool")
        parser.add_argument(
            "arguments",
            nargs="*",
            metavar="key=value",
            help="a value is read as JSON where it parses (numbers exactly), else as text",
        )
        parser.add_argument("--json", action="store_true", help="also print the structured result as JSON")
    return parser


def _options(args: argparse.Namespace) -> Any:
    from .options import Options, backend_name

    programs = [backend_name(spec) for spec in args.programs]
    data_dir, data_dirs = None, {}
    for spec in args.data_dir:
        name, sep, folder = spec.partition("=")
        if sep and name in {backend for backend, _ in programs}:
            data_dirs[name] = folder
        elif sep and "/" not in name:
            raise SystemExit(
                f"cobol-mcp-server: --data-dir {spec}: no --programs folder is named {name!r} "
                f"(names: {', '.join(b for b, _ in programs) or 'none'})"
            )
        else:
            data_dir = spec
    dialect, dialects = _dialects(args.dialect, [backend for backend, _ in programs])
    database, databases = _databases(args.database, [b for b, _ in programs]) if args.database else (None, {})
    return Options(
        programs=programs,
        bundled=args.bundled,
        expose_source=getattr(args, "expose_source", False),
        strict_lifecycle=getattr(args, "strict_lifecycle", False),
        max_message_bytes=getattr(args, "max_message_bytes", 4 << 20),
        timeout=args.timeout,
        workers=args.cobol_workers,
        source_format=args.source_format,
        cache_dir=args.cache_dir,
        rebuild=args.rebuild,
        watch=getattr(args, "watch", False),
        data_dir=data_dir,
        data_dirs=data_dirs,
        copybooks=args.copybooks,
        dialect=dialect,
        dialects=dialects,
        database=database,
        databases=databases,
        shutdown_grace=getattr(args, "shutdown_grace", 30.0),
    )


def _databases(specs: list[str], names: list[str]) -> tuple[str | None, dict[str, str]]:
    """--database [NAME=]URL: the URL of every folder not named, and the named folders' own."""
    from .db.url import folder_databases

    try:
        return folder_databases(specs, names)
    except ValueError as exc:
        raise SystemExit(f"cobol-mcp-server: {exc}") from None


def _grace(text: str) -> float:
    import argparse
    import math

    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more seconds (0: kill calls in flight at once)")
    return seconds


def _dialects(specs: list[str], names: list[str]) -> tuple[str | None, dict[str, str]]:
    """--dialect [NAME=]STD: the default dialect and the per-folder ones, each checked now."""
    from .cobol.linkage.dialect import DialectError, load_dialect

    default, per_folder = None, {}
    for spec in specs:
        name, sep, std = spec.rpartition("=")
        try:
            load_dialect(std)
        except DialectError as exc:
            raise SystemExit(f"cobol-mcp-server: --dialect {spec}: {exc}") from None
        if sep and name not in names:
            raise SystemExit(f"cobol-mcp-server: --dialect {spec}: no --programs folder is named {name!r} "
                             f"(names: {', '.join(names) or 'none'})")  # fmt: skip
        if sep:
            per_folder[name] = std
        else:
            default = std
    return default, per_folder


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # how MCP clients usually launch it: skip argparse's import cost entirely
        from .options import Options

        try:
            return _serve_stdio(Options())
        except KeyboardInterrupt:
            return 130
    if argv[0] == "new":
        return _new(argv[1:])
    if argv[0] == "db":
        from .commands import db_command

        return db_command(argv[1:])
    command = argv[0] if argv[0] in ("call", "check") else "serve"
    args = _parser(command).parse_args(argv[1:] if command != "serve" else argv)
    log.set_level(args.log_level)
    log.set_format(args.log_format)
    try:
        if command == "call":
            from .commands import call_command

            return call_command(_options(args), args.tool, args.arguments, args.json)
        if command == "check":
            from .commands import check_command

            return check_command(_options(args))
        if args.transport == "http":
            from .transports.http.server import run_http

            return run_http(_options(args), args)
        return _serve_stdio(_options(args))
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:  # a bad --programs NAME and the like: say so, no traceback
        print(f"cobol-mcp-server: error: {exc}", file=sys.stderr)
        return 2


def _new(argv: list[str]) -> int:
    import argparse

    from .scaffold import ScaffoldError, write_program

    parser = argparse.ArgumentParser(
        prog="cobol-mcp-server new",
        description="Write a CALLable COBOL program that follows every convention "
        "of a tool and compiles as it is: a start for your first tool.",
    )
    parser.add_argument("name", metavar="PROGRAM-NAME", help="the PROGRAM-ID, e.g. ORDER-TOTAL")
    parser.add_argument("--dir", default=".", help="folder to write NAME.cob into (default: here)")
    args = parser.parse_args(argv)
    try:
        path = write_program(args.name, args.dir)
    except (ScaffoldError, OSError) as exc:
        print(f"cobol-mcp-server new: {exc}", file=sys.stderr)
        return 1
    folder = os.path.dirname(path) or "."
    print(
        f"wrote {path}\n"
        f"  check it:  cobol-mcp-server check --programs {folder}\n"
        f"  serve it:  cobol-mcp-server --programs {folder}"
    )
    return 0


def _serve_stdio(options: Any) -> int:
    from .selectloop import SelectLoop
    from .server import build_server
    from .transports import stdio

    loop = SelectLoop()
    server = build_server(options, loop)
    return stdio.run(server, loop, options)


if __name__ == "__main__":
    sys.exit(main())
