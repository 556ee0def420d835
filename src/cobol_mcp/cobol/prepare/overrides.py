"""The overrides file of a programs folder, ``cobol-mcp.toml``: what the code itself cannot say.

Read with the standard library's ``tomllib``. Per program (``[programs.PROGRAM-ID]``, matched without
regard to case): the tool's ``name``, ``title``, ``description``, ``annotations`` and ``timeout``;
per field (``[programs.PROGRAM-ID.fields.DATA-NAME]``, a data name of the LINKAGE SECTION, or a
dotted path ``RECORD.GROUP.ITEM`` where a name is used twice): ``description``, ``rename``,
``direction`` (in, out, inout or none, over what the code says), ``hidden`` with a fixed ``value`` (a
USAGE POINTER item, never shown, takes none: it is given binary zeros),
a ``default``, ``labels`` for 88-level condition names, ``keep-trailing-spaces`` (PIC X output),
``bytes`` ("hex" or "base64": a PIC X item or a whole group as its exact bytes) and ``view`` (the
REDEFINES definition shown; see :mod:`.override_fields`). Per tool of a program published as several
(``[programs.PROGRAM-ID.tools.NAME]``, see :mod:`.override_variants`): the same keys but ``name``,
inherited from the program's table and overridden. For the whole folder (``[folder]``):
``dialect``, ``copybooks``, ``data-dir`` and ``source-format``, each losing to the command line's own
value. Every key is checked: an unknown key, a value of the wrong kind, or a name that matches
nothing is an error that names the file and line, and the program it concerns is
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
from typing import TYPE_CHECKING, Any

from .. import LinkageError
from ..linkage.direction import recombine, redirect
from ..linkage.frozen import replace
from ..linkage.model import Condition, Field, ProgramSpec, Record
from .override_fields import as_bytes, choose_view, kind
from .override_keys import Locator, check_folder, check_program
from .override_variants import Variant, read_variants

if TYPE_CHECKING:
    from .entries import FolderSettings, ToolEntry

__all__ = ["FILE_NAME", "FolderOverrides", "ProgramOverrides", "read_overrides"]

FILE_NAME = "cobol-mcp.toml"


@dataclasses.dataclass
class ProgramOverrides:
    """One ``[programs.NAME]`` table, checked for its own keys (fields are checked against a spec)."""

    name: str  # as written in the file
    line: int
    tool: dict[str, Any]  # name, title, description, annotations, timeout: those given
    fields: dict[str, dict[str, Any]]  # data name or dotted path -> its keys
    locate: Locator
    used: bool = False
    containers: Any = None  # [programs.NAME.containers.*] as written: checked with the program (.channel)
    variants: list[Variant] = dataclasses.field(default_factory=list)  # [programs.NAME.tools.TOOL], merged
    plain: bool = True  # its own tool is published (it has no variants, or plain-tool = true)
    problem: str | None = None  # a mistake in its table or a variant's (file:line): the program is not served
    variant: Variant | None = None  # the variant these overrides are (see :meth:`of_variant`)

    def digest(self) -> str:
        """What the spec's cache key needs: the field overrides (and the variant), canonical."""
        fields = self.fields if self.variant is None else [self.variant.name, self.fields]
        return json.dumps(fields, sort_keys=True, default=str)

    def choices(self) -> list[ProgramOverrides]:
        """The overrides of each tool the program is published as: its own (unless only its variants are
        published), then one per variant."""
        return ([self] if self.plain else []) + [self.of_variant(v) for v in self.variants]

    def of_variant(self, variant: Variant) -> ProgramOverrides:
        """The overrides of the variant's tool: its merged tool keys and fields."""
        return ProgramOverrides(
            self.name, variant.line, variant.tool, variant.fields, self.locate, True, self.containers, variant=variant
        )

    def tool_name(self, derived: str) -> str:
        """The name the tool is published under: its variant's, the ``name`` key's, or ``derived``."""
        return self.variant.name if self.variant is not None else str(self.tool.get("name", derived))

    def where(self, item: str, key: str = "") -> str:
        """file:line of an item's field table (the variant's own, or the program's it inherits), or of
        one ``key`` in it."""
        table: tuple[str, ...] = ("programs", self.name, "fields", item)
        if self.variant is not None and item.strip().upper() in self.variant.own:
            table = ("programs", self.name, "tools", self.variant.name, "fields", item)
        return self.locate.where(self.locate.key(key, *table) if key else self.locate.table(*table))

    def apply_to_spec(self, spec: ProgramSpec) -> ProgramSpec:
        """``spec`` with the field overrides applied; LinkageError (file:line) for a name that matches
        nothing, or a value the field cannot hold."""
        if not self.fields:
            return spec
        records = list(spec.records)
        # views first: a table for an item inside the chosen view then changes what the view gave it
        for name, keys in sorted(self.fields.items(), key=lambda item: "view" not in item[1]):
            where = self.where(name)
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
            if keys.get("hidden") and "value" not in keys and _item(record.field, path[1:]).usage != "pointer":
                own = self.variant is not None and name.strip().upper() in self.variant.own
                table = f"tools.{self.variant.name}.fields" if own and self.variant is not None else "fields"
                raise LinkageError(f"{self.where(name, 'hidden')}: {table}.{name}.hidden: a hidden field needs the "
                                   "value the program is given (value = ...)")  # fmt: skip
            if record.by_value and keys.get("direction") in ("out", "inout"):
                raise LinkageError(f"{where}: direction: {name} is passed BY VALUE: the program works on its own "
                                   "copy and cannot return it, so it can only be in or none")  # fmt: skip
            if len(path) == 1 and "view" in keys:
                raise LinkageError(f"{where}: view: {name} is a whole USING record, which no item redefines")
            field = _replace_in(record.field, path[1:], keys, where)
            key = field.key if field.key is not None else record.key
            records[index] = replace(record, field=field, key=key if len(path) == 1 else record.key)
            if field.any_length:  # max-length: the record is the length and that many bytes
                records[index] = replace(records[index], size=field.size)
        records = [recombine(r) for r in records]  # a field's new direction changes its group's and record's
        _check_unique(records, spec, self.locate.where(self.line))
        return replace(spec, records=tuple(records))

    def apply_to_entry(self, entry: ToolEntry) -> None:
        """Apply the program overrides to its manifest entry: tool name, title, description, annotations,
        timeout."""
        definition = dict(entry["definition"])
        tool = self.tool
        if "name" in tool:
            entry["tool_name"] = definition["name"] = tool["name"]
        if self.variant is not None:
            entry["tool_name"] = definition["name"] = entry["variant"] = self.variant.name
            definition["title"] = f"{entry['program_id']} {self.variant.name}"  # unless it gives its own
        for key in ("title", "description"):
            if key in tool:
                definition[key] = tool[key]
        if "annotations" in tool:
            definition["annotations"] = {**definition.get("annotations", {}), **tool["annotations"]}
        if "timeout" in tool:
            entry["timeout"] = float(tool["timeout"])
        entry["definition"] = definition


