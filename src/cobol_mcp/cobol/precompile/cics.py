"""Find and read every ``EXEC CICS … END-EXEC`` of a program: the command table of the CICS translator.

The blocks are found as EXEC SQL's are (:func:`.scan.exec_blocks`: fixed or free format, over many
lines, with or without a period after ``END-EXEC``). Each becomes a :class:`CicsCommand`: which command
of :data:`.cics_table.COMMANDS` it is, and its options in the order written, each with its argument
(:class:`Arg`: a data name with its qualification, subscripts or reference modification, a literal, a
number, ``DFHRESP(…)``, ``DFHVALUE(…)``, ``LENGTH OF x``, ``ADDRESS OF x``, a label). ``RESP``,
``RESP2`` and ``NOHANDLE`` go with every command; ``DATASET`` is ``FILE``; ``WRITEQ``/``READQ``/
``DELETEQ`` without ``TS`` or ``TD`` mean ``TS``, as CICS reads them.

What the translator will not carry is a :class:`.scan.Problem` (file:line and the reason): BMS screens
(``SEND MAP``, ``RECEIVE MAP``, ``HANDLE AID``, paging), ``CONVERSE``, ``EXEC DLI``, an unknown command or
option, an option without its argument or with one it does not take, a required option missing, options
that exclude each other, a ``DFHRESP``/``DFHVALUE`` name anywhere in the program that CICS has not (or
whose number is not carried yet: said so). Terminal control (``RECEIVE``, ``SEND``) and BMS text
(``SEND TEXT``, ``SEND CONTROL``) are carried: a tool's task has no terminal, and the runtime answers them
as CICS answers such a task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..source.lines import detect_format, read_lines, read_text
from .cics_table import (
    COMMANDS,
    CONDITIONS,
    DFHVALUES,
    NOT_CARRIED,
    OPTION_ALIASES,
    REFUSED,
    Command,
    OptionKind,
    option_kind,
)
from .scan import Problem, exec_blocks

__all__ = [
    "ABEND_EXIT",
    "COMMON_OPTIONS",
    "Arg",
    "CicsCommand",
    "CicsScan",
    "builtin_value",
    "scan_cics_lines",
    "scan_cics_text",
]

# The paragraph the translator adds to a program with HANDLE ABEND PROGRAM: it LINKs to the exit program
ABEND_EXIT = "DFH-ABEND-EXIT"

# Options every command takes: where RESP and RESP2 go, and NOHANDLE (no HANDLE CONDITION, no abend).
COMMON_OPTIONS = {"RESP": option_kind("f<"), "RESP2": option_kind("f<"), "NOHANDLE": option_kind("")}


@dataclass(frozen=True)
class Arg:
    kind: str  # "data", "literal", "number", "length-of", "address-of"
    text: str  # COBOL text: WS-KEY, KEY OF REC (3), 'CUSTFILE', 13 (DFHRESP/DFHVALUE resolved), LENGTH OF X
    value: int | None = None  # of a number


@dataclass
class CicsCommand:
    number: int  # 1, 2, … in source order: what the generated CALL passes first
    name: str  # a key of COMMANDS: "READ", "WRITEQ TS" …
    options: dict[str, Arg | None] = field(default_factory=dict)  # as written (aliases resolved), in order
    line: int = 0  # where EXEC CICS is
    end_line: int = 0  # where END-EXEC is
    period: bool = False  # END-EXEC.
    text: str = ""  # the command as written, white space folded

    @property
    def table(self) -> Command:
        return COMMANDS[self.name]


@dataclass
class CicsScan:
    commands: list[CicsCommand] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """Every label a HANDLE CONDITION or HANDLE ABEND names, once, in order of first appearance, and
        :data:`ABEND_EXIT` last when a HANDLE ABEND names a PROGRAM: label ``k`` (from 1) is what the
        runtime answers in DFHEIGDI to have the program GO TO it."""
        found: list[str] = []
        for cmd in self.commands:
            if cmd.name == "HANDLE CONDITION":
                found += [a.text for a in cmd.options.values() if a is not None and a.text not in found]
            label = cmd.options.get("LABEL") if cmd.name == "HANDLE ABEND" else None
            if label is not None and label.text not in found:
                found.append(label.text)
        if any(cmd.name == "HANDLE ABEND" and "PROGRAM" in cmd.options for cmd in self.commands):
            found.append(ABEND_EXIT)
        return found


_TOKEN = re.compile(
    r"\s*(?:(?P<lit>[XNGZ]?'(?:[^']|'')*'|[XNGZ]?\"(?:[^\"]|\"\")*\")|(?P<num>[+-]?\d+(?:\.\d+)?(?![A-Z0-9-]))"
    r"|(?P<word>[A-Z0-9][A-Z0-9-]*)|(?P<punct>[():,])|(?P<other>\S))",
    re.I,
)
_BUILTIN = re.compile(r"\b(DFHRESP|DFHVALUE)\s*\(\s*([A-Z0-9-]*)\s*\)", re.I)


def unknown_builtin(function: str, name: str) -> str:
    """Why ``DFHRESP(name)`` or ``DFHVALUE(name)`` has no number here: a name CICS has that is not carried yet,
    or none of CICS's."""
    if name.upper() in NOT_CARRIED or name.upper() in CONDITIONS or name.upper() in DFHVALUES:
        return f"{function.upper()}({name}): a name CICS has, not served yet"
    return f"{function.upper()}({name}): not a name CICS has"


