"""Derive a COBOL program's callable interface from its source.

The interface is the PROGRAM-ID (tool name and C entry symbol), the comment block after it (tool
description) and the LINKAGE SECTION records named in ``PROCEDURE DIVISION USING`` (parameters), laid out
byte for byte the way GnuCOBOL 3.1.2 lays them out under its default dialect. :func:`verify_with_cobc`
asks the compiler for its own layout so the two can be compared.

Conventions: the source is fixed format unless some line cannot be (text in the sequence area, an
invalid column-7 indicator, a long line) or a ``>>SOURCE FORMAT`` directive says otherwise. COPY books
are looked up in the program's folder, its ``copybooks/`` folder and the including file's folder.
A record named ``*-IN``/``-INPUT``/``-REQUEST`` is input only, ``*-OUT``/``-OUTPUT``/``-RESULT``/
``-RESPONSE`` output only, any other both. Comment lines directly above an item describe it (or a
``*>`` comment on the line that ends it).
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import tempfile
from collections import deque
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from .pic import USAGES, Picture, PictureError, parse_picture, storage_size, to_stored

__all__ = [
    "SOURCE_SUFFIXES",
    "Condition",
    "Field",
    "LinkageError",
    "ProgramSpec",
    "Record",
    "detect_format",
    "entry_symbol",
    "parse_program",
    "verify_with_cobc",
]

SOURCE_SUFFIXES = (".cob", ".cbl", ".cobol")
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_IN_SUFFIXES = ("_in", "_input", "_request")
_OUT_SUFFIXES = ("_out", "_output", "_result", "_response")
_ALIGNED = ("binary", "comp-5", "comp-1", "comp-2")


class LinkageError(Exception):
    """The interface cannot be derived; the message reads "file:line: what is wrong"."""


@dataclass(frozen=True)
class Condition:
    """An 88-level condition name; each value is (low, high) with high None unless THRU was used."""

    name: str
    key: str
    values: tuple[tuple[Decimal | str, Decimal | str | None], ...]


@dataclass(frozen=True)
class Field:
    """One data item (elementary or group) with its exact layout inside its 01 record."""

    name: str
    key: str | None
    level: int
    offset: int
    size: int
    occurs: int | None
    pic: str | None
    usage: str
    children: tuple[Field, ...] = ()
    picture: Picture | None = None
    category: str = "group"  # group, float, or the PICTURE category
    sign_leading: bool = False
    sign_separate: bool = False
    justified: bool = False
    blank_when_zero: bool = False
    synchronized: bool = False
    redefines: str | None = None
    value: Decimal | str | None = None
    conditions: tuple[Condition, ...] = ()
    description: str = ""
    location: str = ""

    @property
    def is_group(self) -> bool:
        return self.usage == "group"

    @property
    def exposed(self) -> bool:
        """Whether the item appears in JSON: named, and not an alternative view of other bytes."""
        return self.key is not None and self.redefines is None

    @property
    def digits(self) -> int:
        return self.picture.digits if self.picture else 0

    @property
    def scale(self) -> int:
        return self.picture.scale if self.picture else 0

    @property
    def signed(self) -> bool:
        return bool(self.picture and self.picture.signed)


@dataclass(frozen=True)
class Record:
    name: str
    key: str
    direction: str  # "in" | "out" | "inout"
    field: Field
    size: int


@dataclass(frozen=True)
class ProgramSpec:
    program_id: str
    tool_name: str
    entry_symbol: str
    description: str
    records: tuple[Record, ...]
    source_format: str
    source: Path
    copybooks: tuple[Path, ...]


# ---------------------------------------------------------------------------------------------- source text


@dataclass
class _Line:
    path: Path
    lineno: int
    code: str
    comment: str | None = None  # text of a comment-only line
    trailing: str | None = None  # "*>" comment after code

    @property
    def where(self) -> str:
        return f"{self.path}:{self.lineno}"


_FORMAT_DIRECTIVE = re.compile(
    r"^\s*(?:>>\s*SOURCE\s+(?:FORMAT\s+)?(?:IS\s+)?|\$\s*SET\s+SOURCEFORMAT\W*)(FREE|FIXED)\b", re.I
)
_DECORATION = re.compile(r"^[\s*=\-#~_+/\\.]+$")


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def detect_format(text: str) -> str:
    """Guess "free" or "fixed": fixed unless some line cannot be fixed-format (or a directive says)."""
    for raw in text.splitlines():
        if not raw.strip():
            continue
        directive = _FORMAT_DIRECTIVE.match(raw[7:] if raw[6:7] == "$" else raw)
        if directive:
            return directive.group(1).lower()
        seq, ind, tail = raw[:6], raw[6:7], raw[72:].strip()
        if seq.lstrip().startswith(("*>", ">>")) or (ind and ind not in " */-dD$"):
            return "free"
        if (seq.strip() and re.search(r"[\s.]", seq.strip())) or len(raw.rstrip()) > 80:
            return "free"
        if " " in tail:  # columns 73-80 hold one identification word at most
            return "free"
    return "fixed"


def _split_comment(code: str, quote: str | None = None) -> tuple[str, str | None, str | None]:
    """Split off a "*>" comment outside literals; also report a literal left open at the end."""
    i = 0
    while i < len(code):
        ch = code[i]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif code.startswith("*>", i):
            return code[:i], code[i + 2 :].strip(), None
        i += 1
    return code, None, quote


def _read_lines(path: Path, fmt: str) -> list[_Line]:
    lines: list[_Line] = []
    last_code: _Line | None = None
    open_quote: str | None = None
    for n, raw in enumerate(_read_text(path).splitlines(), 1):
        if fmt == "fixed":
            raw = raw.expandtabs(8)
        directive = _FORMAT_DIRECTIVE.match(raw[7:] if raw[6:7] == "$" else raw)
        if directive:
            fmt = directive.group(1).lower()
        if directive or raw.lstrip().startswith(">>") or (fmt == "fixed" and raw[6:7] == "$"):
            lines.append(_Line(path, n, ""))
            continue
        text = raw
        if fmt == "fixed":
            ind, text = raw[6:7], raw[7:72].ljust(65)
            if ind in ("*", "/"):
                body = text[1:] if text.startswith(">") else text
                lines.append(_Line(path, n, "", comment=body.strip()))
                continue
            if ind in ("d", "D") or (ind == "-" and last_code is None):
                lines.append(_Line(path, n, ""))
                continue
            if ind == "-":
                rest = text.lstrip()
                if open_quote and rest.startswith(open_quote):
                    rest = rest[1:]
                code, trailing, open_quote = _split_comment(rest, open_quote)
                last_code.code += code if open_quote else code.rstrip()
                last_code.trailing = trailing or last_code.trailing
                lines.append(_Line(path, n, ""))
                continue
            if ind not in (" ", ""):
                raise LinkageError(f"{path}:{n}: invalid indicator {ind!r} in column 7 (fixed format)")
        code, trailing, open_quote = _split_comment(text)
        if not code.strip() and trailing is not None:
            lines.append(_Line(path, n, "", comment=trailing))
            continue
        line = _Line(path, n, code if open_quote else code.rstrip(), trailing=trailing)
        lines.append(line)
        if code.strip():
            last_code = line
    return lines


def _outside_literals(code: str) -> list[tuple[bool, str]]:
    """Split code into (is_literal, text) pieces."""
    return [(p[:1] in "\"'" and p != "", p) for p in re.split(r"(\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*')", code)]


def _statement_end(text: str) -> int | None:
    """Index of the period ending a COPY statement (skipping literals and ==pseudo-text==)."""
    for m in re.finditer(r"==.*?==|\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'|\.(?=\s|$)", text, re.S):
        if m.group() == ".":
            return m.start()
    return None


_COPY_WORD = re.compile(r"(?<![\w-])COPY(?=\s|$)", re.I)
_COPY_TOKEN = re.compile(r"==.*?==|\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'|\S+", re.S)
_WORD_CHAR = "A-Za-z0-9_-"


def _replacer(operands: list[str], where: str):
    """Build a function applying COPY ... REPLACING pairs to a line of code."""
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(operands):
        mode = operands[i].upper() if operands[i].upper() in ("LEADING", "TRAILING") else "FULL"
        i += mode != "FULL"
        if i + 2 >= len(operands) or operands[i + 1].upper() != "BY":
            raise LinkageError(f"{where}: malformed REPLACING phrase")
        old, new = (t[2:-2].strip() if t.startswith("==") else t for t in (operands[i], operands[i + 2]))
        if not old.split():
            raise LinkageError(f"{where}: empty REPLACING operand")
        body = r"\s+".join(re.escape(t) for t in old.split())
        if mode != "TRAILING" and re.match(f"[{_WORD_CHAR}]", old[0]):
            body = f"(?<![{_WORD_CHAR}])" + body
        if mode != "LEADING" and re.match(f"[{_WORD_CHAR}]", old[-1]):
            body += f"(?![{_WORD_CHAR}])"
        pairs.append((body, new))
        i += 3
    if not pairs:
        return lambda code: code
    rx = re.compile("|".join(f"(?P<r{k}>{body})" for k, (body, _) in enumerate(pairs)), re.I)

    def apply(code: str) -> str:
        out = []
        for is_lit, piece in _outside_literals(code):
            if is_lit:
                hit = next((new for body, new in pairs if re.fullmatch(body, piece, re.I)), None)
                out.append(piece if hit is None else hit)
            else:
                out.append(rx.sub(lambda m: pairs[int(m.lastgroup[1:])][1], piece))
        return "".join(out)

    return apply


def _find_copybook(name: str, dirs: list[Path], where: str) -> Path:
    stems = [name] if "." in name else [name, name.lower(), name.upper()]
    exts = ("", ".cpy", ".CPY", ".cob", ".COB", ".cbl", ".CBL", ".cobol")
    for folder in dirs:
        for stem in stems:
            for ext in exts:
                candidate = folder / f"{stem}{ext}"
                if candidate.is_file():
                    return candidate
    searched = ", ".join(dict.fromkeys(str(d) for d in dirs))
    raise LinkageError(f"{where}: copybook {name!r} not found (searched {searched})")


def _expand_copies(lines: list[_Line], dirs: list[Path], fmt: str, books: list[Path], stack: tuple) -> list:
    out: list[_Line] = []
    queue = deque(lines)
    while queue:
        line = queue.popleft()
        match = next((m for m in _COPY_WORD.finditer(line.code) if not _in_literal(line.code, m.start())), None)
        if match is None:
            out.append(line)
            continue
        text, last = line.code[match.start() :], line
        while (end := _statement_end(text)) is None:
            if not queue:
                raise LinkageError(f"{line.where}: COPY statement without a terminating period")
            last = queue.popleft()
            text += "\n" + last.code
        operands = [m.group() for m in _COPY_TOKEN.finditer(text[4:end])]
        if not operands:
            raise LinkageError(f"{line.where}: COPY without a copybook name")
        name = operands[0].strip("\"'")
        rest = operands[1:]
        if rest[:1] and rest[0].upper() in ("OF", "IN"):
            rest = rest[2:]
        if rest[:1] and rest[0].upper() == "SUPPRESS":
            rest = rest[2:] if rest[1:2] and rest[1].upper() == "PRINTING" else rest[1:]
        if rest and rest[0].upper() != "REPLACING":
            raise LinkageError(f"{line.where}: unexpected {rest[0]!r} in COPY statement")
        replace = _replacer(rest[1:], line.where)
        book = _find_copybook(name, [*dirs, line.path.parent], line.where)
        if book.resolve() in stack or len(stack) > 20:
            raise LinkageError(f"{line.where}: COPY {name} includes itself")
        books.append(book)
        included = _read_lines(book, fmt)
        for inc in included:
            inc.code = replace(inc.code)
        if line.code[: match.start()].strip():
            out.append(_Line(line.path, line.lineno, line.code[: match.start()]))
        out.extend(_expand_copies(included, dirs, fmt, books, (*stack, book.resolve())))
        tail = text[end + 1 :]
        if tail.strip():
            queue.appendleft(_Line(last.path, last.lineno, tail, trailing=last.trailing))
    return out


def _in_literal(code: str, pos: int) -> bool:
    return _split_comment(code[:pos])[2] is not None


# ------------------------------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class _Tok:
    text: str  # word as written, or a literal's value
    kind: str  # "word" | "lit" | "period"
    line: int  # index into the line list
    prefix: str = ""  # literal prefix (X, Z, N); "?" for a malformed hexadecimal literal

    @property
    def up(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


_TOKEN = re.compile(r"""([XxNnZz]?)("(?:[^"]|"")*"|'(?:[^']|'')*')|["']|[^\s"']+""")


def _tokenize(lines: list[_Line]) -> list[_Tok]:
    """Tokens up to the end of the PROCEDURE DIVISION header (the statements are of no interest)."""
    toks: list[_Tok] = []
    header = False
    for idx, line in enumerate(lines):
        for m in _TOKEN.finditer(line.code):
            if m.group(2):
                prefix, body = m.group(1).upper(), m.group(2)
                value = body[1:-1].replace(body[0] * 2, body[0])
                if prefix == "X":
                    try:
                        value = bytes.fromhex(value).decode("latin-1")
                    except ValueError:
                        prefix = "?"
                toks.append(_Tok(value, "lit", idx, prefix))
                continue
            word = m.group()
            if word in ("'", '"'):
                raise LinkageError(f"{line.where}: unterminated literal")
            word = word.strip(",;")
            period = word.endswith(".")
            word = word[:-1] if period else word
            if word:
                toks.append(_Tok(word, "word", idx))
                header = header or (toks[-1].up == "DIVISION" and len(toks) > 1 and toks[-2].up == "PROCEDURE")
            if period:
                toks.append(_Tok(".", "period", idx))
                if header:
                    return toks
    return toks


# ------------------------------------------------------------------------------------------ data entries


@dataclass
class _Entry:
    level: int
    name: str
    line: int
    pic: str | None = None
    usage: str | None = None
    occurs: int | None = None
    values: list = dataclasses.field(default_factory=list)
    redefines: str | None = None
    sign: tuple[bool, bool] | None = None  # (leading, separate)
    justified: bool = False
    blank_when_zero: bool = False
    sync: bool = False
    children: list[_Entry] = dataclasses.field(default_factory=list)
    conditions: list[_Entry] = dataclasses.field(default_factory=list)
    description: str = ""


_FIGURATIVE = {
    "ZERO": "0", "ZEROS": "0", "ZEROES": "0", "SPACE": " ", "SPACES": " ", "LOW-VALUE": "\x00",
    "LOW-VALUES": "\x00", "HIGH-VALUE": "\xff", "HIGH-VALUES": "\xff", "QUOTE": '"', "QUOTES": '"',
}  # fmt: skip
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
_SKIP_WORDS = {"IS", "ARE", "TIMES", "ON", "WHEN", "CHARACTER", "BY", "KEY"}


class _Parser:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.toks = _tokenize(lines)
        self.line_starts: dict[int, _Tok] = {}
        for tok in self.toks:
            self.line_starts.setdefault(tok.line, tok)

    def where(self, tok_or_line: _Tok | int) -> str:
        idx = tok_or_line.line if isinstance(tok_or_line, _Tok) else tok_or_line
        return self.lines[min(idx, len(self.lines) - 1)].where if self.lines else "?"

    def find(self, *words: str, start: int = 0) -> int:
        for i in range(start, len(self.toks) - len(words) + 1):
            if all(self.toks[i + k].up == w for k, w in enumerate(words)):
                return i
        return -1

    def comments_above(self, idx: int) -> str:
        found: list[str] = []
        k = idx - 1
        while k >= 0 and self.lines[k].comment is not None:
            found.insert(0, self.lines[k].comment)
            k -= 1
        return " ".join(t for t in found if t and not _DECORATION.match(t))

    def entries(self, start: int, stop: int) -> list[_Entry]:
        out: list[_Entry] = []
        i = start
        while i < stop:
            j = i
            while j < stop and self.toks[j].kind != "period":
                j += 1
            if j > i:
                out.append(self.entry(self.toks[i:j], self.toks[min(j, stop - 1)]))
            i = j + 1
        return out

    def entry(self, toks: list[_Tok], end: _Tok) -> _Entry:
        first = toks[0]
        if not first.text.isdigit():
            raise LinkageError(f"{self.where(first)}: expected a level number, found {first.text!r}")
        e = _Entry(int(first.text), "FILLER", first.line)
        i = 1
        if i < len(toks) and toks[i].kind == "word" and not _is_clause(toks[i].up):
            e.name = toks[i].text
            i += 1
        above = self.comments_above(first.line) if self._first_on_line(first) else ""
        e.description = above or (self.lines[end.line].trailing or "")
        while i < len(toks) and e.level != 66:  # 66 RENAMES occupies no storage: nothing to read
            i = self.clause(e, toks, i)
        return e

    def _first_on_line(self, tok: _Tok) -> bool:
        return self.line_starts.get(tok.line) is tok

    def clause(self, e: _Entry, toks: list[_Tok], i: int) -> int:
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
            if k >= len(toks) or toks[k].up not in USAGES:
                found = toks[k].text if k < len(toks) else "nothing"
                raise LinkageError(f"{where}: USAGE {found} is not supported")
            e.usage = USAGES[toks[k].up]
            return k + 1
        if word in USAGES:
            e.usage = USAGES[word]
            return i + 1
        if word == "OCCURS":
            if i + 1 >= len(toks) or not toks[i + 1].text.isdigit():
                raise LinkageError(f"{where}: OCCURS needs a fixed count")
            if "TO" in nxt[1:2] or "DEPENDING" in [t.up for t in toks]:
                raise LinkageError(f"{where}: variable-length OCCURS (TO/DEPENDING) is not supported")
            e.occurs = int(toks[i + 1].text)
            if e.occurs < 1:
                raise LinkageError(f"{where}: OCCURS count must be at least 1")
            k = i + 2
            while k < len(toks) and not _is_clause(toks[k].up):
                k += 1  # TIMES, ASCENDING/DESCENDING KEY ..., INDEXED BY ...
            return k
        if word in ("VALUE", "VALUES"):
            k = i + 1
            while k < len(toks) and (toks[k].kind == "lit" or not _is_clause(toks[k].up) or toks[k].up == "ALL"):
                t = toks[k]
                if t.up in ("IS", "ARE"):
                    k += 1
                    continue
                if t.up in ("THRU", "THROUGH") and e.values and k + 1 < len(toks):
                    e.values[-1] = (e.values[-1][0], _literal(toks[k + 1], self.where(t)))
                    k += 2
                    continue
                if t.up == "ALL" and k + 1 < len(toks):
                    kind, text = _literal(toks[k + 1], self.where(t))
                    e.values.append((("all" if kind == "str" else kind, text), None))
                    k += 2
                    continue
                e.values.append((_literal(t, self.where(t)), None))
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
        if word in ("GLOBAL", "EXTERNAL") or word in _SKIP_WORDS:
            return i + 1
        raise LinkageError(f"{where}: unexpected {tok.text!r} in the description of {e.name}")


_CLAUSES = {
    "PIC", "PICTURE", "USAGE", "OCCURS", "VALUE", "VALUES", "REDEFINES", "SIGN", "LEADING", "TRAILING",
    "JUSTIFIED", "JUST", "BLANK", "SYNC", "SYNCHRONIZED", "GLOBAL", "EXTERNAL", "RENAMES", "BASED",
}  # fmt: skip


def _is_clause(word: str) -> bool:
    return word in _CLAUSES or word in USAGES


def _literal(tok: _Tok, where: str) -> tuple[str, object]:
    if tok.kind == "lit":
        if tok.prefix == "?":
            raise LinkageError(f"{where}: malformed hexadecimal literal")
        if tok.prefix not in ("", "X"):
            raise LinkageError(f"{where}: {tok.prefix}-literals are not supported in VALUE")
        return ("str", tok.text)
    if tok.up in _FIGURATIVE:
        return ("fig", _FIGURATIVE[tok.up])
    if _NUMBER.fullmatch(tok.text):
        return ("num", Decimal(tok.text))
    raise LinkageError(f"{where}: unsupported literal {tok.text!r}")


# ------------------------------------------------------------------------------------------------- layout


def _key(name: str) -> str | None:
    return None if name.upper() == "FILLER" else name.lower().replace("-", "_")


def _value(lit: tuple[str, object], category: str, picture: Picture | None, size: int, where: str) -> Decimal | str:
    """Turn a VALUE literal into the JSON-level value of an item (Decimal for numbers, else str)."""
    kind, raw = lit
    if category in ("numeric", "float"):
        if kind == "fig" and raw == "0":
            return Decimal(0)
        if kind != "num" or not isinstance(raw, Decimal):
            raise LinkageError(f"{where}: a numeric item needs a numeric VALUE, not {raw!r}")
        if picture is not None:
            try:
                to_stored(raw, picture)
            except PictureError as exc:
                raise LinkageError(f"{where}: VALUE {raw} does not fit PIC {picture.text} ({exc})") from None
        return raw
    if kind == "fig":
        return "" if raw == " " else str(raw) * size
    if kind == "all":
        return (str(raw) * size)[:size] if raw else ""
    text = str(raw)
    if len(text) > size:
        raise LinkageError(f"{where}: VALUE {text!r} is longer than the item ({size} characters)")
    return text


def _shift_last(f: Field, pad: int) -> Field:
    if not f.children:
        return dataclasses.replace(f, offset=f.offset + pad)
    return dataclasses.replace(f, children=(*f.children[:-1], _shift_last(f.children[-1], pad)))


class _Builder:
    def __init__(self, parser: _Parser) -> None:
        self.p = parser
        self.occurs_align = 1

    def build(self, e: _Entry, offset: int, usage: str | None, sign: tuple[bool, bool] | None) -> Field:
        where = self.p.where(e.line)
        usage, sign = e.usage or usage, e.sign or sign
        common = {
            "name": e.name, "key": _key(e.name), "level": e.level, "offset": offset, "occurs": e.occurs,
            "redefines": e.redefines, "synchronized": e.sync, "description": e.description, "location": where,
        }  # fmt: skip
        if e.children:
            if e.pic or e.justified or e.blank_when_zero:
                raise LinkageError(f"{where}: group item {e.name} cannot have PICTURE/JUSTIFIED/BLANK WHEN ZERO")
            kids: list[Field] = []
            named: dict[str, Field] = {}
            pos = end = 0
            self.occurs_align = 1  # cobc keeps this in one global that every group resets; mirrored here
            for c in e.children:
                if c.redefines:
                    target = named.get(c.redefines.upper())
                    if target is None:
                        raise LinkageError(f"{self.p.where(c.line)}: REDEFINES {c.redefines}: no such item before")
                    f = self.build(c, target.offset, usage, sign)
                else:
                    f = self.build(c, offset + pos, usage, sign)
                    pos += f.size * (f.occurs or 1)
                    if c.sync and not f.children and f.usage in _ALIGNED and f.size in (2, 4, 8):
                        if f.offset % f.size:  # aligned to its size from the start of the 01 record
                            pad = f.size - f.offset % f.size
                            f = dataclasses.replace(f, offset=f.offset + pad)
                            pos += pad
                        self.occurs_align = max(self.occurs_align, f.size)
                end = max(end, pos, f.offset - offset + f.size * (f.occurs or 1))
                if c.name.upper() != "FILLER":
                    named[c.name.upper()] = f
                kids.append(f)
            if (e.occurs or 0) > 1 and end % self.occurs_align:
                # cobc rounds an OCCURS group up to the alignment and moves its last item by the padding
                pad = self.occurs_align - end % self.occurs_align
                end += pad
                kids[-1] = _shift_last(kids[-1], pad)
            keys = [k.key for k in kids if k.exposed]
            dup = next((k for k in keys if keys.count(k) > 1), None)
            if dup:
                raise LinkageError(f"{where}: two items in {e.name} map to the same JSON name {dup!r}")
            value = _value(e.values[0][0], "group", None, end, where) if e.values else None
            conds = self.conditions(e, "group", None, end)
            return Field(**common, size=end, pic=None, usage="group", children=tuple(kids), value=value,
                         conditions=conds)  # fmt: skip
        usage = usage or "display"
        picture = None
        if usage in ("comp-1", "comp-2"):
            if e.pic:
                raise LinkageError(f"{where}: USAGE {usage.upper()} items take no PICTURE")
            category = "float"
        else:
            if not e.pic:
                raise LinkageError(f"{where}: elementary item {e.name} needs a PICTURE clause")
            try:
                picture = parse_picture(e.pic)
            except PictureError as exc:
                raise LinkageError(f"{where}: {exc}") from None
            category = picture.category
        numeric_display = usage == "display" and category == "numeric"
        if e.sign and not (numeric_display and picture and picture.signed):
            raise LinkageError(f"{where}: SIGN clause needs a signed numeric DISPLAY item (PIC S9...)")
        leading, separate = sign if sign and numeric_display and picture and picture.signed else (False, False)
        if e.justified and category not in ("alphanumeric", "alphabetic"):
            raise LinkageError(f"{where}: JUSTIFIED needs an alphanumeric or alphabetic item")
        if e.blank_when_zero and not (usage == "display" and category in ("numeric", "numeric-edited")):
            raise LinkageError(f"{where}: BLANK WHEN ZERO needs a numeric DISPLAY item")
        try:
            size = storage_size(picture, usage, separate)
        except PictureError as exc:
            raise LinkageError(f"{where}: {exc}") from None
        if len(e.values) > 1:
            raise LinkageError(f"{where}: only 88-level items can have several VALUEs")
        value = _value(e.values[0][0], category, picture, size, where) if e.values else None
        return Field(
            **common, size=size, pic=e.pic, usage=usage, picture=picture, category=category,
            sign_leading=leading, sign_separate=separate, justified=e.justified,
            blank_when_zero=e.blank_when_zero, value=value,
            conditions=self.conditions(e, category, picture, size),
        )  # fmt: skip

    def conditions(self, e: _Entry, category: str, picture: Picture | None, size: int) -> tuple[Condition, ...]:
        out = []
        for c in e.conditions:
            where = self.p.where(c.line)
            if not c.values or c.name.upper() == "FILLER":
                raise LinkageError(f"{where}: level-88 item needs a name and a VALUE")
            values = tuple(
                (_value(lo, category, picture, size, where), _value(hi, category, picture, size, where) if hi else None)
                for lo, hi in c.values
            )
            out.append(Condition(c.name, _key(c.name) or "", values))
        keys = [c.key for c in out]
        if len(set(keys)) != len(keys):
            raise LinkageError(f"{self.p.where(e.line)}: duplicate condition names under {e.name}")
        return tuple(out)


def _tree(entries: list[_Entry], parser: _Parser) -> list[_Entry]:
    """Nest entries by level number; attach 88s to their item, drop 66 (RENAMES occupies no storage)."""
    top: list[_Entry] = []
    stack: list[_Entry] = []
    last: _Entry | None = None
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


# ------------------------------------------------------------------------------------------------ program


def entry_symbol(name: str) -> str:
    """GnuCOBOL's C name for a program: '-' -> '__', other non [A-Za-z0-9_] -> '_XX' hex, leading digit '_'."""
    out = "_" if name[:1].isdigit() else ""
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch == "_"):
            out += ch
        elif ch == "-":
            out += "__"
        else:
            out += "".join(f"_{b:02X}" for b in ch.encode("utf-8"))
    return out


