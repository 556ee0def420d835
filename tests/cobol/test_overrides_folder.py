"""cobol-mcp.toml's [folder] table: the dialect, copybook folders, data directory and source format of a
programs folder, each reaching the build or the run as the command line's would, the command line's own
value winning; every mistake named with its file and line."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.prepare.overrides import read_overrides
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import needs_cobc

REALWORLD = Path(__file__).parent / "realworld"
ACCOUNTS = REALWORLD / "forms" / "dialects"  # ACCTUPD: a COMP item the default dialect truncates
CARDS = REALWORLD / "overrides"  # TRMMASK: its copybooks are in lib/, named by the file
SALES = Path(__file__).parent.parent / "file_programs" / "report.cob"  # a console program with files
ARGS = {"ca_branch": 7, "ca_account_no": 12345678901, "ca_txn_count": 0,
        "ca_limit": 500000, "ca_usage": 9000, "ca_balance": 10, "ca_movement_count": 1,
        "ca_movement": [Decimal("2.50")] + [0] * 9}  # fmt: skip


def accounts(tmp_path: Path, toml: str) -> Path:
    folder = tmp_path / "accounts"
    shutil.copytree(ACCOUNTS, folder)
    (folder / "cobol-mcp.toml").write_text(toml)
    return folder


@pytest.mark.parametrize(
    ("toml", "line", "says"),
    [
        ("[folder]\ndialect = 'ibm'\ncolour = 'red'\n", 3, "folder.colour: unknown key (known: dialect, copybooks"),
        ("[folder]\ncopybooks = 'lib'\n", 2, "folder.copybooks: must be a list of folders"),
        ("[folder]\n\ncopybooks = ['lib', 'nowhere']\n", 3, "'nowhere' is not a folder"),
        ("[folder]\ndialect = 'cobol-99'\n", 2, "folder.dialect: dialect cobol-99"),
        ("[folder]\ndialect = 3\n", 2, "folder.dialect: must be a string"),
        ("[folder]\nsource-format = 'card'\n", 2, 'must be "fixed" or "free"'),
        ("[folder]\ndata-dir = 'no-such-dir'\n", 2, "folder.data-dir: 'no-such-dir' is not a folder"),
        ("[folder]\ndatabase = 'mysql://db'\n", 2, "folder.database: must be sqlite:///PATH or postgresql://"),
        ("folder = 3\n", 1, "folder: must be a table"),
        ("[folders]\ndialect = 'ibm'\n", 1, "unknown key 'folders' (expected [folder], [programs.NAME] and"),
        ("# the FCT\ndatasets = 3\n", 2, "datasets must be an array of tables"),
    ],
)
def test_a_mistake_in_the_folder_table_names_its_line(tmp_path: Path, toml: str, line: int, says: str) -> None:
    (tmp_path / "lib").mkdir()
    path = tmp_path / "cobol-mcp.toml"
    path.write_text(toml)
    with pytest.raises(LinkageError) as caught:
        read_overrides(tmp_path)
    assert str(caught.value).startswith(f"{path}:{line}: ") and says in str(caught.value), caught.value


def test_folder_values_are_resolved_against_the_folder() -> None:
    found = read_overrides(CARDS)
    assert found.settings == {"copybooks": ((CARDS / "lib").resolve(),), "source-format": "fixed"}
    assert found.include(()) == ((CARDS / "lib").resolve(),)
    assert found.include((Path("/x"),)) == (Path("/x"), (CARDS / "lib").resolve())  # the command line's first
    assert found.source_format(None) == "fixed" and found.source_format("free") == "free"
    assert found.dialect(None) is None and found.data_dir is None


@needs_cobc
@pytest.mark.parametrize(("given", "usage"), [(None, 18000), ("default", 8000)])
def test_the_folder_dialect_lays_out_and_builds_unless_the_command_line_says(
    tmp_path: Path, given: str | None, usage: int
) -> None:
    folder = accounts(tmp_path, "# the branch system is compiled -std=ibm\n[folder]\ndialect = 'ibm'\n")
    dialects = {} if given is None else {"accounts": given}
    options = Options(programs=[("accounts", str(folder))], bundled=False, cache_dir=str(tmp_path), dialects=dialects)
    server = build_server(options)
    try:
        assert server.errors == []
        assert server.catalog.tool("acctupd").spec.dialect == (given or "ibm")
        result = call(server, "acctupd", ARGS)["structuredContent"]
        assert result["ca_balance"] == Decimal("12.50")
        assert result["ca_usage"] == usage  # ibm does not truncate COMP to its digits: the build followed
    finally:
        server.runtime.close()


@needs_cobc
def test_the_folder_copybooks_are_where_copy_looks(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    scan = scan_folder(folder, cache_dir=tmp_path / "cache")
    assert [p.spec.program_id for p in scan.programs] == ["PREMCALC", "TRMMASK"], scan.errors
    assert (folder / "lib" / "TMREQ.cpy").resolve() in scan.programs[1].spec.copybooks
    text = (folder / "cobol-mcp.toml").read_text().replace('copybooks = ["lib"]', "")
    (folder / "cobol-mcp.toml").write_text(text)
    scan = scan_folder(folder, cache_dir=tmp_path / "cache")
    assert [p.spec.program_id for p in scan.programs] == ["PREMCALC"]
    assert any("TMREQ" in e for e in scan.errors), scan.errors


@needs_cobc
@pytest.mark.parametrize(("given", "served"), [(None, False), ("fixed", True)])
def test_the_folder_source_format_is_the_readers_unless_the_command_line_says(
    tmp_path: Path, given: str | None, served: bool
) -> None:
    folder = accounts(tmp_path, "[folder]\nsource-format = 'free'\n")  # wrong on purpose: they are fixed form
    scan = scan_folder(folder, cache_dir=tmp_path / "cache", source_format=given)
    assert ("ACCTUPD" in [p.spec.program_id for p in scan.programs]) is served, scan.errors
    if not served:
        assert any(e.startswith(str((folder / "ACCTUPD.cbl").resolve())) for e in scan.errors), scan.errors


@needs_cobc
@pytest.mark.parametrize("command_line", [False, True])
def test_console_programs_use_the_folder_data_directory_unless_the_command_line_says(
    tmp_path: Path, command_line: bool
) -> None:
    folder, other = tmp_path / "sales", tmp_path / "other"
    (folder / "data").mkdir(parents=True)
    other.mkdir()
    shutil.copy(SALES, folder / SALES.name)
    (folder / "cobol-mcp.toml").write_text("[folder]\ndata-dir = 'data'\n")
    for place in (folder / "data", other):
        (place / "SALESIN").write_text("NORTH     0012550\n")
    data_dir = str(other) if command_line else None
    options = Options(programs=[("sales", str(folder))], bundled=False, cache_dir=str(tmp_path), data_dir=data_dir)
    server = build_server(options)
    try:
        assert server.errors == []
        assert call(server, "sales_report", {})["structuredContent"]["stdout"] == "LINES 0001\n"
        used, unused = (other, folder / "data") if command_line else (folder / "data", other)
        assert (used / "SALESOUT").exists() and not (unused / "SALESOUT").exists()
    finally:
        server.runtime.close()


@needs_cobc
def test_a_changed_copybook_of_the_folder_table_remakes_the_tool_list(tmp_path: Path) -> None:
    from cobol_mcp import manifest

    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    options = Options(programs=[("cards", str(folder))], bundled=False, cache_dir=str(tmp_path / "cache"))
    made = manifest.make(options)
    assert made["errors"] == [] and manifest.load(options) is not None
    book = folder / "lib" / "TMREPLY.cpy"
    book.write_text(book.read_text().replace("PIC X(24).", "PIC X(32)."))
    assert manifest.load(options) is None  # the stamp covers lib/, named only by the file
