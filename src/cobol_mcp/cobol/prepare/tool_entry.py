"""A compiled program's manifest entry (:mod:`.entries`): its tool definition and what runs it.

A callable program gets its COBOL caller compiled (:mod:`.driver`, or :mod:`.value_caller` for BY VALUE
and ANY LENGTH parameters); a console program (no USING) gets its executable (:mod:`.executable`) and the
inputs and files its source shows. The folder's overrides are applied last. Only the cold path (the
manifest being made) imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import log
from .. import LinkageError
from ..linkage.storage import file_record_sizes
from ..records import schema
from ..source.console import ConsoleInputs, FileUse, console_inputs
from .cobc import BuildError
from .driver import MAX_RECORDS, build_driver
from .executable import build_executable
from .sql import sql_entry

if TYPE_CHECKING:
    from pathlib import Path

    from ..linkage.model import ProgramSpec
    from .entries import CallableEntry, ConsoleEntry, Entry
    from .entries import FileUse as FileUseEntry
    from .programs import CompiledProgram


def program_entry(program: CompiledProgram, bundled: bool, cache_dir: Path | None, sql_folder: bool = False) -> Entry:
    """The entry of a callable program, or of a console program (built as an executable, its own run
    unit), with the folder's overrides; LinkageError or BuildError when it cannot be served. ``sql_folder``:
    the folder has EXEC SQL programs, which a console program without EXEC SQL of its own may CALL: it is
    linked with the run unit's SQLRT too, and its entry says so (``sql_calls``)."""
    entry: Entry
    if bundled or not is_console(program):
        entry = callable_entry(program, bundled)
    else:
        std = program.spec.dialect
        sql = program.sql  # EXEC SQL: the precompiled text is built, with the run unit's SQLRT
        executable = build_executable(
            sql.source if sql else program.spec.source,
            cache_dir,
            source_format=program.spec.source_format,
            include=tuple(str(folder) for folder in (sql.include if sql else program.include)),
            extra_flags=(() if std == "default" else (f"-std={std}",)) + (sql.flags if sql else ()),
            sql=sql is not None or sql_folder,
        )
        entry = console_entry(program, executable, bundled)
        if sql is None and sql_folder:
            entry["sql_calls"] = True
            entry["definition"]["annotations"]["readOnlyHint"] = False  # its subprograms' SQL may change data
        if sql is not None:
            entry["sql"] = sql_entry(sql, program.spec.source, program.spec.source_format, std, program.folder)
            if any(s.kind.split()[0] in CHANGES_DATA for s in sql.statements):  # it changes the database
                entry["definition"]["annotations"]["readOnlyHint"] = False
    if program.overrides is not None and program.overrides.containers is not None:  # a channel-style program
        from .channel import channel_entry

        channel_entry(entry, program)
    if program.overrides is not None:
        program.overrides.apply_to_entry(entry)
    return entry


# The statements that change the database: a batch program with one is not read-only.
CHANGES_DATA = frozenset({"INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE", "CREATE", "DROP", "ALTER"})


def is_console(program: CompiledProgram) -> bool:
    return not program.spec.records


def callable_entry(program: CompiledProgram, bundled: bool) -> CallableEntry:
    """The entry of a program called with LINKAGE records, with its COBOL caller compiled."""
    spec = program.spec
    # Calls go through the COBOL caller (EXIT PROGRAM returns, RETURN-CODE is reset): it is kept in
    # the same cache as the program's module.
    driver, caller = None, ""
    if any(record.by_value or record.field.any_length for record in spec.records):
        from .value_caller import build_value_caller

        # BY VALUE and ANY LENGTH items need a caller of the program's own shape; without it they
        # cannot be passed
        driver, caller = build_value_caller(spec, program.module.parent.parent)
    elif len(spec.records) <= MAX_RECORDS:
        try:
            driver = build_driver(program.module.parent.parent)
        except BuildError as exc:  # the program itself compiled: it is still served, called directly
            log.error(f"the COBOL caller could not be compiled; EXIT PROGRAM will not return: {exc}")
    else:
        log.warning(
            f"{spec.source}: {spec.program_id} has over {MAX_RECORDS} USING records: called directly, "
            "so EXIT PROGRAM does not return (end it with GOBACK)"
        )
    entry: CallableEntry = {
        "kind": "callable",
        "tool_name": spec.tool_name,
        "program_id": spec.program_id,
        "module": str(program.module),
        "symbol": spec.entry_symbol,
        "driver": str(driver) if driver else None,
        "driver_symbol": caller,
        "sizes": [record.size for record in spec.records] + [1] * padding(spec),
        "padding": padding(spec),
        "bundled": bundled,
        "definition": {
            "name": spec.tool_name,
            "title": spec.program_id,
            "description": spec.description or f"COBOL program {spec.program_id}.",
            "inputSchema": schema.input_schema(spec),
            "outputSchema": schema.output_schema(spec),
        },
        "spec_path": str(program.spec_path),
        "source": str(program.cics.original if program.cics else program.spec.source),
    }
    if program.cics is not None:
        home = program.folder or program.cics.original.parent
        entry["cics"] = {"original": str(program.cics.original), "folder": str(home),
                         "commands": list(program.cics.commands)}  # fmt: skip
    if program.sql is not None:
        original = program.cics.original if program.cics else spec.source  # (a CICS program's: not its translation)
        entry["sql"] = sql_entry(program.sql, original, spec.source_format, spec.dialect, program.folder)
    return entry


