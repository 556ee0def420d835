"""The FCT: ``[[datasets]]`` of ``cobol-mcp.toml`` checked, and each dataset created (and loaded) in the database.

::

    [[datasets]]
    name = "CUSTFILE"            # the FILE name programs use: 1-8 of A-Z a-z 0-9 @ # $
    organization = "ksds"        # ksds | esds | rrds
    record-length = 200          # fixed; [min, max] for variable records (1 to 32767)
    keys = [8, 0]                # KSDS only: IDCAMS KEYS(length offset), inside the shortest record
    load = "data/customers.txt"  # optional, in the folder: one record per line, when the dataset is created

:func:`parse_datasets` checks the tables as strictly as the program overrides are checked: every error
names the file and line. :func:`create_datasets` makes the datasets the database does not have yet and
loads them (a fixed-length record is padded with spaces, a variable one up to its minimum; a line
longer than the record length, or a KSDS key twice, is an error naming the load file's line); one the
database already has must be defined as it was (records are never reloaded over a user's changes), and
a ``load`` it was not loaded from (one added after the dataset was made) is a warning naming the file's
line. :func:`reload_datasets` (``cobol-mcp-server db load``) defines datasets anew and loads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import log
from ..unit import connect
from ..url import Database
from .store import create_tables

__all__ = [
    "MAX_RECORD", "DatasetDef", "DatasetError", "create_datasets", "load_records", "parse_datasets", "reload_datasets",
    "rid_of",
]  # fmt: skip

MAX_RECORD = 32767
_KEYS = ("name", "organization", "record-length", "keys", "load")
_ORGANIZATIONS = ("ksds", "esds", "rrds")
_NAME = re.compile(r"^[A-Za-z0-9@#$]{1,8}$")


class DatasetError(ValueError):
    """A dataset definition or load file that cannot be taken: the message starts with file:line."""


@dataclass(frozen=True)
class DatasetDef:
    name: str
    organization: str  # "ksds", "esds", "rrds"
    min_length: int
    max_length: int
    key_length: int = 0  # KSDS
    key_offset: int = 0
    load: Path | None = None
    where: str = ""  # file:line of its [[datasets]] table
    load_where: str = ""  # file:line of its load key
    load_text: str = ""  # the load key as written

    @property
    def fixed(self) -> bool:
        return self.min_length == self.max_length

    def key_of(self, record: bytes) -> bytes:
        return record[self.key_offset : self.key_offset + self.key_length]


def rid_of(number: int) -> bytes:
    """An RBA or RRN as a row identity: 8 bytes big-endian, which sort as the numbers do."""
    return number.to_bytes(8, "big")


def _lines(text: str) -> tuple[list[str], list[int]]:
    lines = text.splitlines()
    return lines, [n for n, line in enumerate(lines, 1) if re.match(r"^\s*\[\[\s*datasets\s*\]\]", line)]


def parse_datasets(value: Any, path: Path, text: str, folder: Path) -> list[DatasetDef]:
    """The ``datasets`` value of the TOML file ``path`` (its ``text`` for line numbers), checked."""
    lines, headers = _lines(text)
    top = next((n for n, line in enumerate(lines, 1) if re.match(r"^\s*datasets\s*=", line)), 1)

    def line_of(index: int, key: str = "") -> int:
        if index >= len(headers):
            return top
        start = headers[index]
        end = headers[index + 1] if index + 1 < len(headers) else len(lines) + 1
        for n in range(start + 1, end):
            if re.match(r"^\s*\[", lines[n - 1]):
                break
            if key and re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", lines[n - 1]):
                return n
        return start

    if not isinstance(value, list):
        raise DatasetError(f"{path}:{top}: datasets must be an array of tables ([[datasets]])")
    found: dict[str, DatasetDef] = {}
    for index, body in enumerate(value):
        if not isinstance(body, dict):
            raise DatasetError(f"{path}:{line_of(index)}: datasets: each entry must be a table")
        label = f"datasets.{body['name']}" if isinstance(body.get("name"), str) else f"datasets[{index + 1}]"

        def bad(key: str, message: str, index: int = index, label: str = label) -> DatasetError:
            return DatasetError(f"{path}:{line_of(index, key)}: {label}{'.' + key if key else ''}: {message}")

        defn = _check(body, bad, folder, f"{path}:{line_of(index)}", f"{path}:{line_of(index, 'load')}")
        if defn.name.upper() in found:
            raise bad("name", f"defined twice (the first at {found[defn.name.upper()].where})")
        found[defn.name.upper()] = defn
    return list(found.values())


def _check(body: dict[str, Any], bad: Any, folder: Path, where: str, load_where: str = "") -> DatasetDef:
    for key in body:
        if key not in _KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_KEYS)})")
    for key in ("name", "organization", "record-length"):
        if key not in body:
            raise bad("", f"{key} is required")
    name = body["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise bad("name", f"must be 1 to 8 letters, digits, @, # or $ (a CICS file name), not {name!r}")
    org = body["organization"]
    if org not in _ORGANIZATIONS:
        raise bad("organization", f"must be one of {', '.join(_ORGANIZATIONS)}, not {org!r}")
    length = body["record-length"]
    if _whole(length):
        low = high = length
    elif isinstance(length, list) and len(length) == 2 and all(_whole(n) for n in length):
        low, high = length
    else:
        raise bad("record-length", f"must be a number of bytes or [minimum, maximum], not {length!r}")
    if not 1 <= low <= high <= MAX_RECORD:
        raise bad("record-length", f"must be from 1 to {MAX_RECORD} bytes, the minimum not above the maximum")
    key_length = key_offset = 0
    if org == "ksds":
        keys = body.get("keys")
        if keys is None:
            raise bad("", "keys = [length, offset] is required for a KSDS")
        if not (isinstance(keys, list) and len(keys) == 2 and all(_whole(n) for n in keys)):
            raise bad("keys", f"must be [length, offset] (IDCAMS KEYS), not {keys!r}")
        key_length, key_offset = keys
        if not 1 <= key_length <= 255 or key_offset < 0:
            raise bad("keys", "the key's length must be from 1 to 255 and its offset 0 or more")
        if key_offset + key_length > low:
            raise bad("keys", f"the key (bytes {key_offset + 1} to {key_offset + key_length}) must lie inside "
                      f"the shortest record ({low} bytes)")  # fmt: skip
    elif "keys" in body:
        raise bad("keys", f"only a KSDS has keys: an {org.upper()} is read by {'RBA' if org == 'esds' else 'RRN'}")
    load = None
    if "load" in body:
        if not isinstance(body["load"], str) or not body["load"]:
            raise bad("load", "must be the path of a file (from the folder)")
        load = folder / body["load"]
        base = folder.resolve()
        if not load.resolve().is_relative_to(base):  # absolute, `..` or a link out: not the folder's
            raise bad("load", f"{body['load']!r} is outside the folder {base}: a load file must be in it")
        if not load.is_file():
            raise bad("load", f"no such file: {load}")
    text = body["load"] if load is not None else ""
    return DatasetDef(name, org, low, high, key_length, key_offset, load, where, load_where, text)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_records(defn: DatasetDef) -> list[tuple[bytes, bytes]]:
    """(rid, record) of each line of the dataset's load file, in order; DatasetError names the file:line."""
    if defn.load is None:
        return []
    try:
        raw = defn.load.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{defn.load}:1: cannot read the load file of {defn.name}: {exc.strerror or exc}") from None
    rows: list[tuple[bytes, bytes]] = []
    seen: dict[bytes, int] = {}
    rba = 0
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for n, line in enumerate(lines, 1):
        record = line.removesuffix(b"\r")
        if len(record) > defn.max_length:
            raise DatasetError(f"{defn.load}:{n}: a record of {len(record)} bytes; {defn.name}'s records have at "
                               f"most {defn.max_length}")  # fmt: skip
        record = record.ljust(defn.min_length, b" ")
        if defn.organization == "ksds":
            key = defn.key_of(record)
            if key in seen:
                raise DatasetError(f"{defn.load}:{n}: key {key!r} of {defn.name} again (first on line {seen[key]})")
            seen[key] = n
            rows.append((key, record))
        elif defn.organization == "esds":
            rows.append((rid_of(rba), record))
            rba += len(record)
        else:
            rows.append((rid_of(n), record))
    return rows