def _direction(key: str) -> str:
    if key.endswith(_IN_SUFFIXES):
        return "in"
    if key.endswith(_OUT_SUFFIXES):
        return "out"
    return "inout"


def _description(lines: list[_Line], after: int) -> str:
    """Join the comment block that follows line ``after``; empty comment or blank lines end paragraphs."""
    paragraphs: list[list[str]] = [[]]
    first = lines[after].trailing if after < len(lines) else None
    if first:
        paragraphs[0].append(first)
    for line in lines[after + 1 :]:
        if line.comment is None and line.code.strip():
            break
        text = (line.comment or "").strip()
        if not text:
            if paragraphs[-1]:
                paragraphs.append([])
        elif not _DECORATION.match(text):
            paragraphs[-1].append(text)
    return "\n".join(" ".join(p) for p in paragraphs if p)


def _load(path: Path, source_format: str | None) -> tuple[list[_Line], str, list[Path]]:
    path = Path(path)
    if source_format not in (None, "free", "fixed"):
        raise ValueError(f"source_format must be 'free', 'fixed' or None, not {source_format!r}")
    try:
        fmt = source_format or detect_format(_read_text(path))
    except OSError as exc:
        raise LinkageError(f"{path}:0: cannot read source ({exc.strerror})") from None
    books: list[Path] = []
    dirs = [path.parent, path.parent / "copybooks"]
    lines = _expand_copies(_read_lines(path, fmt), dirs, fmt, books, (path.resolve(),))
    return lines, fmt, books


