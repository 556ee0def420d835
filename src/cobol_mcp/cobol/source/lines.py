"""Reading COBOL source text: fixed or free format, comments, continuation lines and COPY books.

The result is a list of :class:`Line` objects holding the code of each physical line (continuations
joined onto the line they continue, COPY statements replaced by the copybook's lines after REPLACING)
and the comments the interface description is taken from.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import LinkageError
from .copybooks import CopyRef, find_member, locate_copybook, program_files, search_dirs
from .directives import options_text
from .entries import comment_entries, mask_entries

__all__ = [
    "DECORATION",
    "Line",
    "description_after",
    "detect_format",
    "load",
    "load_with_copies",
    "read_lines",
    "read_text",
]


@dataclass
class Line:
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
DECORATION = re.compile(r"^[\s*=\-#~_+/\\.]+$")


def read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def detect_format(text: str) -> str:
    """ "free" or "fixed": fixed unless the evidence over all lines says free (a directive decides).

    Evidence for free: a line that cannot be fixed format (``*>`` or ``>>`` in the sequence area, an
    invalid column-7 indicator, words in the sequence area, code running past column 80). Evidence for
    fixed: a sequence number in columns 1-6, a ``*``/``/`` comment indicator in column 7. Columns 73-80
    are the identification area whatever they hold, and one odd line does not outweigh the rest.
    """
    free = fixed = 0
    for raw in text.splitlines():
        if not raw.strip():
            continue
        directive = _FORMAT_DIRECTIVE.match(raw[6:] if raw[6:7] == "$" else raw)
        if directive:
            return directive.group(1).lower()
        evidence = _evidence(raw.expandtabs(8))
        free += evidence == "free"
        fixed += evidence == "fixed"
    return "free" if free > fixed else "fixed"


def _evidence(raw: str) -> str | None:
    """What one line says about the format: "free", "fixed" or nothing."""
    if options_text(raw, "fixed") is not None:
        return None  # a CBL/PROCESS line reads the same in either format
    ind, area = raw[6:7], raw[:6].strip()
    if area.startswith(("*>", ">>")):
        return "free"
    if ind in ("*", "/"):
        return "fixed"
    if ind not in " -dD$" or re.search(r"\s", area) or area.endswith("."):
        return "free"
    if area:
        return "fixed"
    return "free" if len(raw.rstrip()) > 80 else None


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


def read_lines(path: Path, fmt: str, columns: int = 72) -> list[Line]:
    """``columns``: where fixed-format code ends (255 for the EXEC CICS translator's wide output).
    Comment-entries (:func:`comment_entries`) are blanked: the paragraph's name stays as code."""
    lines: list[Line] = []
    last_code: Line | None = None
    open_quote: str | None = None
    raws = read_text(path).splitlines()
    entries = comment_entries(raws, fmt)
    for n, raw in enumerate(raws, 1):
        if fmt == "fixed":
            raw = raw.expandtabs(8)
        if n - 1 in entries:
            raw, open_quote = mask_entries(raw, entries[n - 1]), None
        if last_code is None and options_text(raw, fmt) is not None:
            lines.append(Line(path, n, ""))  # CBL/PROCESS compiler options (see .directives)
            continue
        directive = _FORMAT_DIRECTIVE.match(raw[6:] if raw[6:7] == "$" else raw)
        if directive:
            fmt = directive.group(1).lower()
        if directive or raw.lstrip().startswith(">>") or (fmt == "fixed" and raw[6:7] == "$"):
            lines.append(Line(path, n, ""))
            continue
        text = raw
        if fmt == "fixed":
            ind, text = raw[6:7], raw[7:columns].ljust(columns - 7)
            if ind in ("*", "/"):
                body = text[1:] if text.startswith(">") else text
                lines.append(Line(path, n, "", comment=body.strip()))
                continue
            if ind in ("d", "D") or (ind == "-" and last_code is None):
                lines.append(Line(path, n, ""))
                continue
            if ind == "-" and last_code is not None:
                rest = text.lstrip()
                if open_quote and rest.startswith(open_quote):
                    rest = rest[1:]
                code, trailing, open_quote = _split_comment(rest, open_quote)
                last_code.code += code if open_quote else code.rstrip()
                last_code.trailing = trailing or last_code.trailing
                lines.append(Line(path, n, ""))
                continue
            if ind not in (" ", ""):
                raise LinkageError(
                    f"{path}:{n}: invalid indicator {ind!r} in column 7 (read as fixed format; a free-format "
                    "file says so with >>SOURCE FORMAT FREE, or serve it with --source-format free)"
                )
        code, trailing, open_quote = _split_comment(text)
        if not code.strip() and trailing is not None:
            lines.append(Line(path, n, "", comment=trailing))
            continue
        line = Line(path, n, code if open_quote else code.rstrip(), trailing=trailing)
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


def _replacer(operands: list[str], where: str) -> Callable[[str], str]:
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
                out.append(rx.sub(lambda m: pairs[int((m.lastgroup or "r0")[1:])][1], piece))
        return "".join(out)

    return apply


_EXEC_WORD = re.compile(r"(?<![\w-])EXEC(?=\s|$)", re.I)
_INCLUDE = re.compile(r"EXEC\s+SQL\s+INCLUDE\s+([A-Z0-9$#@_][A-Z0-9$#@_-]*)\s+END-EXEC(?![\w-])(\s*\.)?", re.I)


def _include(
    line: Line, queue: deque[Line], dirs: list[Path], exclude: tuple[Path, ...]
) -> tuple[Path, str, int, int] | None:
    """(member, its name, how many lines of ``queue`` the statement goes on over, where EXEC is on
    ``line``) of an ``EXEC SQL INCLUDE member END-EXEC`` starting on ``line`` whose member is found (SQLCA
    and SQLDA are the precompiler's own); None otherwise (a member not found is the precompiler's to say)."""
    match = next((m for m in _EXEC_WORD.finditer(line.code) if not _in_literal(line.code, m.start())), None)
    if match is None:
        return None
    text, more = line.code[match.start() :], 0
    while not re.search(r"(?<![\w-])END-EXEC(?![\w-])", text, re.I) and more < min(len(queue), 5):
        text += "\n" + queue[more].code
        more += 1
    found = _INCLUDE.match(text)
    if found is None or found.group(1).upper() in ("SQLCA", "SQLDA"):
        return None
    member = find_member(found.group(1), [*dirs, line.path.parent], exclude)
    return None if member is None else (member, found.group(1), more, match.start())


def _expand_copies(
    lines: list[Line], dirs: list[Path], fmt: str, books: list[CopyRef], stack: tuple[Path, ...],
    exclude: tuple[Path, ...] = (),
) -> list[Line]:  # fmt: skip
    """COPY statements replaced by their books' lines, and ``EXEC SQL INCLUDE member END-EXEC`` by the
    member's (as the precompiler includes it); ``exclude``: what a COPY never finds (the program itself)."""
    out: list[Line] = []
    queue = deque(lines)
    while queue:
        line = queue.popleft()
        include = _include(line, queue, dirs, exclude)
        if include is not None:
            member, name, more, at = include
            text, last = line.code, line
            for _ in range(more):
                last = queue.popleft()
                text += "\n" + last.code
            block = _INCLUDE.match(text, at)
            if member.resolve() in stack or len(stack) > 20:
                raise LinkageError(f"{line.where}: INCLUDE {name} includes itself")
            books.append(CopyRef(name, None, member, line.path, line.lineno, None, include=True))
            if line.code[:at].strip():
                out.append(Line(line.path, line.lineno, line.code[:at]))
            out.extend(_expand_copies(read_lines(member, fmt), dirs, fmt, books, (*stack, member.resolve()), exclude))
            tail = text[block.end() :] if block is not None else ""
            if tail.strip():
                queue.appendleft(Line(last.path, last.lineno, tail.split("\n")[-1], trailing=last.trailing))
            continue
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
        library = None
        if rest[:1] and rest[0].upper() in ("OF", "IN"):
            library = rest[1].strip("\"'") if len(rest) > 1 else None
            rest = rest[2:]
        if rest[:1] and rest[0].upper() == "SUPPRESS":
            rest = rest[2:] if rest[1:2] and rest[1].upper() == "PRINTING" else rest[1:]
        if rest and rest[0].upper() != "REPLACING":
            raise LinkageError(f"{line.where}: unexpected {rest[0]!r} in COPY statement")
        replace = _replacer(rest[1:], line.where)
        book, base = locate_copybook(name, library, [*dirs, line.path.parent], line.where, line.path.parent, exclude)
        if book.resolve() in stack or len(stack) > 20:
            raise LinkageError(f"{line.where}: COPY {name} includes itself")
        books.append(CopyRef(name, library, book, line.path, line.lineno, base))
        included = read_lines(book, fmt)
        for inc in included:
            inc.code = replace(inc.code)
        if line.code[: match.start()].strip():
            out.append(Line(line.path, line.lineno, line.code[: match.start()]))
        out.extend(_expand_copies(included, dirs, fmt, books, (*stack, book.resolve()), exclude))
        tail = text[end + 1 :]
        if tail.strip():
            queue.appendleft(Line(last.path, last.lineno, tail, trailing=last.trailing))
    return out


def _in_literal(code: str, pos: int) -> bool:
    return _split_comment(code[:pos])[2] is not None


def description_after(lines: list[Line], after: int) -> str:
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
        elif not DECORATION.match(text):
            paragraphs[-1].append(text)
    return "\n".join(" ".join(p) for p in paragraphs if p)


def load(
    path: Path, source_format: str | None, include: Iterable[Path | str] = (), columns: int = 72
) -> tuple[list[Line], str, list[Path]]:
    """The lines of a program with its COPY books expanded, its source format and the books read.
    ``include``: more copybook folders, searched after the program's own (see :mod:`.copybooks`);
    ``columns``: where the program's own fixed-format code ends (its copybooks end at 72)."""
    lines, fmt, refs = load_with_copies(path, source_format, include, columns)
    return lines, fmt, [ref.path for ref in refs]


def load_with_copies(
    path: Path, source_format: str | None, include: Iterable[Path | str] = (), columns: int = 72
) -> tuple[list[Line], str, list[CopyRef]]:
    """Like :func:`load`, with each COPY statement's name and library as written."""
    path = Path(path)
    if source_format not in (None, "free", "fixed"):
        raise ValueError(f"source_format must be 'free', 'fixed' or None, not {source_format!r}")
    try:
        fmt = source_format or detect_format(read_text(path))
    except OSError as exc:
        raise LinkageError(f"{path}:0: cannot read source ({exc.strerror})") from None
    books: list[CopyRef] = []
    dirs = search_dirs(path, include)
    own = program_files(path)
    lines = _expand_copies(read_lines(path, fmt, columns), dirs, fmt, books, (path.resolve(),), own)
    return lines, fmt, books
