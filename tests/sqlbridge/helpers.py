"""Our DB2 programs precompiled into a folder and prepared for a database, and CALL parameters as bytes."""

from __future__ import annotations

import sys
import textwrap
from decimal import Decimal
from pathlib import Path

from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.precompile.generate import generate_file
from cobol_mcp.cobol.records.codec import decode_scalar, encode_scalar
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge.session import Session, SqlProgram, load_program
from cobol_mcp.sqlbridge.values import SQLCA_SIZE

PROGRAMS = Path(__file__).parents[1] / "sql_programs"


def prepared(source: Path, folder: Path, db: Database) -> SqlProgram:
    """``source`` precompiled into ``folder`` (its copybooks beside it) and prepared for ``db``."""
    generated, scan = generate_file(source, "fixed", (PROGRAMS,))
    assert scan.problems == []
    folder.mkdir(exist_ok=True)
    out = folder / source.name
    out.write_text(generated.text)
    for name, text in generated.copybooks.items():
        (folder / name).write_text(text)
    return load_program(out, scan.statements, db, shown=str(source), source_format="fixed", include=(folder,))


def sql_program(folder: Path, name: str, body: str, data: str = "") -> Path:
    """A fixed-format program ``name`` in ``folder`` (made): SQLCA, WS-NAME PIC X(15), the ``data``
    lines, then the PROCEDURE DIVISION ``body`` (written as the lines of a paragraph, 8 spaces in)."""
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.cbl"
    data_lines = f"        {data}\n" if data else ""
    head = f"""\
        IDENTIFICATION DIVISION.
        PROGRAM-ID. {name}.
        DATA DIVISION.
        WORKING-STORAGE SECTION.
            EXEC SQL INCLUDE SQLCA END-EXEC.
        01  WS-NAME                 PIC X(15).
{data_lines}        PROCEDURE DIVISION.
        """
    path.write_text(textwrap.indent(textwrap.dedent(head) + textwrap.dedent(body), " " * 7))
    return path


class Call:
    """One CALL 'SQLRT' of a statement: its parameters built with the codec, its results read with it."""

    def __init__(self, program: SqlProgram, number: int) -> None:
        self.hosts = program.hosts[number]
        self.number = number
        self.sqlca = bytearray(b" " * SQLCA_SIZE)
        self.sqlca[0:8] = b"SQLCA   "
        self.params = [bytearray(b" " * size) for size in self.hosts.sizes]

    def put(self, name: str, value: object) -> Call:
        piece = self.hosts.pieces[name]
        buf = self.params[piece.param]
        if piece.length is not None:  # VARCHAR: length, then text
            text = str(value).encode("latin-1")
            length = encode_scalar(piece.length, Decimal(len(text)))
            buf[piece.offset : piece.offset + len(length)] = length
            buf[piece.text_offset : piece.text_offset + len(text)] = text
            return self
        f = piece.field
        data = encode_scalar(f, Decimal(value) if f.category == "numeric" else str(value))  # type: ignore[arg-type]
        buf[piece.offset : piece.offset + f.size] = data
        return self

    def run(self, session: Session) -> Call:
        out = session.service(self.number, [bytes(self.sqlca), *map(bytes, self.params)])
        self.sqlca, self.params = bytearray(out[0]), [bytearray(p) for p in out[1:]]
        return self

    def get(self, name: str) -> object:
        piece = self.hosts.pieces[name]
        buf = self.params[piece.param]
        if piece.length is not None:
            n, _ = decode_scalar(piece.length, bytes(buf[piece.offset : piece.offset + piece.length.size]))
            return bytes(buf[piece.text_offset : piece.text_offset + int(n)]).decode("latin-1")
        f: Field = piece.field
        value, why = decode_scalar(f, bytes(buf[piece.offset : piece.offset + f.size]))
        assert why == ""
        return value if f.category == "numeric" else bytes(buf[piece.offset : piece.offset + f.size]).decode()

    @property
    def sqlcode(self) -> int:
        return int.from_bytes(self.sqlca[12:16], sys.byteorder, signed=True)

    @property
    def sqlstate(self) -> str:
        return self.sqlca[131:136].decode()

    @property
    def sqlerrd3(self) -> int:
        return int.from_bytes(self.sqlca[104:108], sys.byteorder, signed=True)

    @property
    def sqlwarn(self) -> str:
        return self.sqlca[120:131].decode()

    @property
    def sqlerrm(self) -> str:
        length = int.from_bytes(self.sqlca[16:18], sys.byteorder, signed=True)
        return self.sqlca[18 : 18 + length].decode("latin-1")
