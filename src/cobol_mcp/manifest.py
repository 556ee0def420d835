"""The start-up manifest: everything a warm start needs, in one JSON file.

Deriving tools means parsing COBOL and maybe running cobc; a warm start should do neither, nor
even import the parser. The manifest records, per backend, each program's tool definition,
module path, entry symbol, record sizes and where its parsed spec is (loaded on first call), and
the C worker's executable (None: the Python worker runs the calls). It is valid while nothing it
was made from changed: the stamp lists size and mtime of every COBOL source and copybook of every
folder, and of this package's own Python files and C worker source."""

from __future__ import annotations

import os
import sys

from . import __version__
from .cobol import COPYBOOK_SUFFIXES, copybook_folders
from .cobol.prepare.cache import cache_root
from .jsontext import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .options import Options

FORMAT = 6
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
CODE_FOLDERS = ("", "cobol", "cobol/source", "cobol/linkage", "cobol/records", "cobol/prepare")
WORKER_SOURCE = os.path.join(PACKAGE_DIR, "cobol", "runtime", "worker.c")  # prepare.native_worker compiles it


def backends(options: Options) -> list[tuple[str, str, bool]]:
    """(name, absolute folder, bundled?) of every backend, the bundled one first."""
    from .options import BUNDLED_BACKEND, PROGRAMS_DIR

    found = [(BUNDLED_BACKEND, PROGRAMS_DIR, True)] if options.bundled else []
    return found + [(name, os.path.abspath(folder), False) for name, folder in options.programs]


def _listing(folder: str, suffixes: tuple[str, ...]) -> list[tuple[str, int, int]]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = []
    for name in names:
        if os.path.splitext(name)[1].lower() in suffixes:
            try:
                st = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            out.append((name, st.st_size, st.st_mtime_ns))
    return out


def _libraries(folder: str) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """The copybooks of a copybook folder's subfolders (`COPY X OF LIB`)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    subfolders = [os.path.join(folder, name) for name in names if not name.startswith(".")]
    return [(path, _listing(path, COPYBOOK_SUFFIXES)) for path in subfolders if os.path.isdir(path)]


def file_copybooks(folder: str) -> list[str]:
    """The copybook folders the folder's cobol-mcp.toml names (``[folder] copybooks``), read without the
    overrides module (the warm start stays light); a file that does not read is checked by the scan."""
    path = os.path.join(folder, "cobol-mcp.toml")
    if not os.path.isfile(path):
        return []
    import tomllib

    try:
        with open(path, "rb") as handle:
            books = tomllib.load(handle).get("folder", {}).get("copybooks", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [os.path.join(folder, book) for book in books if isinstance(book, str)] if isinstance(books, list) else []


def stamp(options: Options) -> list[Any]:
    parts: list[Any] = [FORMAT, __version__, sys.version, options.source_format, options.expose_source]
    for folder in CODE_FOLDERS:  # what derives tool definitions: a changed parser remakes the manifest
        parts.append(_listing(os.path.join(PACKAGE_DIR, folder), (".py",)))
    try:
        worker = os.stat(WORKER_SOURCE)
        parts.append((worker.st_size, worker.st_mtime_ns))  # a changed C worker is built again
    except OSError:
        parts.append(None)
    for name, folder, bundled in backends(options):
        books = copybook_folders(folder, () if bundled else [*options.copybooks, *file_copybooks(folder)])
        parts.append(
            (
                name,
                folder,
                None if bundled else options.dialect_for(name),
                _listing(folder, COPYBOOK_SUFFIXES),
                [(book, _listing(book, COPYBOOK_SUFFIXES), _libraries(book)) for book in books],
                _listing(folder, (".toml",)),  # the overrides file, cobol-mcp.toml
            )
        )
    trip: list[Any] = loads(dumps(parts))  # the form it has after a trip through the file
    return trip


def path_for(options: Options, cache_dir: str | None = None) -> str:
    key = repr((options.bundled, backends(options), options.source_format, options.expose_source, options.copybooks))
    return os.path.join(cache_dir or cache_root(), "manifests", f"{_fnv1a(key.encode()):016x}.json")


def _fnv1a(data: bytes) -> int:
    """A stable 64-bit hash of a short key (FNV-1a): a file name, not a checksum; no zlib to import."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def load(options: Options) -> dict[str, Any] | None:
    """The manifest if it is still valid for these options and files, else None."""
    path = path_for(options, str(options.cache_dir) if options.cache_dir else None)
    try:
        with open(path, "rb") as handle:
            manifest = loads(handle.read())  # numbers exact: schema bounds stay Decimals
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("stamp") != stamp(options):
        return None
    entries = [entry for group in manifest["backends"].values() for entry in group]
    if not all(
        os.path.exists(e["module"]) and os.path.exists(e["spec_path"]) and os.path.exists(e.get("driver") or "/")
        for e in entries
    ) or not os.path.exists(manifest.get("worker") or "/"):
        return None  # the build cache was cleaned
    return manifest


