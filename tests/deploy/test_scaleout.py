"""Scale-out, proven: three replicas (HTTP, --stateless) behind deploy/nginx's recipe, sharing one real
PostgreSQL (``[folder] database``), serve a CICS application while one of them is SIGKILLed mid-run.

The application: CUSTENRL (tests/cics_programs/scaleout) takes a customer number from the named
counter CUSTNO, inserts an EMPLOYEE row and its EMPADDR row (DB2), and LINKs to CUSTVSAM, which writes
the customer record to the KSDS CUSTFILE; INQENR reads the record back through CUSTVSAM and counts its
rows. Eight clients each send a fixed number of adds and reads (a bounded run, not a timed one); the
victim is killed once a third of the operations have been answered. Afterwards, read from the
database directly:

- every acknowledged add is there exactly once, with its VSAM record and both DB2 rows, as answered
  (its customer number, employee number, task number); an add answered with an error is wholly absent;
- nothing is half-made: every record has its rows and every row its record, whatever the fate of the
  request (an add the dying replica may or may not have committed is wholly there or wholly absent);
- the counter gave every add a number of its own across replicas, and EIBTASKN was unique across all
  the calls the three replicas answered (it comes from the database, :mod:`cobol_mcp.db.cics.tasks`),
  though each replica runs with the same pid in a PID namespace of its own, as in a container, where
  `unshare` can make one.

No assertion on durations: timeouts are hang guards only.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from ..transports.conftest import BOTH, HttpServer, rpc
from .nginx import STATELESS, Nginx, nginx_binary, site_config

__all__ = ["postgres_url"]  # the fixture, used by name

httpx = pytest.importorskip("httpx")

pytestmark = pytest.mark.skipif(
    nginx_binary() is None,
    reason="nginx is not installed (./test.sh installs Debian's nginx with apt-get when run as root or with "
    "passwordless sudo; else: sudo apt-get install nginx)",
)

TESTS = Path(__file__).resolve().parent.parent
PROGRAMS = TESTS / "cics_programs"
HEADERS = {"content-type": "application/json", "accept": BOTH, "mcp-protocol-version": "2025-11-25"}
CLIENTS, ADDS = 8, 8  # each client: ADDS adds, each followed by a read of it
KILL_AFTER = CLIENTS * ADDS * 2 // 3  # operations answered before the victim is killed
TIMEOUT = 60  # hang guard per request
TOML = """\
[folder]
database = "{url}"

[[datasets]]
name = "CUSTFILE"
organization = "ksds"
record-length = 200
keys = [8, 0]
"""


@dataclass
class Sent:
    """One request and what came of it: the reply's result (acknowledged), an error result, or none."""

    kind: str  # "add" or "read"
    tag: str
    result: dict[str, Any] | None = None  # structuredContent of a reply without isError
    error: str = ""  # an error result's text
    lost: str = ""  # no answer: a 502 from nginx, or the connection closed mid-reply
    replica: str = ""