def parse_program(path: Path, source_format: str | None = None) -> ProgramSpec:
    """Read a COBOL source (and its copybooks) and derive the tool's name, description and records."""
    path = Path(path)
    lines, fmt, books = _load(path, source_format)
    p = _Parser(lines)
    i = p.find("PROGRAM-ID")
    if i < 0:
        raise LinkageError(f"{path}:1: no PROGRAM-ID paragraph")
    k = i + 1 + (i + 1 < len(p.toks) and p.toks[i + 1].kind == "period")
    if k >= len(p.toks) or p.toks[k].kind == "period":
        raise LinkageError(f"{p.where(p.toks[i])}: PROGRAM-ID without a name")
    program_id = external = p.toks[k].text
    end = k
    while end + 1 < len(p.toks) and p.toks[end + 1].kind != "period":
        end += 1
        t = p.toks[end]
        if t.up == "AS" and end + 1 < len(p.toks) and p.toks[end + 1].kind == "lit":
            external = p.toks[end + 1].text
            end += 1
        elif t.up not in ("IS", "INITIAL", "COMMON", "RECURSIVE", "PROGRAM"):
            raise LinkageError(f"{p.where(t)}: unexpected {t.text!r} in PROGRAM-ID paragraph")
    end_line = p.toks[min(end + 1, len(p.toks) - 1)].line
    tool_name = program_id.lower().replace("-", "_")
    if not TOOL_NAME.match(tool_name):
        raise LinkageError(f"{p.where(p.toks[k])}: PROGRAM-ID {program_id!r} gives tool name {tool_name!r}, "
                           "which does not match ^[A-Za-z0-9_.-]{1,64}$")  # fmt: skip
    for bad in (("DECIMAL-POINT",), ("CURRENCY",)):
        j = p.find(*bad)
        if j >= 0:
            raise LinkageError(f"{p.where(p.toks[j])}: {bad[0]} in SPECIAL-NAMES is not supported")
    proc = p.find("PROCEDURE", "DIVISION")
    stop = proc if proc >= 0 else len(p.toks)
    records: dict[str, Field] = {}
    start = p.find("LINKAGE", "SECTION")
    if 0 <= start < stop:
        first = start + 2 + (start + 2 < stop and p.toks[start + 2].kind == "period")
        last = next((j for j in range(first, stop) if p.toks[j].up == "SECTION" and j > first), stop)
        if last < stop:  # back up to the section name before "SECTION"
            last -= 1
        for e in _tree(p.entries(first, last), p):
            records[e.name.upper()] = _Builder(p).build(e, 0, None, None)
    using = _using(p, proc) if proc >= 0 else []
    result: list[Record] = []
    for tok in using:
        f = records.get(tok.text.upper())
        if f is None or f.key is None:
            raise LinkageError(f"{p.where(tok)}: USING {tok.text}: no such 01/77 record in LINKAGE SECTION")
        if any(r.key == f.key for r in result):
            raise LinkageError(f"{p.where(tok)}: USING {tok.text} appears twice")
        result.append(Record(f.name, f.key, _direction(f.key), f, f.size))
    return ProgramSpec(
        program_id=program_id, tool_name=tool_name, entry_symbol=entry_symbol(external),
        description=_description(lines, end_line), records=tuple(result), source_format=fmt, source=path,
        copybooks=tuple(dict.fromkeys(books)),
    )  # fmt: skip


