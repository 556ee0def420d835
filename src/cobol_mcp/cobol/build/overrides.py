"""The overrides file of a programs folder, ``cobol-mcp.toml``: what the code itself cannot say.

Read with the standard library's ``tomllib``. Per program (``[programs.PROGRAM-ID]``, matched without
regard to case): the tool's ``name``, ``title``, ``description``, ``annotations`` and ``timeout``;
per field (``[programs.PROGRAM-ID.fields.DATA-NAME]``, a data name of the LINKAGE SECTION, or a
dotted path ``RECORD.GROUP.ITEM`` where a name is used twice): ``description``, ``rename``,
``direction`` (in, out, inout or none, over what the code says), ``hidden`` with a fixed ``value``,
a ``default``, and ``labels``
for 88-level condition names. Every key is checked: an unknown key, a value of the wrong kind, or a
name that matches nothing is an error that names the file and line, and the program it concerns is
not served (its tool would not be the one the file describes).

Owns: reading and checking the file, applying a program's field overrides to its spec, and its
program overrides to a manifest entry. May import: :mod:`..linkage`, :mod:`..records`, :mod:`..`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from .. import LinkageError
from ..linkage.direction import recombine, redirect
from ..linkage.model import Condition, Field, ProgramSpec, Record

__all__ = ["FILE_NAME", "FolderOverrides", "ProgramOverrides", "read_overrides"]

FILE_NAME = "cobol-mcp.toml"
_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_JSON_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_ANNOTATIONS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
_PROGRAM_KEYS = ("name", "title", "description", "annotations", "timeout", "fields")
_FIELD_KEYS = ("description", "rename", "direction", "hidden", "value", "default", "labels")
_NOT_YET = {
    "view": "choosing a REDEFINES view",
    "keep-trailing-spaces": "keeping trailing spaces of a PIC X output",
    "bytes": "hex or base64 for bytes that are not text",
}
_DIRECTIONS = ("in", "out", "inout", "none")


class _Locator:
    """Line numbers for tables and keys (tomllib gives none): the first line that opens the table,
    and the first ``key =`` after it."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def table(self, *names: str) -> int:
        parts = r"\s*\.\s*".join(rf"(?:\"{re.escape(n)}\"|'{re.escape(n)}'|{re.escape(n)})" for n in names)
        header = re.compile(rf"^\s*\[\s*{parts}\s*[\].]", re.I)
        inline = re.compile(rf"^\s*{parts}\s*[=.]", re.I)
        for n, line in enumerate(self.lines, 1):
            if header.match(line):
                return n
        last = names[-1]
        for n, line in enumerate(self.lines, 1):  # a dotted key or an inline table
            if inline.match(line) or re.search(rf"(^|[\s{{,.\"']){re.escape(last)}[\"']?\s*[=.]", line, re.I):
                return n
        return 1

    def key(self, key: str, *table: str) -> int:
        start = self.table(*table) if table else 1
        pattern = re.compile(rf"(^|[\s{{,.\"']){re.escape(key)}[\"']?\s*=")
        for n in range(start, len(self.lines) + 1):
            if pattern.search(self.lines[n - 1]):
                return n
        return start

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"


