"""The bridge between a precompiled COBOL program and the SQL runtime: host-variable bytes <-> SQL values.

Owns: :mod:`.hosts` (each statement's host variables resolved to the program's data items: offset,
size, USAGE, PICTURE; VARCHAR groups, host structures and indicator arrays expanded; the statement
table with structures written out for the translator) and :mod:`.session` (a program prepared against
its folder's database, and one tool call's session: the service handler that turns a ``CALL 'SQLRT'``'s
parameter bytes into a statement of the call's unit of work and the results back into bytes and the
SQLCA; commit on a normal end, rollback on any failure), :mod:`.inworker` (on SQLite, each statement's
plan for the C worker, which then runs the call's statements itself, and the session of such a call);
and the CICS runtime of a translated EXEC CICS
program (:mod:`.cics_eib`: the command descriptor, the EIB, the HANDLE table and the AEIx abend codes;
:mod:`.cics`: one tool call's session answering its ``CALL 'CICSRT'`` exchanges through
:mod:`cobol_mcp.db.cics` on the call's unit of work; :mod:`.cics_task`: GETMAIN/FREEMAIN's answers,
ENQ/DEQ, DELAY and FORMATTIME; :mod:`.cics_served`: the folder's datasets created
at load, a session per call; :mod:`.cics_channels`: the task's channels and containers, in memory;
:mod:`.cics_channel_tool`: a channel-style program's tool, its containers in and out).
Both kinds of session run their database work off the reply loop
(:mod:`.answers`).

Why a package of its own: :mod:`cobol_mcp.db` (SQL, knows no COBOL) and :mod:`cobol_mcp.cobol` (COBOL,
knows no SQL) are one layer and independent; the bridge needs both (the codec and the record layout on
one side, the plan and the unit of work on the other), so it sits directly above them and below what
builds the tools (:mod:`cobol_mcp.manifest`, :mod:`cobol_mcp.server`), which wire it into a call.
May import: :mod:`cobol_mcp.cobol` (precompile, linkage, records) and :mod:`cobol_mcp.db`.
"""
