"""Discover the CALLable programs of a folder, derive their specs and compile them.

Both steps are cached under the build cache by content hash: a warm start reads one small
pickle per program and runs neither the parser nor cobc.
"""

from __future__ import annotations

import os
import pickle
import re
import sys
import threading
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from .. import COPYBOOK_SUFFIXES, PRECOMPILED_SUFFIXES, SOURCE_SUFFIXES, LinkageError
from ..linkage.dialect import DialectError, load_dialect
from ..linkage.model import ProgramSpec
from ..linkage.program import parse_program
from ..source.lines import load
from .cache import cache_root
from .calls import callee_module
from .cobc import DEFAULT_FLAGS, BuildError, build_module, cache_key
from .overrides import FolderOverrides, ProgramOverrides, read_overrides
from .specfile import load_spec

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
    overrides: ProgramOverrides | None = None  # its table in the folder's cobol-mcp.toml, if any
    include: tuple[Path, ...] = ()  # the copybook folders it was built with (a console program's executable too)


@dataclass
class FolderScan:
    programs: list[CompiledProgram] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one `file:line: message` text per program skipped
    callees: list[tuple[str, str]] = field(default_factory=list)  # (PROGRAM-ID, module) of skipped ones
    data_dir: str | None = None  # console programs' data folder, from the overrides file's [folder] table


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES and p.is_file())


# Files of a programs folder passed over without a word: documentation, data, build files.
_QUIET_SUFFIXES = (".txt", ".md", ".rst", ".adoc", ".html", ".pdf", ".json", ".toml", ".yaml", ".yml", ".csv",
                   ".dat", ".log", ".sh", ".bat", ".py", ".mk", ".xml", ".so", ".dll", ".o", ".exe")  # fmt: skip
_LOOKS_LIKE_COBOL = re.compile(rb"\b(?:IDENTIFICATION|ID)\s+DIVISION\b|\bPROGRAM-ID\b", re.I)


def not_served(folder: Path) -> list[str]:
    """Why each file of ``folder`` that looks like COBOL is not served (programs, copybooks and plain
    documentation or data files need no word): `file:1: not served: why` lines."""
    found: list[str] = []
    for path in sorted(folder.iterdir()):
        suffix = path.suffix.lower()
        if not path.is_file() or path.name.startswith(".") or suffix in SOURCE_SUFFIXES + COPYBOOK_SUFFIXES:
            continue
        if suffix in PRECOMPILED_SUFFIXES:
            found.append(
                f"{path}:1: {PRECOMPILED_SUFFIXES[suffix]}: it needs that precompiler first, which this server "
                "does not run (serve the precompiler's .cbl/.cob output instead)"
            )
        elif suffix not in _QUIET_SUFFIXES and path.name.lower() not in ("readme", "license", "makefile"):
            try:
                with path.open("rb") as handle:
                    head = handle.read(65536)
            except OSError:
                continue
            if b"\0" not in head and _LOOKS_LIKE_COBOL.search(head):
                ending = f"its name ends in {path.suffix!r}" if path.suffix else "its name has no ending"
                found.append(
                    f"{path}:1: looks like a COBOL program, but {ending}: programs are read from "
                    f"{', '.join(SOURCE_SUFFIXES)} files (any case)"
                )
    return found


_PRECOMPILER = re.compile(r"\bEXEC\s+(SQL|CICS|DLI|ORACLE)\b", re.I)


def _needs_precompiler(source: Path, source_format: str | None, include: tuple[Path, ...]) -> None:
    """Refuse a program with EXEC SQL/CICS/DLI blocks: cobc cannot compile them without a precompiler."""
    lines = load(source, source_format, include)[0]
    for line in lines:
        match = _PRECOMPILER.search(re.sub(r"\"[^\"]*\"|'[^']*'", "''", line.code))  # not inside literals
        if match:
            raise LinkageError(
                f"{line.where}: EXEC {match.group(1).upper()} needs a precompiler first, which this server does "
                "not run (serve the precompiler's output instead)"
            )


