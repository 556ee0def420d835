"""The transactions CICS has, from an application's CSD (DFHCSDUP's DEFINE statements) and cobol-mcp.toml's
[transactions], which wins; a [transactions] entry CICS would not take is an error with file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.prepare.overrides import read_overrides
from cobol_mcp.db.cics.csd import csd_files, folder_transactions, read_csd

CORPUS = Path(__file__).parents[2].parent / "shared" / "corpus" / "carddemo" / "app"

CSD = """\
*  A SHOP'S CSD EXTRACT
DEFINE PROGRAM(ORDINQ) GROUP(ORDERS)
       LANGUAGE(COBOL) STATUS(ENABLED)
DEFINE TRANSACTION(ORDI) GROUP(ORDERS)
DESCRIPTION(ORDER INQUIRY (BY NUMBER))
       PROGRAM(ordinq) TWASIZE(0) PROFILE(DFHCICST)
       STATUS(ENABLED) TASKDATALOC(ANY)
DEFINE TRANSACTION(ORDX) GROUP(ORDERS) PROGRAM(ORDOLD) STATUS(DISABLED)
DEFINE TRANSACTION(ORDB) GROUP(ORDERS)
       REMOTESYSTEM(CICB)
DEFINE TRANSACTION(ORDU) GROUP(ORDERS) PROGRAM(ORDUPD)
ADD GROUP(ORDERS) LIST(ORDLIST)
"""


def test_a_csd_gives_each_enabled_transaction_its_program() -> None:
    assert read_csd(CSD) == {"ORDI": "ORDINQ", "ORDU": "ORDUPD"}  # ORDX disabled, ORDB names no program


def test_a_folders_csd_files_and_its_toml_table(tmp_path: Path) -> None:
    app = tmp_path / "app"
    (app / "cbl").mkdir(parents=True)
    (app / "csd").mkdir()
    (app / "csd" / "ORDERS.CSD").write_text(CSD)
    (app / "cbl" / "more.csd").write_text("DEFINE TRANSACTION(ORDL) GROUP(ORDERS) PROGRAM(ORDLST)\n")
    assert [p.name for p in csd_files(app / "cbl")] == ["more.csd", "ORDERS.CSD"]
    found = folder_transactions(app / "cbl", {"ordu": "ordnew", "ORDZ": "ORDZAP"})
    assert found == {"ORDI": "ORDINQ", "ORDU": "ORDNEW", "ORDL": "ORDLST", "ORDZ": "ORDZAP"}


def test_a_transactions_table_is_checked_with_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "cobol-mcp.toml").write_text('[folder]\n\n[transactions]\nORDI = "ORDINQ"\nTOOLONG = "X"\n')
    with pytest.raises(LinkageError, match=r"cobol-mcp\.toml:5: transaction 'TOOLONG' is not a CICS TRANSID"):
        read_overrides(tmp_path)
    (tmp_path / "cobol-mcp.toml").write_text("[transactions]\nORDI = 12\n")
    with pytest.raises(LinkageError, match=r"cobol-mcp\.toml:2: transaction ORDI's program must be a program name"):
        read_overrides(tmp_path)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the public applications are not in ../shared/corpus")
def test_carddemos_csd_as_it_ships() -> None:
    found = folder_transactions(CORPUS / "cbl")
    assert found["CC00"] == "COSGN00C" and found["CAUP"] == "COACTUPC" and len(found) >= 15