def make(options: Options) -> dict[str, Any]:
    """Scan, compile and derive every backend (the cold path), then save the manifest."""
    from pathlib import Path

    from .cobol.prepare.native_worker import build_worker
    from .cobol.prepare.programs import scan_folder

    current = stamp(options)
    result: dict[str, Any] = {"stamp": current, "backends": {}, "errors": [], "warnings": [], "resources": []}
    cache_dir = Path(options.cache_dir) if options.cache_dir else None
    worker = build_worker(cache_dir)  # None: cannot be built (a warning said why), the Python worker runs
    result["worker"] = str(worker) if worker else None
    for name, folder, bundled in backends(options):
        scan = scan_folder(
            Path(folder),
            cache_dir=cache_dir,
            rebuild=options.rebuild,
            source_format=None if bundled else options.source_format,
            include=() if bundled else tuple(Path(folder) for folder in options.copybooks),
            dialect=None if bundled else options.dialect_for(name),
        )
        result["errors"] += scan.errors
        result["warnings"] += scan.warnings  # served all the same; said at every start (and by `check`)
        result.setdefault("callees", []).extend(scan.callees)  # refused as tools, still CALLable
        result["backends"][name] = [
            _entry(program, bundled, cache_dir, result["errors"], scan.data_dir) for program in scan.programs
        ]
        result["backends"][name] = [entry for entry in result["backends"][name] if entry is not None]
        if options.expose_source:
            result["resources"] += source_texts(name, scan.programs)
    call_folder(result, options)  # kept in the manifest: a warm start need not make it
    if not result["errors"]:
        # Only a clean result is kept: a failure may come from outside what the stamp covers (cobc
        # not installed yet, a copybook folder filled in later), and must be tried again next start.
        save(options, result)
    return result


def _entry(
    program: Any, bundled: bool, cache_dir: Any, errors: list[str], data_dir: str | None = None
) -> dict[str, Any] | None:
    """A callable program's entry, or a console program's (built as an executable, its own run unit)."""
    from .cobol import LinkageError
    from .cobol.console_tool import console_entry, is_console
    from .cobol.prepare.cobc import BuildError
    from .cobol.prepare.executable import build_executable
    from .cobol.tool import manifest_entry

    try:
        if bundled or not is_console(program):
            entry = manifest_entry(program, bundled)
        else:
            std = program.spec.dialect
            executable = build_executable(
                program.spec.source,
                cache_dir,
                source_format=program.spec.source_format,
                include=tuple(str(folder) for folder in program.include),
                extra_flags=() if std == "default" else (f"-std={std}",),
            )
            entry = console_entry(program, executable, bundled)
            if data_dir is not None:  # the overrides file's [folder] data-dir (--data-dir wins)
                entry["data_dir"] = data_dir
    except (LinkageError, BuildError) as exc:
        errors.append(str(exc))
        return None
    return entry if program.overrides is None else program.overrides.apply_to_entry(entry)


def source_texts(backend: str, programs: list[Any]) -> list[tuple[str, str, str, str]]:
    """(uri, file name, text, description) of each program's source and copybooks."""
    seen: dict[str, tuple[str, str, str, str]] = {}
    for program in programs:
        spec = program.spec
        for path in (spec.source, *spec.copybooks):
            uri = f"cobol://{backend}/{path.name}"
            if uri not in seen:
                kind = "source" if path == spec.source else "copybook"
                seen[uri] = (uri, path.name, path.read_text(errors="replace"), f"COBOL {kind} of tool {spec.tool_name}")
    return list(seen.values())


def save(options: Options, manifest: dict[str, Any]) -> None:
    path = path_for(options, str(options.cache_dir) if options.cache_dir else None)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(dumps(manifest))
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache only costs a slower start next time


def call_folder(found: dict[str, Any], options: Options) -> str:
    """Where the workers' libcob finds every served program by PROGRAM-ID (CALLs between programs); a
    warm start finds it in the manifest and does not import the code that makes it."""
    made = found.get("call_folder")
    if made and os.path.isdir(made):
        return str(made)
    from .cobol.prepare.links import call_folder as links

    entries = [entry for group in found["backends"].values() for entry in group]
    modules = [entry.get("callable", "") if entry.get("kind") == "console" else entry["module"] for entry in entries]
    callees = [(entry["program_id"], module) for entry, module in zip(entries, modules, strict=True) if module]
    found["call_folder"] = links([*callees, *found.get("callees", [])], options.cache_dir)
    return str(found["call_folder"])
