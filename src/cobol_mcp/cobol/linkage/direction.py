"""Which LINKAGE items are arguments and which are results, from what the PROCEDURE DIVISION does.

:func:`directions` walks the steps of :mod:`.procedure` from the first statement, following fall-through,
PERFORM (paragraphs, sections, THRU ranges, loops that may run zero times unless TEST AFTER or a literal
count says otherwise), IF/EVALUATE/SEARCH branches, forward GO TOs, GO TOs out of a PERFORM to a paragraph
whose flow ends the program before it reaches the end of a PERFORM that may be running (``GO TO
9999-ABEND``), NEXT SENTENCE, and other ways in (a GO TO back while no PERFORM runs, the CICS translator's
HANDLE labels; :func:`.handlers.follow`; an abend's path returns nothing), keeping the set
of units that are surely set (written whole on every path so far; a loop that provably runs its
variable over every occurrence of a table and writes the element on every path sets the whole table,
see :mod:`.loops`). Only an item the program may read before it is surely set is a required input. A
unit is then:

* ``out`` - written whole before any read on every path, and surely set when the program returns;
* ``in`` - read, never written;
* ``inout`` - read before it is surely set (a required argument) unless its name says output
  (``*-OUT``, ``OUT-*`` etc.): then it stays ``out`` and starts as its VALUE or spaces/zeros, as output
  records always have;
* ``inout`` but ``optional`` - written only on some paths or in part, never read first: not a required
  argument (absent, it starts as its VALUE or spaces/zeros), reported back as the caller's value may
  come back; ``out`` when its name says output;
* ``in`` but ``optional`` - never used by the PROCEDURE DIVISION: accepted (its callers may still pass
  it), never required nor reported (a DEPENDING ON counter excepted, which the names decide).

Where the analysis cannot know (passed BY REFERENCE to another CALL, ADDRESS OF, reference modification
with variable bounds, statements it does not model; for the whole program: ALTER, GO TO DEPENDING,
a GO TO back or out of its range, while a PERFORM runs, whose flow reaches the end of that PERFORM's
range and so returns into it, recursion) the naming
convention decides, and in/out when the names say nothing. Every unit keeps the reason for its direction.
"""

from __future__ import annotations

from .frozen import replace
from .handlers import follow
from .loops import covering
from .model import Field, Record
from .operands import Program, Step, Unit

__all__ = ["apply_directions", "directions", "name_direction", "recombine", "redirect"]

_IN_SUFFIXES = ("_in", "_input", "_request")
_OUT_SUFFIXES = ("_out", "_output", "_result", "_response")
_IN_PREFIXES = ("in_", "inp_", "input_")
_OUT_PREFIXES = ("out_", "outp_", "output_")
_LEVEL_PREFIXES = ("lk_", "ls_", "lnk_", "ws_", "l_")  # LK-IN-, LS-OUT-, WS-OUT-, L-IN- ...

State = frozenset[int] | None
_Key = tuple[tuple[str, ...], tuple[int, ...]]  # a table element's subscript names and the table's OCCURS counts


def name_direction(key: str) -> str:
    """The naming convention: ``*-IN``/``IN-*`` input, ``*-OUT``/``OUT-*`` output, anything else both.

    A prefix may follow a level prefix (``LK-IN-``, ``LS-OUT-``, ``WS-OUT-``); suffixes win over prefixes.
    """
    if key.endswith(_IN_SUFFIXES):
        return "in"
    if key.endswith(_OUT_SUFFIXES):
        return "out"
    bare = next((key[len(p) :] for p in _LEVEL_PREFIXES if key.startswith(p)), key)
    for word in (key, bare):
        if word.startswith(_IN_PREFIXES):
            return "in"
        if word.startswith(_OUT_PREFIXES):
            return "out"
    return "inout"


def _meet(states: list[State]) -> State:
    live = [s for s in states if s is not None]
    if not live:
        return None
    out = live[0]
    for s in live[1:]:
        out = out & s
    return out


class _Frame:
    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi, self.current = lo, hi, lo
        self.pending: dict[int, list[State]] = {}
        self.breaks: list[list[State]] = []
        self.nexts: list[State] = []
        self.leave: list[State] = []


