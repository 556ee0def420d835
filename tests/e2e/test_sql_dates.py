"""Dates, times and timestamps in every string form DB2 takes: ``terms.sql`` (defaults and seed rows in
ISO, USA, EUR and JIS forms, timestamps as ``yyyy-mm-dd hh:mm:ss``) applied, then POLTERM
(tests/sql_programs/dates) adds a policy term from USA and EUR host variables and compares with a USA
literal and an EUR host variable, on SQLite and PostgreSQL, with its statements run in the C worker and
by the server; a folder's ``date-format`` gives the dates back in that form. Expected values are
worked out from terms.sql."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.catalog import read_catalog
from cobol_mcp.db.connection import connect
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit

from ..db.postgres import postgres_url
from .database_folder import prepare_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs" / "dates"
TERMS = Path(__file__).parents[1] / "db" / "terms.sql"


@pytest.fixture(params=["sqlite", "postgresql"])
def folder(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, Any]]:
    programs = tmp_path / "terms"
    programs.mkdir()
    shutil.copy(PROGRAMS / "POLTERM.cbl", programs)
    yield programs, prepare_database(request, programs, ddl=(TERMS,))


def _serve(programs: Path, cache: Path, in_worker: bool) -> StdioClient:
    env = {"COBOL_MCP_CACHE": str(cache), "COBOL_MCP_SQL_IN_WORKER": "1" if in_worker else "0"}
    return StdioClient("--no-bundled", "--timeout", "120", "--shutdown-grace", "0", "--programs", str(programs),
                       env=env)  # fmt: skip


def _term(client: StdioClient, function: str, number: int, issue: str = "", expiry: str = "") -> dict[str, Any]:
    result = client.call("polterm", ls_function=function, ls_policy_no=number, ls_issue_date=issue,
                         ls_expiry_date=expiry)  # fmt: skip
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


@pytest.mark.parametrize("in_worker", [True, False], ids=["in-worker", "by-server"])
def test_dates_in_usa_and_eur_forms_are_stored_and_compared_as_dates(
    folder: tuple[Path, Any], tmp_path: Path, in_worker: bool
) -> None:
    programs, _ = folder
    with _serve(programs, tmp_path / "cache", in_worker) as client:
        client.initialize()
        assert _term(client, "A", 10, "08/15/2012", "14.08.2013")["ls_sqlcode"] == 0
        added = _term(client, "I", 10)
        assert (added["ls_out_issue"], added["ls_out_expiry"]) == ("2012-08-15", "2013-08-14")
        seeded = _term(client, "I", 2)  # '9/1/2011', '2012-08-31'
        assert (seeded["ls_out_issue"], seeded["ls_out_expiry"]) == ("2011-09-01", "2012-08-31")
        assert _term(client, "I", 4)["ls_out_expiry"] == "9999-12-31"  # WITH DEFAULT '12/31/9999'
        # issued from 1/1/2011 on and expiring before 1 January 2013: policies 1 and 2 (3 was issued in 2010,
        # 4 and 10 expire later)
        assert _term(client, "C", 0, expiry="01.01.2013")["ls_count"] == 2
        assert _term(client, "C", 0, expiry="12/31/2013")["ls_count"] == 3  # and 10, expiring 2013-08-14


@pytest.mark.parametrize("form", ["USA", "EUR"])
def test_a_folder_date_format_gives_dates_back_in_that_form(
    folder: tuple[Path, Any], tmp_path: Path, form: str
) -> None:
    programs, _ = folder
    toml = programs / "cobol-mcp.toml"
    toml.write_text((toml.read_text() if toml.exists() else "[folder]\n") + f'date-format = "{form}"\n')
    with _serve(programs, tmp_path / "cache", True) as client:
        client.initialize()
        seeded = _term(client, "I", 1)  # '2011-08-22', '21.08.2012'
        expected = {"USA": ("08/22/2011", "08/21/2012"), "EUR": ("22.08.2011", "21.08.2012")}[form]
        assert (seeded["ls_out_issue"], seeded["ls_out_expiry"]) == expected


def test_times_and_timestamps_come_back_as_the_time_format_says(folder: tuple[Path, Any]) -> None:
    _, db = folder
    sql = "SELECT START_TIME, LAST_CHANGED, ISSUE_DATE FROM TERMS.POLICY_TERM WHERE POLICY_NO = ? ORDER BY 1"

    class Row:
        number, kind, name, line = 1, "SELECT INTO", None, 1
        text = sql.replace("FROM", "INTO :T, :S, :D FROM").replace("?", ":K")

    expected = {  # terms.sql: policy 3 starts at '4:45 PM', changed '2010-12-30 16:45:30.5', issued '12/30/2010'
        ("ISO", "ISO"): ("16.45.00", "2010-12-30-16.45.30.500000", "2010-12-30"),
        ("USA", "USA"): ("04:45 PM", "2010-12-30-16.45.30.500000", "12/30/2010"),
        ("EUR", "JIS"): ("16:45:00", "2010-12-30-16.45.30.500000", "30.12.2010"),
    }
    for formats, (time, stamp, date) in expected.items():
        conn = connect(db)
        unit = Unit(prepare_plan([Row()], db.kind, read_catalog(conn, db.kind), formats=formats), conn)
        out = unit.execute(1, {"K": 3})
        unit.end(True)
        assert out.sqlca.sqlcode == 0
        assert (out.sets["T"], out.sets["S"], out.sets["D"]) == (time, stamp, date), formats
