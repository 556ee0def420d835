"""The DDL and seed rows of public applications, as their owners ship them, through ``db apply`` on SQLite
and PostgreSQL: GenApp's ``base/cntl/db2cre.jcl`` (the SQL of its DSNTIAD steps cut out of the job as a DBA
would, with the names its install macro fills in), and CardDemo's DB2 module (its ``ddl/`` members and its
``ctl/`` SPUFI input). Read from ``../shared/corpus``; skipped, saying so, where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from .postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture, used by name

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
GENAPP = CORPUS / "genapp" / "base" / "cntl" / "db2cre.jcl"
CARDDEMO = CORPUS / "carddemo" / "app" / "app-transaction-type-db2"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if not CORPUS.is_dir():
        pytest.skip(f"the public applications are not at {CORPUS}")
    if request.param == "sqlite":
        return Database("sqlite", str(tmp_path / "app.db"))
    return Database("postgresql", request.getfixturevalue("postgres_url"))


def _in_stream_sql(jcl: str) -> str:
    """The in-stream SYSIN data of a job's steps (``//SYSIN DD *`` up to ``/*`` or the next statement)."""
    out, inside = [], False
    for line in jcl.splitlines():
        if inside and line.startswith(("/*", "//")):
            inside = False
        elif inside:
            out.append(line)
        elif line.startswith("//SYSIN ") and line.split()[1:3] == ["DD", "*"]:
            inside = True
    return "\n".join(out) + "\n"


def _counts(db: Database, tables: list[str]) -> list[int]:
    conn = connect(db)
    try:
        found = []
        for table in tables:
            name = f'"{table}"' if db.kind == "sqlite" else table.lower()
            found.append(int(conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]))
        return found
    finally:
        conn.close()


def test_genapps_db2cre_applies_as_cut_out_of_the_job(db: Database, tmp_path: Path) -> None:
    sql = _in_stream_sql(GENAPP.read_text()).replace("<DB2DBID>", "GENASA1").replace("<SQLID>", "IBMUSER")
    script = tmp_path / "db2cre.sql"
    script.write_text(sql)
    notes: list[str] = []
    apply_files([script], db, note=notes.append)
    assert any("skipped GRANT" in n for n in notes) and any("skipped CREATE STOGROUP" in n for n in notes)
    tables = ["CUSTOMER", "CUSTOMER_SECURE", "POLICY", "ENDOWMENT", "HOUSE", "MOTOR", "COMMERCIAL", "CLAIM"]
    # db2cre.jcl's INSERTs: 10 customers with their secure rows, 10 policies, 2 endowment, 3 house,
    # 3 motor, 2 commercial, no claim
    assert _counts(db, [f"GENASA1.{t}" for t in tables]) == [10, 10, 10, 2, 3, 3, 2, 0]
    conn = connect(db)
    try:  # its timestamps, written 'yyyy-mm-dd hh:mm:ss', are timestamps
        sql = 'SELECT LASTCHANGED FROM "GENASA1.POLICY" WHERE POLICYNUMBER = 1' if db.kind == "sqlite" else (
            "SELECT CAST(lastchanged AS TEXT) FROM genasa1.policy WHERE policynumber = 1")  # fmt: skip
        stamp = str(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()
    assert stamp == ("2011-05-11-17.12.17.000000" if db.kind == "sqlite" else "2011-05-11 17:12:17")


def test_carddemos_db2_module_applies_as_shipped(db: Database) -> None:
    ctl = CARDDEMO / "ctl"
    apply_files([ctl / "DB2CREAT.ctl", ctl / "DB2LTTYP.ctl", ctl / "DB2LTCAT.ctl"], db, note=lambda line: None)
    tables = ["CARDDEMO.TRANSACTION_TYPE", "CARDDEMO.TRANSACTION_TYPE_CATEGORY"]
    # DB2LTTYP.ctl loads 7 types; DB2LTCAT.ctl 18 categories
    assert _counts(db, tables) == [7, 18]


def test_carddemos_ddl_members_apply_parent_first(db: Database) -> None:
    ddl = CARDDEMO / "ddl"
    apply_files([ddl / "TRNTYPE.ddl", ddl / "TRNTYCAT.ddl", ddl / "XTRNTYPE.ddl", ddl / "XTRNTYCAT.ddl"], db,
                note=lambda line: None)  # fmt: skip
    assert _counts(db, ["CARDDEMO.TRANSACTION_TYPE", "CARDDEMO.TRANSACTION_TYPE_CATEGORY"]) == [0, 0]
