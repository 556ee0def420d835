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
from ..db.cics.fct import DatasetDef, DatasetError, create_datasets, parse_datasets
from ..db.url import database
from .answers import Answerer, Tracked, answerer_for
from .cics import SERVED, CicsProgram, CicsSession
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
    ) -> None:
        self.program, self.commands, self.answerer, self.sql = program, commands, answerer, sql
        self.folder = folder if folder is not None else {}  # the folder's EXEC SQL programs (LINKed ones)

    def session(self) -> CicsSession | Tracked:
        """One call's session: its commands on the answerer's threads, if there is one (:mod:`.answers`);
        with an SQL session inside (one unit of work) when it or a program of its folder has EXEC SQL."""
        own = self.sql.program if self.sql is not None else None
        sql = Session(own, folder=self.folder) if own is not None or self.folder else None
        session = CicsSession(self.program, sql=sql)
        return Tracked(session, self.answerer) if self.answerer is not None else session

    def report(self) -> list[str]:
        """For ``check``: the program's database and its CICS commands."""
        db = self.program.database
        commands = list(dict.fromkeys(self.commands))
        lines = [f"  CICS on {db.kind}: {', '.join(commands)}"]
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


def load_cics(
    entry: CicsEntry,
    program_id: str,
    url: str | None,
    data_dir: str | None,
    datasets: str | None,
    runtime: Any = None,
    sql: Served | None = None,
    programs: dict[str, SqlProgram] | None = None,
) -> CicsServed:
    """The program of a manifest entry's ``cics`` on its folder's database (``url``, else ``cobol-mcp.db``
    in ``data_dir``), the datasets of ``datasets`` (a cobol-mcp.toml) created there; LinkageError (file:line)
    when they cannot be. With the ``runtime``, commands run off its reply loop (:mod:`.answers`);
    ``sql``: the program's EXEC SQL, prepared (:func:`.served.load_served`); ``programs``: the folder's EXEC SQL
    programs by PROGRAM-ID, whose statements a LINKed program runs in the call's unit of work."""
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
    program = CicsProgram(program_id, entry["original"], db, fct)
    return CicsServed(program, list(entry["commands"]), answerer, sql, programs)
