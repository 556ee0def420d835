"""Datasets, units and resources for the CICS resource tests, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cobol_mcp.db.cics.fct import DatasetDef, create_datasets, parse_datasets
from cobol_mcp.db.cics.resources import Resources
from cobol_mcp.db.prepare import Plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database

FCT = """
[[datasets]]
name = "CUSTFILE"
organization = "ksds"
record-length = 20
keys = [4, 0]
load = "customers.txt"

[[datasets]]
name = "AUDITLOG"
organization = "esds"
record-length = [5, 30]

[[datasets]]
name = "SLOTS"
organization = "rrds"
record-length = 10
"""
CUSTOMERS = b"0001ALICE\n0003CAROL\n0005EVE\n0100ZED\n"
Open = Callable[..., Resources]


def datasets(folder: Path) -> list[DatasetDef]:
    (folder / "customers.txt").write_bytes(CUSTOMERS)
    return parse_datasets(tomllib.loads(FCT)["datasets"], folder / "cobol-mcp.toml", FCT, folder)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        return Database("sqlite", str(tmp_path / "cics.db"))
    return Database("postgresql", request.getfixturevalue("postgres_url"))


@pytest.fixture
def fct(db: Database, tmp_path: Path) -> dict[str, DatasetDef]:
    defs = datasets(tmp_path)
    assert create_datasets(db, defs) == ["CUSTFILE", "AUDITLOG", "SLOTS"]
    return {d.name: d for d in defs}


@pytest.fixture
def units(db: Database, fct: dict[str, DatasetDef]) -> Iterator[Open]:
    """Opens one tool call's resources (a unit of work on its own connection)."""
    opened: list[Resources] = []

    def open_unit(**options: object) -> Resources:
        res = Resources(Unit(Plan(db.kind, {}), connect(db, **options)), fct)  # type: ignore[arg-type]
        opened.append(res)
        return res

    yield open_unit
    for res in opened:
        with contextlib.suppress(Exception):  # already ended by the test
            res.end(False)
