"""Real-world sources end to end: a fixed-format folder with a CBL line, PROGRAM-ID without its
period, copybooks in ../copybook in another case, and files that cannot be served, over stdio."""

from __future__ import annotations

import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from .stdio_client import StdioClient

SOURCE = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "source"


def premium(rate: str, age: int, discount: str) -> Decimal:
    """CALCPREM's rule: annual rate x age factor x discount factor / 12, rounded half up to cents."""
    if age < 25:
        factor = Decimal("1.35")
    elif age < 40:
        factor = Decimal("1")
    elif age < 60:
        factor = Decimal("1.15")
    else:
        factor = Decimal("1.4")
    off = {"N": Decimal("1"), "L": Decimal("0.95"), "M": Decimal("0.90")}[discount]
    return (Decimal(rate) * factor * off / 12).quantize(Decimal("0.01"), ROUND_HALF_UP)


CODES = {"N": "ls_no_discount", "L": "ls_loyalty", "M": "ls_multi_policy"}


@pytest.fixture(scope="module")
def policy(tmp_path_factory):
    cache = tmp_path_factory.mktemp("realworld-cache")
    with StdioClient(
        "--no-bundled", "--programs", f"policy={SOURCE / 'cobol'}", env={"COBOL_MCP_CACHE": str(cache)}
    ) as client:
        client.initialize()
        yield client


def test_the_folder_is_served_without_the_files_it_explains(policy):
    names = sorted(tool["name"] for tool in policy.request("tools/list")["result"]["tools"])
    assert names == ["calcprem", "clmhist", "polchk"]  # CLMHIST (EXEC SQL) is precompiled


@pytest.mark.parametrize(
    ("rate", "age", "discount"),
    [("1234.56", 23, "M"), ("980.00", 39, "N"), ("2400.10", 59, "L"), ("99999.99", 75, "M"), ("0.01", 30, "N")],
)
def test_calcprem_answers_like_the_oracle(policy, rate, age, discount):
    result = policy.call(
        "calcprem", ls_policy_no="HX-0042", ls_annual_rate=rate, ls_age=age, ls_discount_code=CODES[discount]
    )
    out = result["structuredContent"]
    assert Decimal(str(out["ls_monthly_premium"])) == premium(rate, age, discount)
    assert out["ls_return_code"] == 0 and out["ls_message"] == ""


def test_polchk_is_initial_and_settles_claims(policy):
    claim = {"ls_deductible": "250", "ls_coverage_pct": 80}
    for amount, payable, status in (("1000.00", "600.00", "APPROVED"), ("200.00", "0", "DENIED")):
        out = policy.call("polchk", ls_claim_amount=amount, **claim)["structuredContent"]
        assert (Decimal(str(out["ls_payable"])), out["ls_status"]) == (Decimal(payable), status)
        assert out["ls_calls_this_run"] == 1  # IS INITIAL: WORKING-STORAGE starts afresh on every call


def test_every_file_not_served_is_named_on_stderr_with_its_reason(tmp_path):
    folder = tmp_path / "cobol"
    shutil.copytree(SOURCE / "cobol", folder)
    shutil.copytree(SOURCE / "copybook", tmp_path / "COPYBOOK")
    with StdioClient("--no-bundled", "--programs", str(folder), env={"COBOL_MCP_CACHE": str(tmp_path / "c")}) as client:
        client.initialize()
        _, _, err = client.close()
    text = err.decode()
    assert "ORAPREM.pco:1: a Pro*COBOL source" in text
    assert "CLMHIST" not in text  # EXEC SQL is precompiled: the program is served
    assert "CALCPREM.cbl.bak:1: looks like a COBOL program" in text
    assert "CALCPREM.cbl:1: compiler option NUMPROC(NOPFD) skipped" in text
    assert "README.txt" not in text


def test_copybooks_option_reaches_a_shared_folder(tmp_path):
    programs, shared = tmp_path / "programs", tmp_path / "shared"
    programs.mkdir()
    shutil.copy(SOURCE / "cobol" / "POLCHK.CBL", programs)
    shutil.copytree(SOURCE / "copybook", shared)
    args = ("--no-bundled", "--programs", str(programs), "--copybooks", str(shared))
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp_path / "c")}) as client:
        client.initialize()
        claim = {"ls_claim_amount": "1000", "ls_deductible": "0", "ls_coverage_pct": 50}
        out = client.call("polchk", **claim)["structuredContent"]
        assert Decimal(str(out["ls_payable"])) == Decimal("500")


TALLY = """\
000100{options}
000200 IDENTIFICATION DIVISION.
000300 PROGRAM-ID. {name}.
000400*    Adds the claim count to a two-digit binary tally.
000500 DATA DIVISION.
000600 WORKING-STORAGE SECTION.
000700 01  WS-TALLY                 PIC 9(2) COMP.
000800 LINKAGE SECTION.
000900 01  LS-TALLY-AREA.
001000     05  LS-START             PIC 9(2).
001100     05  LS-ADDED             PIC 9(3).
001200     05  LS-TOTAL             PIC 9(4).
001300 PROCEDURE DIVISION USING LS-TALLY-AREA.
001400     MOVE LS-START TO WS-TALLY
001500     ADD LS-ADDED TO WS-TALLY
001600     MOVE WS-TALLY TO LS-TOTAL
001700     GOBACK.
"""


def test_cbl_trunc_bin_reaches_the_compiler(tmp_path):
    folder = tmp_path / "tally"
    folder.mkdir()
    (folder / "TALLYBIN.cbl").write_text(TALLY.format(options=" CBL TRUNC(BIN)", name="TALLYBIN"))
    (folder / "TALLYSTD.cbl").write_text(TALLY.format(options=" CBL TRUNC(STD)", name="TALLYSTD"))
    args = ("--no-bundled", "--programs", str(folder))
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp_path / "c")}) as client:
        client.initialize()
        area = {"ls_start": 50, "ls_added": 100}
        binary = client.call("tallybin", **area)["structuredContent"]
        standard = client.call("tallystd", **area)["structuredContent"]
    assert binary["ls_total"] == 150  # TRUNC(BIN): a binary item holds what its bytes hold
    assert standard["ls_total"] == 50  # TRUNC(STD): cut to the PICTURE's two digits
