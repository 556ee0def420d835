"""Checking the keys of ``cobol-mcp.toml`` (see :mod:`.overrides`) before anything is applied.

Owns: line numbers of tables and keys (:class:`Locator`; tomllib gives none), the program, field and
folder tables' keys and the kinds of their values. Every error names the file and line.
May import: :mod:`..linkage`, :mod:`..`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import LinkageError
from ..linkage.dialect import DialectError, load_dialect

__all__ = ["Locator", "check_field", "check_folder", "check_program", "check_variant"]

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_JSON_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_ANNOTATIONS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
# "containers": a channel-style program's containers, checked with the program (.channel)
_PROGRAM_KEYS = (
    "name",
    "title",
    "description",
    "annotations",
    "timeout",
    "fields",
    "tools",
    "plain-tool",
    "containers",
)
_VARIANT_KEYS = ("title", "description", "annotations", "timeout", "fields")
_FIELD_KEYS = (
    "description", "rename", "direction", "hidden", "value", "default", "labels", "view", "keep-trailing-spaces",
    "bytes", "max-length",
)  # fmt: skip
MAX_LENGTH = 1 << 20  # the most a PIC X ANY LENGTH item's max-length can say (bytes per call)
_FOLDER_KEYS = ("dialect", "copybooks", "data-dir", "source-format", "database", "qualifier", "date-format",
                "time-format", "programs")  # fmt: skip
_DB2_NAME = re.compile(r"^[A-Za-z#@$][A-Za-z0-9_#@$]{0,127}$")  # a DB2 ordinary identifier (a schema)
_DATETIME_FORMATS = ("ISO", "USA", "EUR", "JIS")  # DB2's DATE and TIME precompiler options
_DIRECTIONS = ("in", "out", "inout", "none")
_ENCODINGS = ("hex", "base64")


class Locator:
    """Line numbers for tables and keys: the first line that opens the table, and the first ``key =``
    after it."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def table(self, *names: str) -> int:
        found = self._header(names)
        if found is not None:
            return found
        parts = r"\s*\.\s*".join(rf"(?:\"{re.escape(n)}\"|'{re.escape(n)}'|{re.escape(n)})" for n in names)
        inline = re.compile(rf"^\s*{parts}\s*[=.]", re.I)
        # a dotted key or an inline table: looked for first after the nearest enclosing table's header (a
        # variant's fields.X line, not the program's), then anywhere
        heads = (self._header(names[:cut]) for cut in range(len(names) - 1, 1, -1))
        start = next((line for line in heads if line is not None), 1)
        last = names[-1]
        for first in (start, 1):
            for n in range(first, len(self.lines) + 1):
                line = self.lines[n - 1]
                if inline.match(line) or re.search(rf"(^|[\s{{,.\"']){re.escape(last)}[\"']?\s*[=.]", line, re.I):
                    return n
        return 1

    def _header(self, names: tuple[str, ...]) -> int | None:
        """The line of the ``[a.b.c]`` header (or of a table below it) of these names, if there is one."""
        parts = r"\s*\.\s*".join(rf"(?:\"{re.escape(n)}\"|'{re.escape(n)}'|{re.escape(n)})" for n in names)
        header = re.compile(rf"^\s*\[\s*{parts}\s*[\].]", re.I)
        return next((n for n, line in enumerate(self.lines, 1) if header.match(line)), None)

    def key(self, key: str, *table: str) -> int:
        start = self.table(*table) if table else 1
        pattern = re.compile(rf"(^|[\s{{,.\"']){re.escape(key)}[\"']?\s*=")
        for n in range(start, len(self.lines) + 1):
            if pattern.search(self.lines[n - 1]):
                return n
        return start

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"