def padding(spec: ProgramSpec) -> int:
    """One-byte parameters passed after the records only to make the call's parameter count right."""
    return max(0, spec.call_params - len(spec.records))


_OUTPUT_PROPERTIES: dict[str, Any] = {
    "stdout": {"type": "string", "description": "What the program DISPLAYed."},
    "stderr": {"type": "string", "description": "What it DISPLAYed UPON SYSERR (and runtime messages)."},
    "return_code": {"type": "integer", "description": "RETURN-CODE at STOP RUN / GOBACK (the exit status)."},
    "signal": {"type": "string", "description": "The signal that killed the run unit (SIGSEGV, ...), if one did."},
    "location": {"type": "string", "description": "FILE:LINE where libcob caught that signal, when it says."},
    "partial": {"type": "boolean", "description": "True when the run unit died: the output is what it wrote."},
}
_FILES_OUTPUT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": {"type": "string"},
    "description": "Text files the program wrote (OUTPUT/EXTEND), by ASSIGN name.",
}


def console_output_schema(writes_files: bool) -> dict[str, Any]:
    """The result of a console program: ``files`` only for one that opens a file OUTPUT or EXTEND."""
    files = {"files": _FILES_OUTPUT} if writes_files else {}
    return {
        "type": "object",
        "properties": {**_OUTPUT_PROPERTIES, **files},
        "required": ["stdout", "stderr", "return_code"],
    }


def _file_use(use: FileUse, size: int | None) -> FileUseEntry:
    """A file's manifest entry: a record sequential file's record size with it, where its FD gives one."""
    entry: FileUseEntry = {"assign": use.assign, "modes": use.modes}
    if use.organization == "sequential" and size:
        entry["record"] = size
    return entry


def console_entry(program: CompiledProgram, executable: Path, bundled: bool) -> ConsoleEntry:
    """The entry of a console program: its executable and its derived definition."""
    spec = program.spec
    folders = [book.parent for book in spec.copybooks]
    inputs = console_inputs(spec.source, spec.source_format, folders)
    sizes = file_record_sizes(spec.source, spec.source_format, folders, spec.dialect) if inputs.files else {}
    for select, use in inputs.files.items():
        if use.escapes:
            raise LinkageError(
                f"{spec.source}: SELECT {select} ASSIGN TO {use.assign!r} reaches outside the "
                "data directory (use a plain file name)"
            )
    modes = {mode for use in inputs.files.values() for mode in use.modes}
    writes = bool(modes & {"OUTPUT", "EXTEND", "I-O"})
    description = spec.description or f"COBOL console program {spec.program_id}."
    if inputs.files:
        description += " Files: " + "; ".join(
            f"{use.assign} ({select}, {'/'.join(use.modes) or 'not opened'})" for select, use in inputs.files.items()
        )
    return {
        "kind": "console",
        "tool_name": spec.tool_name,
        "program_id": spec.program_id,
        "module": str(executable),
        "callable": str(program.module),  # its `cobc -m` module: other programs may CALL it
        "bundled": bundled,
        "definition": {
            "name": spec.tool_name,
            "title": spec.program_id,
            "description": description,
            "inputSchema": console_input_schema(inputs),
            "outputSchema": console_output_schema(bool(modes & {"OUTPUT", "EXTEND"})),
            "annotations": {"readOnlyHint": not writes, "destructiveHint": "OUTPUT" in modes},
        },
        "files": {select: _file_use(use, sizes.get(select)) for select, use in inputs.files.items()},
        "spec_path": str(program.spec_path),
    }


def console_input_schema(inputs: ConsoleInputs) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    if inputs.stdin:
        properties["input"] = {
            "type": "string",
            "description": "Text fed to the program's standard input, one line per ACCEPT (it ACCEPTs "
            + ", ".join(inputs.stdin)
            + "). An ACCEPT past the last line gets spaces/zeros.",
        }
    if inputs.args:
        properties["args"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "The command line, one string per argument (it ACCEPTs "
            + ", ".join(inputs.args)
            + " from it).",
        }
    readable = [use.assign for use in inputs.files.values() if use.modes == ["INPUT"]]
    if readable:
        properties["files"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {name: {"type": "string"} for name in readable},
            "description": "Optional text of input files for this call only, by ASSIGN name ("
            + ", ".join(readable)
            + "); one record per line. Files not given are read "
            "from the data directory.",
        }
    return {"type": "object", "properties": properties, "additionalProperties": False}
