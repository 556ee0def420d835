"""The PROCEDURE DIVISION as steps: paragraphs and sections of parsed statements (see :mod:`.operands`).

Each statement the analysis knows becomes steps of reads, whole writes, partial writes and unknown uses
of LINKAGE units, with its branches (IF, EVALUATE, SEARCH, ON SIZE ERROR / AT END / ON EXCEPTION
phrases), loops (PERFORM UNTIL/VARYING/TIMES, inline or not) and jumps. A statement it does not know makes
its LINKAGE operands "unknown"; a word that starts no statement, ALTER, ENTRY and GO TO DEPENDING make
the whole flow unknown, but for the CICS translator's GO TO DEPENDING ON DFHEIGDI (:mod:`.handlers`, which
also reads its CALL 'CICSRT's). ``EXEC SQL`` reads and sets what :func:`..precompile.scan.data_uses` says
(``INTO :hv`` sets); other EXEC blocks (DLI) leave their operands unknown.
"""

from __future__ import annotations

from ..precompile.scan import cursor_reads, data_uses
from ..source.lines import Line
from ..source.tokens import Tok, tokenize
from .handlers import CicsStatements, abend_labels, descriptors
from .linked import resolved
from .logcopy import copied_to, unlogged
from .loops import facts, steady, vary_clauses
from .model import Record
from .odo import counter_name, tables
from .operands import TERMINATORS, VERBS, Program, Step, split_words, sql_names, units_and_names

__all__ = ["parse_procedure"]


