"""EXEC CICS costs, in one run: a LINK against a plain COBOL CALL of the same program, and a file-control
READ by key against the same read through the database driver directly from Python.

    python bench/cics_cost.py [--count N] [--calls M] [--rows N] [--postgresql URL]

bench/cics/CICSBNCH.cbl (the driver) and CICSBCAL.cbl (a back end that counts in its COMMAREA and does
EXEC CICS RETURN) are translated and compiled as the server does, and run in the C worker; their CALL
'CICSRT' exchanges are answered by a :class:`cobol_mcp.sqlbridge.cics.CicsSession` on the answerer's
threads, as a tool call runs them (what is left out of a tool call: the JSON arguments and result).

- Per LINK inside a call: one call making N LINKs to CICSBCAL against one making N plain CALLs of it
  (``CALL WS-CALLEE USING DFHEIBLK WS-AREA``), per LINK or CALL; and, to see where the time goes, N
  CALLs of CICSBNUL (the same back end ending in GOBACK: the CALL alone) and N bare commands (IGNORE
  CONDITION: one exchange with the server each, nothing else). A LINK is one exchange (the LINK: the
  back end's RETURN is answered in the worker); a CALL of a program that ends with EXEC CICS RETURN is
  one (its RETURN).
- A whole call with one LINK against one with one CALL (and one with neither): M calls each (the
  session, its task number, the EIB, the call in the worker, the commit), per call.
- READ by key: N READs of the KSDS BENCHF (keys 1 … rows in turn) in one call, per READ: answered by
  the server (the way of a folder whose database work cannot run in the worker), and run in the C
  worker itself (:mod:`cobol_mcp.sqlbridge.cics_worker`); the file-control layer alone
  (``CicsSession.answer`` given the exchange's bytes, no worker); and the SELECT that layer runs,
  through sqlite3 or psycopg from Python, in one transaction.
"""

from __future__ import annotations

import argparse
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sql_cost import best, served_call

from cobol_mcp.cobol.prepare.cics import translate
from cobol_mcp.cobol.prepare.cobc import DEFAULT_FLAGS, build_module
from cobol_mcp.cobol.prepare.links import call_folder
from cobol_mcp.cobol.prepare.native_worker import build_worker
from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.db.cics.fct import create_datasets, parse_datasets
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge.answers import Tracked, answerer_for
from cobol_mcp.sqlbridge.cics import CicsProgram, CicsSession
from cobol_mcp.sqlbridge.cics_worker import CicsWorker

HERE = Path(__file__).parent / "cics"
EIB = bytes(85)
FCT = """
[[datasets]]
name = "BENCHF"
organization = "ksds"
record-length = 100
keys = [8, 0]
load = "benchf.txt"
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000, help="LINKs, CALLs or READs inside one call")
    parser.add_argument("--calls", type=int, default=300, help="whole calls with one LINK or one CALL")
    parser.add_argument("--rows", type=int, default=1000, help="records of BENCHF")
    parser.add_argument("--postgresql", help="a postgresql:// URL (a scratch database: the dataset BENCHF is made)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cics-cost-"))
    db = Database("postgresql", args.postgresql) if args.postgresql else Database("sqlite", str(folder / "b.db"))
    program, run, read_descriptor = _prepare(folder, db, args.rows)
    n = args.count

    def exchanges(mode: str, count: int) -> int:
        counted: list[int] = []
        run(mode, count, counted)
        return len(counted)

    print(f"{db.kind}: {n} LINKs/CALLs/READs per call, {args.calls} whole calls, {args.rows} records; best of 5 "
          "rounds, the figures of a row measured in turn in each round")  # fmt: skip
    per = rounds({mode: lambda mode=mode: run(mode, n) for mode in "LCPI"}, 5)
    base = exchanges("I", 0)  # the driver's own RETURN
    for mode, label in (("L", "LINK"), ("C", "CALL"), ("P", "CALL, GOBACK not RETURN"), ("I", "bare exchange")):
        trips = exchanges(mode, 1) - base
        print(f"  per {label:23s}{per[mode] / n * 1e6:8.1f} us   ({trips} exchange(s) with the server each)")
    print(f"  LINK/CALL inside a call   {per['L'] / per['C']:8.2f}      (target <= 2)")

    calls = {mode: lambda mode=mode, count=count: [run(mode, count) for _ in range(args.calls)]
             for mode, count in (("L", 1), ("C", 1), ("I", 0))}  # fmt: skip
    whole = rounds(calls, 3)
    for mode, count, label in (("L", 1, "one LINK"), ("C", 1, "one CALL"), ("I", 0, "neither")):
        trips = exchanges(mode, count)
        print(f"  whole call, {label:15s}{whole[mode] / args.calls * 1e6:8.1f} us   ({trips} exchange(s))")
    print(f"  LINK/CALL, whole calls    {whole['L'] / whole['C']:8.2f}      (target <= 2)")

    reads = rounds({"server": lambda: run("R", n), "worker": lambda: run("R", n, in_worker=True),
                    "layer": lambda: _layer_reads(program, read_descriptor, n, args.rows),
                    "bare": lambda: _bare_reads(db, n, args.rows)}, 5)  # fmt: skip
    bare = reads["bare"]
    print(f"  READ by key, the server's{reads['server'] / n * 1e6:8.1f} us   / driver {reads['server'] / bare:6.2f}"
          "  (each READ an exchange with the server)")  # fmt: skip
    print(f"  READ by key, in worker   {reads['worker'] / n * 1e6:8.1f} us   / driver {reads['worker'] / bare:6.2f}"
          "  (target <= 2)")  # fmt: skip
    print(f"  READ, file control alone {reads['layer'] / n * 1e6:8.1f} us   / driver {reads['layer'] / bare:6.2f}"
          "  (CicsSession.answer on the exchange's bytes: no worker)")  # fmt: skip
    print(f"  SELECT through the driver{bare / n * 1e6:8.1f} us")


def rounds(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Each function's shortest time over `repeat` rounds, the functions run in turn in each round (so a
    busy spell of the machine weighs on all of them alike)."""
    times = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            times[name] = min(times[name], best(fn, 1))
    return times


