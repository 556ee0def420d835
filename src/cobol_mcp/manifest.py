"""The start-up manifest: everything a warm start needs, in one JSON file.

Deriving tools means parsing COBOL and maybe running cobc; a warm start should do neither, nor
even import the parser. The manifest records, per backend, each program's tool definition,
module path, entry symbol, record sizes and where its parsed spec is (loaded on first call), and
the C worker's executable (None: the Python worker runs the calls). It is valid while nothing it
was made from changed: the stamp lists size and mtime of every COBOL source and copybook of every
folder, and of this package's own Python files and C worker source.

Its shape is :class:`Manifest`; the entries and per-folder settings are typed in
:mod:`.cobol.prepare.entries` and made by :mod:`.cobol.prepare.tool_entry`. A change of shape bumps
:data:`FORMAT`, which the stamp carries, so a manifest of an older shape is made again, never misread."""

from __future__ import annotations

import os
import sys

from . import __version__
from .cobol import COPYBOOK_SUFFIXES, SOURCE_SUFFIXES, copybook_folders
from .cobol.prepare.cache import cache_root
from .jsontext import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NotRequired, TypedDict

    from .cobol.prepare.entries import Entry, FolderSettings
    from .options import Options

    class Manifest(TypedDict):
        """What a start needs, as kept in the file (tuples come back as lists)."""

        stamp: list[Any]  # what it was made from (:func:`stamp`); another stamp makes it again
        worker: str | None  # the C worker's executable; None: the Python worker runs the calls
        backends: dict[str, list[Entry]]  # backend name -> its programs' entries
        folders: dict[str, FolderSettings]  # backend name -> its folder's settings
        errors: list[str]  # programs not served, one `file:line: message` each
        warnings: list[str]  # programs served all the same, said at every start
        resources: list[Sequence[str]]  # (uri, file name, text, description) with --expose-source
        callees: list[Sequence[str]]  # (PROGRAM-ID, module) of programs refused as tools, still CALLable
        call_folder: NotRequired[str]  # the PROGRAM-ID links (made once, kept)


FORMAT = 8  # 7: entries carry "kind"; per-folder settings under "folders", not in entries; 8: "variant", "channel"
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
CODE_FOLDERS = ("", "cobol", "cobol/source", "cobol/linkage", "cobol/records", "cobol/prepare")
WORKER_FOLDER = os.path.join(PACKAGE_DIR, "cobol", "runtime")  # its .c and .h: the C worker (prepare.native_worker)


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


def file_copybooks(folder: str, key: str = "copybooks") -> list[str]:
    """The copybook folders the folder's cobol-mcp.toml names (``[folder] copybooks``; ``key``: another list
    of folders, such as ``programs``), read without the overrides module (the warm start stays light); a
    file that does not read is checked by the scan."""
    path = os.path.join(folder, "cobol-mcp.toml")
    if not os.path.isfile(path):
        return []
    import tomllib

    try:
        with open(path, "rb") as handle:
            books = tomllib.load(handle).get("folder", {}).get(key, [])
    except (OSError, ValueError, AttributeError):
        return []
    return [os.path.join(folder, book) for book in books if isinstance(book, str)] if isinstance(books, list) else []


TREE_DEPTH = 3  # as deep as an application folder's program and copybook folders are looked for (source.layout)


def _tree(folder: str, depth: int = 0) -> list[tuple[str, int, int]]:
    """(path, size, mtime) of every file below an application folder that may be COBOL (a COBOL ending or
    none: its layout is found by content), so that a warm start sees any change of it."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    out = []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            if depth < TREE_DEPTH:
                out += _tree(entry.path, depth + 1)
            continue
        ending = os.path.splitext(entry.name)[1].lower()
        if not ending or ending in COPYBOOK_SUFFIXES or ending == ".dcl":
            st = entry.stat()
            out.append((entry.path, st.st_size, st.st_mtime_ns))
    return out


def _application(folder: str) -> bool:
    """Whether a programs folder is served as an application (source.layout): no COBOL source at its top,
    or program folders named in its cobol-mcp.toml."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    flat = any(os.path.splitext(name)[1].lower() in SOURCE_SUFFIXES for name in names)
    return not flat or bool(file_copybooks(folder, "programs"))


