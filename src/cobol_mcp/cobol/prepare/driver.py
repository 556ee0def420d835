"""The COBOL caller every tool call goes through: one small generated program, compiled once.

GnuCOBOL ignores EXIT PROGRAM in a program that no COBOL program called (the generated C tests
``module->next``), so a program entered straight from C runs on past it. Every call therefore goes
through this caller, a real COBOL program: it is what `CALL 'PROG' USING ...` in a COBOL driver
gives the callee (module stack, parameter count, RETURN-CODE back to the caller), for any program.

It is called with the number of records, a PROGRAM-POINTER to the program's entry, the program's
name and the records themselves (BY REFERENCE: the callee works on the worker's own buffers).
A call that ends with RETURN-CODE not zero CANCELs the program, so its RETURN-CODE (kept in the
program between calls by GnuCOBOL) cannot carry over into the next call on the same worker.
"""

from __future__ import annotations

import os
from pathlib import Path

from .cache import cache_root
from .cobc import build_module

DRIVER_ID = "COBOL-MCP-CALLER"
DRIVER_SYMBOL = "COBOL__MCP__CALLER"  # cobc's C name for the PROGRAM-ID (`-` is `__`)
MAX_RECORDS = 64  # records of one program the caller passes on; more are called without it
NAME_LENGTH = 64


def driver_source(max_records: int = MAX_RECORDS) -> str:
    """The caller's fixed-format source: LINKAGE items of one byte (the callee sees only addresses,
    as it does from any COBOL caller) and one CALL per record count."""
    lines = [
        "       IDENTIFICATION DIVISION.",
        f"       PROGRAM-ID. {DRIVER_ID}.",
        "      * Generated: calls a tool's program as a COBOL caller would.",
        "       DATA DIVISION.",
        "       LINKAGE SECTION.",
        "       01  LK-COUNT             USAGE BINARY-LONG.",
        "       01  LK-ENTRY             USAGE PROGRAM-POINTER.",
        f"       01  LK-NAME              PIC X({NAME_LENGTH}).",
        *(f"       01  LK-R{n:03d}              PIC X." for n in range(1, max_records + 1)),
        "       PROCEDURE DIVISION USING LK-COUNT LK-ENTRY LK-NAME",
    ]
    names = [f"LK-R{n:03d}" for n in range(1, max_records + 1)]
    lines += wrapped(names, "           ")
    lines[-1] += "."
    lines += ["       0000-MAIN.", "           EVALUATE LK-COUNT"]
    for count in range(0, max_records + 1):
        lines.append(f"           WHEN {count}")
        if count == 0:
            lines.append("               CALL LK-ENTRY")
        else:
            lines.append("               CALL LK-ENTRY USING")
            lines += wrapped(names[:count], "                   ")
        lines.append("               END-CALL")
    lines += [
        "           END-EVALUATE",
        "           IF RETURN-CODE NOT = 0",
        "               CANCEL LK-NAME",
        "           END-IF",
        "           GOBACK.",
    ]
    return "\n".join(lines) + "\n"


def wrapped(words: list[str], indent: str) -> list[str]:
    out: list[str] = []
    line = indent
    for word in words:
        if len(line) + len(word) + 1 > 72:
            out.append(line.rstrip())
            line = indent
        line += word + " "
    out.append(line.rstrip())
    return out


def build_driver(cache_dir: Path | None = None) -> Path:
    """The caller's module, compiled on the first use of a cache and kept there like the modules."""
    return build_generated(cache_dir, "cobol-mcp-caller.cob", driver_source())


def build_generated(cache_dir: Path | None, file_name: str, text: str) -> Path:
    """The module of a generated caller's source ``text``: written to the cache's caller/ folder when it
    differs from what is there, and compiled (or found compiled) like any module."""
    root = Path(cache_dir) if cache_dir else Path(cache_root())
    source = root / "caller" / file_name
    try:
        current = source.read_text()
    except OSError:
        current = ""
    if current != text:
        source.parent.mkdir(parents=True, exist_ok=True)
        temporary = source.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(text)
        os.replace(temporary, source)
    return build_module(source, root, source_format="fixed", flags=())
