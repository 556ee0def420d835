"""EIBTASKN unique across the servers sharing a database (:mod:`cobol_mcp.db.cics.tasks`), on SQLite and
a real PostgreSQL: replicas in containers (every one pid 1), a replica restarted, processes and threads
taking numbers at once, and the wrap after 9999999."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading

from cobol_mcp.db.cics import tasks
from cobol_mcp.db.cics.fct import DatasetDef
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from .cics_fixtures import db, fct

__all__ = ["db", "fct"]

# A server process: its pid faked to 1 (as in a container), it makes CICS call sessions and prints
# the EIBTASKN each got.
REPLICA = textwrap.dedent("""
    import json, os, sys
    os.getpid = lambda: 1
    from cobol_mcp.db.url import Database
    from cobol_mcp.sqlbridge.cics import CicsProgram, CicsSession
    program = CicsProgram("CUSTFRNT", "CUSTFRNT.cbl", Database(sys.argv[1], sys.argv[2]), {})
    print(json.dumps([CicsSession(program).eib.task for _ in range(int(sys.argv[3]))]))
""")


def replica(db: Database, calls: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", REPLICA, db.kind, db.target, str(calls)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})  # fmt: skip


def numbers_of(proc: subprocess.Popen[str]) -> list[int]:
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    numbers: list[int] = json.loads(out)
    return numbers


def test_replicas_with_the_same_pid_and_a_restarted_one_never_share_a_number(
    db: Database, fct: dict[str, DatasetDef]
) -> None:
    calls = tasks.BLOCK + 5  # more than one block each
    running = [replica(db, calls) for _ in range(3)]  # three replicas at once, all "pid 1"
    seen = [n for proc in running for n in numbers_of(proc)]
    seen += numbers_of(replica(db, calls))  # one of them restarted: pid 1 again, a fresh process
    assert len(seen) == 4 * calls and len(set(seen)) == len(seen), sorted(seen)
    assert all(1 <= n <= tasks.LIMIT for n in seen)


def test_threads_of_one_process_and_two_allocators_interleaved(db: Database, fct: dict[str, DatasetDef]) -> None:
    one, other = tasks.TaskNumbers(db, block=3), tasks.TaskNumbers(db, block=3)
    taken: list[int] = []
    lock = threading.Lock()

    def take(numbers: tasks.TaskNumbers) -> None:
        for _ in range(25):
            n = numbers.take()
            with lock:
                taken.append(n)

    threads = [threading.Thread(target=take, args=(numbers,)) for numbers in (one, other) * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(taken) == 200 and len(set(taken)) == 200


def test_the_numbers_wrap_after_seven_digits(db: Database, fct: dict[str, DatasetDef]) -> None:
    conn = connect(db)
    try:
        marker = "?" if db.kind == "sqlite" else "%s"
        conn.execute(f"UPDATE cics_tasks SET reserved = {marker} WHERE id = 1", [tasks.LIMIT - 2])
        conn.commit()
    finally:
        conn.close()
    numbers = tasks.TaskNumbers(db, block=2)
    assert [numbers.take() for _ in range(4)] == [tasks.LIMIT - 1, tasks.LIMIT, 1, 2]


def test_a_block_is_reserved_while_a_call_holds_the_write_lock(db: Database, fct: dict[str, DatasetDef]) -> None:
    """A call's unit of work that has written (SQLite's write lock, PostgreSQL's row lock) and waits, as a
    COBOL worker waits for the server before it commits: the server must still reserve task numbers."""
    holder = connect(db)
    try:
        if db.kind == "sqlite":
            holder.execute("BEGIN")
            holder.execute("INSERT INTO cics_ts_items (queue, item, data) VALUES (?, 1, ?)", ["HELD", b"x"])
        else:
            holder.execute("INSERT INTO cics_ts_items (queue, item, data) VALUES (%s, 1, %s)", ["HELD", b"x"])
        numbers = tasks.TaskNumbers(db, block=2)
        taken = [numbers.take() for _ in range(5)]  # three reservations, all while the lock is held
        assert taken == sorted(set(taken)) and len(taken) == 5
        holder.rollback()
    finally:
        holder.close()
    later = tasks.TaskNumbers(db, block=2).take()  # another allocator: after every number the first reserved
    assert later > taken[-1]
