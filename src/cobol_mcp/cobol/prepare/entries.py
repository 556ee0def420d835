"""The typed shape of what the start-up manifest keeps per program and per folder.

A manifest entry is plain data (it is read back from JSON on the warm start path, which must not import
the parser): TypedDicts type it for the checker and cost nothing at run time, since every reader imports
this module only for type checking. :mod:`.tool_entry` makes the entries; :mod:`cobol_mcp.cobol.tool` and
:mod:`cobol_mcp.cobol.console_tool` run them.

A per-folder setting (the overrides file's ``[folder]`` table, such as ``data-dir``) is one key of
:class:`FolderSettings`, filled by :meth:`.overrides.FolderOverrides.folder_settings`; the manifest keeps
one per backend, so a new setting changes that pair and its reader, and no program entry.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class FolderSettings(TypedDict):
    """One backend's settings from its folder's ``cobol-mcp.toml`` (the command line wins where it gives one)."""

    data_dir: str | None  # console and file programs' data folder (--data-dir wins)
    database: str | None  # EXEC SQL programs' database URL (None: cobol-mcp.db in the data folder)
    datasets: NotRequired[str]  # the cobol-mcp.toml whose [[datasets]] are the CICS files (db.cics.fct)
    sql: NotRequired[SqlOptions]  # EXEC SQL programs' BIND and precompiler options
    layout: NotRequired[list[str]]  # an application folder: what was found where (said at every start)


class SqlOptions(TypedDict):
    """A folder's EXEC SQL options: DB2's BIND QUALIFIER ("" none) and DATE/TIME precompiler options."""

    qualifier: str
    date: str  # ISO, USA, EUR or JIS
    time: str


class ToolEntry(TypedDict):
    """What every program entry has: its tool, where it came from, the overrides' timeout."""

    tool_name: str
    program_id: str
    module: str  # what runs: the `cobc -m` module (callable) or the executable (console)
    bundled: bool  # one of the programs the package ships
    definition: dict[str, Any]  # the MCP tool definition (name, title, description, schemas, annotations)
    spec_path: str  # the parsed spec, loaded on first call
    timeout: NotRequired[float]  # the overrides file's timeout for this tool
    variant: NotRequired[str]  # the [programs.PROGRAM.tools.NAME] this tool is (one program, several tools)
    sql: NotRequired[SqlEntry]  # a program with EXEC SQL: what its statements need at load


class CallableEntry(ToolEntry):
    """A program called with LINKAGE records in a warm worker."""

    kind: Literal["callable"]
    symbol: str  # its entry point in the module
    driver: str | None  # the COBOL caller's module (None: called directly)
    driver_symbol: str  # the caller's entry when it is the program's own (BY VALUE, ANY LENGTH); "" otherwise
    sizes: list[int]  # the records' sizes, then one byte per padding parameter
    padding: int  # one-byte parameters passed after the records (see ProgramSpec.call_params)
    source: str  # the program's source file (a failed rebuild keeps the last good entry of that source)
    cics: NotRequired[CicsEntry]  # a program with EXEC CICS: its CALL 'CICSRT's are answered (cicsbridge)
    channel: NotRequired[ChannelEntry]  # a channel-style CICS program: its tool is its containers (.channel)


class SqlEntry(TypedDict):
    """A precompiled program (:mod:`.sql`): what preparing its statements at load needs."""

    source: str  # the precompiled text cobc compiled, in its own folder with its copybooks
    original: str  # the user's source (its statement table, its file:line in messages)
    format: str  # its source format
    include: list[str]  # the copybook folders of the precompiled text, in order
    dialect: str  # cobc -std the layout follows
    folder: str  # the programs folder (where the default database file is)


class CicsEntry(TypedDict):
    """A translated program (:mod:`.cics`): each CALL 'CICSRT' passes its command's descriptor, so the
    runtime needs only where it came from."""

    original: str  # the user's source (its file:line in messages)
    folder: str  # the programs folder (where the default database file is)
    commands: list[str]  # its CICS commands in source order, for `check`


class ContainerEntry(TypedDict):
    """One container of a channel-style program's tool (:mod:`.channel`)."""

    name: str  # as the program names it in CONTAINER(…)
    key: str  # its property in the tool's input and output
    direction: str  # in | out | inout
    spec_path: str  # its record, a spec of one record


class ChannelEntry(TypedDict):
    """A channel-style CICS program's channel: its name and containers (:mod:`.channel`)."""

    name: str
    containers: list[ContainerEntry]


class FileUse(TypedDict):
    """A file a console program SELECTs: its ASSIGN name and the OPEN modes it uses."""

    assign: str
    modes: list[str]
    record: NotRequired[int]  # a record sequential file's record size: its text is one record per line


class ConsoleEntry(ToolEntry):
    """A program without USING, run as its own executable (ACCEPT/DISPLAY, files)."""

    kind: Literal["console"]
    callable: str  # its `cobc -m` module too: other programs may CALL it
    sql_calls: NotRequired[bool]  # no EXEC SQL of its own, linked with SQLRT for the folder's that it CALLs
    files: dict[str, FileUse]  # by SELECT name


Entry = CallableEntry | ConsoleEntry
