"""SET on the commands that give data, at the runtime without a worker: the data goes after the answer's
parameters (``exchange.more``: its slot, then its bytes) for the worker to put in an area of its own; the
pointer's parameter comes back as the program passed it; LENGTH is set to the data's length and is no
limit; the slot says what the data belongs to (one per queue, file, browse or container)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from cobol_mcp.sqlbridge.cics import CicsSession
from cobol_mcp.sqlbridge.cics_eib import encode_number
from cobol_mcp.sqlbridge.cics_served import load_cics

POINTER = bytes(range(1, 9))  # what the program's pointer held before the command


def _ask(session: CicsSession, number: int, descriptor: str, *params: bytes) -> SimpleNamespace:
    exchange = SimpleNamespace(service="CICSRT", number=number, params=[bytes(85), descriptor.encode(), *params],
                               more=b"")  # fmt: skip
    exchange.answer = session.answer(exchange)
    return exchange


def test_readq_td_and_ts_set_give_their_data_apart_from_the_pointer(tmp_path: Path) -> None:
    entry = {"original": str(tmp_path / "X.cbl"), "folder": str(tmp_path), "commands": []}
    session = CicsSession(load_cics(entry, "X", None, None, None).program)  # type: ignore[arg-type]  # a plain dict
    try:
        _ask(session, 1, "10;WRITEQ TD;QUEUE();FROM()", b"AUDT", b"FIRST AUDIT LINE")
        _ask(session, 2, "11;WRITEQ TD;QUEUE();FROM()", b"AUDT", b"SECOND")
        _ask(session, 3, "12;WRITEQ TS;QUEUE();FROM()", b"SCRATCH ", b"A TS ITEM")
        read = _ask(session, 4, "13;READQ TD;QUEUE();SET();LENGTH()", b"AUDT", POINTER, encode_number(0))
        assert read.answer[2:] == [b"AUDT", POINTER, encode_number(16)]  # LENGTH 0 in: no LENGERR, 16 out
        assert read.more == (1).to_bytes(4, "big") + b"FIRST AUDIT LINE"
        again = _ask(session, 5, "13;READQ TD;QUEUE();SET();LENGTH()", b"AUDT", POINTER, encode_number(0))
        assert again.more == (1).to_bytes(4, "big") + b"SECOND"  # the same queue: the same slot
        ts = _ask(session, 6, "14;READQ TS;QUEUE();SET();LENGTH();ITEM()", b"SCRATCH ", POINTER, encode_number(0),
                  encode_number(1))  # fmt: skip
        assert ts.more == (2).to_bytes(4, "big") + b"A TS ITEM" and ts.answer[4] == encode_number(9)
        empty = _ask(session, 7, "13;READQ TD;QUEUE();SET();LENGTH();RESP()", b"AUDT", POINTER, encode_number(0),
                     encode_number(0))  # fmt: skip
        assert empty.more == b"" and empty.answer[3] == POINTER  # QZERO: no data, the pointer as it was
        assert int.from_bytes(empty.answer[5][:8], "little") == 23
    finally:
        session.end(False)
