"""notifications/cancelled stops the named call: its worker is replaced and no reply is sent for it."""

import time
from pathlib import Path

import pytest

from .stdio_client import StdioClient

FAULTS = Path(__file__).resolve().parent.parent / "cobol" / "faults"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_cancel_stops_a_hung_call_and_sends_nothing_for_it(cache_dir, era):
    # one COBOL worker and a timeout longer than the test: only the cancel lets the quick call run
    with StdioClient("--programs", str(FAULTS), "--timeout", "600", "--cobol-workers", "1") as client:
        params = {"name": "endless", "arguments": {"n": 1}}
        if era == "modern":
            params["_meta"] = ENVELOPE
        else:
            client.initialize()
        client.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": params})
        time.sleep(0.3)
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": "slow", "reason": "user gave up"},
            }
        )
        quick = client.request("tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}}, id="quick")
        assert quick["id"] == "quick" and quick["result"]["structuredContent"] == {"sum": "2"}
        assert client.silent_for(0.5)  # and never a reply for "slow"
        status, out, _ = client.close()
        assert status == 0 and b'"slow"' not in out
