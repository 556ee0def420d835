"""What keeps a program from the compiler before cobc sees it, and how a refusal reads.

:func:`needs_precompiler`: EXEC blocks that nothing here translates (EXEC DLI, EXEC ORACLE; EXEC SQL or
EXEC CICS in a COPY book, which the precompiler and the translator do not read). :func:`refusal`: a
message as the user reads it, naming the user's files and line numbers (never our translation of the
program in the build cache: its lines are where the user's were) and the program a COPY book's error
keeps from being served.
"""

from __future__ import annotations

import re
from pathlib import Path

from .. import COPYBOOK_SUFFIXES, LinkageError
from ..source.copybooks import user_paths
from ..source.lines import load_with_copies

__all__ = ["needs_precompiler", "refusal"]

_PRECOMPILER = re.compile(r"\bEXEC\s+(SQL|CICS|DLI|ORACLE)\b", re.I)


def needs_precompiler(source: Path, source_format: str | None, include: tuple[Path, ...]) -> list[str]:
    """Refuse a program with EXEC DLI/ORACLE blocks, or EXEC SQL or EXEC CICS in a COPY book: cobc cannot
    compile them, and the precompiler and the translator read the program's own text and its EXEC SQL
    INCLUDE members (:mod:`.sql`, :mod:`.cics`). The warnings its COPY statements give (a name written for
    another machine)."""
    lines, _, refs = load_with_copies(source, source_format, include)
    members = {ref.path for ref in refs if ref.include}
    for ref in refs:  # an INCLUDE the precompiler reads: in the program or in a member, not in a COPY book
        if ref.include and ref.source is not None and ref.source != source and ref.source not in members:
            raise LinkageError(f"{ref.source}:{ref.line}: EXEC SQL in a COPY book is not precompiled: bring it "
                               "in with EXEC SQL INCLUDE")  # fmt: skip
    for line in lines:
        match = _PRECOMPILER.search(re.sub(r"\"[^\"]*\"|'[^']*'", "''", line.code))  # not inside literals
        if match is None:
            continue
        kind = match.group(1).upper()
        if kind == "SQL" and (line.path == source or line.path in members):
            continue
        if kind == "SQL":
            raise LinkageError(
                f"{line.where}: EXEC SQL in a COPY book is not precompiled: bring it in with EXEC SQL INCLUDE"
            )
        if kind == "CICS" and line.path != source:
            raise LinkageError(f"{line.where}: EXEC CICS in a COPY book is not translated: the translator reads the "
                               "program's own text")  # fmt: skip
        if kind == "CICS":  # the translator's output has none left: this one it could not tell from code
            raise LinkageError(
                f"{line.where}: EXEC CICS left untranslated: the translator did not read it as a command"
            )
        raise LinkageError(
            f"{line.where}: EXEC {kind} needs a precompiler first, which this server does "
            "not run (serve the precompiler's output instead)"
        )
    return list(dict.fromkeys(ref.warning for ref in refs if ref.warning))


_PLACE = re.compile(r"^(.+?):\d+: ", re.M)


def refusal(message: str, source: Path) -> str:
    """``message`` (`file:line: why` lines) as the user reads it: each place in our translation of the
    program named in the user's file (its lines are where they were), and the program named after a
    message whose every place is in a COPY book of it."""
    message = user_paths(message)
    places = [Path(m.group(1)) for m in _PLACE.finditer(message)]
    books = [p for p in places if p != source and p.suffix.lower() in (*COPYBOOK_SUFFIXES, ".dcl", "")]
    if not places or len(books) < len(places):
        return message
    if "\n" in message:
        return f"{message}\n{source}: not served: the errors above are in its COPY books"
    return f"{message} (a COPY book of {source}, which is not served)"