class _Walk:
    def __init__(self, program: Program) -> None:
        self.p = program
        self.index: dict[str, int] = {}
        for k, (name, _, _) in enumerate(program.paragraphs):
            self.index.setdefault(name, k)
        self.exits: list[State] = []
        self.memo: dict[tuple[int, int, frozenset[int], frozenset[int], frozenset[str]], State] = {}
        self.looping: list[frozenset[str]] = []  # the variables of the loops being walked, steady in them
        self.active: set[tuple[int, int]] = set()
        self.failure = program.failure
        self.keys: list[_Key] = []  # subscripts and OCCURS counts of marks
        self.marked: dict[tuple[int, _Key], str] = {}  # (unit, key) -> the write that marked it
        # ways in besides the first paragraph: states jumping there, ends of the PERFORMs running then, why
        self.entries: dict[int, tuple[list[State], frozenset[int], str]] = {}
        self.under: frozenset[int] = frozenset()  # those of the way in being walked (see .handlers.follow)

    # A unit set for the current value of its subscripts (``MOVE 0 TO T(I)``) is a "mark" in the state: a
    # negative number standing for (unit, key). A loop that provably runs I over every occurrence turns
    # the marks it leaves on every path into the unit itself; any loop on I clears them.
    def mark(self, u: int, key: _Key) -> int:
        if key not in self.keys:
            self.keys.append(key)
        return -1 - u - len(self.p.units) * self.keys.index(key)

    def unmark(self, m: int) -> tuple[int, _Key]:
        k, u = divmod(-1 - m, len(self.p.units))
        return u, self.keys[k]

    def settle(self, s: State, vary: tuple[tuple[str, object], ...], cover: dict[str, int] | None, why: str) -> State:
        """``s`` with the marks on this loop's variables turned into units (when ``cover``) or dropped."""
        if s is None:
            return None
        names = {v for v, _ in vary}
        out = set(s)
        for m in s:
            if m >= 0:
                continue
            u, (subs, dims) = self.unmark(m)
            if not names & set(subs):
                continue
            out.discard(m)
            if cover and all(cover.get(v) == d for v, d in zip(subs, dims, strict=True)):
                unit = self.p.units[u]
                site = f"{self.marked[(u, (subs, dims))]} for every occurrence ({why})"
                unit.full = unit.full or site
                if u not in out and site not in unit.sites:
                    unit.sites.append(site)
                out.add(u)
        return frozenset(out)

    def fail(self, reason: str) -> None:
        self.failure = self.failure or reason

    def span(self, name: str) -> tuple[int, int] | None:
        if name in self.p.sections:
            return self.p.sections[name]
        k = self.index.get(name)
        return None if k is None else (k, k)

    def range(self, lo: int, hi: int, s: State) -> State:
        frame = _Frame(lo, hi)
        for k in range(lo, hi + 1):
            s = _meet([s, *frame.pending.pop(k, [])])
            frame.current, frame.leave = k, []
            if s is not None:
                s = self.run(self.p.paragraphs[k][2], s, frame)
            s = _meet([s, *frame.leave, *frame.nexts])
            frame.nexts = []
        return s

    def run(self, steps: list[Step], s: State, frame: _Frame) -> State:
        for step in steps:
            kind = step[0]
            if kind == "sentence":
                s = _meet([s, *frame.nexts])
                frame.nexts = []
            elif s is None:
                continue
            elif kind == "eff":
                s = self.effect(step[1], step[2], step[3], s, step[4] if len(step) > 4 else None)
            elif kind == "branch":
                bodies: list[list[Step]] = step[1]
                ends = [self.run(b, s, frame) for b in bodies]
                s = _meet(ends + ([s] if step[2] or not bodies else []))
            elif kind == "loop":
                _, pre, body, once, test, vary, why = step
                cover = covering(vary, self.p.constants)
                s = self.run(pre, self.settle(s, vary, None, why), frame)
                if not once:
                    s = self.run(test, s, frame)
                frame.breaks.append([])
                self.looping.append(frozenset(v for v, b in vary if b is not None))  # not changed in its body
                end = self.settle(self.run(body, s, frame), vary, cover, why)
                self.looping.pop()
                if once:
                    end = self.run(test, end, frame)
                breaks = [self.settle(b, vary, None, why) for b in frame.breaks.pop()]
                s = _meet([end, *breaks] + ([] if once or cover else [s]))
            elif kind == "mark":
                if s is not None and all(v in self.p.stable or any(v in k for k in self.looping) for v in step[2][0]):
                    for u in step[1]:
                        self.marked.setdefault((u, step[2]), step[3])
                    s = s | {self.mark(u, step[2]) for u in step[1]}
            elif kind == "perform":
                s = self.perform(step[1], step[2], step[3], s)
            elif kind == "goto":
                self.go(step[1], step[2], s, frame, True)
                s = None
            elif kind == "dispatch":  # the CICS translator's: carry on, or go to a handler label
                for label in step[1]:
                    self.go(label, step[2], s, frame, False)
            elif kind == "abort":  # an abend: the call fails, nothing is returned
                s = None
            elif kind == "exit":
                self.exits.append(s)
                s = None
            elif kind == "break":
                if frame.breaks:
                    frame.breaks[-1].append(s)
                else:
                    self.fail("EXIT PERFORM outside an inline PERFORM")
                s = None
            elif kind == "leave":
                if step[1] == "PARAGRAPH":
                    frame.leave.append(s)
                else:
                    self.fail("EXIT SECTION: the flow is not followed")
                s = None
            elif kind == "next":
                frame.nexts.append(s)
                s = None
        return s

    def go(self, name: str, why: str, s: frozenset[int], frame: _Frame, plain: bool) -> None:
        """GO TO ``name``: forward in the running range, to a paragraph that ends the program, or (see
        :func:`.handlers.follow`) a handler label or, with no PERFORM running, back: another way in."""
        s = frozenset(m for m in s if m >= 0 or set(self.unmark(m)[1][0]) <= self.p.stable)  # (out of a loop)
        target = self.index.get(name)
        if target is not None and frame.current < target <= frame.hi:
            frame.pending.setdefault(target, []).append(s)
            return
        why = (f"GO TO {name} ({why}) goes back or out of its PERFORM range and does not end the program "
               "there: the flow cannot be followed")  # fmt: skip
        if target is None:
            self.fail(why)
        elif not plain or not self.active or self.once(target, target, s, why) is not None:
            states, ends, _ = self.entries.get(target, ([], frozenset(), why))
            self.entries[target] = ([*states, s], ends | self.running(), why)

    def running(self) -> frozenset[int]:  # the last paragraph of each PERFORM range that may be running
        return self.under | {hi for _, hi in self.active}

    def effect(self, op: str, cover: list[tuple[int, bool]], why: str, s: frozenset[int], key: object) -> State:
        units = self.p.units
        keyed = isinstance(key, tuple) and key in self.keys
        for u, full in cover:
            unit = units[u]
            if op == "r":
                unit.read = unit.read or why
                if keyed and self.mark(u, key) in s:  # type: ignore[arg-type]  # this very element was set
                    continue
                if u not in s and unit.read_unset is None:
                    unit.read_unset = why
            elif op in ("w", "p"):
                unit.write = unit.write or why
                if op == "w" and full:
                    unit.full = unit.full or why
                    if u not in s and why not in unit.sites:
                        unit.sites.append(why)
                    s = s | {u}
            elif op == "u":
                unit.unknown = unit.unknown or why
        return s

    def perform(self, first: str, last: str | None, why: str, s: frozenset[int]) -> State:
        a, b = self.span(first), self.span(last) if last else None
        if a is None or (last and b is None):
            self.fail(f"{why}: no such paragraph or section")
            return s
        return self.once(
            a[0], (b or a)[1], s, f"{why} performs a range that is already running: the flow is not followed"
        )

    def once(self, lo: int, hi: int, s: frozenset[int], looping: str) -> State:
        """Paragraphs lo..hi run from state s (remembered per state); one that runs into itself fails with
        the reason ``looping``."""
        key = (lo, hi, s, self.running(), frozenset().union(*self.looping))
        if key in self.memo:
            return self.memo[key]
        if (lo, hi) in self.active:
            self.fail(looping)
            return s
        self.active.add((lo, hi))
        end = self.range(lo, hi, s)
        self.active.discard((lo, hi))
        self.memo[key] = end
        return end


