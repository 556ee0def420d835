"""Calls behave as a COBOL caller's would: EXIT PROGRAM, RETURN-CODE, CALLs between programs, a
missing callee, a Language Environment service, and binary PIC X outputs, through the real server
(tests/cobol/realworld/calls)."""

import os
import subprocess
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from .stdio_client import SERVER, StdioClient

CALLS = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "calls"
RATES = {1: Decimal("0.0350"), 2: Decimal("0.0475"), 3: Decimal("0.0625")}


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    cache = tmp_path_factory.mktemp("calls-cache")
    # One worker: every call below runs in the same process, so state left by one call would show.
    with StdioClient(
        "--no-bundled", "--programs", str(CALLS), "--cobol-workers", "1", env={"COBOL_MCP_CACHE": str(cache)}
    ) as client:
        client.initialize(timeout=600)  # a cold start: the worker, the services and the programs compiled
        yield client


def interest(principal: str, tier: int, days: int) -> Decimal:
    exact = Decimal(principal) * RATES[tier] * days / 365
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.mark.parametrize(("principal", "tier", "days"), [("10000.00", 2, 73), ("2500.00", 1, 146), ("1234.56", 3, 30)])
def test_exit_program_returns_to_the_caller(calls, principal, tier, days):
    # Past EXIT PROGRAM a paragraph subscripts the rate table with 0: reaching it is a runtime error.
    result = calls.call("intcalc", ls_principal=principal, ls_tier=tier, ls_term_days=days)
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert Decimal(str(out["ls_interest"])) == interest(principal, tier, days)
    assert Decimal(str(out["ls_rate_used"])) == RATES[tier]


def test_return_code_is_reported_and_does_not_carry_over(calls):
    request = {"ls_cust_id": "C0001234", "ls_cust_name": "ACME SUPPLY CO"}
    for _ in range(2):
        failed = calls.call("custval", **request, ls_credit_limit="300000.00")
        assert failed["isError"] is True
        assert "RETURN-CODE 8" in failed["content"][0]["text"]
        assert failed["structuredContent"] == {"ls_status": "E2", "ls_message": "CREDIT LIMIT OVER BRANCH MAXIMUM"}
        # The valid path never sets RETURN-CODE: the 8 of the call before must not come back.
        passed = calls.call("custval", **request, ls_credit_limit="15000.00")
        assert not passed.get("isError"), passed
        assert passed["structuredContent"] == {"ls_status": "OK", "ls_message": ""}
    missing = calls.call("custval", ls_cust_id="", ls_cust_name="NO ID", ls_credit_limit="10.00")
    assert missing["isError"] is True and missing["structuredContent"]["ls_status"] == "E1"


@pytest.mark.parametrize(("invoiced", "net", "discount"), [(date(2024, 2, 15), 30, 10), (date(2023, 12, 20), 60, 15)])
def test_static_and_dynamic_calls_find_a_program_of_the_folder(calls, invoiced, net, discount):
    result = calls.call(
        "invdue", ls_invoice_date=int(invoiced.strftime("%Y%m%d")), ls_net_days=net, ls_discount_days=discount
    )
    assert not result.get("isError"), result
    due = invoiced + timedelta(days=net)
    assert result["structuredContent"] == {
        "ls_due_date": int(due.strftime("%Y%m%d")),
        "ls_due_weekday": due.isoweekday(),
        "ls_discount_date": int((invoiced + timedelta(days=discount)).strftime("%Y%m%d")),
    }


def test_the_callee_is_a_tool_too(calls):
    result = calls.call("dateutil", ls_du_date=20240229, ls_du_days=-60)
    day = date(2024, 2, 29) - timedelta(days=60)
    assert result["structuredContent"] == {
        "ls_du_new_date": int(day.strftime("%Y%m%d")),
        "ls_du_weekday": day.isoweekday(),
    }


def test_a_call_to_a_missing_program_is_an_error_naming_it(calls):
    result = calls.call("ledgpost", ls_account="4000-100", ls_amount="125.50")
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "CALL 'GLAUDIT'" in text and "no such program" in text and "ledgpost.cbl:23" in text
    after = calls.call("dateutil", ls_du_date=20240101, ls_du_days=1)  # the server keeps serving
    assert after["structuredContent"]["ls_du_new_date"] == 20240102


def test_a_language_environment_service_is_found(calls):
    result = calls.call("legacydt", ls_date=20240101)  # CALL 'CEEDAYS', as written for z/OS
    assert not result.get("isError"), result
    lilian = date(2024, 1, 1).toordinal() - date(1582, 10, 14).toordinal()
    assert result["structuredContent"] == {"ls_lilian_day": lilian}


@pytest.mark.parametrize("plain", [b"ABCDEFGH", b"PAYMENTS", b"12345678"])
def test_binary_pic_x_output_keeps_every_byte(calls, plain):
    key = bytes.fromhex("1B2C3D4E5F607168")
    masked = bytes(a ^ b for a, b in zip(plain, key, strict=True))
    result = calls.call("blkxor", ls_plain_block=plain.decode("latin-1"))
    assert result["structuredContent"]["ls_masked_block"].encode("latin-1") == masked


def test_check_warns_about_unresolved_static_calls(tmp_path):
    done = subprocess.run(
        [*SERVER, "check", "--no-bundled", "--programs", str(CALLS)],
        capture_output=True,
        text=True,
        env={**os.environ, "COBOL_MCP_CACHE": str(tmp_path)},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: {CALLS / 'ledgpost.cbl'}:23: CALL 'GLAUDIT': no program of {CALLS} has this PROGRAM-ID "
        "and it is no libcob system routine: the call will end in an error"
    ]  # DATEUTIL (a program of the folder), CBL_XOR (a libcob routine) and CEEDAYS (a Language Environment
    # service) are not warned about


def test_subprograms_that_are_only_called_are_found(tmp_path):
    # LINETOT's LINKAGE (OCCURS DEPENDING ON) keeps it from being a tool, AUDITLOG has no USING (a
    # console tool): INVTOTAL CALLs both all the same.
    lines = [("3", "19.99"), ("1", "250.00"), ("0", "0"), ("12", "0.35"), ("2", "1000.01")]
    with StdioClient(
        "--no-bundled", "--programs", str(CALLS / "subprograms"), env={"COBOL_MCP_CACHE": str(tmp_path)}
    ) as client:
        client.initialize(timeout=600)  # a cold start
        result = client.call(
            "invtotal", ls_invoice_line=[{"ls_quantity": int(q), "ls_unit_price": p} for q, p in lines]
        )
    assert not result.get("isError"), result
    total = sum(Decimal(q) * Decimal(p) for q, p in lines)
    assert Decimal(str(result["structuredContent"]["ls_invoice_total"])) == total
    assert result["content"][-1]["text"].startswith("DISPLAY output:\nAUDIT BILLING INVOICE TOTALLED")
