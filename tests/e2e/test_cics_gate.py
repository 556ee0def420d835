"""A CICS call that holds its database stops no other call, through the real stdio server, on SQLite (the
worker's way and the server's) and PostgreSQL.

TASKGATE (``tests/cics_programs/gate``) writes a TS queue item, so its unit of work holds SQLite's write
lock (PostgreSQL: the row's), then waits for a file the test writes before it returns and commits. While
it waits, the server must answer a ping and a call that needs a new block of task numbers (the holder
took the last of the first block): reserving them must not wait for the holder's lock.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.cics import tasks
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import prepare_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "gate"
WAYS = [("sqlite", "1"), ("sqlite", "0"), ("postgresql", "1")]


@pytest.fixture(params=WAYS, ids=["sqlite-worker", "sqlite-server", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    kind, in_worker = request.param
    folder = tmp_path / "gate"
    folder.mkdir()
    for name in ("TASKGATE.cbl", "GATECOMM.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    request.param = kind  # (prepare_database reads the kind there)
    db = prepare_database(request, folder)
    env = {"COBOL_MCP_CACHE": str(tmp_path / "cache"), "COBOL_MCP_SQL_IN_WORKER": in_worker}
    args = ("--no-bundled", "--cobol-workers", "2", "--timeout", "600", "--shutdown-grace", "0",
            "--programs", str(folder))  # fmt: skip
    with StdioClient(*args, env=env) as client:
        client.initialize()
        yield client, db


def _arguments(request: str, signals: Path | None = None) -> dict[str, Any]:
    return {"gt_request": request, "gt_dir": str(signals or "")}


def _number(client: StdioClient) -> int:
    result = client.call("taskgate", **_arguments("NUM"))
    assert not result.get("isError"), result
    number: int = result["structuredContent"]["gt_taskn"]
    return number


def _queue(db: Database) -> list[bytes]:
    conn = connect(db)
    try:
        cur = conn if db.kind == "sqlite" else conn.cursor()
        sql = "SELECT data FROM cics_ts_items WHERE queue = " + ("?" if db.kind == "sqlite" else "%s")
        return [bytes(row[0]).rstrip() for row in cur.execute(sql, ["GATEQ"]).fetchall()]
    finally:
        conn.close()


def test_task_numbers_are_reserved_while_a_call_holds_the_write_lock(
    served: tuple[StdioClient, Database], tmp_path: Path
) -> None:
    client, db = served
    first = [_number(client) for _ in range(tasks.BLOCK - 1)]  # the first block but its last number
    assert first == list(range(first[0], first[0] + tasks.BLOCK - 1))
    signals = tmp_path / "signals"
    signals.mkdir()
    client.send({"jsonrpc": "2.0", "id": "held", "method": "tools/call",
                 "params": {"name": "taskgate", "arguments": _arguments("HLD", signals)}})  # fmt: skip
    guard = time.monotonic() + 120  # (a guard against a hang, not a measure)
    while not (signals / "HELD").exists():
        assert time.monotonic() < guard, "the holder never wrote its queue item"
        time.sleep(0.01)
    # the holder took the block's last number: the next call's comes from a new block, reserved as the call
    # comes in (it may then wait behind the holder for its worker), and the server goes on answering
    client.send({"jsonrpc": "2.0", "id": "next", "method": "tools/call",
                 "params": {"name": "taskgate", "arguments": _arguments("NUM")}})  # fmt: skip
    client.send({"jsonrpc": "2.0", "id": "ping", "method": "ping"})
    replies: dict[str, dict[str, Any]] = {}
    while "ping" not in replies:
        reply = client.read(timeout=120)
        replies[reply["id"]] = reply
    assert replies["ping"]["result"] == {}
    assert _queue(db) == []  # (not committed yet: the holder still holds)
    (signals / "RELEASE").write_text("RELEASE\n")
    while len(replies) < 3:
        reply = client.read(timeout=120)
        replies[reply["id"]] = reply
    assert "result" in replies["next"] and "result" in replies["held"], replies
    after, held = replies["next"]["result"], replies["held"]["result"]
    assert not after.get("isError") and not held.get("isError"), replies
    assert after["structuredContent"]["gt_taskn"] == first[0] + tasks.BLOCK
    assert held["structuredContent"]["gt_taskn"] == first[0] + tasks.BLOCK - 1
    assert held["structuredContent"]["gt_resp"] == 0
    assert _queue(db) == [b"HELD"]


TIMEOUT = 5  # the commit test's call timeout: the call reaches its commit long before, the commit waits past it
GATE_KEY = 31_031  # the advisory lock the commit's trigger waits for, held by the test
GATE_TRIGGER = f"""
CREATE FUNCTION gate_commit() RETURNS trigger LANGUAGE plpgsql SET lock_timeout = 0 AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared({GATE_KEY});
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER gate_commit AFTER INSERT ON cics_ts_items DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION gate_commit();
"""


def test_a_commit_that_outlasts_the_call_timeout_answers_with_its_outcome(tmp_path: Path, postgres_url: str) -> None:
    """TASKGATE PUT writes a queue item and returns; its worker is let commit, and the commit waits (a
    deferred trigger asks for a lock the test holds) until after the call's timeout. The answer is the
    commit's outcome: the call succeeded, its item is there (not "timed out" over a committed item)."""
    import psycopg

    folder = tmp_path / "gate"
    folder.mkdir()
    for name in ("TASKGATE.cbl", "GATECOMM.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    (folder / "cobol-mcp.toml").write_text(f'[folder]\ndatabase = "{postgres_url}"\n')
    db = Database("postgresql", postgres_url)
    env = {"COBOL_MCP_CACHE": str(tmp_path / "cache"), "COBOL_MCP_SQL_IN_WORKER": "1"}
    args = ("--no-bundled", "--cobol-workers", "1", "--timeout", str(TIMEOUT), "--shutdown-grace", "0",
            "--programs", str(folder))  # fmt: skip
    with StdioClient(*args, env=env) as client, psycopg.connect(postgres_url, autocommit=True) as gate:
        client.initialize()  # (the folder's CICS tables are made as it loads)
        gate.execute(GATE_TRIGGER)
        gate.execute("SELECT pg_advisory_lock(%s)", [GATE_KEY])
        client.send({"jsonrpc": "2.0", "id": "put", "method": "tools/call",
                     "params": {"name": "taskgate", "arguments": _arguments("PUT")}})  # fmt: skip
        guard = time.monotonic() + 120  # (a guard against a hang, not a measure)
        while not gate.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").fetchone()[
            0
        ]:
            assert client.silent_for(0.01), "the call ended before its commit began"
            assert time.monotonic() < guard, "the call's commit never began"
        time.sleep(TIMEOUT)  # the call's timeout passes while its commit waits (the timeout counts from its start)
        gate.execute("SELECT pg_advisory_unlock(%s)", [GATE_KEY])
        reply = client.read()
    assert reply["id"] == "put" and not reply["result"].get("isError"), reply
    assert reply["result"]["structuredContent"]["gt_resp"] == 0
    assert _queue(db) == [b"HELD"]
