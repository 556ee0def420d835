"""Discover the CALLable programs of a folder, derive their specs and compile them.

Both steps are cached under the build cache by content hash: a warm start reads one small
spec file per program (:mod:`.specfile`) and runs neither the parser nor cobc.
"""

from __future__ import annotations

import os
import sys
import threading
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .. import LinkageError
from ..linkage.dialect import DialectError, load_dialect
from ..linkage.model import ProgramSpec
from ..linkage.program import parse_programs
from ..source.copybooks import user_paths
from ..source.lines import detect_format, read_text
from .cache import cache_root
from .calls import callee_module
from .cics import Translated, has_cics, runtime_fills_eib, translate
from .cobc import DEFAULT_FLAGS, BuildError, build_module, cache_key
from .discover import folder_layout, program_paths
from .linked import following, reached_stamp
from .override_variants import clashes
from .overrides import FolderOverrides, ProgramOverrides, read_overrides
from .refusal import needs_precompiler, refusal
from .specfile import SpecFileError, dumps, loads
from .sql import Precompiled, has_sql, precompile

if TYPE_CHECKING:
    from .entries import FolderSettings

SPEC_CACHE_FORMAT = "spec-5"  # spec-4: spec files instead of pickles (see .specfile); spec-5: with warnings


def _parser_stamp() -> str:
    """Size and mtime of the parser's own modules (the source, linkage and precompile packages, this one,
    the overrides that shape a tool's spec and the LINK follower): a changed parser, translator or
    override never reads stale specs."""
    cobol = Path(__file__).parent.parent
    files = [*cobol.glob("source/*.py"), *cobol.glob("linkage/*.py"), *cobol.glob("precompile/*.py"),
             *Path(__file__).parent.glob("override*.py"), cobol / "__init__.py", Path(__file__),
             Path(__file__).with_name("linked.py")]  # fmt: skip
    return repr(sorted((str(p.relative_to(cobol)), p.stat().st_size, p.stat().st_mtime_ns) for p in files))


@dataclass(frozen=True)
class CompiledProgram:
    spec: ProgramSpec
    module: Path
    spec_path: Path  # the spec file, loaded by the tool on first use
    overrides: ProgramOverrides | None = None  # its table in the folder's cobol-mcp.toml, if any
    include: tuple[Path, ...] = ()  # the copybook folders it was built with (a console program's executable too)
    warnings: tuple[str, ...] = ()  # `file:line: ...` of its source, such as a COPY of another machine's path
    sql: Precompiled | None = None  # a program with EXEC SQL: what was compiled instead of its source (.sql)
    cics: Translated | None = None  # a program with EXEC CICS: what was parsed and compiled instead (.cics)
    folder: Path | None = None  # its application folder, where its database is (None: the source's own folder)


@dataclass
class FolderScan:
    programs: list[CompiledProgram] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one `file:line: message` text per program skipped
    warnings: list[str] = field(default_factory=list)  # `file:line: message` of programs served all the same
    callees: list[tuple[str, str]] = field(default_factory=list)  # (PROGRAM-ID, module) of skipped ones
    settings: FolderSettings = field(default_factory=lambda: no_settings())  # the overrides file's [folder]


def no_settings() -> FolderSettings:
    """The settings of a folder without an overrides file."""
    return {"data_dir": None, "database": None}


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
    include, scan.settings = overrides.include(include), overrides.folder_settings()
    layout = folder_layout(folder, overrides.settings)
    paths, includes, errors, warnings = program_paths(layout, include)
    scan.errors += errors
    scan.warnings += warnings
    if not layout.flat:
        scan.settings["layout"] = layout.report()
    outcomes: list[list[CompiledProgram | str]] = [[] for _ in paths]
    callees: list[tuple[str, str] | None] = [None] * len(paths)
    progress = _Progress(folder, len(paths))

    def one(index: int) -> None:
        source = paths[index]
        try:
            outcomes[index] = compile_programs(
                source,
                cache_dir=cache_dir,
                source_format=source_format,
                rebuild=rebuild,
                include=includes[index],
                overrides=overrides,
                dialect=dialect,
            )
        except LinkageError as exc:
            outcomes[index] = [str(exc)]
            callees[index] = callee_module(source, cache_dir, source_format, includes[index], dialect)  # still CALLable
        except BuildError as exc:
            outcomes[index] = [str(exc)]
        except DialectError as exc:
            outcomes[index] = [f"{source}: {exc}"]
        except OSError as exc:
            outcomes[index] = [f"{source}: {exc.strerror or exc}"]
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
    for outcome in (one for found in outcomes for one in found):
        if isinstance(outcome, str):
            scan.errors.append(outcome)
        else:
            scan.programs.append(outcome if layout.flat else replace(outcome, folder=folder.resolve()))
            scan.warnings += [warning for warning in outcome.warnings if warning not in scan.warnings]
    _refuse_clashes(scan)  # (a variant named like another tool of the folder)
    scan.errors += overrides.unused()
    return scan