def scan_folder(
    folder: Path,
    *,
    cache_dir: Path | None = None,
    source_format: str | None = None,
    rebuild: bool = False,
    jobs: int | None = None,
    include: tuple[Path, ...] = (),
    dialect: str | None = None,
) -> FolderScan:
    """Derive and compile every program of ``folder``, ``jobs`` compilers at a time (default: one per
    CPU), in the folder's order whatever finishes first. On a terminal, stderr shows the progress.
    ``include``: more copybook folders (--copybooks). Files that look like COBOL but are not programs
    this server compiles are reported in ``errors`` with the reason."""
    scan = FolderScan()
    if not folder.is_dir():
        scan.errors.append(f"{folder}: not a folder of COBOL programs")
        return scan
    try:
        overrides = read_overrides(folder)
    except LinkageError as exc:  # serving the folder as if the file were not there could expose what it hides
        scan.errors.append(f"{exc}; no program of {folder} is served until the overrides file is fixed")
        return scan
    # The file's [folder] settings, where the command line gives none (its copybook folders come after)
    dialect, source_format = overrides.dialect(dialect), overrides.source_format(source_format)
    include, scan.data_dir = overrides.include(include), overrides.data_dir
    paths = sources(folder)
    scan.errors += not_served(folder)
    outcomes: list[CompiledProgram | str] = [""] * len(paths)
    callees: list[tuple[str, str] | None] = [None] * len(paths)
    progress = _Progress(folder, len(paths))

    def one(index: int) -> None:
        source = paths[index]
        try:
            outcomes[index] = compile_program(
                source,
                cache_dir=cache_dir,
                source_format=source_format,
                rebuild=rebuild,
                include=include,
                overrides=overrides,
                dialect=dialect,
            )
        except LinkageError as exc:
            outcomes[index] = str(exc)
            callees[index] = callee_module(source, cache_dir, source_format, include, dialect)  # still CALLable
        except BuildError as exc:
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
    scan.callees = [callee for callee in callees if callee is not None]
    for outcome in outcomes:
        if isinstance(outcome, str):
            scan.errors.append(outcome)
        else:
            scan.programs.append(outcome)
    scan.errors += overrides.unused()
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
    include: tuple[Path, ...] = (),
    overrides: FolderOverrides | None = None,
    dialect: str | None = None,
) -> CompiledProgram:
    """The program's spec and module; ``dialect`` is cobc's -std=NAME, for the layout and the build alike."""
    source = source.resolve()
    root = cache_dir or Path(cache_root())
    std = load_dialect(dialect)
    stamp = (SPEC_CACHE_FORMAT, _parser_stamp(), str(source), *std.flags)
    key = cache_key(source, source_format or "auto", stamp, include)
    spec_path = root / "specs" / f"{key}.pickle"
    spec = _cached_spec(source, spec_path, source_format, rebuild, include, std.name)
    found = overrides.program(spec.program_id) if overrides is not None else None
    if found is not None and found.fields:
        spec = found.apply_to_spec(spec)
        digest = zlib.crc32(found.digest().encode())
        spec_path = spec_path.with_name(f"{key}-{digest:08x}.pickle")  # what the tool loads on first use
        _save_spec(spec, spec_path)
    flags = (*DEFAULT_FLAGS, *std.flags)
    module = build_module(
        source, cache_dir, source_format=spec.source_format, flags=flags, rebuild=rebuild, include=include
    )
    return CompiledProgram(spec, module, spec_path, found, include)


def _cached_spec(
    source: Path, path: Path, source_format: str | None, rebuild: bool, include: tuple[Path, ...], dialect: str
) -> ProgramSpec:
    if not rebuild:
        try:
            return load_spec(path)
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError):
            pass
    _needs_precompiler(source, source_format, include)
    spec = parse_program(source, source_format, include, dialect)
    _save_spec(spec, path)
    return spec


def _save_spec(spec: ProgramSpec, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        with temporary.open("wb") as handle:
            pickle.dump(spec, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache only costs the parse next time
