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
        server.runtime.loop.run_once(0.05)
    return box[0]


def test_report_reads_one_line_sequential_file_and_writes_another(served):
    server, data = served
    (data / "SALESIN").write_text("NORTH     0012550\nSOUTH     0000399\n")
    result = call(server, "sales_report", {})
    assert result["structuredContent"] == {"stdout": "LINES 0002\n", "stderr": "", "return_code": 0}
    lines = [line.rstrip() for line in (data / "SALESOUT").read_text().splitlines()]
    assert lines == ["NORTH          125.50", "SOUTH            3.99", "TOTAL          129.49"]


def test_annotations_and_description_come_from_the_select_and_open_statements(served):
    server, _ = served
    definition = server.catalog.tool("sales_report").definition()
    assert definition["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    assert "SALESIN (SALES-FILE, INPUT)" in definition["description"]
    assert "SALESOUT (REPORT-FILE, OUTPUT)" in definition["description"]


def test_an_assign_name_that_escapes_the_data_directory_is_not_served(served):
    server, _ = served
    assert server.catalog.tool("peek_out") is None
    assert any("escape.cob" in e and "reaches outside the data directory" in e for e in server.errors)