def _refuse_clashes(scan: FolderScan) -> None:
    """Refuse each program with a tool variant named like another tool of the folder (:func:`clashes`):
    its error said, its tools not served, its module still CALLable."""
    tools = []
    for p in scan.programs:
        found = p.overrides
        name = found.tool_name(p.spec.tool_name) if found is not None else p.spec.tool_name
        where = found.locate.where(found.variant.line) if found is not None and found.variant is not None else None
        tools.append((name, (str(p.spec.source), p.spec.program_id), where))
    refused = clashes(tools)
    if refused:
        scan.errors += list(refused.values())
        gone = [p for p in scan.programs if (str(p.spec.source), p.spec.program_id) in refused]
        scan.programs = [p for p in scan.programs if p not in gone]
        scan.callees += sorted({(p.spec.program_id, str(p.module)) for p in gone})


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


def compile_programs(
    source: Path,
    *,
    cache_dir: Path | None = None,
    source_format: str | None = None,
    rebuild: bool = False,
    include: tuple[Path, ...] = (),
    overrides: FolderOverrides | None = None,
    dialect: str | None = None,
) -> list[CompiledProgram | str]:
    """Each outermost program of the source (one, usually) with its spec and module (one module holds
    them all), or the `file:line: why` that keeps it from being a tool. ``dialect`` is cobc's -std=NAME,
    for the layout and the build alike; LinkageError or BuildError when the file itself cannot be read
    or compiled. Every message names the user's files (never a translation in the build cache) and, when
    what is wrong is in a COPY book, the program it keeps from being served (:func:`refusal`)."""
    source = source.resolve()
    try:
        found = _compile_programs(source, cache_dir, source_format, rebuild, include, overrides, dialect)
    except LinkageError as exc:
        raise LinkageError(refusal(str(exc), source)) from None
    except BuildError as exc:
        raise BuildError(refusal(str(exc), source)) from None
    return [refusal(one, source) if isinstance(one, str) else one for one in found]


def _compile_programs(
    source: Path,
    cache_dir: Path | None,
    source_format: str | None,
    rebuild: bool,
    include: tuple[Path, ...],
    overrides: FolderOverrides | None,
    dialect: str | None,
) -> list[CompiledProgram | str]:
    root = cache_dir or Path(cache_root())
    std = load_dialect(dialect)

    def keyed(one: Path) -> str:  # (the programs it may LINK to are part of what its spec says)
        stamp = (SPEC_CACHE_FORMAT, _parser_stamp(), str(one), *std.flags)
        return cache_key(one, source_format or "auto", (*stamp, *reached_stamp(one, "auto", include)), include)

    def parsed(one: Path) -> tuple[Path, str | None, tuple[Path, ...], int]:
        found = _translated(one, source_format, include, root / "cics" / keyed(one))
        if found is None:
            return one, source_format, include, 72
        return found.source, found.source_format, found.include, 255 if found.flags else 72

    key = keyed(source)
    cics = _translated(source, source_format, include, root / "cics" / key)
    with following(source, parsed, std.name):
        specs, warnings = _cached_specs(
            cics.source if cics else source, root / "specs" / f"{key}.units.spec",
            cics.source_format if cics else source_format, rebuild, cics.include if cics else include, std.name,
            255 if cics and cics.flags else 72,  # a wide translation is read to the column cobc reads it to
        )  # fmt: skip
    flags = (*DEFAULT_FLAGS, *std.flags, *(cics.flags if cics else ()))
    module: Path | None = None
    sql: Precompiled | None = None
    out: list[CompiledProgram | str] = []
    for number, spec in enumerate(specs):
        if isinstance(spec, str):
            out.append(spec)
            continue
        if number and not spec.records:  # a run unit starts at the file's first program
            out.append(f"{source}: {spec.program_id} has no PROCEDURE DIVISION USING: only the first program "
                       "of a file can be served as a console program")  # fmt: skip
            continue
        found = overrides.program(spec.program_id) if overrides is not None else None
        try:
            tools = _tools(spec, found, root / "specs" / (f"{key}.spec" if number == 0 else f"{key}.{number}.spec"))
        except LinkageError as exc:
            out.append(str(exc))
            continue
        if cics is not None:  # after the overrides, which set directions again
            tools = [(runtime_fills_eib(one), path, choice) for one, path, choice in tools]
        for one, path, _ in tools:
            if rebuild or not path.exists():
                _save_spec(one, path)  # what the tool loads on first use
        if module is None and has_sql(source):  # (of a CICS program: its translation is precompiled)
            sql = precompile(cics.source if cics else source, spec.source_format, cics.include if cics else include,
                             root / "sql" / key, bool(cics and cics.flags))  # fmt: skip
        if module is None:
            built, books, more = (sql.source, sql.include, sql.flags) if sql else (source, include, ())
            if cics is not None and sql is None:
                built, books = cics.source, cics.include
            try:
                module = build_module(
                    built, cache_dir, source_format=spec.source_format, flags=(*flags, *more), rebuild=rebuild,
                    include=books,
                )  # fmt: skip
            except BuildError as exc:  # the precompiled text keeps the user's line numbers: name the user's file
                raise BuildError(user_paths(str(exc))) from None
        said = tuple(user_paths(warning) for warning in warnings)
        out += [CompiledProgram(one, module, path, choice, include, said, sql, cics) for one, path, choice in tools]
    return out


