"""The database side of EXEC SQL: DB2's SQL carried over to SQLite and PostgreSQL, and ``db apply``.

Owns: :mod:`.lexer` (DB2's lexical rules), :mod:`.names` (schemas on each database, DB2's BIND QUALIFIER),
:mod:`.dates` (DB2's string forms of dates, times and timestamps), :mod:`.expr`
and :mod:`.dml` (statements and expressions), :mod:`.ddl` (CREATE TABLE/INDEX, and how DB2's types
are stored), :mod:`.catalog` (column types kept beside the data), :mod:`.errors` (driver errors as
DB2's SQLCODE and SQLSTATE), :mod:`.url` (where a folder's database is), :mod:`.script` (SPUFI input)
and :mod:`.apply` (the ``db apply`` command); the runtime: :mod:`.prepare` (a program's statement table
translated once), :mod:`.values` (host-variable values to the driver and back), :mod:`.connection`
(a unit's connection), :mod:`.exact` and :mod:`.arith` (DECIMAL arithmetic and durations, exact, on
SQLite), :mod:`.scroll` (scrollable cursors), :mod:`.results` (an SQLCA, a statement's outcome, an
open cursor), :mod:`.unit` (one tool call's unit of work: statements executed with DB2's SQLCODEs,
cursors, commit and rollback) and :mod:`.quick` (SQLite statements that cannot wait, run at once).
May import: the standard library, and psycopg (an optional extra) inside functions only; never the
transports, the server or the COBOL packages, which in turn reach it only where the runtime is wired in.

Why a hand-written translator rather than sqlglot: measured on this machine, ``import sqlglot``
(30.30, 8.2 MB installed) costs 140-470 ms against 30-45 ms for ``sqlite3``, and out of the box it
fails on exactly the DB2 this must read: ``GENERATED ALWAYS AS IDENTITY (START WITH 1, INCREMENT BY
1, …)`` is a parse error, ``CURRENT DATE`` and ``CURRENT TIMESTAMP`` become column aliases
(``CURRENT AS DATE``), ``:WS-NAME:WS-IND`` and ``:HV INDICATOR :IND`` do not parse, and ``CHAR(x)``
turns into PostgreSQL's ``CHR(x)``, another function. A DB2 dialect would mean subclassing its
tokenizer, parser and both generators, and would still not know how values are stored here
(scaled DECIMAL, DB2's ISO date text on SQLite). What DB2 programs write is a small, known set of
constructs; a tokenizer that knows DB2's lexical rules plus targeted rewrites covers them in a few
hundred lines, costs nothing at import, and says precisely what it does not translate.
"""
