"""A fault in the server's own code is a -32603 reply with a short message; the traceback goes to stderr."""

import json
import os

from cobol_mcp.catalog import Catalog
from cobol_mcp.options import Options
from cobol_mcp.protocol.model import ServerModel
from cobol_mcp.selectloop import SelectLoop
from cobol_mcp.transports.stdio import StdioServer


class BrokenTool:
    name = "broken"

    def definition(self):
        return {"name": "broken", "inputSchema": {"type": "object"}}

    def start(self, arguments, done):
        raise RuntimeError("a bug, not the caller's fault")

    def cancel(self, handle):
        return False

    def warm(self):
        pass


class IdleRuntime:
    busy = False
    waiting = 0
    last_flush = 0.0

    def start(self):
        pass

    def next_deadline(self):
        return None

    def flush(self):
        pass

    def expire(self):
        pass


class FakeServer:
    def __init__(self):
        self.catalog = Catalog()
        self.catalog.add_backend("test", [BrokenTool()])
        self.model = ServerModel("t", "1", tuple(self.catalog.definitions()))
        self.runtime = IdleRuntime()


def test_tool_fault_is_internal_error_and_serving_continues(capfd):
    stdin_read, stdin_write = os.pipe()
    stdout_read, stdout_write = os.pipe()
    os.write(
        stdin_write,
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"broken"}}\n'
        b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    )
    os.close(stdin_write)
    loop = SelectLoop()
    status = StdioServer(FakeServer(), loop, Options(), stdin_fd=stdin_read, stdout_fd=stdout_write).serve()
    os.close(stdout_write)
    replies = [json.loads(line) for line in os.read(stdout_read, 1 << 16).splitlines()]
    assert status == 0
    assert replies[0]["id"] == 1 and replies[0]["error"]["code"] == -32603
    assert "Traceback" not in replies[0]["error"]["message"]
    assert replies[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert "a bug, not the caller's fault" in capfd.readouterr().err
