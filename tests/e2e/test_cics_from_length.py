"""FROM(data-area) with a LENGTH beyond the item: CICS takes LENGTH bytes from the item's address.

FROMLEN (``tests/cics_programs/fromlen``) WRITEs and REWRITEs a 40-byte KSDS record FROM its 6-byte key
field with the record's LENGTH, and WRITEQ TS FROM its 20-byte name field with the name and city's
LENGTH (34), reading each back. The same call runs where the folder's database work runs in the worker
and where the server answers every command itself (``COBOL_MCP_SQL_IN_WORKER=0``), on SQLite and on
PostgreSQL: each must write the whole record and the whole item, and leave the COMMAREA as it was.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from ..db.postgres import postgres_url
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "fromlen"
TOML = """\
[[datasets]]
name = "FLCUST"
organization = "ksds"
record-length = 40
keys = [6, 0]
load = "flcust.txt"
"""
NAME, CITY = "GRACE HOPPER", "ARLINGTON"


def _folder(tmp: Path, url: str = "") -> Path:
    folder = tmp / "fromlen"
    folder.mkdir(parents=True)
    for name in ("FROMLEN.cbl", "FLCOMM.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    (folder / "cobol-mcp.toml").write_text(f'[folder]\ndatabase = "{url}"\n\n{TOML}' if url else TOML)
    (folder / "flcust.txt").write_text(f"{'A00001FIRST CUSTOMER':40s}\n")
    return folder


def _run(folder: Path, cache: Path, switch: str) -> dict[str, Any]:
    env = {"COBOL_MCP_CACHE": str(cache), "COBOL_MCP_SQL_IN_WORKER": switch}
    with StdioClient("--no-bundled", "--timeout", "120", "--shutdown-grace", "0", "--programs", str(folder),
                     env=env) as client:  # fmt: skip
        client.initialize()
        result = client.call("fromlen", fl_customer={"fl_cust_id": "C00042", "fl_cust_name": NAME,
                                                     "fl_cust_city": CITY})  # fmt: skip
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def _check(out: dict[str, Any]) -> None:
    record = f"C00042{NAME:20s}{CITY}"
    assert (out["fl_write_resp"], out["fl_write_resp2"]) == (0, 0), out  # not LENGERR 14: the whole record
    assert out["fl_read_data"] == record
    assert (out["fl_rewrite_resp"], out["fl_rewrite_resp2"]) == (0, 0), out
    assert out["fl_reread_data"] == f"C00042{NAME:20s}REWRITTEN"
    assert out["fl_ts_resp"] == 0 and out["fl_ts_len"] == 34  # the name and the city, REWRITTEN's 14 bytes
    assert out["fl_ts_data"] == f"{NAME:20s}REWRITTEN"
    assert out["fl_customer"]["fl_cust_id"] == "C00042"  # FROM's item and RIDFLD, as the program left it


@pytest.mark.parametrize("switch", ["1", "0"], ids=["worker", "server"])
def test_from_takes_length_bytes_on_sqlite(tmp_path: Path, switch: str) -> None:
    _check(_run(_folder(tmp_path), tmp_path / "cache", switch))


def test_from_takes_length_bytes_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE serverway")
    for switch, url in (("1", postgres_url), ("0", postgres_url.replace("/postgres?", "/serverway?"))):
        _check(_run(_folder(tmp_path / switch, url), tmp_path / "cache", switch))