def builtin_value(function: str, name: str) -> int | None:
    """The number ``DFHRESP(name)`` or ``DFHVALUE(name)`` stands for (None: not a name CICS has)."""
    table = CONDITIONS if function.upper() == "DFHRESP" else DFHVALUES
    return table.get(name.upper())


def _tokens(text: str) -> list[tuple[str, str]]:
    found = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        value = m.group(kind)
        if value is not None:
            found.append((kind, value if kind == "lit" else value.upper()))
    return found


def _items(tokens: list[tuple[str, str]]) -> tuple[list[tuple[str, list[tuple[str, str]] | None]], str | None]:
    """The top-level words, each with the tokens of its parenthesised argument (None: no parentheses)."""
    items: list[tuple[str, list[tuple[str, str]] | None]] = []
    k = 0
    while k < len(tokens):
        kind, value = tokens[k]
        if value == ",":
            k += 1
            continue
        if kind != "word":
            return items, f"unexpected {value!r}"
        k += 1
        if k < len(tokens) and tokens[k][1] == "(":
            depth, start = 1, k + 1
            k += 1
            while k < len(tokens) and depth:
                depth += {"(": 1, ")": -1}.get(tokens[k][1], 0) if tokens[k][0] == "punct" else 0
                k += 1
            if depth:
                return items, f"{value}( without its closing parenthesis"
            items.append((value, tokens[start : k - 1]))
        else:
            items.append((value, None))
    return items, None


def _text(tokens: list[tuple[str, str]]) -> str:
    out = ""
    for _, value in tokens:
        if value in (")", ":", ",") or out.endswith(("(", ":")) or not out:
            out += value
        else:
            out += " " + value
    return out


def _arg(tokens: list[tuple[str, str]]) -> tuple[Arg | None, str | None]:
    """One option's argument, or why it is none."""
    if not tokens:
        return None, "an empty argument"
    kinds = [k for k, _ in tokens]
    words = [v for _, v in tokens]
    if len(tokens) == 1 and kinds[0] == "lit":
        return Arg("literal", words[0]), None
    if len(tokens) == 1 and kinds[0] == "num":
        return Arg("number", words[0], int(float(words[0]))), None
    if words[0] in ("DFHRESP", "DFHVALUE") and len(tokens) == 4 and words[1] == "(" and words[3] == ")":
        value = builtin_value(words[0], words[2])
        if value is None:
            return None, unknown_builtin(words[0], words[2])
        return Arg("number", str(value), value), None
    if words[:2] in (["LENGTH", "OF"], ["ADDRESS", "OF"]) and len(tokens) > 2:
        ref, problem = _arg(tokens[2:])
        if ref is None or ref.kind != "data":
            return None, problem or f"{words[0]} OF needs a data name"
        return Arg("length-of" if words[0] == "LENGTH" else "address-of", f"{words[0]} OF {ref.text}"), None
    if kinds[0] != "word" or "other" in kinds or "lit" in kinds:
        return None, f"{_text(tokens)} is not a data name, literal or number"
    return Arg("data", _text(tokens)), None


def _fits(kind: OptionKind, arg: Arg) -> str | None:
    """Why ``arg`` cannot be the argument of an option of ``kind`` (None: it can)."""
    if kind.code == "l":
        return None if arg.kind == "data" and re.fullmatch(r"[A-Z0-9-]+(?: (?:OF|IN) [A-Z0-9-]+)?", arg.text) else (
            "a label (a paragraph or section name)")  # fmt: skip
    if kind.sets and not kind.reads and arg.kind != "data" and not (kind.code == "p" and arg.kind == "address-of"):
        return "a data name (the command sets it)"
    if kind.numeric and arg.kind == "literal":
        return "a number or a numeric data name"
    if kind.code == "n" and arg.kind == "literal":
        body = arg.text[1:-1] if arg.text[0] in "'\"" else arg.text[2:-1]
        size = len(body) // 2 if arg.text[0] in "Xx" else len(body.replace("''", "'"))
        if size > kind.size:
            return f"at most {kind.size} characters"
    if kind.code in ("n", "a") and arg.kind in ("number", "length-of", "address-of"):
        return "a name: a literal or a data name"
    if kind.code == "p" and arg.kind not in ("data", "address-of"):
        return "a pointer: a data name or ADDRESS OF one"
    return None


def _command(items: list[tuple[str, list[tuple[str, str]] | None]]) -> tuple[str | None, int, str | None]:
    """(the command, where its options start, a refusal)."""
    words = [w for w, _ in items]
    two = " ".join(words[:2])
    if len(words) > 1 and two in COMMANDS:
        return two, 1 if words[1] in COMMANDS[two].options else 2, None
    if len(words) > 1 and two in REFUSED:
        return None, 0, REFUSED[two]
    if words[0] in REFUSED:
        return None, 0, REFUSED[words[0]]
    if words[0] in ("WRITEQ", "READQ", "DELETEQ"):
        return f"{words[0]} TS", 1, None
    if words[0] in COMMANDS:
        return words[0], 1, None
    return None, 0, f"{two if len(words) > 1 else words[0]}: not a CICS command this translator knows"