def check_program(
    name: str, body: dict[str, Any], locate: Locator, table: tuple[str, ...] = ()
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tool keys, field tables) of one ``[programs.NAME]`` table, checked (``table``: the variant's
    ``programs.NAME.tools.VARIANT`` whose tool keys these are)."""
    table = table or ("programs", name)

    def bad(key: str, message: str) -> LinkageError:
        return LinkageError(f"{locate.where(locate.key(key, *table))}: {'.'.join(table)}.{key}: {message}")

    tool: dict[str, Any] = {}
    for key, value in body.items():
        if key not in _PROGRAM_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_PROGRAM_KEYS)})")
        if key in ("fields", "tools", "containers"):  # (variants: check_variant; containers: .channel)
            continue
        if key == "plain-tool":
            if not isinstance(value, bool):
                raise bad(key, "must be true or false")
            continue
        if key in ("name", "title", "description") and not isinstance(value, str):
            raise bad(key, "must be a string")
        if key == "name" and not _TOOL_NAME.match(value):
            raise bad(key, f"{value!r} is not a tool name (^[A-Za-z0-9_.-]{{1,64}}$)")
        if key == "timeout" and (isinstance(value, bool) or not isinstance(value, int | float) or not value > 0):
            raise bad(key, "must be a number of seconds above 0")
        if key == "annotations":
            if not isinstance(value, dict):
                raise bad(key, "must be a table")
            for hint, flag in value.items():
                if hint not in _ANNOTATIONS:
                    raise bad(key, f"unknown annotation {hint!r} (known: {', '.join(_ANNOTATIONS)})")
                if not isinstance(flag, bool):
                    raise bad(key, f"{hint} must be true or false")
        tool[key] = value
    if "tools" in body and not isinstance(body["tools"], dict):
        raise bad("tools", "must be a table of tools ([programs.NAME.tools.TOOL])")
    if body.get("plain-tool") and not body.get("tools"):
        raise bad("plain-tool", "only a program with tools ([programs.NAME.tools.TOOL]) has a plain tool to keep")
    if "name" in body and body.get("tools") and not body.get("plain-tool"):
        raise bad("name", "names the program's plain tool, which is not published beside its tools "
                          "(plain-tool = true publishes it)")  # fmt: skip
    fields = body.get("fields", {})
    if not isinstance(fields, dict):
        raise bad("fields", "must be a table of data names")
    return tool, {item: check_field(name, item, keys, locate) for item, keys in fields.items()}


def check_variant(program: str, variant: str, body: Any, locate: Locator) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tool keys, field tables) of one ``[programs.PROGRAM.tools.VARIANT]`` table, checked for its own keys
    (its field tables are checked once merged with the program's: :func:`.override_variants.read_variants`)."""
    table = ("programs", program, "tools", variant)

    def bad(key: str, message: str) -> LinkageError:
        line = locate.key(key, *table) if key else locate.table(*table)
        return LinkageError(f"{locate.where(line)}: tools.{variant}{'.' + key if key else ''}: {message}")

    if not _TOOL_NAME.match(variant):
        raise bad("", f"{variant!r} is not a tool name (^[A-Za-z0-9_.-]{{1,64}}$)")
    if not isinstance(body, dict):
        raise bad("", "must be a table")
    for key in body:
        if key == "name":
            raise bad(key, f"a tool's name is its table's: [programs.{program}.tools.{variant}] is the tool "
                           f"{variant!r}")  # fmt: skip
        if key not in _VARIANT_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_VARIANT_KEYS)})")
    tool, _ = check_program(program, {k: v for k, v in body.items() if k != "fields"}, locate, table)
    given = body.get("fields", {})
    if not isinstance(given, dict):
        raise bad("fields", "must be a table of data names")
    for item, keys in given.items():  # checked once merged with the program's table for the item
        if not isinstance(keys, dict):
            check_field(program, item, keys, locate, table[2:])
    return tool, dict(given)