def _named(unit: Unit, keys: tuple[str, ...]) -> tuple[str, str]:
    for name in reversed(unit.path):
        d = name_direction(name.lower().replace("-", "_"))
        if d != "inout":
            return d, name
    for key in keys:
        d = name_direction(key)
        if d != "inout":
            return d, key
    return "inout", ""


def directions(program: Program, record_keys: list[str]) -> dict[int, tuple[str, str] | tuple[str, str, bool]]:
    """id(field) -> (direction, reason[, optional]) for every unit of the USING records."""
    walk = _Walk(program)
    if program.paragraphs:
        end = walk.range(0, len(program.paragraphs) - 1, frozenset())
        walk.exits.append(end)
        follow(walk)
    else:
        walk.exits.append(frozenset())
    surely = _meet(walk.exits)
    program.failure, program.surely = walk.failure, surely
    result: dict[int, tuple[str, str] | tuple[str, str, bool]] = {}
    for n, u in enumerate(program.units):
        named, by = _named(u, (record_keys[u.record],))
        unknown = walk.failure or u.unknown
        if unknown:
            if named != "inout":
                result[id(u.field)] = (named, f"{unknown}; named {by}: {named}")
            else:
                result[id(u.field)] = ("inout", f"{unknown}; in/out by default")
        elif u.write is None and u.read is None and u.path[-1] in program.counters:
            how = f"named {by}: {named}" if named != "inout" else "in/out by default"
            result[id(u.field)] = (named, f"never used by the PROCEDURE DIVISION, but counts a table; {how}")
        elif u.write is None and u.read is None:
            result[id(u.field)] = ("in", "never used by the PROCEDURE DIVISION: not required, not reported", True)
        elif u.write is None:
            result[id(u.field)] = ("in", f"read by {u.read}, never written")
        elif u.read_unset is not None and named == "out":
            result[id(u.field)] = ("out", f"read by {u.read_unset} before it is surely set; named {by}: output, "
                                          "starting as its VALUE or spaces/zeros")  # fmt: skip
        elif u.read_unset is not None:
            result[id(u.field)] = ("inout", f"read by {u.read_unset} before it is surely set; written by {u.write}")
        elif surely is None or n in surely:
            if len(u.sites) > 1:
                by_all = ", ".join(u.sites[:3]) + (", ..." if len(u.sites) > 3 else "")
                result[id(u.field)] = ("out", f"set before any read on every path (by {by_all})")
            else:
                result[id(u.field)] = ("out", f"set by {u.full} before any read, on every path")
        elif named == "out":
            result[id(u.field)] = ("out", f"written by {u.write} on some paths or in part only; named {by}: "
                                          "output, starting as its VALUE or spaces/zeros")  # fmt: skip
        else:
            result[id(u.field)] = ("inout", f"written by {u.write} on some paths or in part only, never read "
                                            "first: not required (the caller's value, or its VALUE or "
                                            "spaces/zeros, may come back)", True)  # fmt: skip
    return result