class _Statements(CicsStatements):
    conds: set[int]  # indexes of the tokens inside conditions (IF, UNTIL, EVALUATE, WHEN)
    sql_cursors: dict[str, list[str]] | None = None  # what each declared cursor reads (at OPEN)

    def condition(self) -> list[Tok]:
        start = self.i
        body = self.span()
        self.conds.update(range(start, self.i))
        return body

    def boundary(self) -> bool:
        return self.at() not in VERBS and self.stop_here()

    def seq(self) -> list[Step]:
        steps: list[Step] = []
        while self.i < len(self.toks) and not self.boundary():
            if self.at() not in VERBS:
                tok = self.toks[self.i]
                self.fail(f"{tok.text!r} at {self.where(tok)} does not start a statement the analysis knows")
                self.i += 1
                continue
            steps.extend(self.statement())
        return steps

    def phrases(self, verb: str) -> list[Step]:
        """ON SIZE ERROR / AT END / ON EXCEPTION ... bodies as branches: one of them runs when both the
        phrase and its NOT form are given, otherwise maybe none."""
        bodies: list[list[Step]] = []
        kinds: set[bool] = set()
        skip = {"ON", "NOT", "SIZE", "ERROR", "OVERFLOW", "EXCEPTION", "AT", "END", "INVALID", "KEY", "EOP"}
        while self.i < len(self.toks) and self.at() not in VERBS and self.stop_here() and self.at() != ".":
            if self.at() not in skip | {"END-OF-PAGE"}:
                break
            kinds.add(self.at() == "NOT")
            while self.at() in skip | {"END-OF-PAGE"}:
                self.i += 1
            bodies.append(self.seq())
        if self.at() == "END-" + verb:
            self.i += 1
        return [("branch", bodies, len(kinds) < 2)] if bodies else []

    @staticmethod
    def split(toks: list[Tok], *words: str, last: bool = False) -> tuple[list[Tok], list[Tok]]:
        hits = [k for k, t in enumerate(toks) if t.up in words or (t.kind == "word" and t.text in words)]
        if not hits:
            return toks, []
        k = hits[-1] if last else hits[0]
        return toks[:k], toks[k + 1 :]

    def statement(self) -> list[Step]:
        tok = self.toks[self.i]
        verb = tok.up
        self.i += 1
        why = self.why(verb, tok)
        handler = getattr(self, "s_" + verb.replace("-", "_"), None)
        if handler is not None:
            steps: list[Step] = handler(why, tok)
            return steps
        body = self.span()
        return self.effects("u", body, f"used by {why}: direction unknown") + self.phrases(verb)

    def s_IF(self, why: str, tok: Tok) -> list[Step]:
        steps = self.effects("r", self.condition(), why)
        if self.at() == "THEN":
            self.i += 1
        then, other = self.seq(), []
        if self.at() == "ELSE":
            self.i += 1
            other = self.seq()
        if self.at() == "END-IF":
            self.i += 1
        return [*steps, ("branch", [then, other], False)]

    def s_EVALUATE(self, why: str, tok: Tok) -> list[Step]:
        steps = self.effects("r", self.condition(), why)
        bodies: list[list[Step]] = []
        other = False
        while self.at() == "WHEN":
            when = self.toks[self.i]
            self.i += 1
            objs = self.condition()
            other = other or any(t.up == "OTHER" for t in objs)
            steps += self.effects("r", objs, self.why("WHEN", when))
            if self.at() != "WHEN":
                bodies.append(self.seq())
        if self.at() == "END-EVALUATE":
            self.i += 1
        return [*steps, ("branch", bodies, not other)]

    def loop_header(self, why: str) -> tuple[list[Step], list[Step], bool, bool, tuple[object, ...]]:
        """(steps before the first test, the test's reads, at least once, is a loop, VARYING clauses)."""
        base = self.i
        hdr = self.span()
        words = [t.up for t in hdr]
        vary = vary_clauses([t.up or t.text for t in hdr])
        once = any(w == "AFTER" and k and words[k - 1] == "TEST" for k, w in enumerate(words))
        looping = any(w in ("UNTIL", "VARYING", "TIMES") for w in words)
        if "TIMES" in words and not once:
            count = hdr[words.index("TIMES") - 1].text if words.index("TIMES") else "0"
            once = count.isdigit() and int(count) > 0
        pre: list[Step] = []
        test: list[Step] = []
        k = 0
        while k < len(hdr):
            if (
                words[k] in ("VARYING", "AFTER")
                and k + 1 < len(hdr)
                and hdr[k + 1].up != "TEST"
                and words[k - 1 : k] != ["TEST"]
            ):
                pre += self.effects("w", [hdr[k + 1]], f"PERFORM VARYING at {self.where(hdr[k + 1])}")
                k += 2
                continue
            if words[k] == "UNTIL":
                j = k + 1
                while j < len(hdr) and words[j] != "AFTER":
                    j += 1
                test += self.effects("r", hdr[k + 1 : j], f"UNTIL of {why}")
                self.conds.update(range(base + k + 1, base + j))
                k = j
                continue
            pre += self.effects("r", [hdr[k]], why)
            k += 1
        return pre, test, once or not looping, looping, vary

    def s_PERFORM(self, why: str, tok: Tok) -> list[Step]:
        if self.at() in self.procs:
            first, last = self.at(), None
            self.i += 1
            if self.at() in ("THRU", "THROUGH"):
                last = self.at(1)
                self.i += 2
            pre, test, once, looping, vary = self.loop_header(why)
            call: Step = ("perform", first, last, why)
            return [("loop", pre, [call], once, test, vary, why)] if looping else [*pre, call]
        pre, test, once, _, vary = self.loop_header(why)
        mark = len(self.written)
        body = self.seq()
        self.body_writes[id(body)] = set(self.written[mark:])
        if self.at() == "END-PERFORM":
            self.i += 1
        return [("loop", pre, body, once, test, vary, why)]

    def s_MOVE(self, why: str, tok: Tok) -> list[Step]:
        corr = self.at() in ("CORRESPONDING", "CORR")
        src, dst = self.split(self.span(), "TO")
        if len(dst) == 1 and not corr:
            self.moved[dst[0].up] = src
        reads, area = self.effects("r", src, why), copied_to(self, src, dst)
        return ([("logcopy", area, reads)] if area else reads) + self.effects("p" if corr else "w", dst, why)

    def arithmetic(self, why: str, tok: Tok) -> list[Step]:
        body = self.span()
        if any(t.up == "GIVING" for t in body):
            src, dst = self.split(body, "GIVING")
            steps = self.effects("r", src, why) + self.effects("w", dst, why)
        elif tok.up == "COMPUTE":
            dst, src = self.split(body, "=", "EQUAL")
            steps = self.effects("r", src, why) + self.effects("w", dst, why)
        else:
            src, dst = self.split(body, "TO", "FROM", "BY", "INTO", last=True)
            steps = self.effects("r", src, why) + self.effects("rw", dst, why)
        more = self.phrases(tok.up)
        if more:  # on a size error the receiving items keep their values
            steps = [("eff", "p", s[2], s[3]) if s[0] == "eff" and s[1] == "w" else s for s in steps if s[0] != "mark"]
        return steps + more

    s_ADD = s_SUBTRACT = s_MULTIPLY = s_DIVIDE = s_COMPUTE = arithmetic

    def s_INITIALIZE(self, why: str, tok: Tok) -> list[Step]:
        dst, rest = self.split(self.span(), "REPLACING", "WITH", "ALL", "TO", "DEFAULT", "THEN", "FILLER")
        return self.effects("w", dst, why) + self.effects("r", rest, why)

    def s_SET(self, why: str, tok: Tok) -> list[Step]:
        body = self.span()
        if any(t.up in ("UP", "DOWN") for t in body):
            dst, src = self.split(body, "UP", "DOWN")
            return self.effects("r", src, why) + self.effects("rw", dst, why)
        dst, src = self.split(body, "TO")
        if self.address_kept(dst, src):
            return []
        return self.effects("r", src, why) + self.effects("w", dst, why)

    def address_kept(self, dst: list[Tok], src: list[Tok]) -> bool:
        """``SET p TO ADDRESS OF X`` where the pointer ``p`` (not an item of the USING records) is named
        nowhere else in the PROCEDURE DIVISION: the address is kept and never used to reach X's bytes
        (a header for a dump), so X is neither read nor written by it."""
        if len(dst) != 1 or len(src) < 3 or [t.up for t in src[:2]] != ["ADDRESS", "OF"]:
            return False
        name = dst[0].up
        return name not in self.names and sum(t.up == name for t in self.toks) == 1

    def s_STRING(self, why: str, tok: Tok) -> list[Step]:
        src, dst = self.split(self.span(), "INTO")
        dst, ptr = self.split(dst, "POINTER")
        steps = self.effects("r", src, why) + self.effects("p", dst, why) + self.effects("rw", ptr, why)
        return steps + self.phrases("STRING")

    def s_UNSTRING(self, why: str, tok: Tok) -> list[Step]:
        src, dst = self.split(self.span(), "INTO")
        dst, ptr = self.split(dst, "POINTER", "TALLYING")
        steps = self.effects("r", src, why) + self.effects("p", dst, why) + self.effects("rw", ptr, why)
        return steps + self.phrases("UNSTRING")

    def s_INSPECT(self, why: str, tok: Tok) -> list[Step]:
        body = self.span()
        subject, rest = self.split(body, "TALLYING", "REPLACING", "CONVERTING")
        changes = any(t.up in ("REPLACING", "CONVERTING") for t in body)
        steps = self.effects("rp" if changes else "r", subject, why)
        for k, t in enumerate(rest):
            if t.up == "FOR" and k:
                steps += self.effects("rw", [rest[k - 1]], why)
        return steps + self.effects(
            "r", [t for k, t in enumerate(rest) if not (k + 1 < len(rest) and rest[k + 1].up == "FOR")], why
        )

    def s_ACCEPT(self, why: str, tok: Tok) -> list[Step]:
        dst, src = self.split(self.span(), "FROM")  # FROM ENVIRONMENT name: the name is read
        return self.effects("r", src, why) + self.effects("w", dst, why) + self.phrases("ACCEPT")

    def s_DISPLAY(self, why: str, tok: Tok) -> list[Step]:
        return self.effects("r", self.span(), why, sent=True) + self.phrases("DISPLAY")

    def s_CALL(self, why: str, tok: Tok) -> list[Step]:
        body = self.span()
        target = body[0].text if body else "?"
        if target == "CICSRT" and (cics := self.cics_call(body, why)) is not None:
            return cics + self.phrases("CALL")
        head, using = self.split(body, "USING")
        using, returning = self.split(using, "RETURNING")
        steps = self.effects("r", head, why)
        mode = "REFERENCE"
        for t in using:
            if t.up in ("REFERENCE", "CONTENT", "VALUE"):
                mode = t.up
            elif mode == "REFERENCE":
                reason = f"passed to CALL '{target}' at {self.where(t)} (BY REFERENCE): direction unknown"
                steps += self.effects("u", [t], reason)
            else:
                steps += self.effects("r", [t], f"{why} (BY {mode})")
        return steps + self.effects("w", returning, why) + self.phrases("CALL")

    def s_EXIT(self, why: str, tok: Tok) -> list[Step]:
        kind = self.at()
        self.i += kind == "PERFORM"  # a verb, which would end the span at once and start a statement
        self.span()
        if kind == "PROGRAM":
            return [("exit", why)]
        if kind == "PERFORM":
            return [("break",)]
        if kind in ("PARAGRAPH", "SECTION"):
            return [("leave", kind)]
        return []

    def s_CONTINUE(self, why: str, tok: Tok) -> list[Step]:
        return []

    def s_NEXT(self, why: str, tok: Tok) -> list[Step]:
        self.span()
        return [("next",)]

    def s_SEARCH(self, why: str, tok: Tok) -> list[Step]:
        head, vary = self.split(self.span(), "VARYING")
        self.note("u", head[:1])  # it sets the table's index (see .loops.steady)
        steps = self.effects("r", head, why) + self.effects("rw", vary, why)
        bodies: list[list[Step]] = []
        ends = False
        if self.at() == "AT":
            self.i += 2
            ends = True
            bodies.append(self.seq())
        whens: list[Step] = []
        while self.at() == "WHEN":
            when = self.toks[self.i]
            self.i += 1
            whens += self.effects("r", self.condition(), self.why("WHEN", when))
            bodies.append(self.seq())
        if self.at() == "END-SEARCH":
            self.i += 1
        return steps + whens + [("branch", bodies, not ends)]

    def s_EXEC(self, why: str, tok: Tok) -> list[Step]:
        start = self.i
        while self.i < len(self.toks) and self.at() != "END-EXEC":
            self.i += 1
        raw = self.toks[start : self.i]
        self.i += 1
        if raw and raw[0].up == "SQL":  # the precompiler knows what each SQL statement reads and sets
            if self.sql_cursors is None:
                self.sql_cursors = cursor_reads([(line.lineno, line.code) for line in self.lines])
            sql = " ".join(t.text if t.kind == "word" else "''" for t in raw[1:])
            reads, sets = data_uses(sql, self.sql_cursors)
            return self.effects("r", sql_names(reads, tok), why) + self.effects("w", sql_names(sets, tok), why)
        body = [Tok(t.text.lstrip(":"), t.kind, t.line) for t in raw]
        return self.effects("u", body, f"used by {why}: direction unknown")