@dataclasses.dataclass
class ProgramOverrides:
    """One ``[programs.NAME]`` table, checked for its own keys (fields are checked against a spec)."""

    name: str  # as written in the file
    line: int
    tool: dict[str, Any]  # name, title, description, annotations, timeout: those given
    fields: dict[str, dict[str, Any]]  # data name or dotted path -> its keys
    locate: _Locator
    used: bool = False

    def digest(self) -> str:
        """What the spec's cache key needs: the field overrides, canonical."""
        return json.dumps(self.fields, sort_keys=True, default=str)

    def apply_to_spec(self, spec: ProgramSpec) -> ProgramSpec:
        """``spec`` with the field overrides applied; LinkageError (file:line) for a name that matches
        nothing, or a value the field cannot hold."""
        if not self.fields:
            return spec
        records = list(spec.records)
        for name, keys in self.fields.items():
            where = self.locate.where(self.locate.table("programs", self.name, "fields", name))
            try:
                found = _find(records, name)
            except ValueError as exc:
                raise LinkageError(f"{where}: {exc}") from None
            if found is None:
                known = ", ".join(_names(records)) or "none"
                raise LinkageError(f"{where}: no LINKAGE item {name!r} in {spec.program_id} (items: {known})")
            index, path = found
            record = records[index]
            if len(path) == 1 and keys.get("hidden"):
                raise LinkageError(f"{where}: {name} is a whole USING record: only items inside one can be hidden")
            field = _replace_in(record.field, path[1:], keys, where)
            key = field.key if field.key is not None else record.key
            records[index] = dataclasses.replace(record, field=field, key=key if len(path) == 1 else record.key)
        records = [recombine(r) for r in records]  # a field's new direction changes its group's and record's
        _check_unique(records, spec, self.locate.where(self.line))
        return dataclasses.replace(spec, records=tuple(records))

    def apply_to_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A manifest entry with the program overrides: tool name, title, description, annotations,
        timeout."""
        definition = dict(entry["definition"])
        tool = self.tool
        if "name" in tool:
            entry["tool_name"] = definition["name"] = tool["name"]
        for key in ("title", "description"):
            if key in tool:
                definition[key] = tool[key]
        if "annotations" in tool:
            definition["annotations"] = {**definition.get("annotations", {}), **tool["annotations"]}
        if "timeout" in tool:
            entry["timeout"] = float(tool["timeout"])
        entry["definition"] = definition
        return entry


@dataclasses.dataclass
class FolderOverrides:
    path: Path | None
    programs: dict[str, ProgramOverrides]  # upper-case PROGRAM-ID -> its overrides

    def program(self, program_id: str) -> ProgramOverrides | None:
        found = self.programs.get(program_id.upper())
        if found is not None:
            found.used = True
        return found

    def unused(self) -> list[str]:
        """An error for each program table that matched no program of the folder."""
        known = sorted(self.programs)
        return [
            f"{p.locate.where(p.line)}: [programs.{p.name}] matches no program of the folder ({', '.join(known)})"
            for p in self.programs.values()
            if not p.used
        ]


def read_overrides(folder: Path) -> FolderOverrides:
    """The folder's overrides (none when it has no ``cobol-mcp.toml``); LinkageError (file:line) when
    the file is not valid TOML or holds a key this server does not know."""
    path = folder / FILE_NAME
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return FolderOverrides(None, {})
    except OSError as exc:
        raise LinkageError(f"{path}:1: cannot read the overrides file: {exc.strerror or exc}") from None
    import tomllib

    try:
        text = data.decode("utf-8")
        table = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise LinkageError(f"{path}:1: the overrides file is not UTF-8 ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+)", str(exc))
        raise LinkageError(f"{path}:{at.group(1) if at else 1}: invalid TOML: {exc}") from None
    locate = _Locator(path, text)
    for key in table:
        if key != "programs":
            raise LinkageError(
                f"{locate.where(locate.key(key))}: unknown key {key!r} (expected [programs.NAME] tables)"
            )
    programs: dict[str, ProgramOverrides] = {}
    given = table.get("programs", {})
    if not isinstance(given, dict):
        raise LinkageError(f"{locate.where(locate.key('programs'))}: programs must be a table")
    for name, body in given.items():
        line = locate.table("programs", name)
        if not isinstance(body, dict):
            raise LinkageError(f"{locate.where(line)}: programs.{name} must be a table")
        if name.upper() in programs:
            raise LinkageError(f"{locate.where(line)}: program {name} appears twice (names ignore case)")
        programs[name.upper()] = _program(name, body, locate)
    return FolderOverrides(path, programs)


# ------------------------------------------------------------------------------------------- checking


def _program(name: str, body: dict[str, Any], locate: _Locator) -> ProgramOverrides:
    def bad(key: str, message: str) -> LinkageError:
        return LinkageError(f"{locate.where(locate.key(key, 'programs', name))}: programs.{name}.{key}: {message}")

    tool: dict[str, Any] = {}
    for key, value in body.items():
        if key not in _PROGRAM_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_PROGRAM_KEYS)})")
        if key == "fields":
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
    fields = body.get("fields", {})
    if not isinstance(fields, dict):
        raise bad("fields", "must be a table of data names")
    checked = {item: _field_keys(name, item, keys, locate) for item, keys in fields.items()}
    return ProgramOverrides(name, locate.table("programs", name), tool, checked, locate)


def _field_keys(program: str, item: str, keys: Any, locate: _Locator) -> dict[str, Any]:
    table = ("programs", program, "fields", item)

    def bad(key: str, message: str) -> LinkageError:
        line = locate.key(key, *table) if key else locate.table(*table)
        return LinkageError(f"{locate.where(line)}: fields.{item}{'.' + key if key else ''}: {message}")

    if not isinstance(keys, dict):
        raise bad("", "must be a table")
    for key, value in keys.items():
        if key in _NOT_YET:
            raise bad(key, f"{_NOT_YET[key]} is not supported yet")
        if key not in _FIELD_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(_FIELD_KEYS)})")
        if key in ("description", "rename") and not isinstance(value, str):
            raise bad(key, "must be a string")
        if key == "rename" and not _JSON_NAME.match(value):
            raise bad(key, f"{value!r} is not a property name (letters, digits and _, up to 64)")
        if key == "direction" and value not in _DIRECTIONS:
            raise bad(key, f"must be one of {', '.join(_DIRECTIONS)}")
        if key == "hidden" and not isinstance(value, bool):
            raise bad(key, "must be true or false")
        if key in ("value", "default") and (isinstance(value, bool) or not isinstance(value, str | int | float)):
            raise bad(key, "must be a string or a number")
        if key == "labels" and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
            raise bad(key, "must be a table of condition name = label")
    if keys.get("hidden") and "value" not in keys:
        raise bad("hidden", "a hidden field needs the value the program is given (value = ...)")
    if "value" in keys and not keys.get("hidden"):
        raise bad("value", "value pins a hidden field (hidden = true); for an optional one use default")
    if keys.get("hidden") and {"rename", "default", "description"} & set(keys):
        raise bad("hidden", "a hidden field takes no rename, default or description")
    return dict(keys)


# ------------------------------------------------------------------------------------------- applying


def _names(records: list[Record]) -> list[str]:
    out: list[str] = []

    def walk(f: Field) -> None:
        out.append(f.name)
        for c in f.children:
            walk(c)

    for r in records:
        walk(r.field)
    return out


def _find(records: list[Record], name: str) -> tuple[int, list[str]] | None:
    """(record index, names from the record down to the item) of a data name or dotted path."""
    wanted = [part.strip().upper() for part in name.split(".")]
    hits: list[tuple[int, list[str]]] = []

    def walk(index: int, f: Field, trail: list[str]) -> None:
        trail = [*trail, f.name.upper()]
        if trail[-len(wanted) :] == wanted:
            hits.append((index, trail))
        for c in f.children:
            walk(index, c, trail)

    for index, r in enumerate(records):
        walk(index, r.field, [])
    if len(hits) > 1:
        paths = " and ".join(".".join(trail) for _, trail in hits)
        raise ValueError(f"{name!r} names several items ({paths}): write a dotted path")
    return hits[0] if hits else None


def _replace_in(f: Field, path: list[str], keys: dict[str, Any], where: str) -> Field:
    """``f`` with the item at ``path`` (names below ``f``) changed by ``keys``."""
    if not path:
        return _field(f, keys, where)
    children = tuple(_replace_in(c, path[1:], keys, where) if c.name.upper() == path[0] else c for c in f.children)
    return dataclasses.replace(f, children=children)


def _field(f: Field, keys: dict[str, Any], where: str) -> Field:
    from ..records.codec import FieldError, encode_scalar

    if "direction" in keys:
        f = redirect(f, keys["direction"], f"set by {where}")
    changes: dict[str, Any] = {}
    if "description" in keys:
        changes["description"] = keys["description"]
    if "rename" in keys:
        changes["key"] = keys["rename"]
    for key in ("value", "default"):
        if key in keys:
            if f.is_group:
                raise LinkageError(f"{where}: {key} needs an elementary item; {f.name} is a group")
            value = _typed(f, keys[key], where)
            try:
                encode_scalar(f, value)
            except FieldError as exc:
                raise LinkageError(f"{where}: {key} {keys[key]!r} does not fit {f.name}: {exc}") from None
            changes["value"] = value
    if keys.get("hidden"):
        changes["key"] = None
    if "labels" in keys:
        conditions = {c.name.upper(): c for c in f.conditions}
        labels: dict[str, str] = {}
        for name, label in keys["labels"].items():
            if name.upper() not in conditions:
                known = ", ".join(c.name for c in f.conditions) or "none"
                raise LinkageError(f"{where}: {f.name} has no 88-level {name!r} (conditions: {known})")
            if not label.strip():
                raise LinkageError(f"{where}: the label for {name} is empty")
            labels[name.upper()] = label
        changes["conditions"] = tuple(
            Condition(c.name, labels.get(c.name.upper(), c.key), c.values) for c in f.conditions
        )
    return dataclasses.replace(f, **changes)


def _typed(f: Field, value: str | int | float, where: str) -> Decimal | str:
    if f.category in ("numeric", "float"):
        try:
            return Decimal(str(value))
        except ArithmeticError:
            raise LinkageError(f"{where}: {value!r} is not a number for {f.name}") from None
    return str(value)


def _check_unique(records: list[Record], spec: ProgramSpec, where: str) -> None:
    for r in records:
        if r.field.is_group:
            keys = [c.key for c in r.field.children if c.exposed]
            dup = next((k for k in keys if keys.count(k) > 1), None)
            if dup:
                raise LinkageError(f"{where}: two items of {r.name} in {spec.program_id} would be named {dup!r}")
    keys = [r.key for r in records]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup:
        raise LinkageError(f"{where}: two USING records of {spec.program_id} would be named {dup!r}")
