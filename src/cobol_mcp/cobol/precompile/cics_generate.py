"""The CICS translator's output: the program with every ``EXEC CICS … END-EXEC`` replaced, for cobc.

Each block is replaced where it stands, on its own lines, as EXEC SQL is (:class:`.generate.SourceLines`:
the words spread over the block's lines, wider lines with ``-ftext-column=255`` when they do not fit).
``DFHRESP(c)`` and ``DFHVALUE(v)`` become their numbers (padded, so columns stay). The program gets
the parameters CICS gives it: ``USING DFHEIBLK DFHCOMMAREA`` on its PROCEDURE DIVISION line, ``COPY
"DFHEIBLK.cpy"`` (and a 1-byte ``DFHCOMMAREA`` if it has none) on its LINKAGE SECTION line, and ``COPY
"<stem>.cicsws"`` on its WORKING-STORAGE SECTION line (each section added on the next header's line
when the program has none).

The calling convention (what the runtime's ``CICSRT`` entry receives), for command ``n``::

    CALL 'CICSRT' USING BY VALUE n BY REFERENCE DFHEIBLK DFHDn p1 … pk

* ``DFHDn`` (in the ``.cicsws`` book) is the command's descriptor, text such as
  ``43;READ;FILE();INTO();RIDFLD();GTEQ;RESP()``: the source line, the command (``READ``, ``WRITEQ
  TS``), then the options given, in the order of :data:`.cics_table.COMMANDS` (RESP, RESP2, NOHANDLE
  last; the conditions of HANDLE/IGNORE CONDITION as written). ``OPT()``: a parameter carries its
  argument; ``OPT``: none (a flag, or DATESEP/TIMESEP alone); ``OPT(i)``: a label, ``i`` its index in
  :attr:`.cics.CicsScan.labels` (a condition alone: its handler is dropped).
* ``p1 … pk``: one parameter per ``OPT()`` of the descriptor, in that order. A name (``nN``) is
  ``PIC X(N)``; a character result (``xN``) is ``PIC X(N)``; a
  number (``h``, ``f``, ``d``; DFHRESP/DFHVALUE, LENGTH OF x) is ``PIC S9(18) COMP-5`` (8 bytes,
  native order); a pointer ``USAGE POINTER``: each an item of the ``.cicsws`` book, MOVEd (or SET)
  from the program's argument before the CALL when the command reads it, and back after when it sets
  it. A data area (``a``: INTO, FROM, RIDFLD, COMMAREA …) is the program's own item (a literal: a
  constant of the book): its size is the parameter's size, the length when LENGTH/FLENGTH is not given.
* The runtime sets the EIB (EIBRESP, EIBRESP2, EIBFN, EIBDS …) and answers in ``DFHEIGDI``: 0 carry
  on; ``i`` > 0 GO TO label ``i`` (a HANDLE CONDITION or HANDLE ABEND label: the runtime keeps the
  HANDLE/IGNORE/PUSH/POP table and answers 0 when RESP or NOHANDLE was given); -1 end this program
  (GOBACK: an abend unwinding to the HANDLE ABEND of a level above, or to the task's end).
* ADDRESS: EIB's and COMMAREA's pointers are set before the CALL (``SET … TO ADDRESS OF DFHEIBLK``,
  ``DFHCOMMAREA``), the runtime answers NULL for the COMMAREA when EIBCALEN is 0 and for CWA, TWA,
  TCTUA and ACEE, and they are SET back after it.
  GETMAIN and FREEMAIN are done by the worker's CICSRT (``worker_storage.c``), which sets SET's pointer;
  so it does for SET on a command that gives data (READ, READQ TS, GET CONTAINER …), whose pointer is
  passed too (``p<>``), so that it stays as it was when the command gives none.
* HANDLE ABEND PROGRAM(p): ``EXIT(i)`` in its descriptor is the label of a paragraph added at the
  program's end (:data:`.cics.ABEND_EXIT`), which LINKs to ``p`` (its name MOVEd to ``DFHABPGM``
  after the HANDLE) and GOBACKs: the runtime sends an abend there as it does to a HANDLE ABEND LABEL.
* LINK and XCTL run the program inside the CALL: the runtime calls it (libcob's ``cob_call``) with
  an EIB of its own (85 bytes, EIBCALEN the COMMAREA's length) and the COMMAREA item (or one byte of
  its own), and answers when it has returned (PGMIDERR when no such program can be called; -1 when it
  abended, so the abend goes on up).

After the CALL: the results MOVEd back, ``GO TO label1 … labelK DEPENDING ON DFHEIGDI`` (when the
program has HANDLE labels), then ``IF DFHEIGDI < 0 GOBACK END-IF``, or GOBACK after RETURN, XCTL and
ABEND: they end the program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import LinkageError
from ..source.lines import load, read_lines, read_text
from .cics import ABEND_EXIT, COMMON_OPTIONS, Arg, CicsCommand, CicsScan, builtin_value, scan_cics_text
from .cics_books import STANDARD_BOOKS, book, literal_items
from .cics_table import OptionKind, option_kind
from .generate import SourceLines

__all__ = ["ENTRY", "CicsGenerated", "commarea_defined", "defines_commarea", "generate_cics", "generate_cics_file"]

ENTRY = "CICSRT"
_ENDS = ("RETURN", "XCTL", "ABEND")
_EXEC = re.compile(r"\bEXEC\s+CICS\b|\bEXEC\s*$", re.I)
_END = re.compile(r"\bEND-EXEC\b(\s*\.)?", re.I)
_BUILTIN = re.compile(r"\b(DFHRESP|DFHVALUE)\s*\(\s*([A-Z0-9-]+)\s*\)", re.I)


@dataclass
class CicsGenerated:
    text: str
    copybooks: dict[str, str] = field(default_factory=dict)  # file name -> text, for cobc's -I folder
    wide: bool = False  # compile with -ftext-column=255 (fixed format)
    shifted: bool = False  # lines were added: cobc's line numbers after them are off


def _words(arg: Arg) -> list[str]:
    return [arg.text] if arg.kind == "literal" else arg.text.split()


def _unquote(literal: str) -> str:
    quote = literal[-1]
    return literal[literal.index(quote) + 1 : -1].replace(quote * 2, quote)


def _address(option: str, temp: str) -> list[str]:
    """ADDRESS: the EIB's and the COMMAREA's address are the program's own parameters' (the runtime answers
    NULL for the COMMAREA when EIBCALEN is 0, and for CWA, TWA, TCTUA and ACEE, which it has none of)."""
    if option in ("EIB", "COMMAREA"):
        return ["SET", temp, "TO", "ADDRESS", "OF", "DFHEIBLK" if option == "EIB" else "DFHCOMMAREA"]
    return []


class _Command:
    """The words that replace one command, and the items it adds to the working-storage book."""

    def __init__(self, cmd: CicsCommand, labels: list[str], ws: list[str]) -> None:
        self.cmd, self.labels, self.ws = cmd, labels, ws
        self.before: list[str] = []
        self.params: list[str] = []
        self.after: list[str] = []

    def abend_program(self, descriptor: list[str]) -> None:
        """HANDLE ABEND PROGRAM: the exit's label in the descriptor, the program's name kept in DFHABPGM."""
        descriptor.append(f"EXIT({self.labels.index(ABEND_EXIT) + 1})")
        self.after += ["MOVE", f"DFHV{self.cmd.number}-1", "TO", "DFHABPGM"]

    def kind(self, option: str) -> OptionKind:
        table = self.cmd.table
        if table.conditions and option not in COMMON_OPTIONS:
            return option_kind("l?")
        return table.options.get(option) or COMMON_OPTIONS[option]

    def order(self) -> list[str]:
        table, given = self.cmd.table, self.cmd.options
        if table.conditions:
            return [o for o in given if o not in COMMON_OPTIONS] + [o for o in COMMON_OPTIONS if o in given]
        return [o for o in [*table.options, *COMMON_OPTIONS] if o in given]

    def option(self, k: int, option: str, arg: Arg | None) -> str:
        """The option's descriptor entry; its parameter and MOVEs added."""
        kind = self.kind(option)
        if kind.code == "l":
            return f"{option}({self.labels.index(arg.text) + 1})" if arg else option
        if arg is None:
            return option
        temp = f"DFHV{self.cmd.number}-{k}"
        if kind.code in ("n", "x"):
            self.ws.append(f"01  {temp} PIC X({kind.size}).")
            if kind.reads:
                self.before += ["MOVE", *_words(arg), "TO", temp]
            if kind.sets:
                self.after += ["MOVE", temp, "TO", *_words(arg)]
        elif kind.numeric:
            self.ws.append(f"01  {temp} PIC S9(18) COMP-5 VALUE 0.")
            if kind.reads:
                self.before += ["MOVE", *_words(arg), "TO", temp]
            if kind.sets and arg.kind == "data":
                self.after += ["MOVE", temp, "TO", *_words(arg)]
        elif kind.code == "p":
            self.ws.append(f"01  {temp} USAGE POINTER.")
            if self.cmd.name == "ADDRESS":
                self.before += _address(option, temp)
            elif kind.reads:
                self.before += ["SET", temp, "TO", *_words(arg)]
            if kind.sets:
                self.after += ["SET", *_words(arg), "TO", temp]
        elif arg.kind == "literal":  # a data area written as a literal: a constant
            self.ws += [f"01  {temp}.", *literal_items("05", _unquote(arg.text))]
        else:
            self.params += _words(arg)
            return f"{option}()"
        self.params.append(temp)
        return f"{option}()"

    def words(self) -> list[str]:
        cmd = self.cmd
        n = cmd.number
        descriptor = [str(cmd.line), cmd.name]
        for k, option in enumerate(self.order(), 1):
            descriptor.append(self.option(k, option, cmd.options[option]))
        if cmd.name == "HANDLE ABEND" and "PROGRAM" in cmd.options:
            self.abend_program(descriptor)
        self.ws += [f"01  DFHD{n}.", *literal_items("05", ";".join(descriptor))]
        call = ["CALL", f"'{ENTRY}'", "USING", "BY", "VALUE", str(n), "BY", "REFERENCE", "DFHEIBLK", f"DFHD{n}"]
        words = [*self.before, *call, *self.params]
        words += self.after
        if self.labels:
            words += ["GO", "TO", *self.labels, "DEPENDING", "ON", "DFHEIGDI"]
        words += ["GOBACK"] if cmd.name in _ENDS else ["IF", "DFHEIGDI", "<", "0", "GOBACK", "END-IF"]
        return words


