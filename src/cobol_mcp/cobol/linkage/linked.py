"""What a program LINKed to does with the bytes it is passed: the caller's COMMAREA takes its directions.

``EXEC CICS LINK PROGRAM(p) COMMAREA(area) LENGTH(n)`` to a program of the same folder, ``p`` a literal
or a data item whose only value is its VALUE clause (never a receiving item), hands ``area`` to a
program whose own analysis says what it does with each byte of its DFHCOMMAREA. The caller's units in
the first ``min(n, area's size, the target's DFHCOMMAREA size)`` bytes of ``area`` then take, at the same
offsets: a read where the target may read before it surely writes (or cannot be followed), a whole
write where it surely writes every byte of the unit, a partial write where it writes some of them; bytes
it never uses are untouched. Bytes beyond that bound are untouched too.

The folder's programs are reached through :data:`FOLLOW`, a resolver the caller of the parse sets
(``name -> {record key: (size, effects)}`` or None: no such program, a cycle, one that cannot be read);
without it, or for any target it cannot give, the LINK stays as :mod:`.handlers` says (the whole area
read, then maybe changed). While parsing, such a LINK is a ``("link", names, steps, fallback)`` step (names: the
constant and its groups, none for a literal);
:func:`resolved` picks one once every use of the constant is known.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from ..source.tokens import Tok
from .loops import Paragraphs, data_entries
from .model import Record
from .operands import Node, Program, Step, Unit

__all__ = ["FOLLOW", "Effects", "constant_value", "link_steps", "linked_effects", "resolved"]

Effects = dict[str, tuple[int, tuple[tuple[int, int, str], ...]]]  # record key -> (size, (lo, hi, op) ...)
FOLLOW: ContextVar[Callable[[str], Effects | None] | None] = ContextVar("cobol_mcp_follow", default=None)

_FIGURATIVE = frozenset(["SPACE", "SPACES", "ZERO", "ZEROS", "ZEROES", "LOW-VALUE", "LOW-VALUES", "HIGH-VALUE",
                         "HIGH-VALUES", "QUOTE", "QUOTES", "NULL", "NULLS"])  # fmt: skip
_CHANGES = frozenset(["w", "p", "u", "rw", "rp"])


def link_steps(
    name: str, node: Node, length: int | None, units: list[Unit], why: str, record: str = "dfhcommarea"
) -> list[Step] | None:
    """The caller's steps for handing ``node``'s bytes to program ``name`` (its record ``record``), or
    None when the target's effects are not known."""
    follow = FOLLOW.get()
    found = follow(name.strip().upper()) if follow is not None and name.strip() else None
    if found is None or record not in found:
        return None
    size, effects = found[record]
    bound = min(node.hi - node.lo, size, length if length is not None else size)
    where = f"{name.strip().upper()} ({why})"
    steps: list[Step] = []
    for i, u in enumerate(units):
        if u.record != node.record:
            continue
        a, b = max(u.lo, node.lo) - node.lo, min(u.hi, node.lo + bound) - node.lo
        if a >= b:
            continue
        near = [(lo, hi, op) for lo, hi, op in effects if lo < b and a < hi]
        if any(op in ("r", "u") for _, _, op in near):
            steps.append(("eff", "r", [(i, False)], where))
        whole = (a, b) == (u.lo - node.lo, u.hi - node.lo) and _covered(a, b, [e for e in near if e[2] == "w"])
        if whole and not u.dims:
            steps.append(("eff", "w", [(i, True)], where))
        elif any(op in ("w", "p", "u") for _, _, op in near):
            steps.append(("eff", "p", [(i, False)], where))
    return steps


def _covered(a: int, b: int, spans: list[tuple[int, int, str]]) -> bool:
    at = a
    for lo, hi, _ in sorted(spans):
        if lo > at:
            return False
        at = max(at, hi)
    return at >= b


def constant_value(data: list[Tok], name: str) -> tuple[str, tuple[str, ...]] | None:
    """The VALUE literal of the one WORKING-STORAGE item ``name`` that no REDEFINES reaches, and the names
    whose change would change it (itself and its groups); None when it has no such value."""
    entries, _, reached = data_entries(data)
    found = entries.get(name.upper(), [])
    if len(found) != 1:
        return None
    section, words, above = found[0]
    names = (name.upper(), *(g[1] for g in above))
    if section != "WORKING-STORAGE" or "VALUE" not in words or "OCCURS" in words or set(names) & reached:
        return None
    k = words.index("VALUE") + 1
    k += k < len(words) and words[k] == "IS"
    text = words[k] if k < len(words) else ""
    if k != len(words) - 1 or not text or not (text[0].isalpha() or text[0] in "$#@") or text in _FIGURATIVE:
        return None
    return text, names


def linked_effects(program: Program, records: list[Record]) -> Effects:
    """After :func:`.direction.directions`: what the program does to each byte of each USING record, for
    a caller that hands it those bytes: per unit "r" read before surely set (then maybe written), "w"
    surely set whole before any read, "p" written on some paths or in part, "u" not known: so are the
    bytes no unit holds (a FILLER a group MOVE may copy out)."""
    found: Effects = {}
    for k, r in enumerate(records):
        spans: list[tuple[int, int, str]] = []
        held: list[tuple[int, int]] = []
        for n, u in enumerate(program.units):
            if u.record != k:
                continue
            held.append((u.lo, u.hi))
            if program.failure or u.unknown:
                op = "u"
            elif u.read_unset is not None:
                op = "r"
            elif u.write is None:
                continue
            elif u.full and program.surely is not None and n in program.surely:
                op = "w"
            else:
                op = "p"
            spans.append((u.lo, u.hi, op))
            if op == "r" and u.write is not None:
                spans.append((u.lo, u.hi, "p"))
        at = 0
        for lo, hi in [*sorted(held), (r.size, r.size)]:
            if lo > at:
                spans.append((at, lo, "u"))
            at = max(at, hi)
        found[r.key] = (r.size, tuple(spans))
    return found


def resolved(paragraphs: Paragraphs, uses: dict[str, set[str]]) -> Paragraphs:
    """The paragraphs with each ``link`` step replaced by its steps, or by its fallback when its program
    is named by a data item something may change."""

    def fix(steps: list[Step]) -> list[Step]:
        out: list[Step] = []
        for step in steps:
            if step[0] == "link":
                kept = not any(uses.get(name, set()) & _CHANGES for name in step[1])
                out += fix(step[2] if kept else step[3])
            elif step[0] == "branch":
                out.append(("branch", [fix(b) for b in step[1]], *step[2:]))
            elif step[0] == "loop":
                out.append(("loop", fix(step[1]), fix(step[2]), step[3], fix(step[4]), *step[5:]))
            elif step[0] == "logcopy":
                out.append(("logcopy", step[1], fix(step[2])))
            else:
                out.append(step)
        return out

    return [(name, section, fix(steps)) for name, section, steps in paragraphs]
