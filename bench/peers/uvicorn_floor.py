"""The floor for HTTP benchmarks: the least a uvicorn app can do for `tools/call add` (no MCP, no COBOL).

One ASGI callable: read the body, parse it, add the two decimals, answer JSON. Whatever an MCP
server built on uvicorn does, it cannot answer faster than this in the same run.
"""

import argparse
import json
from decimal import Decimal

import uvicorn

HEADERS = [(b"content-type", b"application/json")]


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["method"] == "POST":
        request = json.loads(body)
        arguments = request["params"]["arguments"]
        total = str(Decimal(arguments["a"]) + Decimal(arguments["b"]))
        result = {"content": [{"type": "text", "text": total}], "structuredContent": {"sum": total}}
        reply = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}).encode()
    else:
        reply = b"{}"
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": reply})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8002)
    args = parser.parse_args()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        server_header=False,
        proxy_headers=False,
    )
