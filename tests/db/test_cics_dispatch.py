"""The resource commands as the CICSRT runtime hands them over: options by name in, options to set out."""

from __future__ import annotations

import pytest

from cobol_mcp.db.cics import result as r
from cobol_mcp.db.cics.dispatch import COMMANDS, run

from .cics_fixtures import Open, db, fct, units

__all__ = ["db", "fct", "units"]


def test_file_commands_by_their_options(units: Open) -> None:
    res = units()
    out, sets = run(res, "READ", {"FILE": b"CUSTFILE", "RIDFLD": b"0003", "INTO": 20, "LENGTH": 12})
    assert (out.resp, out.resp2, sets) == (r.LENGERR, 11, {"INTO": b"0003CAROL   ", "LENGTH": 20})
    out, sets = run(res, "STARTBR", {"FILE": "CUSTFILE", "RIDFLD": b"0002"})  # GTEQ unless EQUAL
    assert out.ok and sets == {}
    out, sets = run(res, "READNEXT", {"FILE": "CUSTFILE", "RIDFLD": b"0002", "INTO": 20})
    assert sets == {"INTO": b"0003CAROL".ljust(20), "RIDFLD": b"0003"}
    assert run(res, "STARTBR", {"FILE": "CUSTFILE", "RIDFLD": b"0002", "EQUAL": True, "REQID": 1})[0].resp2 == 80
    assert run(res, "ENDBR", {"FILE": "CUSTFILE"})[0].ok
    out, sets = run(res, "WRITE", {"FILE": "AUDITLOG", "FROM": b"FIRST LINE  ", "LENGTH": 10, "RIDFLD": bytes(4)})
    assert out.ok and sets == {"RIDFLD": bytes(4)}  # the first record's RBA: 0
    out, sets = run(res, "WRITE", {"FILE": "AUDITLOG", "FROM": b"NEXT", "RIDFLD": bytes(4)})
    assert sets == {"RIDFLD": (10).to_bytes(4, "big")}
    out, sets = run(res, "READ", {"FILE": "AUDITLOG", "RIDFLD": (10).to_bytes(4, "big"), "INTO": 30, "LENGTH": 30})
    assert sets == {"INTO": b"NEXT", "LENGTH": 4}
    assert run(res, "WRITE", {"FILE": "SLOTS", "FROM": b"SLOT THREE", "RIDFLD": (3).to_bytes(4, "big")})[0].ok
    assert run(res, "READ", {"FILE": "SLOTS", "RIDFLD": (3).to_bytes(4, "big"), "INTO": 10})[1] == {
        "INTO": b"SLOT THREE"
    }
    out, sets = run(res, "DELETE", {"FILE": "CUSTFILE", "RIDFLD": b"00", "KEYLENGTH": 2, "GENERIC": True, "NUMREC": 0})
    assert sets == {"NUMREC": 3}


def test_queue_and_counter_commands_by_their_options(units: Open) -> None:
    res = units()
    out, sets = run(
        res, "WRITEQ TS", {"QUEUE": b"ERRQ    ", "FROM": b"ERROR 1", "ITEM": 0, "NUMITEMS": 0, "MAIN": True}
    )
    assert out.ok and sets == {"ITEM": 1, "NUMITEMS": 1}
    out, sets = run(res, "READQ TS", {"QNAME": b"ERRQ".ljust(16), "INTO": 80, "NEXT": True, "NUMITEMS": 0})
    assert sets == {"INTO": b"ERROR 1", "NUMITEMS": 1}
    assert run(res, "DELETEQ TS", {"QUEUE": b"ERRQ    "})[0].ok
    assert run(res, "READQ TS", {"QUEUE": b"ERRQ    ", "INTO": 80, "ITEM": 1})[0].resp == r.QIDERR
    assert run(res, "WRITEQ TD", {"QUEUE": b"AUDT", "FROM": b"AUDIT"})[0].ok
    assert run(res, "READQ TD", {"QUEUE": b"AUDT", "INTO": 8})[1] == {"INTO": b"AUDIT"}
    assert run(res, "DEFINE COUNTER", {"COUNTER": b"CUSTNO".ljust(16), "VALUE": 100, "MAXIMUM": 101})[0].ok
    assert run(res, "GET COUNTER", {"COUNTER": b"CUSTNO".ljust(16), "VALUE": 0})[1] == {"VALUE": 100}
    q = run(res, "QUERY COUNTER", {"COUNTER": b"CUSTNO".ljust(16), "VALUE": 0, "MAXIMUM": 0})[1]
    assert q == {"VALUE": 101, "MAXIMUM": 101}
    assert run(res, "DEFINE DCOUNTER", {"DCOUNTER": b"BIG".ljust(16), "VALUE": -2})[0].ok  # 2**64 - 2 as signed
    assert run(res, "GET DCOUNTER", {"DCOUNTER": b"BIG".ljust(16), "VALUE": 0})[1] == {"VALUE": 2**64 - 2}
    assert sorted(c for c in COMMANDS if c.endswith(" COUNTER"))[0] == "DEFINE COUNTER"
    with pytest.raises(ValueError, match="LINK is not a resource command"):
        run(res, "LINK", {})