@dataclasses.dataclass
class FolderOverrides:
    path: Path | None
    programs: dict[str, ProgramOverrides]  # upper-case PROGRAM-ID -> its overrides
    settings: dict[str, Any] = dataclasses.field(default_factory=dict)  # [folder]: dialect, copybooks, ...

    def dialect(self, given: str | None) -> str | None:
        """cobc's -std name: the command line's (``given``) wins over the file's."""
        return given if given is not None else self.settings.get("dialect")

    def source_format(self, given: str | None) -> str | None:
        return given if given is not None else self.settings.get("source-format")

    def include(self, given: tuple[Path, ...]) -> tuple[Path, ...]:
        """The copybook folders: the command line's, then the file's."""
        return (*given, *(p for p in self.settings.get("copybooks", ()) if p not in given))

    @property
    def data_dir(self) -> str | None:
        """Console programs' data folder (the command line's --data-dir wins where it is given)."""
        found: str | None = self.settings.get("data-dir")
        return found

    def folder_settings(self) -> FolderSettings:
        """The settings the manifest keeps for the folder (:class:`.entries.FolderSettings`)."""
        settings: FolderSettings = {"data_dir": self.data_dir, "database": self.settings.get("database")}
        if self.settings.get("datasets"):
            settings["datasets"] = self.settings["datasets"]
        if {"qualifier", "date-format", "time-format"} & set(self.settings):
            settings["sql"] = {"qualifier": self.settings.get("qualifier", ""),
                               "date": self.settings.get("date-format", "ISO"),
                               "time": self.settings.get("time-format", "ISO")}  # fmt: skip
        return settings

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


def _check_transactions(given: object, locate: Locator) -> None:
    """``[transactions]``: TRANSID (1-4 characters) = "PROGRAM" (1-8), as CICS names them."""
    if not isinstance(given, dict):
        where = locate.where(locate.key("transactions"))
        raise LinkageError(f'{where}: transactions must be a table of TRANSID = "PROGRAM"')
    for transid, program in given.items():
        where = locate.where(locate.key(transid, "transactions"))
        if not re.fullmatch(r"[A-Za-z0-9@#$]{1,4}", transid):
            raise LinkageError(f"{where}: transaction {transid!r} is not a CICS TRANSID (1-4 letters or digits)")
        if not isinstance(program, str) or not re.fullmatch(r"[A-Za-z0-9@#$-]{1,8}", program):
            raise LinkageError(f"{where}: transaction {transid}'s program must be a program name (1-8 characters)")