def _using(p: _Parser, proc: int) -> list[_Tok]:
    toks = p.toks
    i = proc + 2
    if i >= len(toks) or toks[i].up != "USING":
        return []
    names: list[_Tok] = []
    i += 1
    while i < len(toks) and toks[i].kind != "period":
        t = toks[i]
        if t.up == "BY" and i + 1 < len(toks) and toks[i + 1].up in ("VALUE", "CONTENT"):
            raise LinkageError(f"{p.where(t)}: USING BY {toks[i + 1].text} is not supported (use BY REFERENCE)")
        if t.up in ("RETURNING", "CHAINING"):
            raise LinkageError(f"{p.where(t)}: PROCEDURE DIVISION {t.text} is not supported")
        if t.up not in ("BY", "REFERENCE", "OPTIONAL"):
            names.append(t)
        i += 1
    return names


# ------------------------------------------------------------------------------------------- verification

_DUMP = re.compile(
    r'cob_dump_field_ext\s*\(\s*(\d+),\s*"([^"]*)",\s*COB_SET_FLD\s*\(f0,\s*(\d+),\s*(NULL|b_\d+)'
    r"(?:\s*\+\s*(\d+))?,\s*&(a_\d+)\)"
)
_ATTR = re.compile(r"(a_\d+)\s*=\s*\{(0x[0-9a-fA-F]+),\s*(-?\d+),\s*(-?\d+),\s*(0x[0-9a-fA-F]+)")
_TYPES = {"comp-3": 0x12, "binary": 0x11, "comp-5": 0x11, "comp-1": 0x13, "comp-2": 0x14}