def _tools(
    spec: ProgramSpec, found: ProgramOverrides | None, spec_path: Path
) -> list[tuple[ProgramSpec, Path, ProgramOverrides | None]]:
    """(spec, spec file, overrides) of each tool the program is published as: itself with its overrides,
    or each variant of ``[programs.NAME.tools]`` (and itself with ``plain-tool = true``); LinkageError
    (file:line) when one of them cannot be, which keeps all of them from being served."""
    if found is None:
        return [(spec, spec_path, None)]
    if found.problem is not None:
        raise LinkageError(found.problem)
    if found.variants and not spec.records:
        raise LinkageError(f"{found.locate.where(found.variants[0].line)}: tools.{found.variants[0].name}: "
                           f"{spec.program_id} has no PROCEDURE DIVISION USING: a console program has no "
                           "fields for its tools to fix or show")  # fmt: skip
    out: list[tuple[ProgramSpec, Path, ProgramOverrides | None]] = []
    for choice in found.choices():
        shaped, path = spec, spec_path
        if choice.fields or choice.variant is not None:
            shaped = choice.apply_to_spec(spec)
            digest = zlib.crc32(choice.digest().encode())
            path = spec_path.with_name(f"{spec_path.stem}-{digest:08x}.spec")
        out.append((shaped, path, choice))
    return out


def _translated(source: Path, source_format: str | None, include: tuple[Path, ...], folder: Path) -> Translated | None:
    """A program with EXEC CICS translated into ``folder`` (:mod:`.cics`), None for one without; LinkageError
    (every problem's file:line) when the translator cannot carry it."""
    if not has_cics(source):
        return None
    return translate(source, source_format or detect_format(read_text(source)), include, folder)


def _cached_specs(
    source: Path,
    path: Path,
    source_format: str | None,
    rebuild: bool,
    include: tuple[Path, ...],
    dialect: str,
    columns: int = 72,
) -> tuple[list[ProgramSpec | str], tuple[str, ...]]:
    """The specs of the source's programs, or for each one that cannot be a tool why not; and the
    warnings reading it gave (kept with them: a warm start still says them)."""
    if not rebuild:
        try:
            with open(path, "rb") as handle:
                kept = loads(handle.read(), path)
            if isinstance(kept, tuple) and len(kept) == 2 and all(isinstance(k, tuple) for k in kept):
                units, said = kept
                if all(isinstance(k, ProgramSpec | str) for k in units) and all(isinstance(w, str) for w in said):
                    return list(units), said
        except (OSError, SpecFileError):
            pass
    warnings = tuple(needs_precompiler(source, source_format, include))
    specs = [
        s if isinstance(s, ProgramSpec) else str(s)
        for s in parse_programs(source, source_format, include, dialect, columns)
    ]
    _save_spec((tuple(specs), warnings), path)
    return specs, warnings


def _save_spec(spec: ProgramSpec | tuple[tuple[ProgramSpec | str, ...], tuple[str, ...]], path: Path) -> None:
    data = dumps(spec)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        with temporary.open("wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache only costs the parse next time
