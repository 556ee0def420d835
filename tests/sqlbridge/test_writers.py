"""The host-variable writers' quick ways (binary integers, packed decimals) store what the codec's encoder stores."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.storage import read_storage
from cobol_mcp.cobol.records.encoders import item_encoder
from cobol_mcp.db.errors import SqlError
from cobol_mcp.sqlbridge.hosts import Piece
from cobol_mcp.sqlbridge.values import writer

SOURCE = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. BINWRT.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-HOSTS.
           05  WS-HALF         PIC S9(4) COMP.
           05  WS-UHALF        PIC 9(4) COMP.
           05  WS-FULL         PIC S9(9) BINARY.
           05  WS-NATIVE       PIC S9(4) COMP-5.
           05  WS-DEC          PIC S9(5)V99 COMP.
           05  WS-IND          PIC S9(4) COMP-5.
           05  WS-SALARY       PIC S9(7)V99 COMP-3.
           05  WS-UPACK        PIC 9(5) COMP-3.
           05  WS-EVEN         PIC S9(3)V9 COMP-3.
       PROCEDURE DIVISION.
           GOBACK.
"""


def test_binary_items_get_the_encoders_bytes_and_its_errors(tmp_path: Path) -> None:
    (tmp_path / "BINWRT.cbl").write_text(SOURCE)
    (_, record), *_ = read_storage(tmp_path / "BINWRT.cbl", "fixed").records
    fields = {f.name: f for f in record.children}
    values: list[object] = [0, 1, -1, 7, 9999, -9999, 10000, -10000, 32767, 65535, -32768, 999999999, -1000000000]
    values += [
        Decimal(t)
        for t in (
            "0.00",
            "-0.00",
            "1.25",
            "-1.25",
            "1234567.89",
            "-9999999.99",
            "10000000.00",
            "99999",
            "100000",
            "-1",
            "0.5",
            "-999.9",
            "12.3",
            "1.250",
            "7E+2",
            "0.00001",
        )
    ]
    checked = 0
    for name, f in fields.items():
        write = writer(Piece(name, 0, 4, f))
        encode = item_encoder(f, name)
        for value in values:
            ours, theirs = bytearray(b"\xaa" * 40), bytearray(b"\xaa" * 40)
            expected = value
            if isinstance(value, Decimal) and int(value.as_tuple().exponent) < -f.scale:  # DB2 cuts the fraction
                expected = value.quantize(Decimal(1).scaleb(-f.scale), ROUND_DOWN)
            try:
                encode(theirs, expected, name, 4 - f.offset)
            except Exception:
                with pytest.raises(SqlError):  # what the codec refuses is -304 (does not fit)
                    write(ours, value)
                continue
            assert write(ours, value) is None and ours == theirs, (name, value)
            checked += 1
    assert checked > 120  # (most values fit most items)