def create_datasets(db: Database, datasets: list[DatasetDef]) -> list[str]:
    """Create the CICS tables (call it at start even with no datasets: TS queues and counters need them)
    and the datasets the database does not have, loading them; the names of those created. A dataset the
    database has, defined otherwise, is a DatasetError (its records are kept); one it has with a ``load``
    it was not loaded from is a warning (file:line of the key). Replicas starting together on one
    PostgreSQL: one creates, the others wait for it and find the datasets there."""
    rows = {d.name: load_records(d) for d in datasets}  # the load files checked before anything is written
    try:
        return _create(db, datasets, rows)
    except DatasetError:
        raise
    except Exception as exc:  # PostgreSQL: two CREATE TABLE IF NOT EXISTS at once, one fails; again finds them
        if getattr(exc, "sqlstate", None) not in ("23505", "42P07"):  # unique_violation (pg_type), duplicate_table
            raise
        return _create(db, datasets, rows)


def reload_datasets(db: Database, datasets: list[DatasetDef]) -> dict[str, int]:
    """Define ``datasets`` anew (as the file has them now) and load each from its load file, replacing the
    records the database had, all in one transaction; how many records each now has. DatasetError names a
    load file's line."""
    rows = {d.name: load_records(d) for d in datasets}
    _create(db, datasets, rows, replace=True)
    return {name: len(found) for name, found in rows.items()}


