"""The floor for stdio benchmarks: the least a Python MCP server can do for `add` (no COBOL)."""

import json
import sys
from decimal import Decimal


def reply(message):
    method = message.get("method")
    if method == "initialize":
        return {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "floor", "version": "1"},
        }
    if method == "tools/call":
        arguments = message["params"]["arguments"]
        total = str(Decimal(str(arguments["a"])) + Decimal(str(arguments["b"])))
        return {"content": [{"type": "text", "text": total}], "structuredContent": {"sum": total}}
    return {}


def main():
    write = sys.stdout.buffer.write
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        if "id" in message:
            write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": reply(message)}).encode() + b"\n")
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
