"""The SQL runtime's executor (cobol_mcp.db.unit) against the bare driver, in one run: per statement.

    python bench/sql_executor.py [--rows N] [--postgresql URL]

SELECT INTO by key (a prepared statement-table entry with a host variable, DB2's two-row fetch,
DECIMAL and CHAR conversion) and a cursor FETCH loop over N rows, each against the same SQL through
sqlite3 (or psycopg) directly from Python, fetching one row per key and iterating the cursor. It
measures the executor alone: no COBOL, no worker, no frames (those come with the wiring).
"""

from __future__ import annotations

import argparse
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from sql_cost import bench_table, best

from cobol_mcp.db.catalog import read_catalog
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database


class _Row:
    def __init__(self, number: int, kind: str, text: str, name: str | None = None) -> None:
        self.number, self.kind, self.text, self.name, self.line = number, kind, text, name, 1


STATEMENTS = [
    _Row(1, "SELECT INTO", "SELECT LASTNAME, SALARY INTO :LN, :SAL FROM BENCH.EMP WHERE EMPNO = :K"),
    _Row(
        2, "DECLARE CURSOR", "DECLARE C1 CURSOR FOR SELECT EMPNO, LASTNAME, SALARY FROM BENCH.EMP ORDER BY EMPNO", "C1"
    ),
    _Row(3, "OPEN", "OPEN C1", "C1"),
    _Row(4, "FETCH", "FETCH C1 INTO :K, :LN, :SAL", "C1"),
    _Row(5, "CLOSE", "CLOSE C1", "C1"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--postgresql", help="a postgresql:// URL (a scratch database: BENCH.EMP is created)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="sql-bench-"))
    db = Database("postgresql", args.postgresql) if args.postgresql else Database("sqlite", str(folder / "b.db"))
    bench_table(db, folder, args.rows, replace=bool(args.postgresql))
    conn = connect(db)
    plan = prepare_plan(STATEMENTS, db.kind, read_catalog(conn, db.kind))  # type: ignore[arg-type]
    unit = Unit(plan, conn)
    raw: Any = connect(db)
    keys = list(range(1, min(args.rows, 2000) + 1))
    sql = plan.statements[1].translation.sql  # type: ignore[union-attr]
    cursor_sql = plan.cursors["C1"].translation.sql  # type: ignore[union-attr]
    if db.kind == "sqlite":
        raw.execute("BEGIN")

    def ours_select() -> None:
        for k in keys:
            unit.execute(1, {"K": k})

    def bare_select() -> None:
        cur = raw if db.kind == "sqlite" else raw.cursor()
        for k in keys:
            cur.execute(sql, (k,)).fetchone()

    def ours_fetch() -> None:
        unit.execute(3, {})
        while unit.execute(4, {}).sqlca.sqlcode == 0:
            pass
        unit.execute(5, {})

    def bare_fetch() -> None:
        cur = raw.execute(cursor_sql) if db.kind == "sqlite" else raw.cursor(name="bare")
        if db.kind != "sqlite":
            cur.itersize = 100
            cur.execute(cursor_sql)
        for _row in cur:
            pass
        cur.close()

    assert unit.execute(1, {"K": 7}).sets == {"LN": "NAME000007     ", "SAL": Decimal("7.25")}
    print(f"{db.kind}, {len(keys)} keys, {args.rows} rows")
    for label, ours, bare, count in (("SELECT INTO by key", ours_select, bare_select, len(keys)),
                                     ("cursor FETCH loop", ours_fetch, bare_fetch, args.rows)):  # fmt: skip
        t_ours, t_bare = best(ours), best(bare)
        print(f"  {label:20s} ours {t_ours / count * 1e6:8.1f} us/stmt  driver {t_bare / count * 1e6:8.1f} us/stmt"
              f"  ratio {t_ours / t_bare:5.2f}")  # fmt: skip
    unit.end(True)
    raw.close()


if __name__ == "__main__":
    main()
