"""Loops that provably set every occurrence of a table: the facts :mod:`.direction` needs to say so.

A ``PERFORM [p] VARYING v FROM 1 BY 1 UNTIL v > n`` (or ``v >= n + 1``, ``v = n + 1``, ``GREATER THAN``
..., with ``AFTER`` clauses of the same form for tables of tables) runs its body for every v from 1 to n.
When n is the OCCURS count of a table and the body writes the element ``T(v)`` whole on every path
through it, the loop has set the whole table. That holds only if nothing in the loop's body changes v,
and n is known: :func:`steady` keeps a loop's clause only for such a v (see there); :func:`facts` finds
the variables that only PERFORM VARYING sets anywhere (so that ``T(v)`` names one element wherever it
stands: an elementary item outside any table, or an index name, that no REDEFINES or RENAMES reaches,
used elsewhere only in a subscript or a condition, in groups that no statement names) and the items
that always hold one whole number (a level-78 or ``CONSTANT AS`` entry, or a level 01/77
item with a numeric VALUE that the PROCEDURE DIVISION never changes).
"""

from __future__ import annotations

from ..source.tokens import Tok
from .operands import Program, Step

__all__ = ["Entry", "Paragraphs", "covering", "data_entries", "facts", "steady", "vary_clauses"]

Bound = tuple[str, int]  # (a literal or a data name, what to take off its value): the last value of v


def vary_clauses(words: list[str]) -> tuple[tuple[str, Bound | None], ...]:
    """(variable, its last value when it provably runs 1, 2, ... that far, else None) for each VARYING
    and AFTER clause of a PERFORM header (its words, upper case)."""
    starts = [
        k
        for k, w in enumerate(words)
        if w in ("VARYING", "AFTER") and k + 1 < len(words) and words[k + 1] != "TEST" and words[k - 1 : k] != ["TEST"]
    ]
    out: list[tuple[str, Bound | None]] = []
    for n, k in enumerate(starts):
        clause = words[k + 1 : starts[n + 1] if n + 1 < len(starts) else len(words)]
        var = clause[0]
        plain = clause[1:6] == ["FROM", "1", "BY", "1", "UNTIL"]
        out.append((var, _bound(var, clause[6:]) if plain else None))
    return tuple(out)


def _bound(var: str, cond: list[str]) -> Bound | None:
    c = [w for w in cond if w not in ("IS", "THAN", "TO")]
    if c[:1] != [var]:
        return None
    c = c[1:]
    if c[:1] in ([">"], ["GREATER"]) and c[1:2] != ["OR"]:
        return (c[1], 0) if len(c) == 2 else None
    if c[:1] in ([">="], ["="], ["EQUAL"]):
        rest = c[1:]
    elif c[:3] == ["GREATER", "OR", "EQUAL"]:
        rest = c[3:]
    else:
        return None
    if len(rest) == 1 and rest[0].isdigit():
        return (rest[0], 1)
    if len(rest) == 3 and rest[1:] == ["+", "1"]:
        return (rest[0], 0)
    return None


Entry = tuple[str, list[str], list[list[str]]]  # (section, its words, the words of each group above it)


def data_entries(toks: list[Tok]) -> tuple[dict[str, list[Entry]], set[str], set[str]]:
    """Each data name's entries, the index names, the names a REDEFINES/RENAMES reaches."""
    entries: dict[str, list[Entry]] = {}
    indexes: set[str] = set()
    reached: set[str] = set()
    section, words = "", []
    groups: list[tuple[int, list[str]]] = []  # (level, words) of the groups open above the next entry
    for t in [*toks, Tok(".", "period", 0)]:
        if t.kind != "period":
            words.append(t.up or t.text)
            continue
        if len(words) == 2 and words[1] == "SECTION":
            section, groups = words[0], []
        elif len(words) > 1 and words[0].isdigit():
            level = int(words[0])
            if level in (1, 77):
                groups = []
            while groups and groups[-1][0] >= level and level not in (66, 88):
                groups.pop()
            entries.setdefault(words[1], []).append((section, words, [g for _, g in groups]))
            if level not in (66, 77, 88):
                groups.append((level, words))
            for k, w in enumerate(words[:-1]):
                if w in ("REDEFINES", "RENAMES"):
                    reached.add(words[k + 1])
            if "INDEXED" in words:
                indexes.update(words[words.index("INDEXED") + 1 :])
        words = []
    return entries, indexes, reached


def _uses(toks: list[Tok], conds: set[int]) -> dict[str, set[str]]:
    """How each word is used in the PROCEDURE DIVISION: "vary" (after VARYING/AFTER), "safe" (in a
    subscript or a condition), "other"."""
    uses: dict[str, set[str]] = {}
    depth = 0
    for k, t in enumerate(toks):
        if t.text in ("(", ")") and t.kind == "word":
            depth += 1 if t.text == "(" else -1
            continue
        if t.kind != "word":
            continue
        prev = toks[k - 1].up if k else ""
        how = "safe" if depth > 0 or k in conds else "vary" if prev in ("VARYING", "AFTER") else "other"
        uses.setdefault(t.up, set()).add(how)
    return uses