def _builtins(lines: SourceLines) -> None:
    """DFHRESP(c) and DFHVALUE(v) outside literals: their numbers, padded to the same width."""
    for k in range(len(lines.lines)):
        code = lines.code(k)
        if "DFH" not in code.upper():
            continue
        plain = re.sub(r"'[^']*'?|\"[^\"]*\"?", lambda m: "\0" * len(m.group()), code)
        out = code
        for m in _BUILTIN.finditer(plain):
            value = builtin_value(m.group(1), m.group(2))
            if value is not None:
                out = out[: m.start()] + str(value).ljust(m.end() - m.start()) + out[m.end() :]
        if out != code:
            lines.lines[k] = lines.lines[k][: lines.start] + out


def _find(lines: SourceLines, pattern: str, stop: int | None = None) -> int | None:
    rx = re.compile(pattern, re.I)
    return next((k for k in range(stop or len(lines.lines)) if rx.search(lines.code(k))), None)


def _parameters(lines: SourceLines, has_commarea: bool, book_name: str) -> dict[str, str]:
    """USING DFHEIBLK DFHCOMMAREA, the EIB and DFHCOMMAREA in LINKAGE, the book in WORKING-STORAGE; the
    copybooks that needs besides the standard ones (a program without LINKAGE SECTION gets it in one)."""
    proc = _find(lines, r"\bPROCEDURE\s+DIVISION\b")
    if proc is None:
        return {}
    code = lines.code(proc)
    head = re.search(r"\bPROCEDURE\s+DIVISION\b", code, re.I)
    using = re.search(r"\bUSING\b", code, re.I)
    assert head is not None
    if using and not re.search(r"\bDFHEIBLK\b", code, re.I):
        lines.replace(proc, using.end(), proc, using.end(), ["DFHEIBLK"], False)
    elif not using:
        period = code.find(".", head.end())
        at = period if period >= 0 else head.end()
        lines.replace(proc, at, proc, at, ["USING", "DFHEIBLK", "DFHCOMMAREA"], False)
    commarea = [] if has_commarea else ["01", "DFHCOMMAREA", "PIC", "X."]
    link = _find(lines, r"\bLINKAGE\s+SECTION\b", proc)
    eib = ['COPY "DFHEIBLK.cpy".', *commarea]
    storage = _find(lines, r"\bWORKING-STORAGE\s+SECTION\b", proc)
    last = next((k for k in range(proc - 1, -1, -1) if lines.code(k).strip()), None)  # the data's last line
    own = "DFHLNK" if has_commarea else "DFHLNKC"  # LINKAGE SECTION and the EIB (and a 1-byte COMMAREA)
    extra: dict[str, str] = {}
    if link is not None:
        lines.replace(link, len(lines.code(link)), link, len(lines.code(link)), eib, False)
    elif (storage is not None and last is not None and last > storage and lines.code(last).rstrip().endswith(".")
          and (not lines.fixed or len(lines.code(last).rstrip()) <= 72 - 7 - 21)):  # fmt: skip
        end = len(lines.code(last).rstrip())  # after the data's last line: PROCEDURE DIVISION stays first on its line
        lines.replace(last, end, last, end, [f'COPY "{own}.cpy".'], False)
        extra[f"{own}.cpy"] = book("LINKAGE SECTION.", 'COPY "DFHEIBLK.cpy".', *(
            [] if has_commarea else ["01  DFHCOMMAREA PIC X."]))  # fmt: skip
    else:
        lines.replace(proc, 0, proc, 0, ["LINKAGE", "SECTION.", *eib], False)
    copy = [f'COPY "{book_name}".']
    if storage is not None:
        lines.replace(storage, len(lines.code(storage)), storage, len(lines.code(storage)), copy, False)
    else:
        at = link if link is not None else proc
        data = [] if _find(lines, r"\bDATA\s+DIVISION\b", proc) is not None else ["DATA", "DIVISION."]
        lines.replace(at, 0, at, 0, [*data, "WORKING-STORAGE", "SECTION.", *copy], False)
    return extra


