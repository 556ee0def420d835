"""An EXEC CICS program as the server serves it: its folder's database and datasets, one session per call.

The manifest entry of a translated program carries ``cics`` (:class:`..cobol.prepare.entries.CicsEntry`);
the folder's settings say where the database is and which ``cobol-mcp.toml`` holds the ``[[datasets]]``.
:func:`load_cics` checks those datasets (:func:`..db.cics.fct.parse_datasets`: strict, file:line),
creates the CICS tables and the datasets the database does not have yet, loading them (once per
folder and database), and gives a :class:`CicsServed` whose :meth:`CicsServed.session` is one tool
call's :class:`.cics.CicsSession`.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cobol import LinkageError
from ..cobol.precompile.cics import CicsCommand, scan_cics_text
from ..db.cics.csd import folder_transactions
from ..db.cics.fct import DatasetDef, DatasetError, create_datasets, parse_datasets
from ..db.url import database
from .answers import Answerer, Tracked, answerer_for
from .cics import SERVED, CicsProgram, CicsSession
from .cics_start import runner_for
from .cics_worker import CicsWorker, why_not
from .served import Served
from .session import Session, SqlProgram

if TYPE_CHECKING:
    from ..cobol.prepare.entries import CicsEntry

__all__ = ["CicsServed", "load_cics"]

_CREATED: dict[tuple[str, str, str], dict[str, DatasetDef]] = {}
_LOCK = threading.Lock()


class CicsServed:
    def __init__(
        self,
        program: CicsProgram,
        commands: list[str],
        answerer: Answerer | None = None,
        sql: Served | None = None,
        folder: dict[str, SqlProgram] | None = None,
        runtime: Any = None,
        cics: dict[str, list[CicsCommand]] | None = None,
    ) -> None:
        self.program, self.commands, self.answerer, self.sql = program, commands, answerer, sql
        self.folder = folder if folder is not None else {}  # the folder's EXEC SQL programs (LINKed ones)
        self.runtime = runtime
        self.cics = cics if cics is not None else {}  # the folder's CICS programs' commands, by PROGRAM-ID
        self._where: tuple[str | None] | None = None  # where_run's answer, once worked out

    def where_run(self) -> str | None:
        """Why the call's database work is the server's (None: it runs in the worker, :mod:`.cics_worker`);
        worked out once, when the folder's programs are all loaded."""
        if self._where is None:
            self._where = (why_not(self.runtime, self.program.database, self.cics, self.folder),)
        return self._where[0]

    def session(self) -> CicsSession | Tracked:
        """One call's session: its commands on the answerer's threads, if there is one (:mod:`.answers`);
        with an SQL session inside (one unit of work) when it or a program of its folder has EXEC SQL, or
        its database work run in the C worker where the folder's can."""
        if self.where_run() is None:
            worker = CicsWorker(self.folder, self.program.fct, self.program.database)
            session = CicsSession(self.program, worker=worker)
        else:
            own = self.sql.program if self.sql is not None else None
            sql = Session(own, folder=self.folder) if own is not None or self.folder else None
            session = CicsSession(self.program, sql=sql)
        return Tracked(session, self.answerer) if self.answerer is not None else session

    def serve_started(self, tool: Any, plain: bool = True) -> None:
        """``tool`` (this program's; ``plain``: not a named variant) runs the transactions STARTed on this
        program's database that name the program."""
        if self.program.runner is not None:
            self.program.runner.serve(self.program.program_id, tool, plain)

    def report(self) -> list[str]:
        """For ``check``: the program's database and its CICS commands."""
        db = self.program.database
        commands = list(dict.fromkeys(self.commands))
        why = self.where_run()
        where = "database work run in the COBOL worker" if why is None else f"database work run by the server ({why})"
        lines = [f"  CICS on {db.kind}, {where}: {', '.join(commands)}"]
        missing = [c for c in commands if c not in SERVED]
        if missing:
            lines.append(f"    not served yet (a call reaching one fails): {', '.join(missing)}")
        return lines + (self.sql.report() if self.sql is not None else [])


def _datasets(path: Path, text: str, folder: Path) -> list[DatasetDef]:
    import tomllib

    try:
        return parse_datasets(tomllib.loads(text).get("datasets", []), path, text, folder)
    except DatasetError as exc:
        raise LinkageError(str(exc)) from None


def _commands(original: Path, names: list[str]) -> list[CicsCommand]:
    """The program's commands with their options, as its source has them (not read: only their names, which
    keep its folder's database work on the server's way)."""
    try:
        scan = scan_cics_text(original)
        if not scan.problems:
            return scan.commands
    except OSError:
        pass
    return [CicsCommand(0, name, {"(its source not read)": None}) for name in names]


def _toml_transactions(folder: Path) -> dict[str, str]:
    """cobol-mcp.toml's ``[transactions]`` (checked when the folder's overrides were read)."""
    path = folder / "cobol-mcp.toml"
    if not path.is_file():
        return {}
    import tomllib

    try:
        given = tomllib.loads(path.read_text(encoding="utf-8")).get("transactions", {})
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in given.items()} if isinstance(given, dict) else {}


def load_cics(
    entry: CicsEntry,
    program_id: str,
    url: str | None,
    data_dir: str | None,
    datasets: str | None,
    runtime: Any = None,
    sql: Served | None = None,
    programs: dict[str, SqlProgram] | None = None,
    cics: dict[str, list[CicsCommand]] | None = None,
) -> CicsServed:
    """The program of a manifest entry's ``cics`` on its folder's database (``url``, else ``cobol-mcp.db``
    in ``data_dir``), the datasets of ``datasets`` (a cobol-mcp.toml) created there; LinkageError (file:line)
    when they cannot be. With the ``runtime``, commands run off its reply loop (:mod:`.answers`);
    ``sql``: the program's EXEC SQL, prepared (:func:`.served.load_served`); ``programs``: the folder's EXEC SQL
    programs by PROGRAM-ID, whose statements a LINKed program runs in the call's unit of work; ``cics``: the
    folder's CICS programs' commands by PROGRAM-ID, which this one joins (whether the folder's database work
    can run in the worker: :mod:`.cics_worker`)."""
    folder = Path(entry["folder"])
    db = database(url, folder, data_dir)
    text = Path(datasets).read_text(encoding="utf-8") if datasets else ""
    key = (db.kind, db.target, text)  # the file changed (a reload): its new datasets are created
    with _LOCK:
        fct = _CREATED.get(key)
        if fct is None:
            defs = _datasets(Path(datasets), text, folder) if datasets else []
            try:
                create_datasets(db, defs)
            except DatasetError as exc:
                raise LinkageError(str(exc)) from None
            fct = _CREATED[key] = {d.name.upper(): d for d in defs}
    answerer = answerer_for(runtime) if runtime is not None else None
    transactions = folder_transactions(folder, _toml_transactions(folder))
    program = CicsProgram(program_id, entry["original"], db, fct, transactions, runner_for(runtime, db))
    cics = cics if cics is not None else {}
    cics[program_id.upper()] = _commands(Path(entry["original"]), entry["commands"])
    return CicsServed(program, list(entry["commands"]), answerer, sql, programs, runtime, cics)