def _walk(f: Field, path: str = ""):
    path = f"{path}.{f.name}" if path else f.name
    yield path, f
    for c in f.children:
        if c.redefines is None:  # cobc dumps the first definition only
            yield from _walk(c, path)


def _cobc_type(f: Field) -> int:
    if f.is_group:
        return 0x01
    if f.category == "numeric":
        return (0x24 if f.blank_when_zero else 0x10) if f.usage == "display" else _TYPES[f.usage]
    if f.category == "float":
        return _TYPES[f.usage]
    return {"numeric-edited": 0x24, "alphanumeric-edited": 0x23}.get(f.category, 0x21)


def _facts(f: Field) -> dict[str, object]:
    facts: dict[str, object] = {"name": f.name.upper(), "level": f.level, "size": f.size, "offset": f.offset}
    facts["type"] = hex(_cobc_type(f))
    if f.category == "numeric":
        facts |= {"digits": f.digits, "scale": f.scale, "signed": f.signed}
        facts |= {"separate sign": f.sign_separate, "leading sign": f.sign_leading}
        if f.usage in ("binary", "comp-5"):
            facts["native binary"] = f.usage == "comp-5"
    if f.category in ("alphanumeric", "alphabetic"):
        facts["justified"] = f.justified
    return facts


def _cobc_facts(level: int, name: str, size: int, offset: int, attr: tuple[int, ...]) -> dict[str, object]:
    kind, digits, scale, flags = attr
    facts: dict[str, object] = {"name": name.upper(), "level": level, "size": size, "offset": offset}
    facts |= {"type": hex(kind), "digits": digits, "scale": scale, "signed": bool(flags & 0x01)}
    facts |= {"separate sign": bool(flags & 0x02), "leading sign": bool(flags & 0x04)}
    return facts | {"justified": bool(flags & 0x10), "native binary": bool(flags & 0x40)}


