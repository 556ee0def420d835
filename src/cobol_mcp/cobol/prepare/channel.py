"""A channel-style CICS program as a tool: its containers, from ``[programs.NAME.containers.CONTAINER]``.

A program that takes its request in containers of its current channel (``GET CONTAINER``) and answers
in others (``PUT CONTAINER``) has no COMMAREA to show. The overrides file says which containers it
has, each with the copybook of its record (found like any COPY member: the program's folder, then the
copybook folders), its ``direction`` (in, out or inout) and optionally a ``description``; one
``channel`` (on any container, the same on all) names the channel the program sees (default
:data:`DEFAULT_CHANNEL`). Each container's record is parsed from a small program of our own that
COPYs the copybook (a copybook without a 01 level is put under one), and kept as a spec of its own
in the build cache. The tool's input has one property per in/inout container (the record's schema,
as the codec gives it), its output one per out/inout container; the property's name is the
container's, lower case, ``-`` as ``_``.

Every key is checked when the program's entry is made: an unknown key, a missing or unknown
copybook, a direction that is not in/out/inout, a container or channel name CICS would not take
(1-16 characters; containers: letters, digits, ``-`` and ``_``, so their property names are plain),
two containers with one property name, channels that disagree, or containers on a program without
EXEC CICS is a LinkageError naming the file and line: that program is not served, its neighbours are.
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import LinkageError
from ..linkage.direction import recombine, redirect
from ..linkage.frozen import replace
from ..linkage.program import parse_program
from ..records import schema
from ..source.copybooks import find_copybook, search_dirs
from ..source.lines import read_lines
from .specfile import dumps

if TYPE_CHECKING:
    from .entries import ContainerEntry, Entry
    from .programs import CompiledProgram

__all__ = ["CONTAINER_KEYS", "DEFAULT_CHANNEL", "channel_entry"]

DEFAULT_CHANNEL = "COBOL-MCP"
CONTAINER_KEYS = ("copybook", "direction", "channel", "description")
_DIRECTIONS = ("in", "out", "inout")
_CONTAINER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}")
_CHANNEL = re.compile(r"[A-Za-z0-9$@#/%&?!:|\"=,;<>.\-_]{1,16}")
_BOOK = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,29}")
_LEVEL = re.compile(r"^\s*(\d{1,2})\s+([A-Za-z0-9][A-Za-z0-9-]*)?")


def channel_entry(entry: Entry, program: CompiledProgram) -> None:
    """The entry of a program with a ``containers`` table made its channel-style tool (see the module);
    LinkageError (file:line) when the table is wrong."""
    overrides = program.overrides
    assert overrides is not None and overrides.containers is not None
    locate, name = overrides.locate, overrides.name
    table = ("programs", name, "containers")

    def bad(message: str, *where: str, key: str = "") -> LinkageError:
        line = locate.key(key, *table, *where) if key else locate.table(*table, *where)
        return LinkageError(f"{locate.where(line)}: programs.{name}.containers{''.join('.' + w for w in where)}"
                            f"{'.' + key if key else ''}: {message}")  # fmt: skip

    given = overrides.containers
    if not isinstance(given, dict) or not given:
        raise bad("must be a table of containers ([programs.NAME.containers.CONTAINER])")
    if program.cics is None or entry["kind"] != "callable":
        raise bad(f"{program.spec.program_id} has no EXEC CICS: only a CICS program has a channel")
    channels: set[str] = set()
    containers: list[ContainerEntry] = []
    inputs: dict[str, Any] = {}
    outputs: dict[str, Any] = {}
    required: list[str] = []
    for container, keys in given.items():
        if not _CONTAINER.fullmatch(container):
            raise bad("a container name is 1-16 letters, digits, - and _ (starting with a letter or digit)", container)
        if not isinstance(keys, dict):
            raise bad("must be a table (copybook, direction …)", container)
        for key, value in keys.items():
            if key not in CONTAINER_KEYS:
                raise bad(f"unknown key (known: {', '.join(CONTAINER_KEYS)})", container, key=key)
            if not isinstance(value, str):
                raise bad("must be a string", container, key=key)
        for key in ("copybook", "direction"):
            if key not in keys:
                raise bad(f"{key} is missing", container)
        if keys["direction"] not in _DIRECTIONS:
            raise bad(f"must be one of {', '.join(_DIRECTIONS)}", container, key="direction")
        if "channel" in keys:
            if not _CHANNEL.fullmatch(keys["channel"]):
                raise bad(f"{keys['channel']!r} is not a channel name CICS takes (1-16 characters, no blanks)",
                          container, key="channel")  # fmt: skip
            channels.add(keys["channel"])
            if len(channels) > 1:
                raise bad(f"the program has one channel: {' and '.join(sorted(channels))} disagree", container,
                          key="channel")  # fmt: skip
        prop = container.lower().replace("-", "_")
        if prop in inputs or prop in outputs or any(c["key"] == prop for c in containers):
            raise bad(f"two containers would both be the property {prop!r}", container)
        if not _BOOK.fullmatch(keys["copybook"]):
            raise bad(f"{keys['copybook']!r} is not a copybook name", container, key="copybook")
        where = locate.where(locate.key("copybook", *table, container))
        spec_path, box = _record(program, container, keys["copybook"], keys["direction"], where)
        description = keys.get("description") or f"The {container} container (copybook {keys['copybook']})."
        if keys["direction"] in ("in", "inout"):
            inputs[prop] = {"description": description, **box["in"]}
            if box["in"].get("required"):
                required.append(prop)
        if keys["direction"] in ("out", "inout"):
            outputs[prop] = {"description": description + " Absent when the program did not PUT it.", **box["out"]}
        containers.append({"name": container, "key": prop, "direction": keys["direction"], "spec_path": spec_path})
    channel = next(iter(channels), DEFAULT_CHANNEL)
    entry["channel"] = {"name": channel, "containers": containers}
    # its own records (the EIB, a COMMAREA of one byte) are neither arguments nor results: the containers are
    own = replace(program.spec, records=tuple(replace(r, direction="none") for r in program.spec.records))
    entry["spec_path"] = str(program.spec_path.parent.parent / "channels" / f"{program.spec_path.stem}.spec")
    _write(Path(entry["spec_path"]), dumps(own))
    definition = dict(entry["definition"])
    definition["inputSchema"] = {"type": "object", "properties": inputs, "additionalProperties": False}
    if required:
        definition["inputSchema"]["required"] = required
    definition["outputSchema"] = {"type": "object", "properties": outputs, "additionalProperties": False}
    entry["definition"] = definition


def _record(program: CompiledProgram, container: str, book: str, direction: str, where: str) -> tuple[str, Any]:
    """The container's record parsed from its copybook and kept as a spec file: (its path, its schemas)."""
    assert program.cics is not None
    original = program.cics.original
    path = find_copybook(book, None, search_dirs(original, program.include), where)
    fmt = program.spec.source_format
    levels = [m for line in read_lines(path, fmt) if (m := _LEVEL.match(line.code))]
    tops = [m.group(2) for m in levels if int(m.group(1)) == 1]
    if len(tops) > 1:
        raise LinkageError(f"{where}: copybook {book} holds {len(tops)} 01 records ({', '.join(map(str, tops))}); "
                           "a container is one record")  # fmt: skip
    if not levels or (tops and not tops[0]):
        raise LinkageError(f"{where}: copybook {book} ({path}) has no data items this server can read as a record")
    record = tops[0] if tops else f"{container.upper().replace('_', '-')}-RECORD"
    head = [] if tops else [f"       01  {record}."]
    text = "\n".join([
        "       IDENTIFICATION DIVISION.", f"       PROGRAM-ID. {program.spec.program_id}.", "       DATA DIVISION.",
        "       LINKAGE SECTION.", *head, f"       COPY {book}.", f"       PROCEDURE DIVISION USING {record}.",
        "           GOBACK.", "",
    ])  # fmt: skip
    folder = program.spec_path.parent.parent / "channels"
    folder.mkdir(parents=True, exist_ok=True)
    digest = zlib.crc32(f"{direction}\n{path}\n".encode() + path.read_bytes())  # another table or book: another file
    stem = f"{program.spec_path.stem}.{container}-{digest:08x}"
    source = folder / f"{stem}.cbl"
    _write(source, text.encode())
    try:
        spec = parse_program(source, fmt, (path.parent, original.parent, *program.include), program.spec.dialect)
    except LinkageError as exc:
        raise LinkageError(f"{where}: copybook {book} cannot be a container's record: {exc}") from None
    found = spec.records[0]
    found = recombine(replace(found, field=redirect(found.field, direction, f"set by {where}")))
    spec = replace(spec, records=(replace(found, key=container.lower().replace("-", "_")),))
    spec_path = folder / f"{stem}.spec"
    _write(spec_path, dumps(spec))
    return str(spec_path), {"in": schema.input_schema(spec), "out": schema.output_schema(spec)}


def _write(path: Path, data: bytes) -> None:
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
