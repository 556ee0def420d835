"""An EXEC SQL program as the server serves it: prepared at load from its manifest entry, one session per call.

The manifest entry of a precompiled program carries ``sql`` (:class:`..cobol.prepare.entries.SqlEntry`):
the generated source and its copybook folders, the user's source and its folder; the folder's settings
(``[folder] database``, the data folder) say where the database is. :func:`load_served` prepares the
program against that database (the translation runs once, at load: a statement it cannot translate
refuses the program with file:line and the reason) and gives a :class:`Served`, whose
:meth:`Served.session` is one tool call's :class:`.session.Session`: its
:meth:`~.session.Session.answer` answers the worker's exchanges, its :meth:`~.session.Session.end`
commits or rolls back. The programs of one folder share a ``folder`` table (each PROGRAM-ID of the
source, nested ones too, to its prepared program): a call's session answers the statements of every
program the call reaches in its one unit of work.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cobol.precompile.scan import scan_text
from ..cobol.source.lines import read_lines
from ..db.url import database
from .answers import Answerer, Tracked, answerer_for
from .inworker import IN_WORKER_ENV, WorkerSession, folder_plans, in_worker_allowed, turned_off
from .session import Session, SqlProgram, load_program

if TYPE_CHECKING:
    from ..cobol.prepare.entries import SqlEntry, SqlOptions

__all__ = ["FolderSql", "Served", "load_served", "program_ids", "worker_session"]

_PROGRAM_ID = re.compile(r"""\bPROGRAM-ID\s*\.?\s*(['"]?)([A-Za-z0-9_$-]+)\1""", re.I)


class Served:
    def __init__(
        self,
        program: SqlProgram,
        original: str,
        answerer: Answerer | None = None,
        folder: dict[str, SqlProgram] | None = None,
        runtime: Any = None,
    ) -> None:
        self.program, self.original, self.answerer = program, original, answerer
        self.folder = folder if folder is not None else {}
        self.runtime = runtime

    def session(self) -> Session | Tracked | WorkerSession:
        """One call's session: its statements run in the C worker where the folder's can
        (:mod:`.inworker`), else on the answerer's threads, if there is one."""
        in_worker = worker_session(self.folder, self.runtime)
        if in_worker is not None:
            return in_worker
        session = Session(self.program, folder=self.folder)
        return Tracked(session, self.answerer) if self.answerer is not None else session

    def report(self) -> list[str]:
        """For ``check``: the program's database and each SQL statement with its file:line."""
        db = self.program.database
        where = db.target if db.kind == "sqlite" else "PostgreSQL"
        lines = [f"  SQL on {db.kind} ({where}), {where_run(self.folder)}:"]
        for s in self.program.statements:
            text = s.text if len(s.text) <= 80 else s.text[:77] + "..."
            lines.append(f"    {self.original}:{s.line}: {s.kind}: {text}")
        for line, table in self.program.plan.missing:  # (a table made later is found at the next start)
            lines.append(f"  warning: {self.original}:{line}: table {table} does not exist in the folder's database"
                         " (SQLCODE -204 when the statement runs)")  # fmt: skip
        return lines


class FolderSql:
    """A program without EXEC SQL in a folder with EXEC SQL programs: a call's session answers the
    statements of the subprograms it CALLs (none: the session costs nothing, and ends with nothing).
    With the ``runtime``, statements run off its reply loop; without, on a run unit's channel thread."""

    def __init__(self, folder: dict[str, SqlProgram], runtime: Any = None) -> None:
        self.folder, self.runtime = folder, runtime
        self.answerer = answerer_for(runtime) if runtime is not None else None

    def session(self) -> Session | Tracked | WorkerSession:
        in_worker = worker_session(self.folder, self.runtime)
        if in_worker is not None:
            return in_worker
        session = Session(None, folder=self.folder)
        return Tracked(session, self.answerer) if self.answerer is not None else session


def load_served(
    sql: SqlEntry,
    url: str | None = None,
    data_dir: str | None = None,
    runtime: Any = None,
    folder: dict[str, SqlProgram] | None = None,
    options: SqlOptions | None = None,
) -> Served:
    """The program of a manifest entry's ``sql``, prepared against its folder's database: ``url``
    (``[folder] database``), else ``cobol-mcp.db`` in ``data_dir`` (LinkageError). With the ``runtime``,
    statements run off its reply loop (:mod:`.answers`). ``folder``: the table of the folder's prepared
    programs, which this one joins under each PROGRAM-ID of its source; ``options``: the folder's QUALIFIER and
    DATE/TIME options (``[folder]`` of cobol-mcp.toml)."""
    db = database(url, Path(sql["folder"]), data_dir)
    include = tuple(Path(p) for p in sql["include"])
    statements = scan_text(Path(sql["original"]), sql["format"], include[1:]).statements
    program = load_program(Path(sql["source"]), statements, db, shown=sql["original"], source_format=sql["format"],
                           include=include, dialect=sql["dialect"], options=options)  # fmt: skip
    folder = folder if folder is not None else {}
    for name in program_ids(Path(sql["original"]), sql["format"]):
        folder.setdefault(name.upper(), program)
    return Served(program, sql["original"], answerer_for(runtime) if runtime is not None else None, folder, runtime)


def where_run(folder: dict[str, SqlProgram]) -> str:
    """Where a call's statements run, for ``check``: in the worker, or on the server and why."""
    if turned_off():
        return f"run by the server ({IN_WORKER_ENV}=0)"
    plans = folder_plans(folder)
    return "run in the COBOL worker" if isinstance(plans, dict) else f"run by the server ({plans})"


def worker_session(folder: dict[str, SqlProgram], runtime: Any) -> WorkerSession | None:
    """A call's session whose statements the C worker runs, where the folder's programs can (:mod:`.inworker`)."""
    if not folder or not in_worker_allowed(runtime):
        return None
    plans = folder_plans(folder)
    return WorkerSession(folder, plans) if isinstance(plans, dict) else None


def program_ids(source: Path, source_format: str) -> list[str]:
    """Every PROGRAM-ID of a source file (the outermost first, nested ones after), as written."""
    return [m.group(2) for line in read_lines(source, source_format) for m in _PROGRAM_ID.finditer(line.code)]
