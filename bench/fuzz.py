#!/usr/bin/env python3
"""Fuzz the real server over stdio with generated, mutated and hostile messages (standard library only).

    python3 bench/fuzz.py --seed 1 --lines 100000            # runs .venv/bin/cobol-mcp-server
    python3 bench/fuzz.py --seed 7 --lines 1000000 --server './run.sh --cobol-workers 2'

Each line is one of: a well-formed request from the grammar of every method the server has (initialize,
ping, tools/list, tools/call of add/format_currency/validate_date with good and bad arguments,
resources/*, unknown methods, 2026-07-28 requests with the `_meta` envelope), a notification, a byte-level
mutation of a well-formed message, or hostile JSON (deep nesting, huge numbers, long strings, invalid
UTF-8, lone surrogates, batches, odd ids, empty lines). Ids are unique per line, so replies are matched
however the server orders them.

Invariants checked (each violation is a "problem"):
  - every reply line is UTF-8 JSON: {"jsonrpc":"2.0","id":...} with exactly one of result / error;
  - no reply is -32603 (nothing sent here is a fault of the server's own);
  - every well-formed request is answered exactly once, with its id; hostile lines whose id is readable
    get exactly one reply with the expected error code, any other line at most one reply;
  - no more replies than lines; the server is alive until stdin closes, then exits 0.
Reports lines/s, problems, and the peak RSS of the server and its COBOL workers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_SERVER = [os.path.join(ROOT, ".venv", "bin", "cobol-mcp-server")]
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01", "")
METHODS = (
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "tools/call",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "server/discover",
    "logging/setLevel",
    "completion/complete",
    "no/such/method",
)
NOTIFICATIONS = (
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "whatever",
)
ODD_NUMBERS = (
    "1e999999999",
    "-1e999999999",
    "1e-999999999",
    "1e99999999999999999999999",
    "9" * 5000,
    "-" + "9" * 4400,
    "0.1e-99999999999999999999",
    "1" + "0" * 4500 + "e-4480",
    "-0",
    "0.0",
    "1E+2",
    "123456789012345678901234567890.123456789",
    "NaN",
    "Infinity",
    "-Infinity",
    "1.5",
    "-0.005",
)
STRINGS = (
    "",
    " ",
    "1.10",
    "2.20",
    "-1234.5",
    "0.005",
    "20240229",
    "20230229",
    "99999999",
    "16010101",
    "2024-02-29",
    "\u20ac",
    "caf\u00e9",
    "\x00",
    "\\",
    '"',
    "\n",
    "abc",
    "1e5",
    "1E+999999999",
    "9" * 40,
    "\u0661\u0662",
)
SURROGATES = ("\ud800", "\udc00", "\udfff", "\ud83d", "a\udc80b")
INTERNAL_ERROR = -32603
ID_BASE = 7 * 10**12
Key = tuple[Any, ...]


# ------------------------------------------------------------------------------------------ ids


def number_key(text: str) -> Key:
    """Two JSON numbers with the same value get the same key (1E+2 == 100.0), at bounded cost."""
    try:
        sign, digits, exponent = Decimal(text).as_tuple()
    except InvalidOperation:  # exponent past Decimal's range: the server echoes it as written
        return ("raw", text)
    assert isinstance(exponent, int)
    zeros = len(digits) - len(bytes(digits).rstrip(b"\x00"))
    if zeros == len(digits):
        return ("zero",)
    return ("n", sign, digits[: len(digits) - zeros], exponent + zeros)


def id_key(value: Any) -> Key:
    if isinstance(value, tuple):  # ("num", text) from reply parsing
        return number_key(value[1])
    if isinstance(value, str):
        return ("s", value)
    return ("other", repr(value))


def _tag_number(text: str) -> tuple[str, str]:
    return ("num", text)


def parse_reply(line: bytes) -> dict[str, Any]:
    return json.loads(
        line.decode("utf-8"),
        parse_int=_tag_number,
        parse_float=_tag_number,  # type: ignore[no-any-return]
        parse_constant=_tag_number,
    )


# ------------------------------------------------------------------------------------------ grammar


def dumps(value: Any) -> str:
    """JSON text of generated values; Raw numbers and lone surrogates (as escapes) included."""
    return (
        json.dumps(value, separators=(",", ":"), default=_raw, ensure_ascii=False)
        .replace('"\ue000RAW', "")
        .replace('RAW\ue000"', "")
    )


class Raw:
    """A JSON number written as given (json.dumps cannot write 1e999999999 or NaN as a number)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _raw(value: Any) -> Any:
    if isinstance(value, Raw):
        return f"\ue000RAW{value.text}RAW\ue000"
    raise TypeError(type(value).__name__)


