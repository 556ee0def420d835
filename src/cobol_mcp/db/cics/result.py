"""What a CICS resource command answers: RESP and RESP2 as IBM documents them, and what it sets.

RESP values are those of EIBRESP (IBM: EIB response codes; the same numbers as the translator's
``DFHRESP`` table). RESP2 values are those of IBM's command reference for each command's conditions
where they could be checked (file control: FILENOTFOUND 1, LENGERR 11, INVREQ 25/42, NOTFND 80; named
counters: 201, INVREQ 202/403/404); the others follow IBM's numbering as remembered and are listed in
:mod:`.files` and :mod:`.counters` to be checked against the reference (LENGERR 12/14, INVREQ
20/21/26/30/33/34/35/41, NOTOPEN 60, ENDFILE 90, DUPREC 150, RECORDBUSY 107; SUPPRESSED 101-104, INVREQ
406). TS and TD conditions carry no RESP2 (0), as IBM lists none.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DISABLED", "DUPKEY", "DUPREC", "ENDFILE", "ENQBUSY", "FILENOTFOUND", "INVREQ", "ITEMERR", "LENGERR", "NORMAL",
    "NOSPACE", "NOSTG", "NOTFND", "NOTOPEN", "QIDERR", "QZERO", "RECORDBUSY", "SUPPRESSED", "CicsFailure", "Result",
]  # fmt: skip

NORMAL = 0
FILENOTFOUND = 12
NOTFND = 13
DUPREC = 14
DUPKEY = 15
INVREQ = 16
NOSPACE = 18
NOTOPEN = 19
ENDFILE = 20
LENGERR = 22
QZERO = 23
ITEMERR = 26
NOSTG = 42
QIDERR = 44
ENQBUSY = 55
DISABLED = 84
RECORDBUSY = 101
SUPPRESSED = 72


@dataclass
class Result:
    resp: int = NORMAL
    resp2: int = 0
    data: bytes | None = None  # the record or item read (cut to the INTO length on LENGERR)
    length: int | None = None  # what LENGTH is set to: the record's or item's whole length
    ridfld: bytes | int | None = None  # the key, RBA or RRN of the record read or written
    number: int | None = None  # NUMREC, ITEM, NUMITEMS, a counter's VALUE
    minimum: int | None = None  # QUERY COUNTER
    maximum: int | None = None
    items: int | None = None  # NUMITEMS of READQ/WRITEQ TS

    @property
    def ok(self) -> bool:
        return self.resp == NORMAL


class CicsFailure(Exception):
    """The database failed under a command (not a condition a program can handle): the task abends and
    its unit of work rolls back. ``abcode`` is the abend code CICS would give (AFCx file control …)."""

    def __init__(self, abcode: str, message: str) -> None:
        super().__init__(f"{abcode}: {message}")
        self.abcode = abcode
        self.message = message
