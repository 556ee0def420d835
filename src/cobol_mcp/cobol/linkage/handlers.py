"""What the CICS translator's generated statements mean for the flow (see :mod:`..precompile.cics_generate`).

A translated program calls ``CALL 'CICSRT' USING BY VALUE n BY REFERENCE DFHEIBLK DFHDn p1 … pk`` for
each command; ``DFHDn`` (in the ``.cicsws`` book, COPYed into WORKING-STORAGE) is its descriptor, such
as ``160;LINK;PROGRAM();COMMAREA();LENGTH();RESP()``, which names the command and the option each
parameter stands for. :class:`CicsStatements` reads them, and gives the statement parser:

* the command's own data areas (``a`` options: INTO, FROM, RIDFLD, COMMAREA …) as reads when the command
  reads them, as partial writes when it may set them (a condition may leave them as they were; a LINKed
  program may change any byte of its COMMAREA); the other parameters are the translator's own items.
* ``GO TO l1 … lk DEPENDING ON DFHEIGDI`` as a ``("dispatch", labels, why)`` step: control goes on, or
  to one of the labels the runtime may choose. A command given RESP or NOHANDLE never goes to a HANDLE
  CONDITION label, and ABEND never does: only the HANDLE ABEND labels (LABEL, or the exit of PROGRAM)
  stay. :mod:`.direction` walks each label as another way into the program.
* ``IF DFHEIGDI < 0 GOBACK END-IF`` and the GOBACK after ABEND as ``("abort",)``: the program ends by an
  abend, whose call fails and returns nothing, so those paths say nothing about what the program
  returns.

Without descriptors (a program the translator did not write) nothing here applies: a CALL 'CICSRT' is
a plain CALL, and a GO TO DEPENDING ON makes the whole flow unknown.
"""

from __future__ import annotations

import re
from typing import Protocol

from ..precompile.cics import COMMON_OPTIONS
from ..precompile.cics_table import COMMANDS
from ..source.tokens import Tok
from .linked import constant_value, link_steps
from .operands import Operands, Program, Step

__all__ = ["CicsStatements", "Descriptor", "Walk", "abend_labels", "descriptors", "follow"]

_OPTION = re.compile(r"^([A-Z0-9-]+)(?:\((\d*)\))?$")
# The data areas a command only hands on (to another program, a queue, a started task): see .logcopy
_SENT = frozenset([("LINK", "COMMAREA"), ("WRITEQ TS", "FROM"), ("WRITEQ TD", "FROM"), ("START", "FROM")])


class Descriptor:
    """One command's descriptor: its name, its options in the order of their parameters (``OPT()``), the
    label indexes it names (``OPT(i)``), and whether it keeps away from HANDLE CONDITION labels."""

    def __init__(self, text: str) -> None:
        fields = text.split(";")
        self.name = fields[1] if len(fields) > 1 else ""
        self.params: list[str] = []
        self.labels: dict[str, int] = {}
        for entry in fields[2:]:
            m = _OPTION.match(entry.strip())
            if m is None:
                continue
            option, arg = m.group(1), m.group(2)
            if arg == "":
                self.params.append(option)
            elif arg is not None:
                self.labels[option] = int(arg)
        flags = {e.strip() for e in fields[2:]}
        self.no_conditions = self.name == "ABEND" or "NOHANDLE" in flags or "RESP()" in flags


def descriptors(data: list[Tok]) -> dict[int, Descriptor]:
    """The descriptors ``01 DFHDn. 05 FILLER … VALUE '…'`` of the DATA DIVISION tokens, by command number."""
    found: dict[int, list[str]] = {}
    current: int | None = None
    for k, t in enumerate(data):
        if t.kind == "word" and t.up in ("01", "1", "77") and k + 1 < len(data):  # (a 77 ends one too)
            nxt = data[k + 1].up
            current = int(nxt[4:]) if nxt.startswith("DFHD") and nxt[4:].isdigit() else None
            if current is not None:
                found[current] = []
        elif current is not None and t.kind == "lit" and k and data[k - 1].up == "VALUE":
            found[current].append(t.text)
    return {n: Descriptor("".join(parts)) for n, parts in found.items() if parts}


