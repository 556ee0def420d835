"""``db apply`` of what DBAs write beyond CREATE and INSERT (txntypes.sql): ``/* */`` comments, ``FOREIGN
KEY name (…)``, ``ALTER TABLE … FOREIGN KEY`` without ADD, and rows loaded from SYSIBM.SYSDUMMY1 with a
correlation name SQLite reserves; the keys are enforced afterwards, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.db.apply import ApplyError, apply_files
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from .postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture, used by name

TXNTYPES = Path(__file__).parent / "txntypes.sql"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        return Database("sqlite", str(tmp_path / "shop.db"))
    return Database("postgresql", request.getfixturevalue("postgres_url"))


def _count(db: Database, table: str) -> int:
    conn = connect(db)
    try:
        name = f'"SHOP.{table}"' if db.kind == "sqlite" else f"shop.{table.lower()}"
        return int(conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0])
    finally:
        conn.close()


def test_a_dbas_script_runs_and_its_keys_hold(db: Database, tmp_path: Path) -> None:
    assert apply_files([TXNTYPES], db, note=lambda line: None) == 7
    assert [_count(db, t) for t in ("TXN_TYPE", "TXN_CAT", "TXN_NOTE")] == [2, 3, 1]
    orphan = tmp_path / "orphan.sql"
    orphan.write_text("INSERT INTO SHOP.TXN_NOTE VALUES ('09', 'NO SUCH TYPE');\n")
    with pytest.raises(ApplyError, match=r"orphan\.sql:1: SQLCODE -530"):  # the key ALTER TABLE added
        apply_files([orphan], db, note=lambda line: None)
    restricted = tmp_path / "restricted.sql"
    restricted.write_text("DELETE FROM SHOP.TXN_TYPE WHERE TT_CODE = '01';\n")
    with pytest.raises(ApplyError, match=r"restricted\.sql:1: SQLCODE -532"):  # TC_TYPE_FK: ON DELETE RESTRICT
        apply_files([restricted], db, note=lambda line: None)
    assert [_count(db, t) for t in ("TXN_TYPE", "TXN_CAT", "TXN_NOTE")] == [2, 3, 1]