def _combine(kids: list[str]) -> str:
    found = {d for d in kids if d != "none"}
    if not found:
        return "none"
    return found.pop() if len(found) == 1 else "inout"


def _apply(f: Field, found: dict[int, tuple[str, str] | tuple[str, str, bool]]) -> Field:
    if id(f) in found:
        d, why, *optional = found[id(f)]
        return replace(f, direction=d, reason=why, optional=bool(optional))
    if not f.children:
        return replace(f, direction="none", reason="not part of the JSON shape")
    kids = tuple(_apply(c, found) for c in f.children)
    d = _combine([c.direction for c in kids if c.exposed])
    return replace(f, children=kids, direction=d, reason="")


def apply_directions(records: list[Record], found: dict[int, tuple[str, str] | tuple[str, str, bool]]) -> list[Record]:
    """The records with each item's direction and reason filled in, each record's direction combined."""
    out = []
    for r in records:
        f = _apply(r.field, found)
        out.append(replace(r, field=f, direction=f.direction))
    return out


def redirect(f: Field, direction: str, reason: str) -> Field:
    """``f`` and every item inside it given ``direction`` (an override: the author knows better; an input
    it names is required unless it has a VALUE)."""
    kids = tuple(redirect(c, direction, reason) for c in f.children)
    return replace(f, children=kids, direction=direction, reason=reason, optional=False)


def recombine(r: Record) -> Record:
    """``r`` with each group's direction (and the record's) combined again from its items."""

    def walk(f: Field) -> Field:
        if not f.children:
            return f
        kids = tuple(walk(c) for c in f.children)
        return replace(f, children=kids, direction=_combine([c.direction for c in kids if c.exposed]))

    f = walk(r.field)
    return replace(r, field=f, direction=f.direction)