def _parse(number: int, body: str) -> tuple[CicsCommand | None, list[str]]:
    items, problem = _items(_tokens(body))
    if problem or not items:
        return None, [problem or "EXEC CICS with no command"]
    name, start, refusal = _command(items)
    if name is None:
        return None, [refusal or "unknown command"]
    table = COMMANDS[name]
    cmd = CicsCommand(number, name, text=body)
    problems: list[str] = []
    given: set[str] = set()  # what the requirements are checked against: bad arguments too
    for word, arg_tokens in items[start:]:
        option = OPTION_ALIASES.get(word, word)
        if option in given:
            if arg_tokens is not None or cmd.options.get(option, "") is not None:
                problems.append(f"{name}: {word} given twice")
            continue  # (a flag written twice, ASKTIME NOHANDLE … NOHANDLE, is that flag, as CICS reads it)
        if table.conditions and option not in COMMON_OPTIONS:
            if option not in CONDITIONS or option == "NORMAL":
                known = option in NOT_CARRIED and option != "NORMAL"
                problems.append(
                    f"{name}: {word} " + ("is a CICS condition not served yet" if known else "is not a CICS condition")
                )
                continue
            kind = option_kind("l?") if name == "HANDLE CONDITION" else option_kind("")
        elif option in table.options or option in COMMON_OPTIONS:
            kind = table.options.get(option) or COMMON_OPTIONS[option]
        else:
            problems.append(f"{name}: {word} is not an option of {name}")
            continue
        given.add(option)
        if option in table.notes:
            problems.append(table.notes[option])
        if arg_tokens is None:
            if kind.takes_arg and not kind.optional_arg:
                problems.append(f"{name}: {word} needs an argument")
            cmd.options[option] = None
            continue
        if not kind.takes_arg:
            problems.append(f"{name}: {word} takes no argument")
            continue
        arg, why = _arg(arg_tokens)
        if arg is not None:
            why = _fits(kind, arg)
            why = None if why is None else f"{name}: {word}({arg.text}) must be {why}"
        if why is not None or arg is None:
            problems.append(why if why and why.startswith(name) else f"{name}: {word}: {why}")
            continue
        cmd.options[option] = arg
    for group in table.required:
        if not any(opt in given for opt in group):
            problems.append(f"{name} needs {' or '.join(group)}")
    for group in table.one_of:
        both = [opt for opt in group if opt in given]
        if len(both) > 1:
            problems.append(f"{name}: {' and '.join(both)} exclude each other")
    if table.any_option and not any(opt not in COMMON_OPTIONS for opt in given):
        problems.append(f"{name} needs an option")
    return cmd, problems


def _builtins(path: Path, lines: list[tuple[int, str]]) -> list[Problem]:
    """An unknown DFHRESP/DFHVALUE name anywhere in the code (outside literals)."""
    problems = []
    for lineno, code in lines:
        plain = re.sub(r"'[^']*'?|\"[^\"]*\"?", "''", code)
        for m in _BUILTIN.finditer(plain):
            if builtin_value(m.group(1), m.group(2)) is None:
                problems.append(Problem(f"{path}:{lineno}", unknown_builtin(m.group(1), m.group(2))))
    return problems


def scan_cics_lines(path: Path, lines: list[tuple[int, str]]) -> CicsScan:
    """The EXEC CICS commands of ``lines`` ((line number, code) pairs, as :func:`..source.lines.read_lines`
    gives them); ``path`` names the file in problems."""
    result = CicsScan()
    blocks, unclosed = exec_blocks(lines, "CICS")
    dli, dli_unclosed = exec_blocks(lines, "DLI")
    for line, reason in unclosed + dli_unclosed:
        result.problems.append(Problem(f"{path}:{line}", reason))
    for line, *_ in dli:
        result.problems.append(Problem(f"{path}:{line}", "EXEC DLI (IMS DL/I) is not supported"))
    for number, (line, end_line, body, period) in enumerate(blocks, 1):
        cmd, problems = _parse(number, body)
        result.problems += [Problem(f"{path}:{line}", p) for p in problems]
        if cmd is not None:
            cmd.line, cmd.end_line, cmd.period = line, end_line, period
            result.commands.append(cmd)
    inside = {n for line, end_line, *_ in blocks for n in range(line, end_line + 1)}
    result.problems += _builtins(path, [(n, code) for n, code in lines if n not in inside])
    result.problems.sort(key=lambda p: int(p.where.rsplit(":", 1)[1]))
    return result


def scan_cics_text(path: Path, source_format: str | None = None) -> CicsScan:
    """The EXEC CICS commands of the program at ``path`` (its own text: COPY books are not expanded)."""
    fmt = source_format or detect_format(read_text(path))
    return scan_cics_lines(path, [(line.lineno, line.code) for line in read_lines(path, fmt)])