def _operands(toks: list[Tok]) -> list[list[Tok]]:
    """The operands of a USING list: a name with its qualifiers (OF/IN) and parenthesised subscripts."""
    out: list[list[Tok]] = []
    depth = 0
    for k, t in enumerate(toks):
        starts = (
            depth == 0 and t.text != "(" and t.up not in ("OF", "IN") and not (k and toks[k - 1].up in ("OF", "IN"))
        )
        if starts or not out:
            out.append([])
        out[-1].append(t)
        depth += (t.text == "(") - (t.text == ")")
    return out


class CicsStatements(Operands):
    """The statement parser's jumps (GO TO, GOBACK, STOP RUN, ALTER), and the translator's CALL 'CICSRT'."""

    commands: dict[int, Descriptor]
    command: Descriptor | None = None  # the command whose CALL was seen last, until its GO TO DEPENDING
    last_command: Descriptor | None = None  # the same, until the next GOBACK
    abend_labels: frozenset[int] = frozenset()
    moved: dict[str, list[Tok]]  # what the last MOVE to each plain name moved (the translator's DFHVn-k)
    data: list[Tok]  # the DATA DIVISION's tokens

    def cics_call(self, body: list[Tok], why: str) -> list[Step] | None:
        """Steps for ``CALL 'CICSRT' USING BY VALUE n BY REFERENCE DFHEIBLK DFHDn p1 …``; None when it is not
        the translator's (no descriptor, or its parameters do not match)."""
        self.command = self.last_command = None  # a CALL not understood leaves no command to dispatch after
        words = [t.up or t.text for t in body]
        n = words[4] if len(words) > 8 and words[1:4] == ["USING", "BY", "VALUE"] else ""
        d = self.commands.get(int(n)) if n.isdigit() else None
        if d is None or words[5:9] != ["BY", "REFERENCE", "DFHEIBLK", f"DFHD{n}"]:
            return None
        params = _operands(body[9:])
        table = COMMANDS.get(d.name)
        if table is None or len(params) != len(d.params):
            return None
        self.command = self.last_command = d
        steps: list[Step] = []
        for option, operand in zip(d.params, params, strict=True):
            kind = None if table.conditions else table.options.get(option) or COMMON_OPTIONS.get(option)
            if kind is not None and kind.code == "a":
                op = ("r" if kind.reads else "") + ("p" if kind.sets else "")
                sent = (d.name, option) in _SENT
                done = self.effects(op, operand, f"{why} ({d.name} {option})", sent) if op else []
                if (d.name, option) == ("LINK", "COMMAREA"):
                    done = self.link(dict(zip(d.params, params, strict=True)), why.replace("CALL", "LINK", 1), done)
                steps += done
            else:  # the translator's own items, or an option's value or receiver
                self.note("p" if kind is None or kind.sets else "r", operand)
        return steps

    def link(self, given: dict[str, list[Tok]], why: str, fallback: list[Step]) -> list[Step]:
        """A LINK's COMMAREA as the target program's analysis says (see :mod:`.linked`), or ``fallback``."""
        program, area, length = (given.get(o, []) for o in ("PROGRAM", "COMMAREA", "LENGTH"))
        name = self.moved.get(program[0].up, []) if len(program) == 1 else []
        if len(name) != 1:
            return fallback
        found = (name[0].text, ()) if name[0].kind == "lit" else constant_value(self.data, name[0].up)
        size = self.moved.get(length[0].up, []) if len(length) == 1 else []
        bound = int(size[0].text) if len(size) == 1 and size[0].text.isdigit() else None
        refs = self.refs(area)
        if found is None or len(refs) != 1 or refs[0][1] or refs[0][2] or refs[0][4]:
            return fallback
        steps = link_steps(found[0], refs[0][0], bound, self.units, why)
        return fallback if steps is None else [("link", found[1], steps, fallback)]

    def s_GO(self, why: str, tok: Tok) -> list[Step]:
        body = [t for t in self.span() if t.up != "TO"]
        words = [t.up for t in body]
        if words[-3:] == ["DEPENDING", "ON", "DFHEIGDI"] and self.command is not None:
            labels, d, self.command = words[:-3], self.command, None  # the labels the runtime may choose
            keep = [x for k, x in enumerate(labels, 1) if not d.no_conditions or k in self.abend_labels]
            return [("dispatch", tuple(keep), why)] if keep else []
        if "DEPENDING" in words or len(body) != 1:
            self.fail(f"GO TO at {self.where(tok)} without one fixed target: the flow cannot be followed")
            return []
        return [("goto", body[0].up, why)]

    def s_ALTER(self, why: str, tok: Tok) -> list[Step]:
        self.span()
        self.fail(f"ALTER at {self.where(tok)}: the flow cannot be followed")
        return []

    s_ENTRY = s_ALTER

    def s_GOBACK(self, why: str, tok: Tok) -> list[Step]:
        """GOBACK, STOP RUN; an abend's GOBACK (``IF DFHEIGDI < 0 GOBACK``, or after ABEND) ends no call."""
        before = [t.text.upper() for t in self.toks[max(0, self.i - 5) : self.i - 1]]
        last, self.last_command = self.last_command, None
        self.span()
        if tok.up == "GOBACK" and (before == ["IF", "DFHEIGDI", "<", "0"] or (last and last.name == "ABEND")):
            return [("abort",)]
        return [("exit", why)]

    s_STOP = s_GOBACK


