"""The worker runtime: the one boundary behind which COBOL runs. Nothing else loads libcob.

Owns: :mod:`.scheduler` (the pool's decisions without I/O: backlog, choosing a worker, stall and
deadline, matching replies to calls; time is an argument), :mod:`.pool` (the Runtime: the pipes,
processes and clock around it, faults as results), :mod:`.rununit` (a main program run as its own
run unit) with :mod:`.unit_channel` (a run unit's ``CALL 'SQLRT'`` answered while it runs; its C side,
``rununit_sql.c``, is linked into the executable of a console program with EXEC SQL) and :mod:`.gate`
(the data directory's lock across processes: one writer or many readers),
:mod:`.frames` (the pipe formats and the per-call and per-worker state), :mod:`.process` (spawning
and reaping), :mod:`.faults` (how a worker or a run unit died, in words) and
:mod:`.worker` (the worker process itself: run as a script, standard library only), and
``worker.c`` (with ``worker.h``, ``worker_frames.c``, ``worker_load.c``, ``worker_services.c``), the
same worker in C, run where it was built (by :mod:`..prepare.native_worker`, whose path the server
passes in); on SQLite it runs a call's EXEC SQL statements itself (``worker_sql.c`` with
``worker_sql.h``, ``worker_sqlite.c``, ``worker_sqlnum.c``, ``worker_sqlvalue.c``; the plans the server
gives it: :mod:`cobol_mcp.sqlbridge.inworker`).
May import: :mod:`cobol_mcp.selectloop`, :mod:`cobol_mcp.log` and the standard library. It knows
bytes, not records. A running call may ask the server mid-call (an EXEC SQL statement: the C
worker's ``SQLRT`` entry): :class:`.frames.Exchange`, answered through the ``service`` of
:meth:`.pool.Runtime.submit`.
"""
