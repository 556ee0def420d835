"""Discover the CALLable programs of a folder, derive their specs and compile them.

Both steps are cached under the build cache by content hash: a warm start reads one small
pickle per program and runs neither the parser nor cobc.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .. import SOURCE_SUFFIXES, LinkageError
from ..linkage.dialect import DialectError, load_dialect
from ..linkage.model import ProgramSpec
from ..linkage.program import parse_program
from .cache import cache_root
from .cobc import DEFAULT_FLAGS, BuildError, build_module, cache_key

SPEC_CACHE_FORMAT = "spec-3"  # spec-3: the model moved to cobol.linkage.model


def _parser_stamp() -> str:
    """Size and mtime of the parser's own modules (the source and linkage packages, and this one): a
    changed parser never reads stale pickles."""
    cobol = Path(__file__).parent.parent
    files = [*cobol.glob("source/*.py"), *cobol.glob("linkage/*.py"), cobol / "__init__.py", Path(__file__)]
    return repr(sorted((str(p.relative_to(cobol)), p.stat().st_size, p.stat().st_mtime_ns) for p in files))


@dataclass(frozen=True)
class CompiledProgram:
    spec: ProgramSpec
    module: Path
    spec_path: Path  # the pickled spec, loaded by the tool on first use


@dataclass
class FolderScan:
    programs: list[CompiledProgram] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one `file:line: message` text per program skipped


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES and p.is_file())


def scan_folder(
    folder: Path,
    *,
    cache_dir: Path | None = None,
    source_format: str | None = None,
    rebuild: bool = False,
    jobs: int | None = None,
    dialect: str | None = None,
) -> FolderScan:
    """Derive and compile every program of ``folder``, ``jobs`` compilers at a time (default: one per
    CPU), in the folder's order whatever finishes first. On a terminal, stderr shows the progress."""
    scan = FolderScan()
    if not folder.is_dir():
        scan.errors.append(f"{folder}: not a folder of COBOL programs")
        return scan
    paths = sources(folder)
    outcomes: list[CompiledProgram | str] = [""] * len(paths)
    progress = _Progress(folder, len(paths))

    def one(index: int) -> None:
        source = paths[index]
        try:
            outcomes[index] = compile_program(
                source, cache_dir=cache_dir, source_format=source_format, rebuild=rebuild, dialect=dialect
            )
        except (LinkageError, BuildError) as exc:
            outcomes[index] = str(exc)
        except DialectError as exc:
            outcomes[index] = f"{source}: {exc}"
        except OSError as exc:
            outcomes[index] = f"{source}: {exc.strerror or exc}"
        progress.step()

    workers = min(jobs or os.cpu_count() or 1, len(paths))
    if workers > 1:  # cobc runs as a child process: threads overlap the compilers, the parse is quick
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers, thread_name_prefix="cobc") as pool:
            list(pool.map(one, range(len(paths))))
    else:
        for index in range(len(paths)):
            one(index)
    progress.end()
    for outcome in outcomes:
        if isinstance(outcome, str):
            scan.errors.append(outcome)
        else:
            scan.programs.append(outcome)
    return scan


class _Progress:
    """`compiling 37/500 programs of DIR` on one rewritten stderr line, only when stderr is a terminal."""

    def __init__(self, folder: Path, total: int) -> None:
        self.folder, self.total, self.done = folder, total, 0
        self.shown = total > 1 and sys.stderr.isatty()
        self.lock = threading.Lock()

    def step(self) -> None:
        with self.lock:
            self.done += 1
            if self.shown:
                sys.stderr.write(f"\rcompiling {self.done}/{self.total} programs of {self.folder} ")
                sys.stderr.flush()

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def compile_program(
    source: Path,
    *,
    cache_dir: Path | None = None,
    source_format: str | None = None,
    rebuild: bool = False,
    dialect: str | None = None,
) -> CompiledProgram:
    """The program's spec and module; ``dialect`` is cobc's -std=NAME, for the layout and the build alike."""
    source = source.resolve()
    root = cache_dir or Path(cache_root())
    std = load_dialect(dialect)
    stamp = (SPEC_CACHE_FORMAT, _parser_stamp(), str(source), *std.flags)
    key = cache_key(source, source_format or "auto", stamp)
    spec_path = root / "specs" / f"{key}.pickle"
    spec = _cached_spec(source, spec_path, source_format, rebuild, std.name)
    flags = (*DEFAULT_FLAGS, *std.flags)
    module = build_module(source, cache_dir, source_format=spec.source_format, flags=flags, rebuild=rebuild)
    return CompiledProgram(spec, module, spec_path)


def load_spec(path: Path | str) -> ProgramSpec:
    with open(path, "rb") as handle:
        spec = pickle.load(handle)
    if not isinstance(spec, ProgramSpec):
        raise TypeError(f"{path} does not hold a program spec")
    return spec


def _cached_spec(source: Path, path: Path, source_format: str | None, rebuild: bool, dialect: str) -> ProgramSpec:
    if not rebuild:
        try:
            return load_spec(path)
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError):
            pass
    spec = parse_program(source, source_format, dialect)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        with temporary.open("wb") as handle:
            pickle.dump(spec, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache only costs the parse next time
    return spec
