"""The server's options (what the command line chooses) and where the bundled programs live.

Read by the start-up manifest and by server assembly alike, so it imports nothing of the package.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

SERVER_NAME = "cobol-mcp-server"
# The bundled programs' backend: a name no folder takes by accident (a folder named after it, or
# NAME=DIR naming it, is refused), so a user's `--programs ./cobol` never hides add and the others.
BUNDLED_BACKEND = "cobol-mcp-bundled"
PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


class Options:
    """What shapes the server (the command line's choices)."""

    def __init__(
        self,
        *,
        programs: Sequence[tuple[str, str | Path]] | None = None,
        bundled: bool = True,
        expose_source: bool = False,
        strict_lifecycle: bool = False,
        max_message_bytes: int = 4 << 20,
        timeout: float = 10.0,
        workers: int | None = None,
        source_format: str | None = None,
        cache_dir: str | Path | None = None,
        rebuild: bool = False,
        worker_spin: float = 0.0003,
        watch: bool = False,
        data_dir: str | Path | None = None,
        data_dirs: dict[str, str | Path] | None = None,
        copybooks: Sequence[str | Path] = (),
        dialect: str | None = None,
        dialects: dict[str, str] | None = None,
        database: str | None = None,
        databases: dict[str, str] | None = None,
        shutdown_grace: float = 30.0,
    ) -> None:
        self.shutdown_grace = shutdown_grace  # seconds calls in flight get to finish after SIGTERM
        self.programs = [(name, str(folder)) for name, folder in programs or []]  # (backend name, folder)
        check_backend_names(self.programs)
        self.bundled = bundled
        self.expose_source = expose_source
        self.strict_lifecycle = strict_lifecycle
        self.max_message_bytes = max_message_bytes
        self.timeout = timeout
        self.workers = workers
        self.source_format = source_format
        self.cache_dir = cache_dir
        self.rebuild = rebuild
        self.watch = watch  # live reload: recompile on change, tools/list_changed
        # Where console programs' files are (their working directory and COB_FILE_PATH); None: the server's.
        self.data_dir = os.path.abspath(data_dir) if data_dir is not None else None
        self.data_dirs = {name: os.path.abspath(folder) for name, folder in (data_dirs or {}).items()}  # per backend
        # More copybook folders (--copybooks), for every --programs folder, after the programs' own.
        self.copybooks = [os.path.abspath(folder) for folder in copybooks]
        # cobc's -std dialect of the --programs folders (None: GnuCOBOL's default), and per backend name
        self.dialect = dialect
        self.dialects = dict(dialects or {})
        # The folders' database URL (--database), over [folder] database of cobol-mcp.toml, and per backend
        self.database = database
        self.databases = dict(databases or {})
        # After a reply a worker polls this long for its next call before sleeping: waking a process
        # costs more than a COBOL call. It yields the CPU between polls, so it never holds up others.
        self.worker_spin = worker_spin

    def data_dir_for(self, backend: str) -> str | None:
        """The data directory of one backend's programs: its own, else the default (None: the server's)."""
        return self.data_dirs.get(backend, self.data_dir)

    def dialect_for(self, backend: str) -> str | None:
        """The cobc dialect (-std=NAME) of one backend's programs: its own, else the default."""
        return self.dialects.get(backend, self.dialect)

    def database_for(self, backend: str) -> str | None:
        """The database URL the command line gives one backend's programs: its own, else the default
        (None: the folder's cobol-mcp.toml says, else its default file)."""
        return self.databases.get(backend, self.database)


def check_backend_names(programs: Sequence[tuple[str, str]]) -> None:
    """Raise ValueError, saying what to do, when a --programs folder would hide another backend: two
    folders of one name, or a folder given the bundled programs' name."""
    seen: dict[str, str] = {}
    for name, folder in programs:
        if name == BUNDLED_BACKEND:
            raise ValueError(
                f"--programs {folder}: the name {name!r} is the bundled programs'; "
                f"give the folder another with --programs OTHER={folder}"
            )
        if name in seen:
            raise ValueError(
                f"--programs {seen[name]} and {folder} are both named {name!r}; "
                f"name one of them with --programs OTHER={folder}"
            )
        seen[name] = folder


def backend_name(spec: str) -> tuple[str, str]:
    """`NAME=PATH` or `PATH` (named after the folder)."""
    name, sep, path = spec.partition("=")
    if not sep:
        return os.path.basename(os.path.abspath(spec)), spec
    return name, path
