"""Live reload over real pipes: a change recompiles in the background, the new tool set is swapped in
and announced with tools/list_changed; a program that stops compiling keeps its last good version."""

from __future__ import annotations

import os
import select
import time
from decimal import Decimal
from pathlib import Path

import pytest

from .stdio_client import StdioClient

pytest.importorskip("watchfiles")

RATE = """\
000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID. APPLY-RATE.
000300*    {description}
000400 DATA DIVISION.
000500 LINKAGE SECTION.
000600 01  RATE-REQUEST.
000700     05  PRINCIPAL           PIC S9(9)V99.
000800     05  RATE-PCT            PIC 9(3)V99.
000900 01  RATE-RESULT.
001000     05  INTEREST            PIC S9(9)V99.
001100 PROCEDURE DIVISION USING RATE-REQUEST RATE-RESULT.
001200     COMPUTE INTEREST ROUNDED = PRINCIPAL * RATE-PCT / {divisor}
001300     GOBACK.
"""

GREET = """\
000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID. GREET.
000300*    Say hello to someone by name.
000400 DATA DIVISION.
000500 LINKAGE SECTION.
000600 01  GREET-IN.
000700     05  WHO                 PIC X(20).
000800 01  GREET-OUT.
000900     05  GREETING            PIC X(40).
001000 PROCEDURE DIVISION USING GREET-IN GREET-OUT.
001100     STRING "Hello, " DELIMITED BY SIZE
001200            WHO DELIMITED BY "  " INTO GREETING
001300     GOBACK.
"""


def wait_stderr(client: StdioClient, text: str, seen: list[str], timeout: float = 120.0) -> None:
    """Read the server's stderr until a line holds `text` (a hang guard, not a timing)."""
    deadline = time.monotonic() + timeout
    while not any(text in line for line in seen):
        left = deadline - time.monotonic()
        assert left > 0, f"no {text!r} on stderr; saw {seen}"
        ready, _, _ = select.select([client.proc.stderr], [], [], left)
        if ready:
            chunk = os.read(client.proc.stderr.fileno(), 1 << 16).decode(errors="replace")
            assert chunk, f"the server closed stderr; saw {seen}"
            seen.extend(chunk.splitlines())


def write(path: Path, text: str) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)  # one event, the way editors save


def test_changes_are_recompiled_swapped_in_and_announced(tmp_path, cache_dir):
    folder = tmp_path / "cobol"
    folder.mkdir()
    write(folder / "RATE.CBL", RATE.format(description="Interest on a principal at a yearly rate.", divisor=100))
    with StdioClient("--watch", "--no-bundled", "--programs", str(folder), "--log-level", "info") as client:
        seen: list[str] = []
        reply = client.initialize()
        assert reply["result"]["capabilities"]["tools"] == {"listChanged": True}
        wait_stderr(client, "watching", seen)
        assert client.call("apply_rate", principal=1000, rate_pct="2.5")["structuredContent"] == {
            "interest": Decimal("25.00")
        }

        write(folder / "GREET.CBL", GREET)  # a new program: a new tool
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        names = [tool["name"] for tool in client.request("tools/list")["result"]["tools"]]
        assert names == ["greet", "apply_rate"]  # the folder's order: GREET.CBL, RATE.CBL
        assert client.call("greet", who="Grace")["structuredContent"] == {"greeting": "Hello, Grace"}

        write(folder / "RATE.CBL", RATE.replace("COMPUTE", "COMPUTE-IT").format(description="x", divisor=100))
        wait_stderr(client, "not reloaded", seen)  # cobc's message, and the last good version stays
        assert any("RATE.CBL" in line for line in seen)
        assert client.call("apply_rate", principal=1000, rate_pct="2.5")["structuredContent"] == {
            "interest": Decimal("25.00")
        }

        write(folder / "RATE.CBL", RATE.format(description="Monthly interest at a yearly rate.", divisor=1200))
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
        assert tools["apply_rate"]["description"] == "Monthly interest at a yearly rate."
        assert client.call("apply_rate", principal=1200, rate_pct="10")["structuredContent"] == {
            "interest": Decimal("10.00")
        }  # the new module answers

        status, _, _ = client.close()
        assert status == 0


def test_without_watch_the_list_is_fixed(cache_dir):
    with StdioClient() as client:
        assert client.initialize()["result"]["capabilities"]["tools"] == {}


def test_a_reload_says_the_warning_of_a_copy_written_for_another_machine_once(tmp_path, cache_dir):
    folder = tmp_path / "cobol"
    folder.mkdir()
    write(folder / "RATE.CBL", RATE.format(description="Interest on a principal at a yearly rate.", divisor=100))
    with StdioClient("--watch", "--no-bundled", "--programs", str(folder), "--log-level", "info") as client:
        seen: list[str] = []
        client.initialize()
        wait_stderr(client, "watching", seen)
        write(folder / "GREETIN.CPY", "000100 01  GREET-IN.\n000200     05  WHO                 PIC X(20).\n")
        greet = GREET.replace("000600 01  GREET-IN.\n000700     05  WHO                 PIC X(20).\n", "")
        greet = greet.replace(
            "000500 LINKAGE SECTION.\n", "000500 LINKAGE SECTION.\n       COPY 'DD:SYSLIB(GREETIN)'.\n"
        )
        write(folder / "GREET.CBL", greet)
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        assert client.call("greet", who="Grace")["structuredContent"] == {"greeting": "Hello, Grace"}
        wait_stderr(client, "names a file of another machine", seen)
        write(folder / "RATE.CBL", RATE.format(description="Monthly interest at a yearly rate.", divisor=1200))
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        status, _, rest = client.close()
        assert status == 0
        said = [line for line in [*seen, *rest.decode().splitlines()] if "names a file of another machine" in line]
        assert len(said) == 1 and f'{folder / "GREET.CBL"}:6: COPY "DD:SYSLIB(GREETIN)"' in said[0]


def test_an_application_folder_is_watched_in_its_program_and_copybook_folders(tmp_path, cache_dir):
    app = tmp_path / "app"
    (app / "cbl").mkdir(parents=True)
    (app / "jcl").mkdir()
    (app / "greet" / "cbl").mkdir(parents=True)  # a module's folder, empty at the start
    write(app / "cbl" / "RATE.cbl", RATE.format(description="Interest on a principal at a yearly rate.", divisor=100))
    import subprocess
    import sys

    built = subprocess.run(  # compiled first, so the server's start reads it (no compile within its first reply)
        [sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(app)],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    with StdioClient("--watch", "--no-bundled", "--programs", str(app), "--log-level", "info") as client:
        seen: list[str] = []
        client.initialize()
        wait_stderr(client, "watching", seen)
        assert any("programs from cbl (1)" in line for line in seen)
        write(app / "greet" / "cbl" / "GREET", GREET)  # a module's program, a member without an ending
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        names = [tool["name"] for tool in client.request("tools/list")["result"]["tools"]]
        assert names == ["apply_rate", "greet"]
        assert client.call("greet", who="Ada")["structuredContent"] == {"greeting": "Hello, Ada"}
        status, _, _ = client.close()
        assert status == 0