def read_overrides(folder: Path) -> FolderOverrides:
    """The folder's overrides (none when it has no ``cobol-mcp.toml``); LinkageError (file:line) when
    the file is not valid TOML or its [folder] table or its layout is wrong. A mistake in a program's
    table is that program's ``problem`` (file:line): it is not served, its neighbours are."""
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
    locate = Locator(path, text)
    for key in table:
        if key not in ("programs", "folder", "datasets", "transactions"):
            raise LinkageError(
                f"{locate.where(locate.key(key))}: unknown key {key!r} (expected [folder], [programs.NAME] and "
                "[[datasets]] tables, and [transactions])"
            )
    if "transactions" in table:  # CICS's TRANSID -> PROGRAM (START): read where the CICS programs are served
        _check_transactions(table["transactions"], locate)
    settings = check_folder(table["folder"], locate, folder) if "folder" in table else {}
    if "datasets" in table:  # the CICS files: checked (strictly, file:line) where they are created, at start
        if not isinstance(table["datasets"], list):
            raise LinkageError(
                f"{locate.where(locate.key('datasets'))}: datasets must be an array of tables ([[datasets]])"
            )
        settings["datasets"] = str(path)
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
        found = programs[name.upper()] = ProgramOverrides(name, line, {}, {}, locate, containers=body.get("containers"))
        try:  # a mistake in a program's table keeps that program from being served, not its neighbours
            found.tool, found.fields = check_program(name, body, locate)
            found.variants = read_variants(name, body, found.tool, found.fields, locate)
        except LinkageError as exc:
            found.problem = f"{exc}; {name} is not served"
        found.plain = not found.variants or bool(body.get("plain-tool"))
    return FolderOverrides(path, programs, settings)


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
    if len(path) == 1 and "view" in keys:
        f = choose_view(f, path[0], keys["view"], where)
    children = tuple(_replace_in(c, path[1:], keys, where) if c.name.upper() == path[0] else c for c in f.children)
    return replace(f, children=children)


def _item(f: Field, path: list[str]) -> Field:
    """The item at ``path`` (names below ``f``)."""
    for name in path:
        f = next(c for c in f.children if c.name.upper() == name)
    return f


def _field(f: Field, keys: dict[str, Any], where: str) -> Field:
    from ..records.codec import FieldError, encode_scalar
    from ..records.items import decode_bytes

    if f.usage == "pointer" and set(keys) - {"hidden"}:
        key = sorted(set(keys) - {"hidden"})[0]
        raise LinkageError(f"{where}: {key}: {f.name} is USAGE POINTER, an address: never part of the JSON, "
                           "given binary zeros (NULL); only hidden = true names it")  # fmt: skip

    if f.any_length and {"bytes", "value", "default"} & set(keys):
        key = sorted({"bytes", "value", "default"} & set(keys))[0]
        raise LinkageError(f"{where}: {key}: {f.name} is PIC X ANY LENGTH: its argument is a string of "
                           "its own length, always given")  # fmt: skip
    if "max-length" in keys:
        if not f.any_length:
            raise LinkageError(f"{where}: max-length needs a PIC X ANY LENGTH item; {f.name} is {kind(f)}")
        f = replace(f, any_length=keys["max-length"], size=4 + keys["max-length"])
    if "direction" in keys:
        f = redirect(f, keys["direction"], f"set by {where}")
    if "keep-trailing-spaces" in keys:
        if f.is_group or f.category != "alphanumeric":
            raise LinkageError(f"{where}: keep-trailing-spaces needs a PIC X item; {f.name} is {kind(f)}")
        f = replace(f, trim=not keys["keep-trailing-spaces"])
    if "bytes" in keys:
        f = as_bytes(f, keys["bytes"], where)
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
            if f.encoding:  # written in the item's encoding; kept as its bytes
                try:
                    value = decode_bytes(f, keys[key], f.name).decode("latin-1")
                except FieldError as exc:
                    raise LinkageError(f"{where}: {key}: {exc}") from None
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
    return replace(f, **changes)


def _typed(f: Field, value: str | int | float, where: str) -> Decimal | str:
    if f.category in ("numeric", "float"):
        try:
            return Decimal(str(value))
        except ArithmeticError:
            raise LinkageError(f"{where}: {value!r} is not a number for {f.name}") from None
    return str(value)


def _check_unique(records: list[Record], spec: ProgramSpec, where: str) -> None:
    """No two properties of one object share a name: the items shown in each group, at every level."""

    def walk(group: Field) -> None:
        shown = [c for c in group.children if c.exposed]
        keys = [c.key for c in shown if c.key is not None]
        dup = next((k for k in keys if keys.count(k) > 1), None)
        if dup:
            raise LinkageError(f"{where}: two items of {group.name} in {spec.program_id} would be named {dup!r}")
        for c in shown:
            if c.is_group:
                walk(c)

    for r in records:
        if r.field.is_group:
            walk(r.field)
    keys = [r.key for r in records]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup:
        raise LinkageError(f"{where}: two USING records of {spec.program_id} would be named {dup!r}")
