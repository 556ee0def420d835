"""Compile COBOL sources to loadable modules with `cobc -m`, cached by content hash.

The cache key covers the source, every copybook it can see (its folder, copybooks/, the sibling
copybook folders and --copybooks folders) and the compiler flags, so the second start of the server
runs no compiler at all. Modules are written under a temporary name and renamed into place, so
concurrent starts never see half a module.

What cobc is given (:func:`prepare`): where GnuCOBOL would refuse what the parser reads, a copy of the
source with the same line numbers (CBL/PROCESS lines blanked, a missing period after the PROGRAM-ID
name supplied, a COPY name written for another machine replaced by its link's; see
:mod:`..source.cobc_text`), the flags the CBL/PROCESS options map to, and a folder of links named as
each COPY statement writes its book (or, for a name of another machine, by its base name), to the file
the parser found (cobc itself matches names by case); a book that holds such COPY names is linked as a
copy with them replaced. Diagnostics name the user's files, never the copies.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ... import log
from .. import COPYBOOK_SUFFIXES, LinkageError
from ..source.cobc_text import cobc_text, rename_copies
from ..source.copybooks import CopyRef, foreign_name, search_dirs, user_paths
from ..source.directives import compiler_options
from ..source.lines import load_with_copies, read_text
from .cache import cache_root

CACHE_FORMAT = b"cobol-mcp-build-1"
# -debug turns runtime checks on (subscripts, numeric data, ...): a bad subscript becomes a clear
# runtime error in the worker instead of silent memory corruption.
DEFAULT_FLAGS = ("-debug",)


class BuildError(Exception):
    """cobc failed; the message holds its diagnostics as `file:line: message` lines."""


def copybook_dirs(source: Path, include: Iterable[Path | str] = ()) -> list[Path]:
    """The folders cobc searches for the program's copybooks (the parser's, in the same order)."""
    return search_dirs(source, include)


def cache_key(
    source: Path, source_format: str, flags: Iterable[str] = DEFAULT_FLAGS, include: Iterable[Path | str] = ()
) -> str:
    digest = hashlib.sha256(CACHE_FORMAT)
    digest.update(f"{source_format}\0{' '.join(flags)}\0{source.name}\0".encode())
    digest.update(source.read_bytes())
    for folder in copybook_dirs(source, include):
        digest.update(f"\0{folder}\0".encode())
        for path in _copybook_files(folder, source):
            digest.update(f"\0{path.relative_to(folder)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def _copybook_files(folder: Path, source: Path) -> list[Path]:
    """The copybooks of a search folder and of its subfolders one level down (`COPY X OF LIB`)."""
    found: list[Path] = []
    for path in sorted(folder.iterdir()):
        if path.is_dir() and not path.name.startswith("."):
            found += [p for p in sorted(path.iterdir()) if p.suffix.lower() in COPYBOOK_SUFFIXES and p.is_file()]
        elif path.suffix.lower() in COPYBOOK_SUFFIXES and path != source and path.is_file():
            found.append(path)
    return found


class Prepared:
    """What one cobc run is given: the file to compile, extra flags, include folders, and the names
    of the temporary files to put back in its diagnostics."""

    def __init__(self, source: Path, source_format: str, include: Iterable[Path | str], workdir: Path) -> None:
        self.original = self.source = source
        self.renames: dict[str, str] = {}
        options = compiler_options(source, read_text(source), source_format)
        self.flags = options.flags
        for warning in options.warnings:
            log.warning(user_paths(warning))  # (a translation's: the user's file)
        links = workdir / "copy"
        links.mkdir()
        self.dirs = [links, *copybook_dirs(source, include)]
        try:
            refs = load_with_copies(source, source_format, include)[2]
        except LinkageError:
            refs = []  # cobc says what is wrong, in its own words
        plain: dict[Path, Path] = {}  # link -> book, for each COPY of an ordinary name, named as written
        for ref in refs:
            name = ref.name.strip()
            if ref.include or ref.foreign or not name or name in (".", ".."):
                continue
            for folder in (links / ref.library, links) if ref.library and "/" not in ref.library else (links,):
                plain.setdefault(folder / name, ref.path)
        foreign, renamed = _foreign_links(refs, {link.name: book for link, book in plain.items()})
        text = cobc_text(source, source_format, renamed.pop(source.resolve(), []))
        if text is not None:
            self.source = workdir / source.name
            self.source.write_bytes(_encoded(text, source))
            self.renames[str(self.source)] = str(source)
        for link, book in [*plain.items(), *((links / name, book) for name, book in foreign.items())]:
            self._link(link, book, renamed)

    def _link(self, link: Path, book: Path, renamed: dict[Path, list[tuple[int, str, str]]]) -> None:
        """``link`` to ``book``; a copy of it where it holds COPY names to replace (same line numbers)."""
        if link.exists() or link.is_symlink():
            return
        try:
            link.parent.mkdir(parents=True, exist_ok=True)
            copies = renamed.get(book.resolve())
            if copies:
                link.write_bytes(_encoded(rename_copies(read_text(book), copies), book))
            else:
                link.symlink_to(book.resolve())
        except OSError:
            return  # no links here: cobc searches the folders itself, by exact case
        self.renames[str(link)] = str(book)

    def include_flags(self) -> list[str]:
        return [flag for folder in self.dirs for flag in ("-I", str(folder))]

    def rename(self, output: str) -> str:
        """cobc's output naming the user's files, not the temporary ones."""
        for temporary, original in sorted(self.renames.items(), key=lambda item: -len(item[0])):
            output = output.replace(temporary, original)
        return output


def _foreign_links(
    refs: list[CopyRef], taken: dict[str, Path]
) -> tuple[dict[str, Path], dict[Path, list[tuple[int, str, str]]]]:
    """For each COPY of a name written for another machine, a link name that fits where the name was
    (its base name, else a short one; never one ``taken`` by another book): link name -> book, and per
    file holding such COPY statements, (line, name as written, link name) for the text cobc is given."""
    links: dict[str, Path] = {}
    renamed: dict[Path, list[tuple[int, str, str]]] = {}
    used = {name.lower(): book.resolve() for name, book in taken.items()}
    for ref in refs:
        foreign = foreign_name(ref.name)
        if foreign is None or ref.source is None:
            continue
        book = ref.path.resolve()
        names = [foreign[0], *(f"X{number}" for number in range(1, 1000))]
        name = next(n for n in names if len(n) <= len(ref.name) and used.get(n.lower(), book) == book)
        used[name.lower()] = book
        links.setdefault(name, ref.path)
        renamed.setdefault(ref.source.resolve(), []).append((ref.line, ref.name, name))
    return links, renamed


def _encoded(text: str, original: Path) -> bytes:
    return text.encode("latin-1" if _latin1(original) else "utf-8")


def _latin1(source: Path) -> bool:
    try:
        source.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def module_path(
    source: Path,
    source_format: str = "free",
    cache_dir: Path | None = None,
    flags: Iterable[str] = DEFAULT_FLAGS,
    include: Iterable[Path | str] = (),
) -> Path:
    """Where the module for this exact source would be (it may not exist yet)."""
    root = cache_dir or Path(cache_root())
    return root / cache_key(source, source_format, flags, include) / f"{source.stem}.so"


def build_module(
    source: Path,
    cache_dir: Path | None = None,
    *,
    source_format: str = "free",
    flags: Iterable[str] = DEFAULT_FLAGS,
    rebuild: bool = False,
    include: Iterable[Path | str] = (),
) -> Path:
    """Return the path of the compiled module for `source`, compiling only on a cache miss.
    ``include``: more copybook folders (--copybooks), searched after the program's own."""
    source = Path(source).resolve()
    flags, include = tuple(flags), tuple(include)
    target = module_path(source, source_format, cache_dir, flags, include)
    if target.exists() and not rebuild:
        return target
    cobc = shutil.which("cobc")
    if cobc is None:
        raise BuildError(
            f"{source}: cannot compile: GnuCOBOL's cobc is not installed "
            "(Debian/Ubuntu: apt-get install gnucobol3; Fedora: dnf install gnucobol; macOS: brew install gnucobol)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    run_cobc(cobc, source, source_format, ["-m", f"-{source_format}", *flags], include, target)
    return target


def run_cobc(
    cobc: str,
    source: Path,
    source_format: str,
    flags: list[str],
    include: Iterable[Path | str],
    target: Path,
    after: Iterable[str] = (),
) -> None:
    """Compile ``source`` (as :class:`Prepared` makes it) into ``target``, via a temporary name (``after``:
    more files for cobc after the source, such as a C file linked into an executable, whose main is the
    first file's). cobc runs in an empty folder of its own: it looks for a COPY book in the folder it runs
    in before its -I folders, and would find there what the parser did not (the program itself, when the
    server is started in the programs folder)."""
    target, source = Path(os.path.abspath(target)), Path(os.path.abspath(source))
    after = [os.path.abspath(path) for path in after]
    fd, temporary = tempfile.mkstemp(prefix=f".{source.stem}.", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    try:
        with tempfile.TemporaryDirectory(prefix=f".{source.stem}.", dir=target.parent) as work:
            prepared = Prepared(source, source_format, include, Path(work))
            empty = Path(work) / "cwd"  # (the copy of the source Prepared may write is in work itself)
            empty.mkdir()
            command = [
                cobc,
                *flags,
                *prepared.flags,
                "-o",
                temporary,
                *prepared.include_flags(),
                str(prepared.source),
                *after,
            ]
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL, cwd=empty
            )
        if done.returncode != 0:
            output = _diagnostics(prepared.rename(done.stdout + done.stderr), source)
            raise BuildError(output or f"{source}: cobc failed")
        if done.stderr.strip():
            print(user_paths(prepared.rename(done.stderr)).rstrip(), file=sys.stderr)  # stderr, never stdout
        os.replace(temporary, target)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{source}: cobc did not finish within 300 s") from exc
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


_DIAGNOSTIC = re.compile(r"^[^:\n]+:\d+: ")


def _diagnostics(output: str, source: Path) -> str:
    """cobc's messages as `file:line: message` lines (all of its output if it wrote none such)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    located = [line for line in lines if _DIAGNOSTIC.match(line)]
    return "\n".join(located or [f"{source}: {line}" for line in lines])