def _locate(lines: SourceLines, cmd: CicsCommand) -> tuple[int, int, int, int]:
    first, last = cmd.line - 1 + lines.added, cmd.end_line - 1 + lines.added
    m = _EXEC.search(lines.code(first))
    col = m.start() if m else 0
    code = lines.code(last)
    e = _END.search(code, col if last == first else 0)
    return first, col, last, e.end() if e else len(code)


def _abend_exit(lines: SourceLines, scan: CicsScan, ws: list[str]) -> None:
    """The paragraph an abend goes to under HANDLE ABEND PROGRAM: LINK to the program named last (kept in
    DFHABPGM), then GOBACK: the abending program ends, and its linker (or the task) goes on. Added at the
    end of the program (before its END PROGRAM), so no line of the program moves."""
    n = len(scan.commands) + 1
    line = next(c.line for c in scan.commands if c.name == "HANDLE ABEND" and "PROGRAM" in c.options)
    ws += ["01  DFHABPGM PIC X(8) VALUE SPACES.", f"01  DFHD{n}.", *literal_items("05", f"{line};LINK;PROGRAM()")]
    margin = " " * lines.start
    body = [f"{margin}{ABEND_EXIT}.", f"{margin}    CALL '{ENTRY}' USING BY VALUE {n}",
            f"{margin}        BY REFERENCE DFHEIBLK DFHD{n} DFHABPGM", f"{margin}    GOBACK."]  # fmt: skip
    end = next((k for k in range(len(lines.lines)) if re.search(r"\bEND\s+PROGRAM\b", lines.code(k), re.I)), None)
    at = len(lines.lines) if end is None else end
    while at > 0 and not lines.lines[at - 1].strip():
        at -= 1
    lines.lines[at:at] = body