def abend_labels(commands: dict[int, Descriptor]) -> frozenset[int]:
    """The label indexes of HANDLE ABEND LABEL(i) and of HANDLE ABEND PROGRAM's exit EXIT(i)."""
    return frozenset(i for d in commands.values() if d.name == "HANDLE ABEND" for i in d.labels.values())


State = frozenset[int] | None


class Walk(Protocol):
    """What :func:`follow` needs of :mod:`.direction`'s walk."""

    entries: dict[int, tuple[list[State], frozenset[int], str]]
    exits: list[State]
    p: Program
    under: frozenset[int]  # the ends of the PERFORM ranges that may be running under the way in walked

    def range(self, lo: int, hi: int, s: State) -> State: ...

    def fail(self, reason: str) -> None: ...


def follow(walk: Walk) -> None:
    """Walk each other way into the program: a handler label a dispatch may take, a paragraph a GO TO goes
    to out of its PERFORM range or back. Each is walked from what is surely set on every jump to it (their
    meet), and again while that shrinks or more PERFORMs may be running (a jump found on the way adds its
    state). From there the flow runs on paragraph after paragraph (PERFORMs inside it return as always)
    to the end of the program, unless it reaches the last paragraph of a PERFORM range that may be
    running at the jump: falling out of that paragraph returns into the PERFORM, which is not followed,
    so the way in must end the program before it (a GO TO out of a PERFORM into an error paragraph that
    ends the task is followed; one that may come back is not)."""
    done: dict[int, tuple[State, frozenset[int]]] = {}
    last = len(walk.p.paragraphs) - 1
    while True:
        todo = [(k, _meet(states), ends, why) for k, (states, ends, why) in walk.entries.items()]
        todo = [(k, s, ends, why) for k, s, ends, why in todo if s is not None and done.get(k) != (s, ends)]
        if not todo:
            return
        for k, s, ends, why in todo:
            done[k] = (s, ends)
            walk.under = ends
            back = [e for e in ends if k <= e <= last]
            end = walk.range(k, min(back) if back else last, s)
            if not back:
                walk.exits.append(end)
            elif end is not None:
                walk.fail(why)
            walk.under = frozenset()


def _meet(states: list[State]) -> State:
    live = [s for s in states if s is not None]
    return frozenset.intersection(*live) if live else None