def to_bytes(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")  # a lone surrogate becomes its JSON escape


class Grammar:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def scalar(self) -> Any:
        r = self.rng
        kind = r.randrange(10)
        if kind == 0:
            return Raw(r.choice(ODD_NUMBERS))
        if kind == 1:
            return r.choice(SURROGATES) + r.choice(STRINGS)
        if kind == 2:
            return r.randint(-(10**40), 10**40) if r.random() < 0.3 else r.randint(-1000, 1000)
        if kind == 3:
            return Raw(f"{r.randint(-(10**6), 10**6)}.{r.randint(0, 10**9)}")
        if kind == 4:
            return r.choice((None, True, False, [], {}))
        if kind == 5:
            return "".join(chr(r.randrange(0x20, 0x3000)) for _ in range(r.randrange(12)))
        return r.choice(STRINGS)

    def value(self, depth: int = 0) -> Any:
        r = self.rng
        if depth < 3 and r.random() < 0.15:
            if r.random() < 0.5:
                return [self.value(depth + 1) for _ in range(r.randrange(4))]
            return {self.key(): self.value(depth + 1) for _ in range(r.randrange(4))}
        return self.scalar()

    def key(self) -> str:
        r = self.rng
        return r.choice(("a", "b", "amount", "date", "name", "x", "", "_meta", r.choice(SURROGATES), "cursor"))

    def request_id(self, n: int) -> str:
        """JSON text of a valid id unique to line n: strings, ints, exotic integral numbers."""
        r = self.rng
        kind = r.randrange(12)
        base = ID_BASE + n  # never equal to another line's id, nor to the digits of a mutated "m<n>"
        if kind < 4:
            return str(base)
        if kind < 7:
            return dumps(f"w{n}")
        if kind == 7:
            return dumps(f"{r.choice(SURROGATES)}{n}\u20ac")
        lead = n + 1  # the forms below start with it: never "0" and a digit, which is not JSON
        if kind == 8:
            return f"-{lead}1e{r.choice(('999999999', '99999999999999999999999', '5'))}"
        if kind == 9:
            return f"{lead}1{'7' * r.choice((10, 4500))}"
        if kind == 10:
            return f"{base}.0"
        return f"{lead}3E+50"

    def arguments(self, tool: str) -> dict[str, Any]:
        r = self.rng
        good = r.random() < 0.5
        if tool == "add":
            args: dict[str, Any] = (
                {"a": r.choice(STRINGS[2:5]), "b": r.randint(-99, 99)}
                if good
                else {"a": self.scalar(), "b": self.scalar()}
            )
        elif tool == "format_currency":
            args = {"amount": r.choice(("1234.56", "-0.5", "0.005", 12))} if good else {"amount": self.scalar()}
        else:
            args = (
                {"date": r.choice(("20240229", "20230229", "16010101", "99991231"))}
                if good
                else {"date": self.scalar()}
            )
        if r.random() < 0.1:
            args[self.key()] = self.value()
        if r.random() < 0.05:
            args.pop(next(iter(args)))
        return args

    def params(self, method: str) -> dict[str, Any] | None:
        r = self.rng
        if method == "initialize":
            return {"protocolVersion": r.choice(VERSIONS), "capabilities": {}, "clientInfo": {"name": "fuzz"}}
        if method == "tools/call":
            tool = r.choice(("add", "format_currency", "validate_date", "add", "nope"))
            return {"name": tool, "arguments": self.arguments(tool)}
        if method == "resources/read":
            return {"uri": r.choice(("cobol://x", self.scalar()))}
        if method in ("tools/list", "resources/list") and r.random() < 0.1:
            return {"cursor": self.scalar()}
        if r.random() < 0.2:
            return {self.key(): self.value()}
        return None if r.random() < 0.5 else {}

    def request(self, n: int, request_id: str | None = None) -> tuple[str, str]:
        """(line text, id text) of a well-formed request (with this id text, or a generated one)."""
        r = self.rng
        method = r.choice(METHODS)
        params = self.params(method)
        if r.random() < 0.25:  # the 2026-07-28 era: its envelope in params._meta
            meta = dict(MODERN_META)
            if r.random() < 0.1:
                meta["io.modelcontextprotocol/logLevel"] = self.scalar()
            if r.random() < 0.05:
                meta["io.modelcontextprotocol/protocolVersion"] = self.scalar()
            params = {**(params or {}), "_meta": meta}
        request_id = request_id or self.request_id(n)
        text = f'{{"jsonrpc":"2.0","id":{request_id},"method":{dumps(method)}'
        if params is not None:
            text += f',"params":{dumps(params)}'
        return text + "}", request_id

    def notification(self) -> str:
        r = self.rng
        method = r.choice(NOTIFICATIONS)
        params: Any = {"requestId": f"zz{r.randrange(10**6)}"} if method == "notifications/cancelled" else {}
        if r.random() < 0.2:
            params = self.value()
        return f'{{"jsonrpc":"2.0","method":{dumps(method)},"params":{dumps(params)}}}'

    def mutate(self, data: bytes) -> bytes:
        r = self.rng
        buf = bytearray(data)
        for _ in range(r.randint(1, 4)):
            op = r.randrange(5)
            i = r.randrange(len(buf) + 1)
            if op == 0 and buf:
                del buf[min(i, len(buf) - 1)]
            elif op == 1:
                buf[i:i] = r.choice(
                    (
                        b'"',
                        b"\\",
                        b"{",
                        b"}",
                        b"[",
                        b"]",
                        b",",
                        b":",
                        b"\x00",
                        b"\xff",
                        b"\xc3",
                        b"\xed\xa0\x80",
                        b"\\ud800",
                        b"1e999999999",
                        b"9" * 50,
                        b" ",
                        b"\r",
                    )
                )
            elif op == 2 and buf:
                buf[min(i, len(buf) - 1)] = r.randrange(256) or 32
            elif op == 3 and buf:
                j = r.randrange(len(buf))
                buf[i:i] = buf[j : j + r.randrange(1, 20)]
            else:
                buf = buf[:i] if r.random() < 0.5 else buf[i:]
        return bytes(buf).replace(b"\n", b" ")


class Line:
    """One line sent: what may or must come back for it."""

    __slots__ = ("data", "key", "must", "code")

    def __init__(self, data: bytes, key: Key | None = None, must: bool = False, code: int | None = None) -> None:
        self.data, self.key, self.must, self.code = data, key, must, code


def hostile(g: Grammar, n: int) -> Line:
    """A malformed line; with a readable unique id where the error reply must carry it."""
    r = g.rng
    hid = f"h{n}"
    key = ("s", hid)
    kind = r.randrange(14)
    if kind == 0:
        depth = r.choice((10, 1000, 5000, 100_000))
        return Line(
            f'{{"jsonrpc":"2.0","id":"{hid}","method":"ping","params":{{"x":{"[" * depth}{"]" * depth}}}}}'.encode(),
            key,
            depth > 900,
            -32700 if depth > 900 else None,
        )
    if kind == 1:  # invalid UTF-8 inside a string
        return Line(
            b'{"jsonrpc":"2.0","id":"' + hid.encode() + b'","method":"ping","params":{"s":"\xff\xc3("}}',
            key,
            True,
            -32700,
        )
    if kind == 2:  # a batch: not supported, -32600 with a null id
        return Line(b"[" + to_bytes(g.request(n)[0]) + b"]", None, False, -32600)
    if kind == 3:
        return Line(r.choice((b"", b" ", b"\t", b"\r", b"  \r")))
    if kind == 4:
        return Line(bytes(r.randrange(1, 256) for _ in range(r.randrange(1, 80))).replace(b"\n", b" "))
    if kind == 5:  # an id that is not a string or integer: -32600, id null
        odd = r.choice(("null", "true", "1.5", "{}", "[1]", "1e-999999999", "NaN", "0.1e-99999999999999999999"))
        return Line(f'{{"jsonrpc":"2.0","id":{odd},"method":"ping"}}'.encode(), None, False, -32600)
    if kind == 6:  # params not an object
        return Line(
            f'{{"jsonrpc":"2.0","id":"{hid}","method":"ping","params":{r.choice(("[1]", "1", "null"))}}}'.encode(),
            key,
            True,
            -32602,
        )
    if kind == 7:  # jsonrpc wrong or method missing / not a string
        body = r.choice(('"jsonrpc":"1.0","method":"ping"', '"jsonrpc":"2.0"', '"jsonrpc":"2.0","method":7'))
        return Line(f'{{{body},"id":"{hid}"}}'.encode(), key, True, -32600)
    if kind == 8:  # a long string
        size = r.choice((1000, 70_000, 600_000))
        return Line(to_bytes(f'{{"jsonrpc":"2.0","id":"{hid}","method":"{"m" * size}"}}'), key, True, -32601)
    if kind == 9:  # truncated JSON with a readable id
        return Line(to_bytes(g.request(n, f'"{hid}"')[0])[: -r.randint(1, 30)], None, False, None)
    if kind == 10:  # a lone surrogate in method or id
        return Line(
            to_bytes(f'{{"jsonrpc":"2.0","id":"{hid}\ud800","method":"\udc00"}}'), ("s", f"{hid}\ud800"), True, -32601
        )
    if kind == 11:  # huge numbers anywhere
        return Line(
            f'{{"jsonrpc":"2.0","id":"{hid}","method":"ping","params":{{"n":{r.choice(ODD_NUMBERS)}}}}}'.encode(),
            key,
            True,
            None,
        )
    if kind == 12:  # a response from the "client": no reply
        return Line(b'{"jsonrpc":"2.0","id":"' + hid.encode() + b'","result":{}}', key, False, None)
    text = to_bytes(f'{{"jsonrpc":"2.0","id":"{hid}","method":"ping"}}')  # trailing garbage
    return Line(text + r.choice((b"x", b" {}", b"]", b"\x00")), key, True, -32700)


def generate(seed: int, lines: int) -> Iterator[Line]:
    rng = random.Random(seed)
    g = Grammar(rng)
    for n in range(lines):
        roll = rng.random()
        if roll < 0.5:
            text, request_id = g.request(n)
            key = number_key(request_id) if request_id[0] != '"' else ("s", json.loads(request_id))
            yield Line(to_bytes(text), key, True)
        elif roll < 0.6:
            yield Line(to_bytes(g.notification()))
        elif roll < 0.8:
            yield Line(g.mutate(to_bytes(g.request(n, f'"m{n}"')[0])))
        else:
            yield hostile(g, n)


# ------------------------------------------------------------------------------------------ the run


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


class Report:
    def __init__(self) -> None:
        self.lines = self.replies = self.bytes_sent = 0
        self.problems: list[str] = []
        self.problem_count = 0
        self.peak_rss = 0
        self.seconds = 0.0
        self.exit_status: int | None = None

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < 50:
            self.problems.append(text[:500])

    @property
    def rate(self) -> float:
        return self.lines / self.seconds if self.seconds else 0.0

    def summary(self, seed: int) -> str:
        head = (
            f"seed {seed}: {self.lines} lines ({self.bytes_sent / 1e6:.1f} MB), {self.replies} replies in "
            f"{self.seconds:.1f} s = {self.rate:,.0f} lines/s; exit status {self.exit_status}; "
            f"peak RSS (server + workers) {self.peak_rss / 2**20:.1f} MiB; problems: {self.problem_count}"
        )
        return "\n".join([head, *(f"  - {p}" for p in self.problems)])


def run(
    seed: int, lines: int, server: list[str] | None = None, env: dict[str, str] | None = None, timeout: float = 3600.0
) -> Report:
    report = Report()
    proc = subprocess.Popen(
        server or DEFAULT_SERVER,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    assert proc.stdin is not None and proc.stdout is not None
    lock = threading.Lock()
    expected: dict[Key, Line] = {}  # requests sent, not yet answered
    answered: set[int] = set()  # hashes of the keys answered (bounded memory for millions of lines)
    finished = threading.Event()
    started = time.perf_counter()

    def record(line: Line) -> None:
        if line.key is None:
            return
        with lock:
            if line.key in expected or hash(line.key) in answered:
                return  # not unique after all (a mutation): only "at most once" is checked for it
            expected[line.key] = line

    def write() -> None:
        try:
            for line in generate(seed, lines):
                record(line)
                proc.stdin.write(line.data + b"\n")  # type: ignore[union-attr]
                report.lines += 1
                report.bytes_sent += len(line.data) + 1
            if proc.poll() is not None:
                report.problem(f"the server exited (status {proc.returncode}) before stdin was closed")
            proc.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:
            report.problem(f"the server closed stdin after {report.lines} lines (exit status {proc.poll()})")

    def read() -> None:
        for raw in proc.stdout:  # type: ignore[union-attr]
            report.replies += 1
            check(raw.rstrip(b"\n"))

    def check(raw: bytes) -> None:
        try:
            reply = parse_reply(raw)
        except (UnicodeDecodeError, ValueError) as exc:
            report.problem(f"reply is not UTF-8 JSON ({exc}): {raw[:200]!r}")
            return
        if (
            not isinstance(reply, dict)
            or reply.get("jsonrpc") != "2.0"
            or "id" not in reply
            or ("result" in reply) == ("error" in reply)
        ):
            report.problem(f"reply is not a JSON-RPC response: {raw[:200]!r}")
            return
        error = reply.get("error")
        code = None
        if error is not None:
            code_value = error.get("code") if isinstance(error, dict) else None
            if not (isinstance(code_value, tuple) and isinstance(error.get("message"), str)):
                report.problem(f"malformed error object: {raw[:200]!r}")
                return
            code = int(code_value[1])
            if code == INTERNAL_ERROR:
                report.problem(f"-32603 reply: {raw[:300]!r}")
        elif not isinstance(reply["result"], dict):
            report.problem(f"result is not an object: {raw[:200]!r}")
        if reply["id"] is None:
            return
        key = id_key(reply["id"])
        with lock:
            line = expected.pop(key, None)
            if line is None and hash(key) in answered:
                report.problem(f"a second reply for id {key!r:.100}: {raw[:200]!r}")
                return
            if line is not None:  # ids of mutated lines are not unique (m3511 may lose a digit): not tracked
                answered.add(hash(key))
        if line is not None and line.code is not None and code != line.code:
            report.problem(f"expected error {line.code} for {line.data[:120]!r}, got: {raw[:200]!r}")

    def watch() -> None:
        while not finished.wait(0.2):
            report.peak_rss = max(report.peak_rss, tree_rss(proc.pid))

    threads = [threading.Thread(target=f, daemon=True) for f in (write, read, watch)]
    for thread in threads:
        thread.start()
    threads[0].join(timeout)
    threads[1].join(max(1.0, timeout - (time.perf_counter() - started)))
    try:
        report.exit_status = proc.wait(60)
    except subprocess.TimeoutExpired:
        report.problem("the server did not exit after EOF (hang guard: killed)")
        proc.kill()
        report.exit_status = proc.wait()
    report.seconds = time.perf_counter() - started
    finished.set()
    threads[2].join()
    if threads[0].is_alive() or threads[1].is_alive():
        report.problem("the run did not finish within its timeout (hang?)")
    if report.exit_status != 0:
        report.problem(f"exit status {report.exit_status}, not 0")
    if report.replies > report.lines:
        report.problem(f"{report.replies} replies for {report.lines} lines")
    missing = [line for line in expected.values() if line.must]
    for line in missing[:10]:
        report.problem(f"no reply for {line.data[:150]!r}")
    if len(missing) > 10:
        report.problem(f"... {len(missing) - 10} more requests without a reply")
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a random one, printed)")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--server", default=None, help="server command (default: .venv/bin/cobol-mcp-server)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="hang guard for the whole run (seconds)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    report = run(seed, args.lines, shlex.split(args.server) if args.server else None, timeout=args.timeout)
    print(report.summary(seed))
    return 1 if report.problem_count else 0


if __name__ == "__main__":
    sys.exit(main())
