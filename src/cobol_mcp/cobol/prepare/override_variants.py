"""Tool variants of ``cobol-mcp.toml`` (see :mod:`.overrides`): one program, several tools.

Each ``[programs.PROGRAM.tools.NAME]`` table is a tool named NAME that calls the program. It takes the
keys of a program table but ``name`` (its name is its table's) and ``tools``: ``title``, ``description``,
``annotations``, ``timeout`` and ``fields.ITEM`` tables with every key a field table takes. What it does
not say it inherits from ``[programs.PROGRAM]``: its title, description and timeout when it gives none,
each annotation it does not set, and each field table, merged key by key with its own for an item both
name (the variant's keys win; hiding an item drops the program's ``rename``, ``default`` and
``description`` of it, showing it drops the program's ``value``). A merged field table is checked again
as one. The program's own tool is published beside its variants only with ``plain-tool = true``.

Two tools of a folder must not share a name: a variant named like another variant or another tool of
the folder keeps its program (variants and all) from being served (:func:`clashes`).

Owns: reading, checking and merging the variant tables of one program table; the folder's tool names.
May import: :mod:`..`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from .override_keys import Locator, check_field, check_variant

__all__ = ["Variant", "clashes", "read_variants"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """One ``[programs.PROGRAM.tools.NAME]`` table, merged with its program's keys."""

    name: str  # the tool's name: its table's key
    line: int  # where its table opens
    tool: dict[str, Any]  # title, description, annotations, timeout: its own over the program's
    fields: dict[str, dict[str, Any]]  # item -> its keys, the program's merged with its own
    own: frozenset[str]  # the items (upper case) its own table names: their mistakes are at its lines


def read_variants(
    program: str, body: dict[str, Any], tool: dict[str, Any], fields: dict[str, dict[str, Any]], locate: Locator
) -> list[Variant]:
    """The variants of the program table ``body`` (whose checked tool keys and field tables are ``tool``
    and ``fields``), in the file's order; LinkageError (file:line) for the first mistake in one."""
    variants: list[Variant] = []
    for name, table in body.get("tools", {}).items():
        own_tool, own_fields = check_variant(program, name, table, locate)
        merged_tool = {key: value for key, value in tool.items() if key not in ("name", "annotations")}
        merged_tool.update({key: value for key, value in own_tool.items() if key != "annotations"})
        annotations = {**tool.get("annotations", {}), **own_tool.get("annotations", {})}
        if annotations:
            merged_tool["annotations"] = annotations
        ours = {item.strip().upper(): item for item in own_fields}
        merged: dict[str, dict[str, Any]] = {
            item: keys for item, keys in fields.items() if item.strip().upper() not in ours
        }
        for item, keys in own_fields.items():
            inherited = next((k for i, k in fields.items() if i.strip().upper() == item.strip().upper()), {})
            dropped = _DROPPED_BY_HIDDEN if keys.get("hidden") else ("value",) if "hidden" in keys else ()
            combined = {**{k: v for k, v in inherited.items() if k not in dropped}, **keys}
            merged[item] = check_field(program, item, combined, locate, ("tools", name))  # checked as one
        line = locate.table("programs", program, "tools", name)
        variants.append(Variant(name, line, merged_tool, merged, frozenset(ours)))
    return variants


_DROPPED_BY_HIDDEN = ("rename", "default", "description")


def clashes(tools: list[tuple[str, tuple[str, str], str | None]]) -> dict[tuple[str, str], str]:
    """The programs to refuse, each with its error, for tools of a folder that share a name, one of
    them a variant: ``tools`` holds (tool name, (source, PROGRAM-ID), file:line of its variant table or
    None for a program's own tool)."""
    named: dict[str, list[tuple[tuple[str, str], str | None]]] = {}
    for name, program, where in tools:
        named.setdefault(name, []).append((program, where))
    refused: dict[tuple[str, str], str] = {}
    for name, group in named.items():
        for index, (program, where) in enumerate(group):
            if len(group) < 2 or where is None:
                continue
            others = "; ".join(
                f"the tool variant at {at}" if at else f"the tool of {other[1]} ({Path(other[0]).name})"
                for n, (other, at) in enumerate(group)
                if n != index
            )
            message = f"{where}: tools.{name}: that tool name is also {others}; {program[1]} is not served"
            refused.setdefault(program, message)
    return refused
