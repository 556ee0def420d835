"""USING BY VALUE through the real server: the day count and the fee parameters arrive as a COBOL
caller passes them (tests/cobol/realworld/byvalue), on a cold start and on a warm one."""

import shutil
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path

import pytest

from .stdio_client import folder_server

FOLDER = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "byvalue"
CENT = Decimal("0.01")


def accrued(balance: str, rate: str, days: int) -> Decimal:
    """ACCRUAL's oracle: each day's interest added, the balance rounded half up to the cent."""
    value = Decimal(balance)
    with localcontext() as ctx:
        ctx.prec = 60
        for _ in range(days):
            value = (value + value * Decimal(rate) / 365).quantize(CENT, ROUND_HALF_UP)
    return value


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """The programs without PADLEN (refused: a start with an error keeps no manifest) and a cache."""
    programs = tmp_path_factory.mktemp("byvalue") / "programs"
    shutil.copytree(FOLDER, programs, ignore=shutil.ignore_patterns("PADLEN.cbl"))
    return programs, tmp_path_factory.mktemp("byvalue-cache")


@pytest.mark.parametrize("start", ["cold", "warm"])  # the second start reads the manifest the first wrote
def test_by_value_parameters_through_the_server(folders, start):
    # One worker: the calls below run in one process, so a RETURN-CODE left by one call would show.
    with folder_server(*folders, start) as (server, tools):
        assert set(tools) == {"accrual", "feecalc"}
        assert tools["accrual"]["inputSchema"]["properties"]["ls_days"]["type"] == "integer"
        assert "ls_days" not in tools["accrual"]["outputSchema"]["properties"]
        account = {"ls_ac_number": "DEP0042", "ls_ac_status": "ls_ac_open", "ls_ac_rate": "0.0375"}
        for balance, days in [("1500.00", 90), ("42.17", 1), ("777777.77", 730)]:
            result = server.call("accrual", **account, ls_ac_balance=balance, ls_days=days)
            assert not result.get("isError"), result
            out = result["structuredContent"]
            assert Decimal(str(out["ls_new_balance"])) == accrued(balance, "0.0375", days)
            assert (out["ls_days_accrued"], out["ls_status"]) == (days, "00")
        for _ in range(2):
            failed = server.call("feecalc", ls_txn_count=50, ls_tier=7, ls_waive=0)
            assert failed["isError"] is True and "RETURN-CODE 8" in failed["content"][0]["text"]
            charged = server.call("feecalc", ls_txn_count=50, ls_tier=3, ls_waive=0)
            assert not charged.get("isError"), charged  # RETURN-CODE 8 did not carry over
            out = charged["structuredContent"]
            assert (Decimal(str(out["ls_fee_amount"])), out["ls_billed_txns"]) == (Decimal("4.00"), 40)
