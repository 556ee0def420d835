"""Required arguments through the real server: only what a program may read before it surely sets it is in
the ``required`` list of a tool's inputSchema (tests/cobol/realworld/direction: a schedule set in a loop,
an age result set on some paths only, a date check with two unused parameters, a fee kept on one path)."""

import shutil
from pathlib import Path

import pytest

from .stdio_client import folder_server

FOLDER = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "direction"
PROGRAMS = ("AMORTSCH", "AGECALC", "DATECHK", "FEEWAIVE")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    programs = tmp_path_factory.mktemp("direction") / "programs"
    programs.mkdir()
    for name in PROGRAMS:
        shutil.copy(FOLDER / f"{name}.cbl", programs)
    return programs, tmp_path_factory.mktemp("direction-cache")


@pytest.mark.parametrize("start", ["cold", "warm"])  # the second start reads the manifest the first wrote
def test_only_what_the_program_may_read_first_is_required(folders, start):
    with folder_server(*folders, start) as (server, tools):
        assert set(tools) == {n.lower() for n in PROGRAMS}
        schedule = tools["amortsch"]
        assert schedule["inputSchema"]["required"] == ["am_principal", "am_period_rate", "am_payment"]
        assert list(schedule["inputSchema"]["properties"]) == ["am_principal", "am_period_rate", "am_payment"]
        rows = schedule["outputSchema"]["properties"]["am_row"]
        assert (rows["minItems"], rows["maxItems"]) == (3, 3)

        age = tools["agecalc"]
        assert age["inputSchema"]["required"] == ["in_birth_date", "in_as_of_date"]
        assert list(age["outputSchema"]["properties"]) == ["out_years", "out_months"]

        check = tools["datechk"]["inputSchema"]
        assert check["required"] == ["dk_date"]
        assert set(check["properties"]) == {"dk_date", "dk_caller_id", "dk_reserved"}  # accepted, not needed
        assert list(tools["datechk"]["outputSchema"]["properties"]) == ["dk_verdict"]

        fee = tools["feewaive"]["inputSchema"]
        assert fee["required"] == ["wk_balance"] and "wk_monthly_fee" in fee["properties"]

        out = server.call("amortsch", am_principal="1000.00", am_period_rate="0.0125", am_payment="340.00")
        assert not out.get("isError"), out
        got = out["structuredContent"]
        assert [str(r["am_closing"]) for r in got["am_row"]] == ["672.50", "340.91", "5.17"]
        assert str(got["am_total_interest"]) == "25.17"

        out = server.call("agecalc", in_birth_date=20240615, in_as_of_date=19800615)  # out of order
        assert not out.get("isError"), out
        assert out["structuredContent"] == {"out_years": 0, "out_months": 0}
        assert server.call("agecalc", in_birth_date=19800615, in_as_of_date=20240614)["structuredContent"] == {
            "out_years": 43,
            "out_months": 11,
        }

        assert server.call("datechk", dk_date=20240229)["structuredContent"] == {"dk_verdict": "Y"}  # DK-DATE-OK
        waived = server.call("feewaive", wk_balance="12000.00")
        assert waived["structuredContent"] == {"wk_monthly_fee": 0, "wk_waived": "Y"}  # WK-FEE-WAIVED
        kept = server.call("feewaive", wk_balance="10.00", wk_monthly_fee="7.50")
        assert kept["structuredContent"] == {"wk_monthly_fee": 7.5, "wk_waived": "N"}  # WK-FEE-CHARGED