def facts(data: list[Tok], proc: list[Tok], conds: set[int]) -> tuple[frozenset[str], dict[str, int]]:
    """(the stable loop variables, the constants with their values) from the tokens before the PROCEDURE
    DIVISION, its statements and the indexes of the tokens that are inside conditions."""
    entries, indexes, reached = data_entries(data)
    uses = _uses(proc, conds)
    stable: set[str] = set()
    constants: dict[str, int] = {}
    for name, found in entries.items():
        if len(found) != 1 or name in reached:
            continue
        section, words, above = found[0]
        level = words[0].lstrip("0") or "0"
        how = uses.get(name, set())
        alone = all(  # the groups above it: no table, never redefined, never changed by a statement
            "OCCURS" not in g and g[1] not in reached and uses.get(g[1], set()) <= {"safe"} for g in above
        )
        after = words[words.index("VALUE") + 1 :] if "VALUE" in words else []
        value = (after[1:] if after[:1] == ["IS"] else after or [""])[0]
        if level == "78" and value.isdigit():
            constants[name] = int(value)
        elif level == "1" and "CONSTANT" in words:
            rest = [w for w in words[words.index("CONSTANT") + 1 :] if w != "AS"]
            if len(rest) == 1 and rest[0].isdigit():
                constants[name] = int(rest[0])
        elif level in ("66", "88") or "OCCURS" in words or not {"PIC", "PICTURE", "INDEX"} & set(words):
            continue
        elif how <= {"safe", "vary"} and "vary" in how and alone and section != "FILE":  # (READ sets a record)
            stable.add(name)
        elif how <= {"safe"} and value.isdigit() and section in ("WORKING-STORAGE", "LOCAL-STORAGE") and not above:
            constants[name] = int(value)
    stable.update(n for n in indexes if uses.get(n, set()) <= {"safe", "vary"} and n not in entries)
    return frozenset(stable), constants


def covering(vary: tuple[tuple[str, Bound | None], ...], constants: dict[str, int]) -> dict[str, int] | None:
    """Each variable's last value if this loop runs every one of them over 1, 2, ... that far."""
    out: dict[str, int] = {}
    for var, bound in vary:
        if bound is None:
            return None
        text, less = bound
        value = int(text) if text.isdigit() else constants.get(text)
        if value is None or value - less < 1:
            return None
        out[var] = value - less
    return out or None


Paragraphs = list[tuple[str, str | None, list[Step]]]


def steady(
    program: Program, data: list[Tok], body_writes: dict[int, set[str]], para_writes: list[set[str]]
) -> Paragraphs:
    """The program's paragraphs with each loop's VARYING clause kept only for a variable nothing in the
    loop's body changes (its statements and the paragraphs they PERFORM, at any depth): an elementary item
    outside any table, or an index name, that no REDEFINES or RENAMES reaches, not in the FILE SECTION,
    whose groups the body does not change either (a SEARCH of its table changes an index). Set elsewhere
    (``MOVE 1 TO WS-I`` before another loop) does not matter. The others' bounds become None."""
    entries, indexes, reached = data_entries(data)
    owner = {
        i: n for n, found in entries.items() for _, w, _ in found if "INDEXED" in w for i in w[w.index("INDEXED") + 1 :]
    }
    index = {name: k for k, (name, _, _) in reversed(list(enumerate(program.paragraphs)))}
    done: dict[tuple[int, int], set[str]] = {}

    def span_writes(lo: int, hi: int) -> set[str]:
        if (lo, hi) not in done:
            done[(lo, hi)] = set()  # (a range that PERFORMs itself: what is found so far)
            out = set().union(*para_writes[lo : hi + 1])
            for k in range(lo, hi + 1):
                out |= writes(program.paragraphs[k][2])
            done[(lo, hi)] = out
        return done[(lo, hi)]

    def writes(steps: list[Step]) -> set[str]:
        out: set[str] = set()
        for step in steps:
            if step[0] == "perform":
                first = program.sections.get(step[1]) or ((index[step[1]],) * 2 if step[1] in index else None)
                last = program.sections.get(step[2] or step[1]) or (
                    (index[step[2] or step[1]],) * 2 if (step[2] or step[1]) in index else None)  # fmt: skip
                out |= span_writes(first[0], last[1]) if first and last else {"*"}
            elif step[0] == "branch":
                out |= set().union(*(writes(b) for b in step[1]))
            elif step[0] == "loop":
                out |= body_writes.get(id(step[2]), set()) | writes(step[1] + step[2] + step[4])
        return out

    def kept(var: str, changed: set[str]) -> bool:
        if "*" in changed or var in changed or var in reached:
            return False
        if var in indexes and var not in entries:
            return owner.get(var, "*") not in changed
        found = entries.get(var, [])
        if len(found) != 1:
            return False
        section, words, above = found[0]
        return (
            section != "FILE" and words[0].lstrip("0") not in ("66", "78", "88") and "OCCURS" not in words
            and bool({"PIC", "PICTURE", "INDEX"} & set(words))
            and all("OCCURS" not in g and g[1] not in reached and g[1] not in changed for g in above)
        )  # fmt: skip

    def fix(steps: list[Step]) -> list[Step]:
        out: list[Step] = []
        for step in steps:
            if step[0] == "branch":
                step = ("branch", [fix(b) for b in step[1]], *step[2:])
            elif step[0] == "loop":
                changed = body_writes.get(id(step[2]), set()) | writes(step[2])
                vary = tuple((v, b if b is not None and kept(v, changed) else None) for v, b in step[5])
                step = ("loop", fix(step[1]), fix(step[2]), step[3], fix(step[4]), vary, *step[6:])
            out.append(step)
        return out

    return [(name, section, fix(steps)) for name, section, steps in program.paragraphs]
