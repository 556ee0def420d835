"""CICS's resources as services over the folder's database: files (VSAM datasets), TS and TD queues, named counters.

The CICS runtime decodes a command's parameters and calls these; they answer CICS's conditions
(:class:`.result.Result`: RESP, RESP2 and what the command sets) and keep no state another replica
needs: records, queue items and counter values are rows of the folder's database, changed on the
connection of the tool call's SQL unit of work (:meth:`..unit.Unit.begin`), so that SQL, file control
and queues commit together at a normal end or SYNCPOINT and roll back together.

Owns: :mod:`.store` (the tables), :mod:`.result` (RESP/RESP2 values), :mod:`.fct` (the ``[[datasets]]``
of ``cobol-mcp.toml`` checked, and datasets created and loaded), :mod:`.files` (file control),
:mod:`.queues` (TS and TD), :mod:`.counters` (named counters), :mod:`.tasks` (EIBTASKN numbers
reserved in the database, unique across replicas), :mod:`.enq` (ENQ/DEQ: PostgreSQL advisory locks,
or this process's lock table on SQLite), :mod:`.resources` (all of them for one
unit of work, and SYNCPOINT), :mod:`.dispatch` (a command by name with its decoded options: what the
CICSRT runtime calls).
May import: the standard library, :mod:`..unit` and :mod:`..url` of this package, :mod:`cobol_mcp.log`
(CSMT/CSSL lines), and psycopg inside functions only.

Why inside :mod:`cobol_mcp.db`: the resources must run on the SQL unit's connection and transaction,
and the layers contract puts ``db`` beside ``cobol``; as a sub-package of ``db`` the runtime reaches them
exactly where it reaches :mod:`..unit`, with no new layer.
"""
