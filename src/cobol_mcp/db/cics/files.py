"""File control: READ, WRITE, REWRITE, DELETE, UNLOCK and browsing, on the datasets of the FCT.

Here a search is EQUAL unless ``gteq`` (CICS's STARTBR and RESETBR default to GTEQ: :mod:`.dispatch`
applies that). A KSDS is read by key (RIDFLD as bytes; ``keylength`` with ``generic`` for a leading part of it), an
ESDS by RBA and an RRDS by relative record number (RIDFLD as an int). ``into`` is the INTO area's
length (None: SET, the whole record). Conditions as CICS answers them, RESP2 as IBM lists them:
FILENOTFOUND 1 (a FILE the FCT does not define), NOTOPEN 60 (defined, not created in the database),
NOTFND 80, DUPREC 150, ENDFILE 90, LENGERR 11 (the record is longer than INTO: cut, LENGTH set to the
whole length), 12 (longer than the dataset's records), 14 (not a fixed-length dataset's length),
INVREQ 20 (no DELETE on an ESDS), 21 (DELETE without RIDFLD and no READ UPDATE), 25 (GENERIC with a
KEYLENGTH not below the key's), 26 (KEYLENGTH other than the key's, without GENERIC), 30 (REWRITE
without READ UPDATE), 33 (STARTBR on a REQID already browsing), 34 (READNEXT/READPREV without STARTBR),
35 (RESETBR/ENDBR without STARTBR), 41 (READPREV in a browse started with GENERIC), 42 (KEYLENGTH
below 0), RECORDBUSY 107 (NOSUSPEND, and another unit holds the record).

Browsing as IBM describes READNEXT and READPREV: a READPREV straight after STARTBR needs STARTBR's key
to be a record's (else NOTFND); STARTBR with a key of high values (X'FF's) and GTEQ positions after the
last record, for READPREV; a change of direction reads the same record again; a RIDFLD the program
changed between reads repositions the browse (skip-sequential), by GTEQ or EQUAL as the browse began.

Record locks: a READ UPDATE locks the record against another unit's READ UPDATE, REWRITE or DELETE
until this unit ends (CICS's ENQ on a recoverable file's record, which lasts to the syncpoint):
PostgreSQL locks the row (``SELECT … FOR UPDATE``, ``NOWAIT`` for NOSUSPEND); SQLite has one writer
at a time, so a READ UPDATE takes the database's write lock, which a second unit waits for (NOSUSPEND:
does not wait). REWRITE, DELETE or UNLOCK end the READ UPDATE's hold here (a second REWRITE is INVREQ),
and UNLOCK cannot release the database's lock before the unit ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..unit import Unit
from .fct import DatasetDef, rid_of
from .result import (
    DUPREC,
    ENDFILE,
    FILENOTFOUND,
    INVREQ,
    LENGERR,
    NOTFND,
    NOTOPEN,
    RECORDBUSY,
    CicsFailure,
    Result,
)
from .store import Sql

__all__ = ["FileControl", "Rid"]

Rid = bytes | int  # a KSDS key, an ESDS RBA or an RRDS record number


@dataclass
class _Browse:
    defn: DatasetDef
    pos: bytes  # the rid the next read starts from
    inclusive: bool  # the record at pos itself is still to be read
    forward: bool = True  # the direction of the last read
    last: bytes | None = None  # the rid the last read returned
    generic: int | None = None  # STARTBR/RESETBR GENERIC: the generic key's length
    gteq: bool = False
    asked: bytes | None = None  # STARTBR's key, when it found none equal (a READPREV first is NOTFND)


class FileControl:
    """File control for one unit of work; ``fct``: the datasets by FILE name."""

    def __init__(self, unit: Unit, fct: Mapping[str, DatasetDef]) -> None:
        self.sql = Sql(unit)
        self.fct = {name.upper(): d for name, d in fct.items()}
        self.opened: set[str] = set()
        self.held: dict[str, bytes] = {}  # FILE -> the rid of its READ UPDATE
        self.browses: dict[tuple[str, int], _Browse] = {}

    def syncpoint(self) -> None:
        """The unit committed or rolled back: its locks are gone, and with them every READ UPDATE's hold."""
        self.held.clear()

    # -- looking up
    def _dataset(self, file: str) -> DatasetDef | Result:
        name = file.rstrip().upper()
        defn = self.fct.get(name)
        if defn is None:
            return Result(FILENOTFOUND, 1)
        if name not in self.opened:
            if self.sql.one("SELECT 1 FROM cics_datasets WHERE name = ?", [defn.name]) is None:
                return Result(NOTOPEN, 60)
            self.opened.add(name)
        return defn

    def _rid(self, defn: DatasetDef, ridfld: Rid, keylength: int | None, generic: bool) -> bytes | Result:
        """The rid to search from (a KSDS: the whole key, or its generic part)."""
        if defn.organization != "ksds":
            if not isinstance(ridfld, int):
                raise TypeError(f"an {defn.organization.upper()}'s RIDFLD is a number (RBA or RRN)")
            return rid_of(max(ridfld, 0))
        if not isinstance(ridfld, bytes):
            raise TypeError("a KSDS's RIDFLD is the key's bytes")
        if keylength is not None and keylength < 0:
            return Result(INVREQ, 42)
        if generic:
            if keylength is None or keylength >= defn.key_length:
                return Result(INVREQ, 25)
            return ridfld[:keylength]
        if keylength is not None and keylength != defn.key_length:
            return Result(INVREQ, 26)
        return ridfld[: defn.key_length].ljust(defn.key_length, b"\0")

    def _out(self, defn: DatasetDef, rid: bytes) -> Rid:
        return rid if defn.organization == "ksds" else int.from_bytes(rid, "big")

    @staticmethod
    def _read_result(defn_out: Rid, data: bytes, into: int | None) -> Result:
        if into is not None and len(data) > into:
            return Result(LENGERR, 11, data[:into], len(data), defn_out)
        return Result(data=data, length=len(data), ridfld=defn_out)

    def _find(self, defn: DatasetDef, key: bytes, exact: bool, lock: str = "") -> tuple[bytes, bytes] | None:
        if exact:
            row = self.sql.one("SELECT rid, data FROM cics_records WHERE dataset = ? AND rid = ?" + lock,
                               [defn.name, key])  # fmt: skip
        else:
            row = self.sql.one("SELECT rid, data FROM cics_records WHERE dataset = ? AND rid >= ? ORDER BY rid "
                               "LIMIT 1" + lock, [defn.name, key])  # fmt: skip
        return None if row is None else (row[0], row[1])

    # -- READ
    def read(self, file: str, ridfld: Rid, *, into: int | None = None, keylength: int | None = None,
             generic: bool = False, gteq: bool = False, update: bool = False,
             nosuspend: bool = False) -> Result:  # fmt: skip
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        key = self._rid(defn, ridfld, keylength, generic)
        if isinstance(key, Result):
            return key
        exact = not gteq and not generic
        if update and not self._lock_writer(defn, nosuspend):
            return Result(RECORDBUSY, 107)
        found = self._find(defn, key, exact)
        if found is not None and generic and not gteq and not found[0].startswith(key):
            found = None
        if found is None:
            return Result(NOTFND, 80)
        if update:
            if not self._lock_row(defn, found[0], nosuspend):
                return Result(RECORDBUSY, 107)
            found = self._find(defn, found[0], True) or found  # as it is now the lock is held
            self.held[defn.name.upper()] = found[0]
        return self._read_result(self._out(defn, found[0]), found[1], into)

    def _lock_writer(self, defn: DatasetDef, nosuspend: bool) -> bool:
        """SQLite: the database's write lock, before the record is read (so it is read as last committed)."""
        if not self.sql.sqlite:
            return True
        conn = self.sql.unit.begin()
        waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        if nosuspend:
            conn.execute("PRAGMA busy_timeout = 0")
        try:
            self.sql.change("UPDATE cics_datasets SET next_rba = next_rba WHERE name = ?", [defn.name])
        except Exception as exc:
            if not self.sql.is_driver_error(exc):
                raise
            if nosuspend:
                return False
            raise CicsFailure("AFCV", f"READ UPDATE of {defn.name}: the record lock was not granted: {exc}") from None
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(waited)}")
        return True

    def _lock_row(self, defn: DatasetDef, rid: bytes, nosuspend: bool) -> bool:
        """PostgreSQL: the record's row lock (SQLite: the write lock is already held)."""
        if self.sql.sqlite:
            return True
        try:
            with self.sql.attempt():
                self.sql.run("SELECT 1 FROM cics_records WHERE dataset = ? AND rid = ? FOR UPDATE"
                             + (" NOWAIT" if nosuspend else ""), [defn.name, rid])  # fmt: skip
        except Exception as exc:
            if not self.sql.is_driver_error(exc):
                raise
            if nosuspend and getattr(exc, "sqlstate", None) == "55P03":  # lock_not_available
                return False
            raise CicsFailure("AFCV", f"READ UPDATE of {defn.name}: the record lock was not granted: {exc}") from None
        self.sql.unit.changed()  # a failed SQL statement later goes back to after the lock, keeping it
        return True

    # -- WRITE, REWRITE, DELETE, UNLOCK
    def _length_error(self, defn: DatasetDef, data: bytes) -> Result | None:
        if len(data) > defn.max_length:
            return Result(LENGERR, 12)
        if (defn.fixed and len(data) != defn.max_length) or len(data) < defn.key_offset + defn.key_length:
            return Result(LENGERR, 14)
        return None

    def write(self, file: str, ridfld: Rid, data: bytes, *, keylength: int | None = None) -> Result:
        """WRITE FROM(data): a KSDS record goes in by its key field, an ESDS's at its end (the RBA given
        back in ``ridfld``), an RRDS's at record number ``ridfld``."""
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        bad = self._length_error(defn, data)
        if bad is not None:
            return bad
        if defn.organization == "ksds":
            if keylength is not None and keylength != defn.key_length:
                return Result(INVREQ, 26)
            rid = defn.key_of(data)
        elif defn.organization == "esds":
            row = self.sql.one("UPDATE cics_datasets SET next_rba = next_rba + ? WHERE name = ? RETURNING next_rba",
                               [len(data), defn.name])  # fmt: skip
            self.sql.unit.changed()
            assert row is not None
            rid = rid_of(int(row[0]) - len(data))
        else:
            if not isinstance(ridfld, int) or ridfld < 1:
                return Result(INVREQ, 0)
            rid = rid_of(ridfld)
        count = self.sql.change("INSERT INTO cics_records (dataset, rid, data) VALUES (?, ?, ?) "
                                "ON CONFLICT (dataset, rid) DO NOTHING", [defn.name, rid, data])  # fmt: skip
        if count == 0:
            return Result(DUPREC, 150)
        return Result(ridfld=self._out(defn, rid), length=len(data))

    def rewrite(self, file: str, data: bytes) -> Result:
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        rid = self.held.get(defn.name.upper())
        if rid is None:
            return Result(INVREQ, 30)
        bad = self._length_error(defn, data)
        if bad is not None:
            return bad
        if defn.organization == "ksds" and defn.key_of(data) != rid:
            return Result(INVREQ, 0)  # VSAM keeps a record's key: a REWRITE cannot change it
        del self.held[defn.name.upper()]
        self.sql.change("UPDATE cics_records SET data = ? WHERE dataset = ? AND rid = ?", [data, defn.name, rid])
        return Result(length=len(data))

    def delete(self, file: str, ridfld: Rid | None = None, *, keylength: int | None = None,
               generic: bool = False) -> Result:  # fmt: skip
        """DELETE the record READ UPDATE holds (no ``ridfld``), or by key; GENERIC: every record whose key
        starts so, their count in ``number`` (NUMREC)."""
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        if defn.organization == "esds":
            return Result(INVREQ, 20)
        if ridfld is None:
            rid = self.held.pop(defn.name.upper(), None)
            if rid is None:
                return Result(INVREQ, 21)
            self.sql.change("DELETE FROM cics_records WHERE dataset = ? AND rid = ?", [defn.name, rid])
            return Result(number=1)
        key = self._rid(defn, ridfld, keylength, generic)
        if isinstance(key, Result):
            return key
        if generic:
            upper = _successor(key)
            bound = [upper] if upper else []
            count = self.sql.change("DELETE FROM cics_records WHERE dataset = ? AND rid >= ?"
                                    + (" AND rid < ?" if upper else ""), [defn.name, key, *bound])  # fmt: skip
        else:
            count = self.sql.change("DELETE FROM cics_records WHERE dataset = ? AND rid = ?", [defn.name, key])
        if count == 0:
            return Result(NOTFND, 80)
        if self.held.get(defn.name.upper(), b"\xff" * 300).startswith(key):
            del self.held[defn.name.upper()]
        return Result(number=count)

    def unlock(self, file: str) -> Result:
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        self.held.pop(defn.name.upper(), None)
        return Result()

    # -- browsing
    def startbr(self, file: str, ridfld: Rid, *, reqid: int = 0, keylength: int | None = None,
                generic: bool = False, gteq: bool = False) -> Result:  # fmt: skip
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        if (defn.name.upper(), reqid) in self.browses:
            return Result(INVREQ, 33)
        return self._position(defn, reqid, ridfld, keylength, generic, gteq)

    def resetbr(self, file: str, ridfld: Rid, *, reqid: int = 0, keylength: int | None = None,
                generic: bool = False, gteq: bool = False) -> Result:  # fmt: skip
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        if (defn.name.upper(), reqid) not in self.browses:
            return Result(INVREQ, 35)
        return self._position(defn, reqid, ridfld, keylength, generic, gteq)

    def _position(self, defn: DatasetDef, reqid: int, ridfld: Rid, keylength: int | None, generic: bool,
                  gteq: bool) -> Result:  # fmt: skip
        key = self._rid(defn, ridfld, keylength, generic)
        if isinstance(key, Result):
            return key
        found = self._find(defn, key, not gteq and not generic)
        if found is not None and generic and not gteq and not found[0].startswith(key):
            found = None
        if found is None:
            if not (gteq and key and key == b"\xff" * len(key)):  # high values: READPREV from the last record
                return Result(NOTFND, 80)
            self.browses[(defn.name.upper(), reqid)] = _Browse(defn, b"\xff" * 256, False, forward=False)
            return Result()
        generic_length = len(key) if generic else None
        asked = None if found[0] == key or generic else key
        self.browses[(defn.name.upper(), reqid)] = _Browse(
            defn, found[0], True, True, None, generic_length, gteq, asked
        )
        return Result(ridfld=self._out(defn, found[0]))

    def readnext(self, file: str, ridfld: Rid | None = None, *, reqid: int = 0, into: int | None = None) -> Result:
        return self._browse_read(file, ridfld, reqid, into, forward=True)

    def readprev(self, file: str, ridfld: Rid | None = None, *, reqid: int = 0, into: int | None = None) -> Result:
        return self._browse_read(file, ridfld, reqid, into, forward=False)

    def _browse_read(self, file: str, ridfld: Rid | None, reqid: int, into: int | None, forward: bool) -> Result:
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        br = self.browses.get((defn.name.upper(), reqid))
        if br is None:
            return Result(INVREQ, 34)
        if not forward and br.generic is not None:
            return Result(INVREQ, 41)  # a browse started with GENERIC cannot go backwards
        if not forward and br.last is None and br.asked is not None:
            return Result(NOTFND, 80)  # READPREV first: STARTBR's key must be a record's
        moved = False  # the program changed RIDFLD
        if ridfld is not None and br.last is not None and isinstance(ridfld, bytes) and defn.organization == "ksds":
            key = ridfld[: br.generic or defn.key_length]
            if key != br.last[: len(key)] or (br.generic is None and key != br.last):
                # skip-sequential, from the new key on (EQUAL: that key's record)
                found = self._find(defn, key, exact=not br.gteq and br.generic is None)
                if found is None or (not br.gteq and not found[0].startswith(key)):
                    return Result(NOTFND, 80)
                br.pos, br.inclusive, moved = found[0], True, True
        if not moved and br.forward != forward and br.last is not None:
            br.inclusive = True  # a change of direction reads the same record again (IBM: as a RIDFLD changed)
        br.forward = forward
        op, order = (">=" if br.inclusive else ">", "") if forward else ("<=" if br.inclusive else "<", " DESC")
        row = self.sql.one(f"SELECT rid, data FROM cics_records WHERE dataset = ? AND rid {op} ? ORDER BY rid{order} "
                           "LIMIT 1", [defn.name, br.pos])  # fmt: skip
        if row is None:
            return Result(ENDFILE, 90)
        br.pos, br.inclusive, br.last = row[0], False, row[0]
        return self._read_result(self._out(defn, row[0]), row[1], into)

    def endbr(self, file: str, *, reqid: int = 0) -> Result:
        defn = self._dataset(file)
        if isinstance(defn, Result):
            return defn
        if self.browses.pop((defn.name.upper(), reqid), None) is None:
            return Result(INVREQ, 35)
        return Result()


def _successor(prefix: bytes) -> bytes | None:
    """The least bytes above every key starting with ``prefix`` (None: no such bound)."""
    stripped = prefix.rstrip(b"\xff")
    if not stripped:
        return None
    return stripped[:-1] + bytes([stripped[-1] + 1])
