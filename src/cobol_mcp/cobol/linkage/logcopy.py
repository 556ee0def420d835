"""Byte copies of a USING record into an area that is only written out: a log, not a read.

Error paths copy the whole COMMAREA, or its first bytes, into a message area and hand that to a logger
(``MOVE DFHCOMMAREA(1:EIBCALEN) TO CA-DATA`` then ``EXEC CICS LINK … COMMAREA(CA-ERROR-MSG)``). The
caller's values only travel on into the log; nothing the program decides or returns depends on them. So
such a copy reads nothing a caller must supply (given none, the items start as spaces/zeros, and the log
shows that) when all of this holds:

* the source is one USING record as a whole, or reference-modified (``REC`` or ``REC(1:n)``): its bytes,
  not one of its items;
* the receiver is an item of a WORKING-STORAGE or LOCAL-STORAGE record that no REDEFINES or RENAMES
  reaches;
* every other use of that record or of any item in it (its 88-level names too) only writes it or hands
  it on: DISPLAY, LINK COMMAREA, WRITEQ TS/TD FROM, START FROM. A read anywhere else (a condition, a MOVE
  from it, a CALL, a subscript, a statement the analysis does not know) makes the copy a read as
  before.

A copy of a single item, or into an area the program reads back, stays a read: a reference modification
with variable bounds into it stays unknown. :func:`copied_to` marks a candidate copy while the statements
are parsed (a ``("logcopy", area, reads)`` step); :func:`unlogged` decides once every use is known.
"""

from __future__ import annotations

from ..source.tokens import Tok
from .loops import Paragraphs, data_entries
from .operands import Operands, Step

__all__ = ["copied_to", "unlogged"]

_WRITES = frozenset(["w", "p", "s"])  # uses that only write an item or hand it on (see Operands.note)


def copied_to(ops: Operands, src: list[Tok], dst: list[Tok]) -> str | None:
    """The receiving data name when ``MOVE src TO dst`` copies a whole USING record's bytes (or a
    reference modification of it) into one item that is not in a USING record; else None."""
    refs = [r for r in ops.refs(src) if not r[4]]  # the operand itself, not what its subscripts read
    if len(refs) != 1 or not src or src[0].up != refs[0][3].up or refs[0][0].field.level not in (1, 77):
        return None
    names = [t.up for t in dst if t.kind == "word" and t.text not in ("(", ")", ":")]
    if not names or names[0] in ops.names or (len(names) > 1 and names[1] not in ("OF", "IN")):
        return None
    return names[0]


def unlogged(paragraphs: Paragraphs, data: list[Tok], uses: dict[str, set[str]]) -> Paragraphs:
    """The paragraphs with each candidate copy into an area only written out dropped, the others kept as
    the reads they are."""
    entries, _, reached = data_entries(data)

    def record_of(name: str) -> str | None:
        found = entries.get(name, [])
        if len(found) != 1:
            return None
        section, words, above = found[0]
        return None if section not in ("WORKING-STORAGE", "LOCAL-STORAGE") else (above[0] if above else words)[1]

    def written_out(area: str) -> bool:
        record = record_of(area)
        if record is None:
            return False
        members = {
            name
            for name, found in entries.items()
            for _, words, above in found
            if (above[0] if above else words)[1] == record
        }
        if members & reached or any("REDEFINES" in words for m in members for _, words, _ in entries[m]):
            return False
        return all(uses.get(m, set()) <= _WRITES for m in members)

    logged = {area: written_out(area) for area in _areas(paragraphs)}

    def fix(steps: list[Step]) -> list[Step]:
        out: list[Step] = []
        for step in steps:
            if step[0] == "logcopy":
                out += [] if logged[step[1]] else fix(step[2])
            elif step[0] == "branch":
                out.append(("branch", [fix(b) for b in step[1]], *step[2:]))
            elif step[0] == "loop":
                out.append(("loop", fix(step[1]), fix(step[2]), step[3], fix(step[4]), *step[5:]))
            else:
                out.append(step)
        return out

    return [(name, section, fix(steps)) for name, section, steps in paragraphs]


def _areas(paragraphs: Paragraphs) -> set[str]:
    found: set[str] = set()

    def scan(steps: list[Step]) -> None:
        for step in steps:
            if step[0] == "logcopy":
                found.add(step[1])
            elif step[0] == "branch":
                for body in step[1]:
                    scan(body)
            elif step[0] == "loop":
                scan(step[1] + step[2] + step[4])

    for _, _, steps in paragraphs:
        scan(steps)
    return found
