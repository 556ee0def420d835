"""Serve MCP over Streamable HTTP: ``cobol-mcp-server --transport http``.

uvicorn runs the ASGI application of :mod:`.app`; this module turns the command line into
its settings, refuses unsafe or impossible combinations, and starts one process or, with
``--workers N`` (stateless only), N processes sharing the port. Nothing here is imported on
the stdio path.

One process stops by draining (:mod:`.stopping`). With ``--log-format json`` uvicorn's own lines,
those of any other ``logging`` logger and Python's warnings go through :mod:`cobol_mcp.log`: every
stderr line is one JSON object.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ... import log
from ...server import end_run_units, settle
from .app import ENDPOINT, McpHttpApp, Settings
from .security import is_loopback

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ...options import Options

CONFIG_ENV = "COBOL_MCP_HTTP_CONFIG"  # how worker processes receive the configuration
TOKEN_ENV = "COBOL_MCP_AUTH_TOKEN"
BOUNDS = ("max_sessions", "max_calls", "max_connections", "read_timeout", "max_head_bytes", "max_buffered_bytes")


def settings_from_args(options: Options, args: argparse.Namespace) -> Settings:
    return Settings(
        host=args.host,
        port=args.port,
        stateless=args.stateless,
        auth_token=args.auth_token,
        allow_origins=args.allow_origin,
        session_idle=args.session_idle,
        max_body_bytes=options.max_message_bytes,
        metrics=getattr(args, "metrics", False),
        **{name: getattr(args, name) for name in BOUNDS if getattr(args, name, None) is not None},
    )


def problems(settings: Settings, processes: int) -> list[str]:
    """Why these settings cannot be served (empty: they can)."""
    found = []
    if processes < 1:
        found.append("--workers must be at least 1")
    if processes > 1 and not settings.stateless:
        found.append(
            f"--workers {processes} needs --stateless: a session lives in one process, and a "
            "client's next request could reach another one (run stateless, or one process per port)"
        )
    if not 0 <= settings.port <= 65535:
        found.append(f"--port {settings.port} is not a TCP port")
    if settings.auth_token is not None and not settings.auth_token.strip():
        found.append("the bearer token is empty")
    for name in BOUNDS:
        if not getattr(settings, name) > 0:
            found.append(f"--{name.replace('_', '-')} must be more than 0")
    return found


def warnings(settings: Settings) -> list[str]:
    found = []
    if not is_loopback(settings.host) and settings.auth_token is None:
        found.append(
            f"listening on {settings.host}, reachable from other machines, with no authentication: "
            "set --auth-token (or COBOL_MCP_AUTH_TOKEN), or bind 127.0.0.1"
        )
    if settings.auth_token is not None and len(settings.auth_token) < 16:
        found.append(
            "the bearer token is shorter than 16 characters; use a long random one "
            "(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    if "*" in settings.allow_origins:
        found.append("--allow-origin '*' lets any web page call this server from a browser")
    return found


def uvicorn_options(settings: Settings, level: str, log_format: str = "text", grace: float = 30.0) -> dict[str, Any]:
    extra = {"log_config": logging_config(level)} if log_format == "json" else {}
    return {
        **extra,
        "host": settings.host,
        "port": settings.port,
        "lifespan": "on",
        "interface": "asgi3",
        "log_level": level,
        "access_log": level == "debug",
        "server_header": False,
        "proxy_headers": False,
        "timeout_graceful_shutdown": grace,  # (--workers N: uvicorn's own stop, see run_http)
        "http": _protocol(),
        "backlog": max(2048, settings.max_connections),
    }


def logging_config(level: str) -> dict[str, Any]:
    """`logging` configuration that sends uvicorn's loggers, and any other (asyncio's, the root), through
    :mod:`cobol_mcp.log` as JSON lines. A dict, so that the processes of ``--workers N`` apply it too."""
    handler = {"()": "cobol_mcp.log.logging_handler", "log_format": "json"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"cobol_mcp": handler},
        "root": {"handlers": ["cobol_mcp"], "level": "WARNING"},
        "loggers": {
            "uvicorn": {"handlers": ["cobol_mcp"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper(), "propagate": True},
            "uvicorn.access": {"level": level.upper(), "propagate": True},
        },
    }


def _protocol() -> str:
    """uvicorn's HTTP protocol: with httptools, the one that bounds heads and connections (see limits) and
    answers the common POST on a short path (see lane)."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return "auto"  # h11: its own bound on a head's size, no time bound on it
    from .fastpath import PROTOCOL

    return PROTOCOL


def run_http(options: Options, args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        log.error(
            "the HTTP transport needs uvicorn: pip install 'cobol-mcp-server[http]' "
            "(in a checkout set up by ./run.sh: .venv/bin/pip install uvicorn)"
        )
        return 1
    settings = settings_from_args(options, args)
    os.environ.pop(TOKEN_ENV, None)  # the COBOL workers inherit the environment; the token is not theirs
    processes = args.http_workers
    found = problems(settings, processes)
    if options.watch and processes > 1:
        found.append(
            f"--watch needs one process, not --workers {processes}: each would recompile on its own "
            "(reload one replica per port instead)"
        )
    if settings.metrics:
        try:
            import prometheus_client  # noqa: F401
        except ImportError:
            found.append("--metrics needs prometheus-client: pip install 'cobol-mcp-server[http]'")
    if found:
        for problem in found:
            log.error(problem)
        return 2
    for warning in warnings(settings):
        log.warning(warning)
    level = args.log_level
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    mode = "stateless" if settings.stateless else f"sessions, idle limit {settings.session_idle:g} s"
    log.info(
        f"MCP endpoint http://{host}:{settings.port}{ENDPOINT} ({mode}; {processes} process"
        f"{'es' if processes > 1 else ''}{'; bearer token required' if settings.auth_token else ''})"
    )
    from .limits import configure, raise_file_limit
    from .stopping import DrainingServer, Gate

    configure(settings)
    raise_file_limit(settings.max_connections + 1024)  # connections, COBOL worker pipes and the rest
    served = uvicorn_options(settings, level, args.log_format, options.shutdown_grace)
    if processes == 1:
        app = McpHttpApp(options, settings)
        settle()
        gate = Gate(app)
        server = DrainingServer(uvicorn.Config(gate, **served), gate, options.shutdown_grace)
        try:
            server.run()
        finally:
            end_run_units()  # whatever way the server ends: no console or batch program outlives it
        return 0 if server.started and server.clean else 1
    # N processes: each stops as uvicorn stops a server (no new connections, requests in flight get the
    # grace, then their tasks are cancelled; the application's stop kills the calls left).
    _build_once(options)  # compile in one process, not N at once; the workers find the cache warm
    options.rebuild = False
    os.environ[CONFIG_ENV] = json.dumps({"options": vars(options), "settings": vars(settings), "log_level": level})
    uvicorn.run(f"{__name__}:app_from_environment", factory=True, workers=processes, **served)
    return 0


def _build_once(options: Options) -> None:
    from ...server import build_server

    build_server(options).runtime.close()


def app_from_environment() -> McpHttpApp:
    """The application of one worker process of a multi-process server."""
    from ...options import Options

    config = json.loads(os.environ.pop(CONFIG_ENV))  # it holds the token: COBOL workers must not inherit it
    log.set_level(config["log_level"])
    settings = Settings(**config["settings"])
    from .limits import configure

    configure(settings)
    app = McpHttpApp(Options(**config["options"]), settings)
    settle()
    return app