def parse_procedure(lines: list[Line], records: tuple[Record, ...]) -> Program:
    """The statements after ``PROCEDURE DIVISION [USING ...].`` (COPY already expanded), as steps."""
    toks = tokenize(lines, whole=True)
    counters = frozenset(counter_name(t.depending_on or "") for r in records for t in tables(r.field))
    start = next((k for k in range(1, len(toks)) if toks[k].up == "DIVISION" and toks[k - 1].up == "PROCEDURE"), None)
    units, names = units_and_names(records)
    if start is None:
        return Program(units, [], counters=counters)
    data = toks[: start - 1]
    while start < len(toks) and toks[start].kind != "period":
        start += 1
    toks = split_words(toks[start + 1 :])
    end = next(
        (
            k
            for k in range(len(toks) - 1)
            if (toks[k].up, toks[k + 1].up) in (("END", "PROGRAM"), ("IDENTIFICATION", "DIVISION"), ("ID", "DIVISION"))
        ),
        len(toks),
    )  # this program's statements end where a contained program or the END PROGRAM marker starts
    toks = toks[:end]
    heads: list[tuple[int, str, bool]] = []  # (token index, name, is a section)
    for k, t in enumerate(toks):
        if t.kind != "word" or (k and toks[k - 1].kind != "period") or t.up in VERBS or t.up in TERMINATORS:
            continue
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if nxt is not None and nxt.kind == "period":
            heads.append((k, t.up, False))
        elif nxt is not None and nxt.up == "SECTION" and k + 2 < len(toks) and toks[k + 2].kind == "period":
            heads.append((k, t.up, True))
    parser = _Statements(lines, toks, units, names)
    parser.conds, parser.moved, parser.data = set(), {}, data
    parser.commands = descriptors(data)
    parser.abend_labels = abend_labels(parser.commands)
    parser.procs = {name for _, name, _ in heads}
    bounds: list[tuple[str, str | None, int, int]] = []
    if not heads or heads[0][0] > 0:
        bounds.append(("", None, 0, heads[0][0] if heads else len(toks)))
    section: str | None = None
    program = Program(units, [], counters=counters)
    for n, (k, name, is_section) in enumerate(heads):
        stop = heads[n + 1][0] if n + 1 < len(heads) else len(toks)
        if is_section:
            section = name
            program.sections[name] = (len(bounds), len(bounds))
        elif section is not None:
            first, _ = program.sections[section]
            program.sections[section] = (first, len(bounds))
        bounds.append((name, section, k + (3 if is_section else 2), stop))
    para_writes: list[set[str]] = []  # the data names each paragraph's own statements may change
    for name, sec, lo, hi in bounds:
        parser.i, mark = lo, len(parser.written)
        steps: list[Step] = []
        while parser.i < hi:
            if parser.at() == ".":
                steps.append(("sentence",))
                parser.i += 1
                continue
            before = parser.i
            steps.extend(parser.seq())
            if parser.i == before:
                bad = toks[parser.i]
                parser.fail(f"{bad.text!r} at {parser.where(bad)} does not start a statement the analysis knows")
                parser.i += 1
        program.paragraphs.append((name, sec, steps))
        para_writes.append(set(parser.written[mark:]))
    program.failure = parser.failure
    program.stable, program.constants = facts(data, toks, parser.conds)
    program.paragraphs = steady(program, data, parser.body_writes, para_writes)
    program.paragraphs = unlogged(program.paragraphs, data, parser.uses)
    program.paragraphs = resolved(program.paragraphs, parser.uses)  # (after steady: it keys loop bodies by id)
    return program