def _create(
    db: Database, datasets: list[DatasetDef], rows: dict[str, list[tuple[bytes, bytes]]], replace: bool = False
) -> list[str]:
    conn = connect(db)
    created: list[str] = []
    ph = "?" if db.kind == "sqlite" else "%s"
    try:
        if db.kind == "sqlite":
            conn.execute("BEGIN IMMEDIATE")
        create_tables(conn, db.kind)
        for d in datasets:
            if replace:
                for table, column in (("cics_records", "dataset"), ("cics_datasets", "name"), ("cics_loads", "name")):
                    conn.execute(f"DELETE FROM {table} WHERE {column} = {ph}", [d.name])
            shape = (d.organization, d.min_length, d.max_length, d.key_length, d.key_offset)
            count = conn.execute(
                "INSERT INTO cics_datasets (name, organization, min_length, max_length, key_length, key_offset, "
                f"next_rba) VALUES ({', '.join([ph] * 7)}) ON CONFLICT (name) DO NOTHING",
                [d.name, *shape, 0],
            ).rowcount
            if count == 0:
                had = conn.execute(
                    "SELECT organization, min_length, max_length, key_length, key_offset FROM cics_datasets "
                    f"WHERE name = {ph}", [d.name]).fetchone()  # fmt: skip
                if tuple(had) != shape:
                    raise DatasetError(f"{d.where}: datasets.{d.name}: the database has it defined otherwise "
                                       f"({_shape(tuple(had))}, not {_shape(shape)}): `cobol-mcp-server db load "
                                       f"{d.name}` defines it anew (its records replaced by its file's)")  # fmt: skip
                if d.load is not None:
                    loaded = conn.execute(f"SELECT load_file FROM cics_loads WHERE name = {ph}", [d.name]).fetchone()
                    if loaded is None or loaded[0] != d.load_text:
                        log.warning(f"{d.load_where}: datasets.{d.name}: load = {d.load_text!r} was not loaded: the "
                                    f"database had {d.name} already, and its records are kept; `cobol-mcp-server db "
                                    f"load {d.name}` replaces them by the file's")  # fmt: skip
                continue
            for rid, record in rows[d.name]:
                conn.execute(f"INSERT INTO cics_records (dataset, rid, data) VALUES ({ph}, {ph}, {ph})",
                             [d.name, rid, record])  # fmt: skip
            if d.organization == "esds":
                end = sum(len(r) for _, r in rows[d.name])
                conn.execute(f"UPDATE cics_datasets SET next_rba = {ph} WHERE name = {ph}", [end, d.name])
            if d.load is not None:
                conn.execute(f"INSERT INTO cics_loads (name, load_file) VALUES ({ph}, {ph}) ON CONFLICT (name) "
                             "DO UPDATE SET load_file = EXCLUDED.load_file", [d.name, d.load_text])  # fmt: skip
            created.append(d.name)
        conn.execute("COMMIT") if db.kind == "sqlite" else conn.commit()
    except BaseException:
        if db.kind == "sqlite":
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        else:
            conn.rollback()
        raise
    finally:
        conn.close()
    return created


def _shape(shape: tuple[Any, ...]) -> str:
    org, low, high, key_length, key_offset = shape
    length = f"record-length {low}" if low == high else f"record-length [{low}, {high}]"
    return f"{org} {length}" + (f" keys [{key_length}, {key_offset}]" if org == "ksds" else "")