def defines_commarea(text: str) -> bool:
    """Whether ``text`` (a program or copybook) defines ``01 DFHCOMMAREA``."""
    return re.search(r"\b0?1\s+DFHCOMMAREA\b", text, re.I) is not None


def generate_cics(text: str, scan: CicsScan, fmt: str, stem: str, has_commarea: bool | None = None) -> CicsGenerated:
    """``text`` (a program of format ``fmt``) translated (see the module); ``stem`` names its book;
    ``has_commarea``: whether the program defines DFHCOMMAREA (None: whether ``text`` itself does)."""
    lines = SourceLines(text, fmt)
    book_name = f"{stem.upper()}.cicsws"
    ws: list[str] = ["*> WHAT THE PROGRAM'S EXEC CICS COMMANDS PASS TO CICSRT"]
    _builtins(lines)
    extra = _parameters(lines, defines_commarea(text) if has_commarea is None else has_commarea, book_name)
    labels = scan.labels
    for cmd in scan.commands:
        words = _Command(cmd, labels, ws).words()
        first, col, last, end = _locate(lines, cmd)
        lines.replace(first, col, last, end, words, cmd.period)
    if ABEND_EXIT in labels:
        _abend_exit(lines, scan, ws)
    books = {f"{name}.cpy": body for name, body in STANDARD_BOOKS.items()}
    books.update(extra)
    books[book_name] = book(*ws)
    return CicsGenerated("\n".join(lines.lines) + "\n", books, lines.wide, lines.shifted)