def containers() -> tuple[str, ...]:
    """Each replica in a PID namespace of its own, as in a container: the same pids in every one of
    them, so a task number made from the process (its pid, its own counter) repeats across them. A
    shell is the namespace's pid 1 and the server pid 2, as under `docker run --init` (a server that
    is pid 1 itself: tests/e2e/test_pid_one.py). Plain processes where this machine allows no
    namespaces (that case is then not shown)."""
    shell = ("sh", "-c", '"$@"; exit $?', "sh")  # not an exec: sh stays pid 1
    for prefix in (("unshare", "--pid", "--fork", "--kill-child"),
                   ("unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child")):  # fmt: skip
        try:
            done = subprocess.run([*prefix, *shell, "sh", "-c", "echo $$"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return ()
        if done.returncode == 0 and done.stdout.strip() == "2":
            return (*prefix, *shell)
    return ()


def folder_for(tmp: Path, url: str) -> Path:
    folder = tmp / "enrol"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "scaleout" / "ENRLCOMM.cpy", folder / "copybooks")
    for source in (PROGRAMS / "scaleout" / "CUSTENRL.cbl", PROGRAMS / "CUSTVSAM.cbl", PROGRAMS / "ERRLOG.cbl"):
        shutil.copy(source, folder)
    (folder / "cobol-mcp.toml").write_text(TOML.format(url=url))
    return folder


def call(client: Any, url: str, request: str, **customer: object) -> Any:
    arguments = {"en_request_id": request,
                 "en_customer": {"en_tag": "", "en_cust_id": 0, "en_empno": 0, "en_rows": 0, "en_city": "",
                                 **customer}}  # fmt: skip
    body = json.dumps(rpc("tools/call", {"name": "custenrl", "arguments": arguments}))
    return client.post(url, content=body, headers=HEADERS, timeout=TIMEOUT)


def send(client: Any, url: str, kind: str, tag: str, **customer: object) -> Sent:
    sent = Sent(kind, tag)
    try:
        reply = call(client, url, "ENRCUS" if kind == "add" else "INQENR", **customer)
    except httpx.HTTPError as exc:  # the connection closed under a reply that had begun
        sent.lost = type(exc).__name__
        return sent
    sent.replica = reply.headers.get("x-upstream", "").split(",")[-1].strip()
    if reply.status_code != 200:
        sent.lost = f"HTTP {reply.status_code}"
        return sent
    result = reply.json().get("result", {})
    if result.get("isError"):
        sent.error = result["content"][0]["text"]
    else:
        sent.result = result["structuredContent"]
    return sent


def run_clients(url: str, victim: HttpServer) -> list[Sent]:
    """CLIENTS threads, each ADDS times: add a tagged customer, then read back its last acknowledged one.
    The victim is SIGKILLed (with its COBOL workers) once KILL_AFTER operations have been answered."""
    outcomes: list[Sent] = []
    lock = threading.Lock()
    enough = threading.Event()

    def record(sent: Sent) -> None:
        with lock:
            outcomes.append(sent)
            if len(outcomes) >= KILL_AFTER:
                enough.set()

    def client(n: int) -> None:
        with httpx.Client() as http:
            last: Sent | None = None
            for i in range(ADDS):
                added = send(http, url, "add", f"S{n}-{i:03d}", en_tag=f"S{n}-{i:03d}")
                record(added)
                last = added if added.result is not None else last
                if last is not None and last.result is not None:
                    cust_id = last.result["en_customer"]["en_cust_id"]
                    record(send(http, url, "read", last.tag, en_cust_id=cust_id))

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    assert enough.wait(600), f"the clients stalled: {len(outcomes)} answers"  # a hang guard
    os.killpg(victim.proc.pid, signal.SIGKILL)  # the replica and its COBOL workers, no goodbye
    victim.proc.wait(TIMEOUT)
    for thread in threads:
        thread.join(600)
        assert not thread.is_alive(), "a client hung"
    return outcomes


def database_state(
    url: str,
) -> tuple[dict[str, list[tuple[int, str]]], dict[str, list[tuple[int, str | None, str | None]]]]:
    """What the database holds, by tag: the CUSTFILE records (customer number, city) and the enrolled
    employees (employee number, address line, address city; None where an employee has no address)."""
    conn = connect(Database("postgresql", url))
    try:
        records: dict[str, list[tuple[int, str]]] = {}
        for _, data in conn.execute("SELECT rid, data FROM cics_records WHERE dataset = 'CUSTFILE'").fetchall():
            text = bytes(data).decode("latin-1")
            records.setdefault(text[8:38].rstrip(), []).append((int(text[0:8]), text[38:58].rstrip()))
        employees: dict[str, list[tuple[int, str | None, str | None]]] = {}
        for empno, lastname, line1, city in conn.execute(
            "SELECT e.empno, e.lastname, a.line1, a.city FROM payroll.employee e "
            "LEFT JOIN payroll.empaddr a ON a.empno = e.empno WHERE e.firstname = 'ENROLLED'"
        ).fetchall():
            employees.setdefault(lastname.rstrip(), []).append(
                (empno, line1 and line1.rstrip(), city and city.rstrip())
            )
        return records, employees
    finally:
        conn.close()


def test_replicas_on_one_postgresql_lose_nothing_when_one_is_killed(cache_dir, postgres_url, tmp_path):
    apply_files([TESTS / "db" / "payroll.sql"], Database("postgresql", postgres_url), note=lambda line: None)
    folder = folder_for(tmp_path, postgres_url)
    args = ("--stateless", "--no-bundled", "--programs", str(folder), "--cobol-workers", "2",
            "--timeout", "120", "--shutdown-grace", "0")  # fmt: skip
    prefix = containers()
    replicas = [HttpServer(*args, prefix=prefix)]  # the first compiles the folder into the shared cache
    try:
        replicas += [HttpServer(*args, wait=False, prefix=prefix) for _ in range(2)]
        for replica in replicas[1:]:
            replica.wait_ready()
        with Nginx(tmp_path / "nginx", site_config(STATELESS, [r.port for r in replicas])) as front:
            front.wait_ready()
            victim = replicas[0]
            outcomes = run_clients(front.url, victim)
            after = send(httpx, front.url, "add", "AFTER", en_tag="AFTER")  # the survivors still serve
    finally:
        for replica in replicas:
            replica.__exit__(None, None, None)
    check([*outcomes, after], after, postgres_url, f"127.0.0.1:{victim.port}")


def check(outcomes: list[Sent], after: Sent, url: str, victim: str) -> None:
    summary = Counter((s.kind, "ok" if s.result else s.error[:60] or s.lost) for s in outcomes)
    assert after.result is not None and after.result["en_return_code"] == 0, (after, summary)
    # An error result is a fault (nothing here should abend); a lost request is one the victim had.
    assert not [s for s in outcomes if s.error], summary
    assert all(s.replica in ("", victim) for s in outcomes if s.lost), [s for s in outcomes if s.lost]
    adds = [s for s in outcomes if s.kind == "add"]
    acked = {s.tag: s.result for s in adds if s.result is not None}
    assert all(r["en_return_code"] == 0 for r in acked.values()), summary
    assert len({s.replica for s in adds if s.result is not None}) == 3, summary  # all three served adds

    records, employees = database_state(url)
    # Nothing half-made: the same tags have records and employees, each exactly once, each employee
    # with its address, and the address naming the record's customer and task.
    assert set(records) == set(employees), (set(records) ^ set(employees), summary)
    for tag, held in records.items():
        assert len(held) == 1 and len(employees[tag]) == 1, (tag, held, employees[tag])
        (cust_id, city), (_, line1, addr_city) = held[0], employees[tag][0]
        assert line1 == f"CUSTOMER {cust_id:08d}" and addr_city == city, (tag, held, employees[tag])
    # Every acknowledged add is there as answered; the others are wholly there or wholly absent (above).
    assert set(acked) <= set(records), (set(acked) - set(records), summary)
    for tag, result in acked.items():
        customer = result["en_customer"]
        assert records[tag][0] == (customer["en_cust_id"], f"TASK {result['en_taskn']:07d}"), (tag, result)
        assert employees[tag][0][0] == customer["en_empno"], (tag, result, employees[tag])
    assert set(records) <= {s.tag for s in adds}, "a record no client asked for"
    # The counter's numbers and the task numbers are unique across the replicas.
    numbers = [held[0][0] for held in records.values()]
    assert len(set(numbers)) == len(numbers)
    tasks = [s.result["en_taskn"] for s in outcomes if s.result is not None]
    assert len(set(tasks)) == len(tasks), sorted(t for t, n in Counter(tasks).items() if n > 1)
    # Reads of acknowledged adds found the record with its one address row.
    reads = [s for s in outcomes if s.kind == "read" and s.result is not None]
    assert reads and all(
        r.result is not None
        and r.result["en_return_code"] == 0
        and r.result["en_customer"]["en_tag"] == r.tag
        and r.result["en_customer"]["en_rows"] == 1
        for r in reads
    ), [r for r in reads if r.result is None or r.result["en_customer"]["en_rows"] != 1]
