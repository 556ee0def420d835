"""Console programs that SELECT files: ASSIGN names resolve inside the data directory; a name that
would reach outside it keeps the program from being served; OPEN modes give the annotations."""

from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.options import Options
from cobol_mcp.server import build_server

PROGRAMS = Path(__file__).resolve().parent.parent / "file_programs"


@pytest.fixture
def served(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("DD_SALESOUT", "/tmp/never-here")  # the server's own DD_ names never leak in
    data = tmp_path / "data"
    data.mkdir()
    server = build_server(Options(programs=[("files", str(PROGRAMS))], bundled=False, timeout=5.0, data_dir=data))
    yield server, data
    server.runtime.close()


def call(server, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    box: list[Any] = []
    server.catalog.call(name, arguments, box.append)
    while not box:
        server.runtime.run_once(0.05)
    return box[0]


def test_report_reads_one_line_sequential_file_and_writes_another(served):
    server, data = served
    (data / "SALESIN").write_text("NORTH     0012550\nSOUTH     0000399\n")
    result = call(server, "sales_report", {})
    assert result["structuredContent"]["stdout"] == "LINES 0002\n"
    assert result["structuredContent"]["files"]["SALESOUT"] == (data / "SALESOUT").read_text()
    lines = [line.rstrip() for line in (data / "SALESOUT").read_text().splitlines()]
    assert lines == ["NORTH          125.50", "SOUTH            3.99", "TOTAL          129.49"]


def test_annotations_and_description_come_from_the_select_and_open_statements(served):
    server, _ = served
    definition = server.catalog.tool("sales_report").definition()
    assert definition["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    assert "SALESIN (SALES-FILE, INPUT)" in definition["description"]
    assert "SALESOUT (REPORT-FILE, OUTPUT)" in definition["description"]


def test_files_is_a_result_only_of_programs_that_write_one(served):
    """The result's `files` holds what a program opened OUTPUT or EXTEND: only those list it."""
    server, _ = served
    outputs = {
        name: set(server.catalog.tool(name).definition()["outputSchema"]["properties"])
        for name in ("sales_report", "list_accounts")
    }
    always = {"stdout", "stderr", "return_code", "signal", "location", "partial"}  # the last three when it died
    assert outputs == {
        "sales_report": {*always, "files"},  # OPEN OUTPUT REPORT-FILE
        "list_accounts": always,  # OPEN INPUT only
    }


def test_an_assign_name_that_escapes_the_data_directory_is_not_served(served):
    server, _ = served
    assert server.catalog.tool("peek_out") is None
    assert any("escape.cob" in e and "reaches outside the data directory" in e for e in server.errors)


def test_a_link_in_the_data_directory_pointing_outside_is_refused_at_call_time(served, tmp_path):
    server, data = served
    secret = tmp_path / "elsewhere" / "SALESOUT"
    secret.parent.mkdir()
    secret.write_text("not the program's to overwrite\n")
    (data / "SALESIN").write_text("NORTH     0012550\n")
    (data / "SALESOUT").symlink_to(secret)
    result = call(server, "sales_report", {})
    assert result["isError"] is True
    assert "SALESOUT (REPORT-FILE) is a link to" in result["content"][0]["text"]
    assert "outside the data directory" in result["content"][0]["text"]
    assert secret.read_text() == "not the program's to overwrite\n"  # the program never ran
    (data / "SALESOUT").unlink()
    (data / "SALESOUT").symlink_to(data / "REPORT.TXT")  # a link that stays inside is fine
    assert not call(server, "sales_report", {}).get("isError")
    assert "NORTH" in (data / "REPORT.TXT").read_text()


def test_a_folder_can_have_its_own_data_directory(cache_dir, tmp_path):
    from cobol_mcp.cli import _options, _parser

    default, own = tmp_path / "default", tmp_path / "own"
    default.mkdir()
    own.mkdir()
    (own / "SALESIN").write_text("WEST      0000100\n")
    args = _parser("serve").parse_args(
        ["--no-bundled", "--programs", f"files={PROGRAMS}", "--data-dir", str(default), "--data-dir", f"files={own}"]
    )
    options = _options(args)
    assert options.data_dir_for("files") == str(own) and options.data_dir_for("other") == str(default)
    server = build_server(options)
    try:
        assert call(server, "sales_report", {})["structuredContent"]["stdout"] == "LINES 0001\n"
        assert (own / "SALESOUT").exists() and not (default / "SALESOUT").exists()
    finally:
        server.runtime.close()


def test_a_data_directory_for_an_unknown_folder_is_refused():
    from cobol_mcp.cli import _options, _parser

    args = _parser("serve").parse_args(["--programs", f"files={PROGRAMS}", "--data-dir", "fils=/tmp"])
    with pytest.raises(SystemExit, match="no --programs folder is named 'fils'"):
        _options(args)


def test_concurrent_updates_of_an_indexed_file_are_serialised_and_none_is_lost(served):
    from cobol_mcp.cobol.runtime.gate import gate_for

    server, data = served
    definition = server.catalog.tool("post_deposit").definition()
    assert definition["annotations"] == {"readOnlyHint": False, "destructiveHint": False}  # I-O only
    assert server.catalog.tool("list_accounts").definition()["annotations"]["readOnlyHint"] is True
    results: list[Any] = []
    for n in range(8):  # all eight start before any finishes: four accounts, two deposits each
        server.catalog.call("post_deposit", {"input": f"AC000{n % 4}\n{n + 1}.25"}, results.append)
    gate = gate_for(str(data), server.catalog.tool("post_deposit").loop)
    assert gate.busy and len(gate.waiting) == 7  # one run unit at a time in this data directory
    while len(results) < 8:
        server.runtime.run_once(0.05)
    assert all(not r.get("isError") for r in results), results
    assert not gate.busy and not gate.waiting
    listed = call(server, "list_accounts", {})["structuredContent"]["stdout"].splitlines()
    assert listed == ["AC0000 6.50 00002", "AC0001 8.50 00002", "AC0002 10.50 00002", "AC0003 12.50 00002"]


HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_SH if sys.argv[2] == "shared" else fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def _other_server_holds(data, mode: str):
    """A process that holds the data directory's lock as another server's run unit would, until told."""
    import subprocess
    import sys

    from cobol_mcp.cobol.runtime.gate import LOCK_NAME

    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data / LOCK_NAME), mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
    return holder


def test_a_writer_waits_for_the_data_directory_lock_another_process_holds(served):
    """Servers in other processes (stdio servers, --workers) share the data directory's lock file: a
    writer does not start while another process holds it; a reader shares a shared hold."""
    server, data = served
    assert call(server, "post_deposit", {"input": "LK0000\n1"})["structuredContent"]["return_code"] == 0
    holder = _other_server_holds(data, "shared")
    try:
        read: list[Any] = []
        server.catalog.tool("list_accounts").start({}, read.append)  # shared with shared: runs at once
        written: list[Any] = []
        pending = server.catalog.tool("post_deposit").start({"input": "LK0001\n5"}, written.append)
        assert pending.unit is None  # queued behind the other process's hold, not started
        while not read:
            server.runtime.run_once(0.05)
        assert read[0]["structuredContent"]["stdout"] == "LK0000 1.00 00001\n"
        assert pending.unit is None and not written
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    while not written:  # the other process let go: the writer runs
        server.runtime.run_once(0.05)
    assert written[0]["structuredContent"]["stdout"] == "LK0001 5.00\n"


def test_a_running_writer_holds_the_data_directory_lock_against_other_processes(served):
    import subprocess
    import sys

    from cobol_mcp.cobol.runtime.gate import LOCK_NAME

    server, data = served
    written: list[Any] = []
    pending = server.catalog.tool("post_deposit").start({"input": "LK0002\n7"}, written.append)
    assert pending.unit is not None  # started: the lock was free
    try_lock = "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR)\n"
    try_lock += "try: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)\nexcept BlockingIOError: sys.exit(3)"
    other = subprocess.run([sys.executable, "-c", try_lock, str(data / LOCK_NAME)])
    assert other.returncode == 3  # another process cannot even read while the writer's run unit lives
    while not written:
        server.runtime.run_once(0.05)
    assert subprocess.run([sys.executable, "-c", try_lock, str(data / LOCK_NAME)]).returncode == 0


def test_a_queued_writer_can_be_cancelled(served):
    server, _ = served
    tool = server.catalog.tool("post_deposit")
    first: list[Any] = []
    second: list[Any] = []
    tool.start({"input": "XX0001\n1"}, first.append)
    queued = tool.start({"input": "XX0002\n2"}, second.append)
    assert tool.cancel(queued) is True
    while not first:
        server.runtime.run_once(0.05)
    for _ in range(5):
        server.runtime.run_once(0.02)
    assert second == []
    assert call(server, "list_accounts", {})["structuredContent"]["stdout"] == "XX0001 1.00 00001\n"


def test_check_lists_each_programs_kind_inputs_and_files(cache_dir, capsys):
    from cobol_mcp.commands import check_command

    console = PROGRAMS.parent / "console_programs"
    status = check_command(Options(programs=[("files", str(PROGRAMS)), ("console", str(console))], bundled=True))
    lines = capsys.readouterr().err.splitlines()
    assert status == 1  # escape.cob is not served
    assert "add: callable, inputs: a, b" in lines
    assert "post_deposit: file-using, inputs: input, files: ACCTFILE (ACCOUNT-FILE: I-O)" in lines
    assert (
        "sales_report: file-using, inputs: files, files: SALESIN (SALES-FILE: INPUT); SALESOUT (REPORT-FILE: OUTPUT)"
    ) in lines
    assert "show_args: console, inputs: args" in lines


def test_an_input_file_given_in_the_call_and_the_written_file_returned(served):
    server, data = served
    schema = server.catalog.tool("sales_report").definition()["inputSchema"]
    assert set(schema["properties"]["files"]["properties"]) == {"SALESIN"}
    (data / "SALESIN").write_text("WEST      0000100\n")  # not read: the call gives its own SALESIN
    result = call(server, "sales_report", {"files": {"SALESIN": "EAST      0000250\nEAST      0000050"}})
    written = result["structuredContent"]["files"]["SALESOUT"].splitlines()
    assert [line.rstrip() for line in written] == [
        "EAST             2.50",
        "EAST             0.50",
        "TOTAL            3.00",
    ]
    assert (data / "SALESIN").read_text() == "WEST      0000100\n"


@pytest.mark.parametrize(
    "files, expected",
    [
        ("SALESIN", "'files' must be an object"),
        ({"SALESOUT": "x"}, "'files' has 'SALESOUT', which the program does not read (it reads: SALESIN)"),
        ({"SALESIN": 5}, "'files.SALESIN' must be a string"),
    ],
)
def test_bad_files_arguments_are_specific_errors(served, files, expected):
    server, _ = served
    result = call(server, "sales_report", {"files": files})
    assert result["isError"] is True and expected in result["content"][0]["text"]


def test_relative_and_record_sequential_files(served):
    server, data = served
    assert call(server, "slot_store", {"input": "3\nAPPLES"})["structuredContent"]["stdout"] == "SLOT 0003 = APPLES\n"
    assert call(server, "slot_store", {"input": "1\nPEARS"})["structuredContent"]["stdout"] == "SLOT 0001 = PEARS\n"
    taken = call(server, "slot_store", {"input": "3\nPLUMS"})
    assert taken["isError"] is True and taken["structuredContent"]["stderr"] == "SLOT 0003 TAKEN BY APPLES\n"
    log = (data / "SLOTLOG").read_bytes()
    assert log == b"0003" + b"APPLES".ljust(20) + b"0001" + b"PEARS".ljust(20)
    assert server.catalog.tool("slot_store").definition()["annotations"] == {
        "readOnlyHint": False,
        "destructiveHint": False,
    }


def test_an_open_over_several_lines_ended_by_a_period_opens_every_file_it_names(served):
    """``OPEN INPUT A B OUTPUT C D.`` on four lines, and ``IF … OPEN EXTEND E.``: the last file before
    the period is opened too, so it is given per call or returned like the others."""
    server, _ = served
    tool = server.catalog.tool("price_orders")
    description = tool.definition()["description"]
    for shown in ("ORDERS (ORDER-FILE, INPUT)", "PRICES (PRICE-FILE, INPUT)", "PRICED (PRICED-FILE, OUTPUT)",
                  "UNPRICED (UNPRICED-FILE, OUTPUT)", "PRICELOG (LOG-FILE, EXTEND)"):  # fmt: skip
        assert shown in description
    schema = tool.definition()["inputSchema"]
    assert set(schema["properties"]["files"]["properties"]) == {"ORDERS", "PRICES"}
    files = {"ORDERS": "PEN   004\nINK   002\nPAD   010", "PRICES": "PEN   00150\nPAD   00325"}
    result = call(server, "price_orders", {"files": files})
    written = result["structuredContent"]["files"]
    assert [line.rstrip() for line in written["PRICED"].splitlines()] == [
        "PEN    004      6.00",
        "PAD    010     32.50",
    ]
    assert [line.rstrip() for line in written["UNPRICED"].splitlines()] == ["INK"]
    assert [line.rstrip() for line in written["PRICELOG"].splitlines()] == ["UNKNOWN ITEMS 001"]


def test_a_record_sequential_file_is_one_record_per_line_in_and_out(served):
    """LEDGER-TOTAL's files are record sequential (fixed 13- and 20-byte records, no line ends): a text given
    per call is one record per line, each padded to its FD's record size, and the summary comes back one
    record per line, where the lines as such would have been read across records."""
    server, data = served
    result = call(server, "ledger_total", {"files": {"LEDGERIN": "0012550ACC001\n0001000ACC002\n0000500ACC3"}})
    assert result.get("isError") is not True, result
    out = result["structuredContent"]
    # two full records and a short one padded with spaces (account "ACC3  "): 125.50 + 10.00 + 5.00
    assert out["stdout"].rstrip().split() == ["3", "140.50"]
    accounts = ("ACC001", "ACC002", "ACC3")
    assert out["files"]["LEDGEROUT"] == "".join(f"{account:20}\n" for account in accounts)
    assert (data / "LEDGEROUT").read_bytes() == b"".join(account.ljust(20).encode() for account in accounts)

    too_long = call(server, "ledger_total", {"files": {"LEDGERIN": "0012550ACC001\n0001000ACC0021\n"}})
    assert too_long["isError"] is True
    assert "'files.LEDGERIN' line 2 has 14 characters: its records are 13" in too_long["content"][0]["text"]
