"""What a tool's first call loads: the codec and the program's spec file, and nothing heavy besides.

A stdio server loads them just after its first reply, so their import cost is what a client that
starts the server per conversation waits for on its first tool call. Checked by which modules a fresh
interpreter holds afterwards, not by timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cobol_mcp
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.prepare.specfile import dumps

SAMPLES = Path(__file__).parent / "cobol" / "samples"

# Loaded by none of: the codec, the spec model, a spec file, encoding and decoding a call.
HEAVY = ("dataclasses", "typing", "pathlib", "inspect", "ast", "re", "pickle", "base64", "weakref", "json",
         "contextlib", "math", "signal")  # fmt: skip

FIRST_CALL = """
import sys
from cobol_mcp.cobol.prepare.specfile import load_spec
from cobol_mcp.cobol.records import codec

spec = load_spec(sys.argv[1])
arguments = eval(sys.argv[2])  # a dict of str (a literal: nothing to import)
if sys.argv[3] == "echo":  # its items are arguments and results: the initial values, and those given
    arguments = {**codec.decode_outputs(spec, [codec.initial_bytes(r.field) for r in spec.records]), **arguments}
codec.decode_outputs(spec, codec.encode_inputs(spec, arguments))
print(" ".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize(
    ("name", "arguments", "mode"),
    [
        ("add-numbers.cob", {"a": "1.10", "b": "-2"}, "call"),
        ("usage-zoo.cob", {}, "echo"),
        ("echo-all.cob", {"status_code": "active", "name": "X"}, "echo"),
    ],
)
def test_a_first_call_loads_nothing_heavy(tmp_path, name, arguments, mode):
    path = tmp_path / f"{name}.spec"
    path.write_bytes(dumps(parse_program(SAMPLES / name)))
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL, str(path), repr(arguments), mode],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "cobol_mcp.cobol.records.codec" in loaded
    assert [module for module in HEAVY if module in loaded] == []
    assert not any(
        module.startswith(("cobol_mcp.cobol.linkage.program", "cobol_mcp.cobol.source")) for module in loaded
    )
    if name == "add-numbers.cob":  # no DEPENDING ON table, no ANY LENGTH item: their modules stay out
        assert not {"cobol_mcp.cobol.records.odo", "cobol_mcp.cobol.records.anylen", "contextvars"} & loaded


def test_the_stdio_start_path_loads_neither_the_codec_nor_anything_heavy():
    """What the server imports before its first reply (the codec comes after it), started as run.sh does."""
    code = (
        f"import sys; sys.path.insert(0, {str(Path(cobol_mcp.__file__).parent.parent)!r}); "
        "import cobol_mcp.server, cobol_mcp.transports.stdio, cobol_mcp.bundled, cobol_mcp.cli; "
        "from cobol_mcp.selectloop import SelectLoop; "
        "cobol_mcp.transports.stdio.install_signals(SelectLoop(), print, print); print(' '.join(sys.modules))"
    )
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "cobol_mcp.server" in loaded
    unwanted = ("dataclasses", "typing", "pathlib", "inspect", "pickle", "contextlib", "math", "signal", "json", "re")
    assert [m for m in (*unwanted, "cobol_mcp.cobol.records.codec") if m in loaded] == []


SERVE = """
import sys
sys.path.insert(0, sys.argv.pop(1))
from cobol_mcp.cli import main
sys.exit(main())
"""


def test_a_served_first_call_imports_neither_json_nor_re():
    """Start to first tool result, through the real stdio server: `json` (whose Python half imports `re`
    and `enum`, more start-up time than the whole server) stays out; the C scanner and encoder do the
    work. What the interpreter imported is read from its -X importtime report on stderr."""
    messages = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "add", "arguments": {"a": "1.10", "b": "2.20"}}},
    ]  # fmt: skip
    text = "".join(json.dumps(m) + "\n" for m in messages)
    src = str(Path(cobol_mcp.__file__).parent.parent)
    made = subprocess.run([sys.executable, "-S", "-c", SERVE, src], input="", capture_output=True, timeout=600)
    assert made.returncode == 0, made.stderr  # the manifest is made (a warm start is what is measured)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-S", "-c", SERVE, src],
        input=text, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"structuredContent":{"sum":"3.30"}' in done.stdout, done.stdout
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "cobol_mcp.cobol.records.codec" in imported
    assert [m for m in ("json", "json.decoder", "re", "enum", "zlib", "dataclasses", "typing") if m in imported] == []
