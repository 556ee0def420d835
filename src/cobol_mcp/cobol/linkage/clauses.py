"""Data description entries: the clauses of each entry
(PICTURE, USAGE, OCCURS, VALUE, REDEFINES, SIGN, JUSTIFIED, BLANK WHEN ZERO, SYNC) and their nesting
by level number."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .. import LinkageError
from ..source.lines import DECORATION, Line
from ..source.tokens import Tok, tokenize
from .dialect import DEFAULT
from .pic import NATIVE, POINTERS, UNMAPPABLE, USAGES

__all__ = ["Entry", "Parser", "nest"]


# ------------------------------------------------------------------------------------------ data entries


@dataclass
class Entry:
    level: int
    name: str
    line: int
    pic: str | None = None
    usage: str | None = None
    native: str = ""  # a NATIVE usage as written, e.g. "BINARY-SHORT UNSIGNED" (usage is then comp-5)
    occurs: int | None = None
    occurs_min: int | None = None  # OCCURS min TO max DEPENDING ON: min (occurs holds max)
    depending: str | None = None  # the counter named by DEPENDING ON
    values: list[Any] = dataclasses.field(default_factory=list)
    redefines: str | None = None
    sign: tuple[bool, bool] | None = None  # (leading, separate)
    justified: bool = False
    blank_when_zero: bool = False
    sync: bool = False
    children: list[Entry] = dataclasses.field(default_factory=list)
    conditions: list[Entry] = dataclasses.field(default_factory=list)
    description: str = ""
    any_length: bool = False  # PIC X ANY LENGTH (LINKAGE): the size is the calling program's item's


_FIGURATIVE = {
    "ZERO": "0", "ZEROS": "0", "ZEROES": "0", "SPACE": " ", "SPACES": " ", "LOW-VALUE": "\x00",
    "LOW-VALUES": "\x00", "HIGH-VALUE": "\xff", "HIGH-VALUES": "\xff", "QUOTE": '"', "QUOTES": '"',
    "NULL": "\x00", "NULLS": "\x00",
}  # fmt: skip
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
_SKIP_WORDS = {"IS", "ARE", "TIMES", "ON", "WHEN", "CHARACTER", "BY", "KEY"}


class Parser:
    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.toks = tokenize(lines)
        self.decimal_comma = False  # SPECIAL-NAMES. DECIMAL-POINT IS COMMA
        self.dialect = DEFAULT  # cobc's -std: binary sizes, truncation, SYNC
        self.line_starts: dict[int, Tok] = {}
        for tok in self.toks:
            self.line_starts.setdefault(tok.line, tok)

    def where(self, tok_or_line: Tok | int) -> str:
        idx = tok_or_line.line if isinstance(tok_or_line, Tok) else tok_or_line
        return self.lines[min(idx, len(self.lines) - 1)].where if self.lines else "?"

    def find(self, *words: str, start: int = 0) -> int:
        for i in range(start, len(self.toks) - len(words) + 1):
            if all(self.toks[i + k].up == w for k, w in enumerate(words)):
                return i
        return -1

    def comments_above(self, idx: int) -> str:
        found: list[str] = []
        k = idx - 1
        while k >= 0 and (comment := self.lines[k].comment) is not None:
            found.insert(0, comment)
            k -= 1
        return " ".join(t for t in found if t and not DECORATION.match(t))

    def entries(self, start: int, stop: int) -> list[Entry]:
        out: list[Entry] = []
        i = start
        while i < stop:
            j = i
            while j < stop and self.toks[j].kind != "period":
                j += 1
            if j > i:
                out.append(self.entry(self.toks[i:j], self.toks[min(j, stop - 1)]))
            i = j + 1
        return out

    def entry(self, toks: list[Tok], end: Tok) -> Entry:
        first = toks[0]
        if not first.text.isdigit():
            raise LinkageError(f"{self.where(first)}: expected a level number, found {first.text!r}")
        e = Entry(int(first.text), "FILLER", first.line)
        i = 1
        if i < len(toks) and toks[i].kind == "word" and not _is_clause(toks[i].up):
            e.name = toks[i].text
            i += 1
        above = self.comments_above(first.line) if self._first_on_line(first) else ""
        e.description = above or (self.lines[end.line].trailing or "")
        while i < len(toks) and e.level != 66:  # 66 RENAMES occupies no storage: nothing to read
            i = self.clause(e, toks, i)
        return e

    def _first_on_line(self, tok: Tok) -> bool:
        return self.line_starts.get(tok.line) is tok

    def usage(self, e: Entry, toks: list[Tok], k: int) -> int:
        """Read the USAGE word at ``k`` (and SIGNED/UNSIGNED after a native one); return the next index."""
        word, where = toks[k].up, self.where(toks[k])
        if word in UNMAPPABLE:
            raise LinkageError(f"{where}: {e.name}: {UNMAPPABLE[word]}, which has no JSON form")
        if word == "NATIONAL":
            e.usage = "national"
            return k + 1
        if word in POINTERS:  # an address: laid out, never shown (see .layout)
            e.usage = "pointer"
            return k + 1
        if word in NATIVE:
            e.usage = "comp-5"
            e.native = word
            if k + 1 < len(toks) and toks[k + 1].up in ("SIGNED", "UNSIGNED"):
                e.native += " " + toks[k + 1].up
                return k + 2
            return k + 1
        e.usage = USAGES[word]
        return k + 1

    def clause(self, e: Entry, toks: list[Tok], i: int) -> int:
        tok, word = toks[i], toks[i].up
        where = self.where(tok)
        nxt = [t.up for t in toks[i + 1 : i + 4]]
        if word in ("PIC", "PICTURE"):
            k = i + 1 + (nxt[:1] == ["IS"])
            if k >= len(toks):
                raise LinkageError(f"{where}: PICTURE without a character-string")
            e.pic = toks[k].text.upper()
            return k + 1
        if word == "USAGE":
            k = i + 1 + (nxt[:1] == ["IS"])
            if k >= len(toks) or not _is_usage(toks[k].up):
                found = toks[k].text if k < len(toks) else "nothing"
                raise LinkageError(f"{where}: USAGE {found} is not supported")
            return self.usage(e, toks, k)
        if _is_usage(word):
            return self.usage(e, toks, i)
        if word == "OCCURS":
            if i + 1 >= len(toks) or not toks[i + 1].text.isdigit():
                raise LinkageError(f"{where}: OCCURS needs a fixed count")
            e.occurs = int(toks[i + 1].text)
            k = i + 2
            if k + 1 < len(toks) and toks[k].up == "TO":
                if not toks[k + 1].text.isdigit():
                    raise LinkageError(f"{where}: OCCURS ... TO needs a whole number")
                e.occurs_min, e.occurs = e.occurs, int(toks[k + 1].text)
                k += 2
            k += k < len(toks) and toks[k].up == "TIMES"
            if k < len(toks) and toks[k].up == "DEPENDING":
                k += 1 + (k + 1 < len(toks) and toks[k + 1].up == "ON")
                if k >= len(toks) or toks[k].kind != "word":
                    raise LinkageError(f"{where}: DEPENDING ON needs the name of a counter")
                e.depending = toks[k].text
                k += 1
                while k + 1 < len(toks) and toks[k].up in ("OF", "IN"):  # qualified: ``X IN Y`` (see .odo)
                    e.depending += f" {toks[k].up} {toks[k + 1].text}"
                    k += 2
                if e.occurs_min is None:  # cobc: OCCURS n DEPENDING ON without TO means 1 to n
                    e.occurs_min = 1
            elif e.occurs_min is not None:
                raise LinkageError(f"{where}: OCCURS ... TO needs DEPENDING ON")
            if e.occurs < 1:
                raise LinkageError(f"{where}: OCCURS count must be at least 1")
            if e.occurs_min is not None and e.occurs_min > e.occurs:
                raise LinkageError(f"{where}: OCCURS {e.occurs_min} TO {e.occurs}: the minimum exceeds the maximum")
            while k < len(toks) and not _is_clause(toks[k].up):
                k += 1  # ASCENDING/DESCENDING KEY ..., INDEXED BY ...
            return k
        if word in ("VALUE", "VALUES"):
            k = i + 1
            while k < len(toks) and (toks[k].kind == "lit" or not _is_clause(toks[k].up) or toks[k].up == "ALL"):
                t = toks[k]
                if t.up in ("IS", "ARE"):
                    k += 1
                    continue
                if t.up in ("THRU", "THROUGH") and e.values and k + 1 < len(toks):
                    e.values[-1] = (e.values[-1][0], _literal(toks[k + 1], self.where(t), self.decimal_comma))
                    k += 2
                    continue
                if t.up == "ALL" and k + 1 < len(toks):
                    kind, text = _literal(toks[k + 1], self.where(t), self.decimal_comma)
                    e.values.append((("all" if kind == "str" else kind, text), None))
                    k += 2
                    continue
                e.values.append((_literal(t, self.where(t), self.decimal_comma), None))
                k += 1
            if not e.values:
                raise LinkageError(f"{where}: VALUE without a literal")
            return k
        if word == "REDEFINES" and i + 1 < len(toks):
            e.redefines = toks[i + 1].text
            return i + 2
        if word in ("SIGN", "LEADING", "TRAILING"):
            k = i + 1 if word == "SIGN" else i
            k += toks[k].up == "IS" if k < len(toks) else 0
            if k >= len(toks) or toks[k].up not in ("LEADING", "TRAILING"):
                raise LinkageError(f"{where}: SIGN needs LEADING or TRAILING")
            leading = toks[k].up == "LEADING"
            separate = k + 1 < len(toks) and toks[k + 1].up == "SEPARATE"
            k += 1 + separate
            k += separate and k < len(toks) and toks[k].up == "CHARACTER"
            e.sign = (leading, separate)
            return k
        if word in ("JUSTIFIED", "JUST"):
            e.justified = True
            return i + 1 + (nxt[:1] == ["RIGHT"])
        if word == "BLANK":
            k = i + 1 + (nxt[:1] == ["WHEN"])
            if k >= len(toks) or toks[k].up not in ("ZERO", "ZEROS", "ZEROES"):
                raise LinkageError(f"{where}: expected BLANK WHEN ZERO")
            e.blank_when_zero = True
            return k + 1
        if word in ("SYNC", "SYNCHRONIZED"):
            e.sync = True
            return i + 1 + (nxt[:1] in (["LEFT"], ["RIGHT"]))
        if word == "ANY" and nxt[:1] == ["LENGTH"]:
            e.any_length = True  # its size is the caller's: checked and limited in .layout
            return i + 2
        if word in ("GLOBAL", "EXTERNAL") or word in _SKIP_WORDS:
            return i + 1
        raise LinkageError(f"{where}: unexpected {tok.text!r} in the description of {e.name}")


_CLAUSES = {
    "PIC", "PICTURE", "USAGE", "OCCURS", "VALUE", "VALUES", "REDEFINES", "SIGN", "LEADING", "TRAILING",
    "JUSTIFIED", "JUST", "BLANK", "SYNC", "SYNCHRONIZED", "GLOBAL", "EXTERNAL", "RENAMES", "BASED",
}  # fmt: skip


def _is_usage(word: str) -> bool:
    return word in USAGES or word in NATIVE or word in POINTERS or word in UNMAPPABLE or word == "NATIONAL"


def _is_clause(word: str) -> bool:
    return word in _CLAUSES or _is_usage(word)


def _literal(tok: Tok, where: str, decimal_comma: bool = False) -> tuple[str, object]:
    if tok.kind == "lit":
        if tok.prefix == "?":
            raise LinkageError(f"{where}: malformed hexadecimal literal")
        if tok.prefix not in ("", "X", "N"):
            raise LinkageError(f"{where}: {tok.prefix}-literals are not supported in VALUE")
        return ("str", tok.text)
    if tok.up in _FIGURATIVE:
        return ("fig", _FIGURATIVE[tok.up])
    text = tok.text
    if decimal_comma:  # 1,5 is one and a half; a point is not part of a number
        text = "?" if "." in text else text.replace(",", ".")
    if _NUMBER.fullmatch(text):
        return ("num", Decimal(text))
    raise LinkageError(f"{where}: unsupported literal {tok.text!r}")


def nest(entries: list[Entry], parser: Parser) -> list[Entry]:
    """Nest entries by level number; attach 88s to their item, drop 66 (RENAMES occupies no storage)."""
    top: list[Entry] = []
    stack: list[Entry] = []
    last: Entry | None = None
    for e in entries:
        where = parser.where(e.line)
        if e.level == 88:
            if last is None:
                raise LinkageError(f"{where}: level 88 without an item to belong to")
            last.conditions.append(e)
            continue
        if e.level == 66:
            continue
        if e.level in (1, 77):
            top.append(e)
            stack = [e]
        elif 2 <= e.level <= 49:
            while stack and stack[-1].level >= e.level:
                stack.pop()
            if not stack or stack[-1].level == 77:
                raise LinkageError(f"{where}: level {e.level:02d} item {e.name} has no 01 record above it")
            stack[-1].children.append(e)
            stack.append(e)
        else:
            raise LinkageError(f"{where}: invalid level number {e.level}")
        last = e
    return top