def _prepare(folder: Path, db: Database, rows: int) -> tuple[CicsProgram, Callable[..., int], bytes]:
    """The dataset made and loaded, both programs built, the runtime: (the driver's CicsProgram, a function
    running one call of it in a mode and answering BN-DONE, the READ's descriptor as the driver passes it)."""
    (folder / "benchf.txt").write_text("".join(f"{n:08d}RECORD NUMBER {n:08d}\n" for n in range(1, rows + 1)))
    _drop_benchf(db)
    defs = parse_datasets(tomllib.loads(FCT)["datasets"], folder / "cobol-mcp.toml", FCT, folder)
    create_datasets(db, defs)
    cache = folder / "cache"
    modules = {}
    read_descriptor = b""
    for stem in ("CICSBCAL", "CICSBNCH"):
        done = translate(HERE / f"{stem}.cbl", "fixed", (), folder / "gen" / stem)
        modules[stem] = build_module(done.source, cache, source_format="fixed", flags=(*DEFAULT_FLAGS, *done.flags),
                                     include=done.include)  # fmt: skip
        for book in (folder / "gen" / stem).rglob("*.cicsws"):
            read_descriptor = read_descriptor or _descriptor(book.read_text(encoding="latin-1"), "READ")
    modules["CICSBNUL"] = build_module(HERE / "CICSBNUL.cbl", cache, source_format="fixed")  # no EXEC CICS
    runtime = Runtime(max_workers=1, worker=str(build_worker(cache)), timeout=600,
                      library_path=[call_folder([(k, str(v)) for k, v in modules.items()], cache)])  # fmt: skip
    runtime.load("bench", modules["CICSBNCH"], "CICSBNCH", [85, 13])
    answerer = answerer_for(runtime)
    program = CicsProgram("CICSBNCH", str(HERE / "CICSBNCH.cbl"), db, {d.name: d for d in defs})

    def run(mode: str, count: int, counted: list[int] | None = None, in_worker: bool = False) -> int:
        worker = CicsWorker({}, program.fct, db) if in_worker else None  # (the folder's SQL programs: none)
        session = Tracked(CicsSession(program, worker=worker), answerer)
        area = mode.encode() + count.to_bytes(4, "big") + rows.to_bytes(4, "big") + bytes(4)
        assert session.first is not None
        if counted is not None:  # count the exchanges: each one is an answer the session gives
            inner = session.session.answer

            def answer(exchange: Any) -> list[bytes]:
                counted.append(1)
                return inner(exchange)

            session.session.answer = answer  # type: ignore[method-assign]
        call = served_call(runtime, "bench", session.first([EIB, area]), session)
        done = int.from_bytes(call.buffers[1][9:13], "big")
        assert done == count, (mode, count, done)
        return done

    return program, run, read_descriptor


def _descriptor(book: str, command: str) -> bytes:
    """The text of `command`'s descriptor in the translator's .cicsws book: the VALUE literals of the
    FILLERs of its 01 item, joined."""
    items: list[list[str]] = []
    for line in book.splitlines():
        if line.lstrip().startswith("01 "):
            items.append([])
        elif "FILLER" in line and "'" in line and items:
            items[-1].append(line.split("'")[1])
    found = next(("".join(parts) for parts in items if parts and f";{command};" in parts[0]), "")
    return found.encode("latin-1")


def _drop_benchf(db: Database) -> None:
    """A rerun on the same PostgreSQL: BENCHF made and loaded again with this run's rows."""
    conn = connect(db)
    try:
        for table, column in (("cics_records", "dataset"), ("cics_datasets", "name")):
            try:
                conn.execute(f"DELETE FROM {table} WHERE {column} = 'BENCHF'")
                conn.commit()
            except Exception:  # no CICS tables yet
                conn.rollback()
    finally:
        conn.close()


def _layer_reads(program: CicsProgram, descriptor: bytes, count: int, rows: int) -> None:
    """`count` READs answered by a CicsSession from the bytes the program would pass, then the commit."""
    session = CicsSession(program)
    for i in range(count):
        key = f"{i % rows + 1:08d}".encode()
        params = [EIB, descriptor, b"BENCHF  ", bytes(100), key, bytes(8)]
        out = session.answer(SimpleNamespace(service="CICSRT", number=0, params=params))
        assert out[3].startswith(key), out[3]
    session.end(True)


def _bare_reads(db: Database, count: int, rows: int) -> None:
    """The SELECT file control runs for a READ by key, through the driver, in one transaction."""
    conn = connect(db)
    sql = "SELECT rid, data FROM cics_records WHERE dataset = ? AND rid = ?"
    cur: Any = conn if db.kind == "sqlite" else conn.cursor()
    if db.kind == "sqlite":
        conn.execute("BEGIN")
    else:
        sql = sql.replace("?", "%s")
    for i in range(count):
        key = f"{i % rows + 1:08d}".encode()
        row = cur.execute(sql, ("BENCHF", key)).fetchone()
        assert bytes(row[1]).startswith(key)
    conn.commit() if db.kind != "sqlite" else conn.execute("COMMIT")
    conn.close()


if __name__ == "__main__":
    main()