def generate_cics_file(path: Path, fmt: str, include: tuple[Path, ...] = ()) -> tuple[CicsGenerated, CicsScan]:
    """The program at ``path`` translated, with the scan its messages come from; whether it defines
    DFHCOMMAREA is decided on its text as cobc will read it: COPY books (found as cobc will, ``include``:
    the extra folders) and EXEC SQL INCLUDE members brought in, REPLACING applied."""
    scan = scan_cics_text(path, fmt)
    text = read_text(path)
    return generate_cics(text, scan, fmt, path.stem, commarea_defined(path, fmt, include)), scan


_COMMAREA_ENTRY = re.compile(r"(?<![\w-])0?1\s+DFHCOMMAREA(?![\w-])", re.I)


def commarea_defined(path: Path, fmt: str, include: tuple[Path, ...] = ()) -> bool:
    """Whether the program at ``path`` has an ``01 DFHCOMMAREA`` once its COPY books and INCLUDE members
    are in (``COPY X REPLACING ==X-COMMAREA== BY ==DFHCOMMAREA==`` defines it; a comment does not).
    A program whose books cannot all be read is judged on its own lines: the parser says what is wrong."""
    try:
        lines, _, _ = load(path, fmt, include)
    except LinkageError:
        lines = read_lines(path, fmt)
    return any(_COMMAREA_ENTRY.search(line.code) for line in lines)