def stamp(options: Options) -> list[Any]:
    parts: list[Any] = [FORMAT, __version__, sys.version, options.source_format, options.expose_source]
    for folder in CODE_FOLDERS:  # what derives tool definitions: a changed parser remakes the manifest
        parts.append(_listing(os.path.join(PACKAGE_DIR, folder), (".py",)))
    parts.append(_listing(WORKER_FOLDER, (".c", ".h")))  # a changed C worker is built again
    parts.append(_listing(os.path.join(PACKAGE_DIR, "cobol", "le"), (".c", ".h")))  # and the LE services
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
                _tree(folder) if not bundled and _application(folder) else None,
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


def load(options: Options) -> Manifest | None:
    """The manifest if it is still valid for these options and files, else None."""
    path = path_for(options, str(options.cache_dir) if options.cache_dir else None)
    try:
        with open(path, "rb") as handle:
            read: Any = loads(handle.read())  # numbers exact: schema bounds stay Decimals
    except (OSError, ValueError):
        return None
    found: Manifest = read  # its shape is trusted once its stamp matches
    if not isinstance(read, dict) or read.get("stamp") != stamp(options):
        return None  # the stamp begins with FORMAT: a manifest of another shape is never read further
    entries = [entry for group in found["backends"].values() for entry in group]
    if not all(
        os.path.exists(e["module"])
        and os.path.exists(e["spec_path"])
        and (e["kind"] != "callable" or os.path.exists(e["driver"] or "/"))
        for e in entries
    ) or not os.path.exists(found["worker"] or "/"):
        return None  # the build cache was cleaned
    return found


def make(options: Options) -> Manifest:
    """Scan, compile and derive every backend (the cold path), then save the manifest."""
    from pathlib import Path

    from .cobol import LinkageError
    from .cobol.prepare.cobc import BuildError
    from .cobol.prepare.native_worker import build_worker
    from .cobol.prepare.programs import scan_folder
    from .cobol.prepare.tool_entry import program_entry

    cache_dir = Path(options.cache_dir) if options.cache_dir else None
    worker = build_worker(cache_dir)  # None: cannot be built (a warning said why), the Python worker runs
    result: Manifest = {
        "stamp": stamp(options),
        "worker": str(worker) if worker else None,
        "backends": {},
        "folders": {},
        "errors": [],
        "warnings": [],
        "resources": [],
        "callees": [],
    }
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
        result["callees"] += scan.callees  # refused as tools, still CALLable
        result["folders"][name] = scan.settings
        entries: list[Entry] = []
        sql_folder = any(program.sql is not None for program in scan.programs)  # its programs may CALL them
        for program in scan.programs:
            try:
                entries.append(program_entry(program, bundled, cache_dir, sql_folder))
            except (LinkageError, BuildError) as exc:
                result["errors"].append(str(exc))
        result["backends"][name] = entries
        if options.expose_source:
            result["resources"] += source_texts(name, scan.programs)
    call_folder(result, options)  # kept in the manifest: a warm start need not make it
    if not result["errors"]:
        # Only a clean result is kept: a failure may come from outside what the stamp covers (cobc
        # not installed yet, a copybook folder filled in later), and must be tried again next start.
        save(options, result)
    return result


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


def save(options: Options, manifest: Manifest) -> None:
    path = path_for(options, str(options.cache_dir) if options.cache_dir else None)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(dumps(manifest))
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache only costs a slower start next time


def call_folder(found: Manifest, options: Options) -> str:
    """Where the workers' libcob finds every served program by PROGRAM-ID (CALLs between programs); a
    warm start finds it in the manifest and does not import the code that makes it."""
    made = found.get("call_folder")
    if made and os.path.isdir(made):
        return made
    from .cobol.prepare.links import call_folder as links

    entries = [entry for group in found["backends"].values() for entry in group]
    modules = [entry["callable"] if entry["kind"] == "console" else entry["module"] for entry in entries]
    callees = [(entry["program_id"], module) for entry, module in zip(entries, modules, strict=True) if module]
    callees += [(program_id, module) for program_id, module in found["callees"]]
    found["call_folder"] = links(callees, options.cache_dir)
    return found["call_folder"]
