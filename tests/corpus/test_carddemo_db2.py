"""CardDemo's DB2 module (``app/app-transaction-type-db2``) as AWS ships it: the batch maintenance program
COBTUPDT adds, changes and deletes transaction types from an input file given per call.

Its tables come from its own ``ddl/`` members and its seed rows from ``ctl/DB2LTTYP.ctl`` (the DSNTEP4 input
of its CREADB21 job), applied by ``db apply`` as they stand; the program INCLUDEs its DCLGEN member from
``dcl/``. Expected values are read off COBTUPDT.cbl: for each record (column 1 A/U/D/*, 2-3 the type,
4-53 the description) it DISPLAYs ``PROCESSING`` and the record, then what it did; an SQLCODE it does not
take (-803 on a duplicate INSERT, +100 on an UPDATE or DELETE of no row) STRINGs a message into
WS-RETURN-MSG (never cleared: a shorter message leaves the end of a longer one), DISPLAYs it and MOVEs 4
to RETURN-CODE, and it goes on with the next record. A normal end commits what was done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from ..e2e.stdio_client import StdioClient
from .corpus import CARDDEMO, needs, writable_copy

__all__ = ["postgres_url"]  # the fixture, used by name

MODULE = CARDDEMO / "app-transaction-type-db2"
pytestmark = needs(MODULE)
ARGS = ("--no-bundled", "--cobol-workers", "1", "--timeout", "120", "--shutdown-grace", "0")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path, cache: Path) -> Iterator[tuple[StdioClient, Database]]:
    # The module as it ships, served as an application folder (cbl/, dcl/, cpy/ ...): its two BMS screens
    # are refused with their file:line, COBTUPDT is served.
    folder = writable_copy(MODULE, tmp_path / "app-transaction-type-db2")
    toml = ""
    if request.param == "sqlite":
        db = Database("sqlite", str(folder / "cobol-mcp.db"))
    else:
        url = request.getfixturevalue("postgres_url")
        toml = f'[folder]\ndatabase = "{url}"\n'
        db = Database("postgresql", url)
    (folder / "cobol-mcp.toml").write_text(toml)
    ddl = [MODULE / "ddl" / name for name in ("TRNTYPE.ddl", "TRNTYCAT.ddl", "XTRNTYPE.ddl", "XTRNTYCAT.ddl")]
    apply_files([*ddl, MODULE / "ctl" / "DB2LTTYP.ctl"], db, note=lambda line: None)
    with StdioClient(*ARGS, "--programs", str(folder), env={"COBOL_MCP_CACHE": str(cache)}) as client:
        client.initialize(timeout=900)  # a cold start compiles first
        yield client, db


def _types(db: Database) -> dict[str, str]:
    conn = connect(db)
    try:
        name = '"CARDDEMO.TRANSACTION_TYPE"' if db.kind == "sqlite" else "carddemo.transaction_type"
        cur = conn if db.kind == "sqlite" else conn.cursor()
        rows = cur.execute(f"SELECT TR_TYPE, TR_DESCRIPTION FROM {name}").fetchall()
        return {kind: description.rstrip() for kind, description in rows}
    finally:
        conn.close()


def _record(action: str, kind: str, description: str = "") -> str:
    """One 53-byte record of INPFILE: the action, the type, the description."""
    return f"{action}{kind:2}{description:50}"


def test_cobtupdt_adds_changes_and_deletes_types_with_its_own_error_branches(
    served: tuple[StdioClient, Database],
) -> None:
    client, db = served
    seeded = {
        "01": "PURCHASE",
        "02": "PAYMENT",
        "03": "CREDIT",
        "04": "AUTHORIZATION",
        "05": "REFUND",
        "06": "REVERAL",
        "07": "ADJUSTMENT",
    }  # fmt: skip  (DB2LTTYP.ctl's INSERT ... UNION ALL)
    assert _types(db) == seeded

    records = [
        _record("A", "08", "LOYALTY REWARD"),
        _record("A", "01", "PURCHASE AGAIN"),  # -803: the type is there
        _record("U", "06", "REVERSAL"),
        _record("U", "42", "NOWHERE"),  # +100
        _record("D", "07"),
        _record("D", "99"),  # +100
        _record("*", "", "A COMMENT"),
    ]
    reply = client.request(
        "tools/call", {"name": "cobtupdt", "arguments": {"files": {"INPFILE": "\n".join(records) + "\n"}}}, timeout=300
    )
    result = reply["result"]
    out: dict[str, Any] = result["structuredContent"]
    # RETURN-CODE 4 is the program's own word that a record failed: the call says so (an error result,
    # with what it DISPLAYed), and the run's changes stand, as a batch step's do at a normal end.
    assert result.get("isError") and "RETURN-CODE 4" in result["content"][0]["text"], result

    error = "Error accessing: TRANSACTION_TYPE table. SQLCODE: -803"  # WS-VAR-SQLCODE is PIC ----9
    leftover = "No records found." + error[len("No records found.") :]  # STRING over the longer message
    expected = ["OPEN FILE OK"]
    for record, said in zip(
        records,
        [
            ["ADDING RECORD", "RECORD INSERTED SUCCESSFULLY"],
            ["ADDING RECORD", error],
            ["UPDATING RECORD", "RECORD UPDATED SUCCESSFULLY"],
            ["UPDATING RECORD", leftover],
            ["DELETING RECORD", "RECORD DELETED SUCCESSFULLY"],
            ["DELETING RECORD", leftover],
            ["IGNORING COMMENTED LINE"],
        ],
        strict=True,
    ):
        expected += [f"PROCESSING   {record}", *said]
    assert [line.rstrip() for line in out["stdout"].splitlines()] == [line.rstrip() for line in expected]
    assert out["return_code"] == 4  # 9999-ABEND's MOVE 4 TO RETURN-CODE, kept to STOP RUN

    assert _types(db) == dict(
        {kind: text for kind, text in seeded.items() if kind != "07"}, **{"06": "REVERSAL", "08": "LOYALTY REWARD"}
    )