def verify_with_cobc(source_path: Path, source_format: str | None = None, cobc: str = "cobc") -> list[str]:
    """Compare the derived layout with the one GnuCOBOL generates; return human-readable mismatches.

    ``cobc -C -fdump=LS`` emits a dump call for every LINKAGE item with its level, size, offset and
    attribute (type, digits, scale, sign/justify flags), which is the compiler's own layout.
    """
    spec = parse_program(source_path, source_format)
    src = Path(source_path).resolve()
    with tempfile.TemporaryDirectory(prefix="cobol-mcp-verify-") as tmp:
        out = Path(tmp) / "prog.c"
        cmd = [cobc, "-C", f"-{spec.source_format}", "-fdump=LS", "-I", str(src.parent),
               "-I", str(src.parent / "copybooks"), "-o", str(out), str(src)]  # fmt: skip
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return [f"cannot run cobc: {exc}"]
        if proc.returncode != 0:
            return [f"cobc failed: {(proc.stderr or proc.stdout).strip()}"]
        code = out.read_text(errors="replace")
        headers = "".join(p.read_text(errors="replace") for p in Path(tmp).glob("prog.c*.h"))
    attrs = {m.group(1): tuple(int(g, 0) for g in m.groups()[1:]) for m in _ATTR.finditer(headers)}
    dumped: dict[str, list[tuple[int, str, int, int, tuple[int, ...]]]] = {}
    current: list | None = None
    for m in _DUMP.finditer(code.split("END OF DUMP")[0]):
        level, name, size, base, off, attr = m.groups()
        if base == "NULL":
            continue
        if int(level) in (1, 77):
            current = dumped.setdefault(name.upper(), [])
            current.clear()
        if current is not None:
            current.append((int(level), name, int(size), int(off or 0), attrs.get(attr, (0, 0, 0, 0))))
    problems: list[str] = []
    for rec in spec.records:
        theirs = dumped.get(rec.name.upper())
        if theirs is None:
            problems.append(f"{rec.name}: cobc reported no layout for this record")
            continue
        ours = list(_walk(rec.field))
        if len(ours) != len(theirs):
            problems.append(f"{rec.name}: {len(ours)} items derived, cobc has {len(theirs)}")
        for (path, f), (level, name, size, off, attr) in zip(ours, theirs, strict=False):
            derived, compiled = _facts(f), _cobc_facts(level, name, size, off, attr)
            problems += [
                f"{path}: {what} {value!r} derived, cobc has {compiled[what]!r}"
                for what, value in derived.items()
                if value != compiled[what]
            ]
    return problems
