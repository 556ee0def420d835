"""Level-88 condition names through the real server (tests/cobol/realworld/loanrate): every value an
item can hold can be sent, so the program's own branches for a bad value are reachable; the names of
one value are a convenience beside the value; results are reported as values, the names described."""

import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from .stdio_client import folder_server

FOLDER = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "loanrate"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    programs = tmp_path_factory.mktemp("loanrate") / "programs"
    shutil.copytree(FOLDER, programs)
    return programs, tmp_path_factory.mktemp("loanrate-cache")


def test_schemas_keep_the_items_own_values(folders):
    with folder_server(*folders, "cold") as (_, tools):
        schema = tools["loanrate"]["inputSchema"]["properties"]
        tier = schema["lr_tier"]
        assert (tier["type"], tier["minimum"], tier["maximum"]) == ("integer", 0, 9) and "anyOf" not in tier
        assert "lr_tier_ok = 1 thru 3" in tier["description"]
        rate_type = schema["lr_rate_type"]
        assert rate_type["anyOf"] == [
            {"type": "string", "maxLength": 1},
            {"type": "string", "enum": ["lr_fixed_rate", "lr_variable"]},
        ]
        assert "lr_fixed_rate = 'F'; lr_variable = 'V'" in rate_type["description"]
        status = tools["loanrate"]["outputSchema"]["properties"]["lr_status"]
        assert status["type"] == "string" and "anyOf" not in status
        assert "lr_ok = '00'; lr_bad_type = '10'; lr_bad_tier = '20'" in status["description"]


def test_every_value_reaches_the_program(folders):
    with folder_server(*folders, "warm") as (server, _):

        def price(**arguments):
            result = server.call("loanrate", **arguments)
            assert not result.get("isError"), result
            return result["structuredContent"]

        fixed = price(lr_rate_type="F", lr_tier=2, lr_principal=1000)
        assert (fixed["lr_status"], fixed["lr_rate"], fixed["lr_total_due"]) == ("00", Decimal("0.0475"), "1001.00")
        tier3 = price(lr_rate_type="lr_variable", lr_tier=3, lr_principal=1000)  # a name of one value
        assert (tier3["lr_status"], tier3["lr_rate"]) == ("00", Decimal("0.0475"))
        assert tier3["lr_total_due"] == "1002.50"
        # The program's own checks, reachable only when raw values can be sent:
        bad_tier = price(lr_rate_type="F", lr_tier=7, lr_principal=1000)
        assert (bad_tier["lr_status"], bad_tier["lr_message"]) == ("20", "CREDIT TIER MUST BE 1 THRU 3")
        bad_type = price(lr_rate_type="X", lr_tier=1, lr_principal=1000)
        assert (bad_type["lr_status"], bad_type["lr_message"]) == ("10", "UNKNOWN RATE TYPE X")
        refused = server.call("loanrate", lr_rate_type="F", lr_tier="lr_tier_ok", lr_principal=1)
        assert refused["isError"] is True
        assert "lr_tier_ok stands for 1 thru 3: send the value itself" in refused["content"][0]["text"]