def check_field(program: str, item: str, keys: Any, locate: Locator, under: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``[programs.NAME.fields.ITEM]`` table (``under``: ``("tools", VARIANT)`` for a variant's),
    checked for its own keys (not yet against the item)."""
    table = ("programs", program, *under, "fields", item)
    prefix = "".join(f"{part}." for part in under)

    def bad(key: str, message: str) -> LinkageError:
        line = locate.key(key, *table) if key else locate.table(*table)
        return LinkageError(f"{locate.where(line)}: {prefix}fields.{item}{'.' + key if key else ''}: {message}")

    if not isinstance(keys, dict):
        raise bad("", "must be a table")
    for key, value in keys.items():
        if key not in _FIELD_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_FIELD_KEYS)})")
        if key in ("description", "rename", "view") and not isinstance(value, str):
            raise bad(key, "must be a string")
        if key == "rename" and not _JSON_NAME.match(value):
            raise bad(key, f"{value!r} is not a property name (letters, digits and _, up to 64)")
        if key == "direction" and value not in _DIRECTIONS:
            raise bad(key, f"must be one of {', '.join(_DIRECTIONS)}")
        if key in ("hidden", "keep-trailing-spaces") and not isinstance(value, bool):
            raise bad(key, "must be true or false")
        if key == "bytes" and value not in _ENCODINGS:
            raise bad(key, f'must be "hex" or "base64", not {value!r}')
        if key in ("value", "default") and (isinstance(value, bool) or not isinstance(value, str | int | float)):
            raise bad(key, "must be a string or a number")
        if key == "max-length" and (
            isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LENGTH
        ):
            raise bad(key, f"must be a whole number of bytes from 1 to {MAX_LENGTH}, not {value!r}")
        if key == "labels" and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
            raise bad(key, "must be a table of condition name = label")
    if "value" in keys and not keys.get("hidden"):
        raise bad("value", "value pins a hidden field (hidden = true); for an optional one use default")
    if keys.get("hidden") and {"rename", "default", "description"} & set(keys):
        raise bad("hidden", "a hidden field takes no rename, default or description")
    if "bytes" in keys and "keep-trailing-spaces" in keys:
        raise bad("keep-trailing-spaces", "a bytes item keeps every byte already")
    if "bytes" in keys and "labels" in keys:
        raise bad("labels", "a bytes item has no condition names to label")
    return dict(keys)


def check_folder(body: Any, locate: Locator, folder: Path) -> dict[str, Any]:
    """The ``[folder]`` table: dialect, copybooks, programs and data-dir (made absolute), source-format."""

    def bad(key: str, message: str) -> LinkageError:
        line = locate.key(key, "folder") if key else locate.table("folder")
        return LinkageError(f"{locate.where(line)}: folder{'.' + key if key else ''}: {message}")

    if not isinstance(body, dict):
        raise bad("", "must be a table")
    settings: dict[str, Any] = {}
    for key, value in body.items():
        if key not in _FOLDER_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_FOLDER_KEYS)})")
        if key in ("copybooks", "programs"):  # folders, from this one
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise bad(key, "must be a list of folders (strings)")
            books = []
            for name in value:
                path = (folder / name).resolve()
                if not path.is_dir():
                    raise bad(key, f"{name!r} is not a folder ({path})")
                books.append(path)
            settings[key] = tuple(books)
            continue
        if not isinstance(value, str):
            raise bad(key, "must be a string")
        if key == "dialect":
            try:
                settings[key] = load_dialect(value).name
            except DialectError as exc:
                raise bad(key, str(exc)) from None
        elif key == "database":
            if not value.startswith(("sqlite:///", "postgresql://", "postgres://")):
                raise bad(key, f"must be sqlite:///PATH or postgresql://user@host:port/db, not {value!r}")
            settings[key] = value
        elif key == "qualifier":
            if not _DB2_NAME.match(value):
                raise bad(key, f"must be a DB2 schema name (letters, digits, _ # @ $), not {value!r}")
            settings[key] = value.upper()
        elif key in ("date-format", "time-format"):
            if value.upper() not in _DATETIME_FORMATS:
                raise bad(key, f"must be one of {', '.join(_DATETIME_FORMATS)} (as DB2's precompiler option), "
                          f"not {value!r}")  # fmt: skip
            settings[key] = value.upper()
        elif key == "source-format":
            if value not in ("fixed", "free"):
                raise bad(key, f'must be "fixed" or "free", not {value!r}')
            settings[key] = value
        else:
            path = (folder / value).resolve()
            if not path.is_dir():
                raise bad(key, f"{value!r} is not a folder ({path})")
            settings[key] = str(path)
    return settings
