"""The official MCP Python SDK's Streamable HTTP server with an equivalent `add` tool.

The peer of bench/http_bench.py: run it with a Python that has the `mcp` package (2.x) and
uvicorn, e.g. `venv/bin/python bench/peers/sdk_http_server.py --port 8001 --stateless --json`.
It is served by uvicorn with the same settings as cobol-mcp-server's HTTP transport.
"""

from __future__ import annotations

import argparse
from decimal import Decimal

import uvicorn
from mcp.server import MCPServer

mcp = MCPServer("sdk-http-add", log_level="WARNING")  # INFO would log a line per request


@mcp.tool()
def add(a: str, b: str) -> str:
    """Add two decimal numbers given as strings; returns the exact decimal sum."""
    return str(Decimal(a) + Decimal(b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--stateless", action="store_true", help="stateless_http=True (no sessions)")
    parser.add_argument("--json", action="store_true", help="json_response=True (no SSE)")
    args = parser.parse_args()
    app = mcp.streamable_http_app(stateless_http=args.stateless, json_response=args.json, host=args.host)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        server_header=False,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
