"""Streamable HTTP at /mcp (uvicorn): sessions, SSE, the stateless 2026-07-28 era, security checks.

Owns: :mod:`.server` (options to a running uvicorn), :mod:`.app` (the ASGI app: routing, lifetime),
:mod:`.context` (what the parts share: settings, server, sessions, calls, guard, body budget),
:mod:`.door` (the one admission of a POST, for both paths), :mod:`.posts` (POSTs of both eras),
:mod:`.lane` and :mod:`.fastpath` (the common POST below ASGI, a branch after the door),
:mod:`.limits` (per-connection bounds), :mod:`.stopping` (the drain at SIGTERM), :mod:`.modern` (2026-07-28 requests),
:mod:`.sessions`, :mod:`.calls` (tool calls, progress, cancel), :mod:`.security` (Origin, Host,
bearer token) and :mod:`.wire` (headers and bodies).
May import: :mod:`cobol_mcp.protocol`, :mod:`cobol_mcp.server` (to build a server per process),
:mod:`cobol_mcp.catalog`, :mod:`cobol_mcp.options` and :mod:`cobol_mcp.log`. Loaded only with ``--transport http``.
"""
