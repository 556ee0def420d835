"""JSON -> record -> real COBOL program -> record -> JSON, through the worker runtime."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from cobol_mcp.cobol.linkage.model import ProgramSpec
from cobol_mcp.cobol.records.codec import decode_outputs, encode_inputs

from .conftest import HAVE_COBC, call_sync, reported, sample
from .test_codec import ECHO, ZOO, values_for

build = pytest.importorskip("cobol_mcp.cobol.prepare.cobc")
runtime = pytest.importorskip("cobol_mcp.cobol.runtime.pool")
pytestmark = pytest.mark.skipif(not HAVE_COBC, reason="GnuCOBOL's cobc is not installed")


class Caller:
    def __init__(self, rt, cache: Path, specs: dict[str, ProgramSpec]) -> None:
        self.rt, self.cache, self.specs, self.loaded = rt, cache, specs, set()

    def __call__(self, name: str, arguments: dict, notes: list[str] | None = None) -> dict:
        spec = self.specs[name]
        if name not in self.loaded:
            module = build.build_module(sample(name), self.cache, source_format=spec.source_format)
            self.rt.load(name, module, spec.entry_symbol, [r.size for r in spec.records])
            self.loaded.add(name)
        result = call_sync(self.rt, name, encode_inputs(spec, arguments), timeout=10.0)
        assert result.ok, result.error
        return decode_outputs(spec, result.buffers, notes)


@pytest.fixture(scope="module")
def call(tmp_path_factory, specs):
    rt = runtime.Runtime(max_workers=1)
    try:
        yield Caller(rt, tmp_path_factory.mktemp("build-cache"), {**specs, "echo-all.cob": ECHO, "usage-zoo.cob": ZOO})
    finally:
        rt.close()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arguments=values_for(ECHO.records[0].field))
def test_echo_program_returns_every_value(call, arguments):
    assert call("echo-all.cob", arguments) == reported(ECHO.records[0].field, arguments)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arguments=values_for(ZOO.records[0].field))
def test_commarea_comes_back_unchanged(call, arguments):
    assert call("usage-zoo.cob", arguments) == reported(ZOO.records[0].field, arguments)


def test_payroll(call):
    args = {
        "emp_id": 1,
        "emp_name": {"emp_last": "Hopper", "emp_first": "Grace"},
        "hours_worked": "42.5",
        "rate": 25,
        "deduction": [
            {"ded_code": "TX", "ded_amount": 100},
            {"ded_code": "HI", "ded_amount": "20.5"},
            {"ded_code": "", "ded_amount": 0},
        ],
    }
    assert call("PAYROLL.CBL", args) == {
        "gross_pay": Decimal("1093.75"),
        "net_pay": Decimal("973.25"),
        "net_pay_text": "$973.25",
        "pay_status": "00",  # PAY-OK
        "pay_message": "",
    }
    args["deduction"][0]["ded_amount"] = 5000
    out = call("PAYROLL.CBL", args)
    assert (out["net_pay"], out["net_pay_text"], out["pay_status"]) == (
        Decimal("-3926.75"),
        "$3,926.75-",
        "60",
    )  # PAY-ERROR is "50" THRU "99"
    assert out["pay_message"] == "deductions exceed gross pay"
    out = call("PAYROLL.CBL", {**args, "emp_pay_type": "salaried", "rate": 2000})
    assert out["gross_pay"] == 2000


def test_commarea_program(call):
    # CA-ACCOUNT is only read: not reported; CA-FUNCTION and CA-RECENT are never used: not reported either
    assert call("COMMAREA.cbl", {"ca_account": 42}) == {
        "ca_balance": 1234567,
        "ca_status": 0,  # CA-FOUND
        "ca_owner": "ZAPHOD BEEBLEBROX",
    }
    assert call("COMMAREA.cbl", {"ca_account": 7})["ca_status"] == 10  # CA-NOT-FOUND


def test_edited_outputs(call):
    out = call("edited-out.cob", {"amount": "-1234.5", "when_date": 20240131, "preset_text": ""})
    assert out == {
        "zero_suppressed": "1,234.50",
        "floating_dollar": "$1,234.50",
        "trailing_minus": "1234.50-",
        "leading_plus": "-1234.50",
        "check_protect": "******1,234.50",
        "credit": "1234.50CR",
        "debit": "1234.50DB",
        "slashed_date": "20/24/0131",
        "spaced": "20 24 0131",
        "blank_if_zero": "1234.50",
        "implied_point": "123450",
    }
    assert call("edited-out.cob", {"amount": 0, "when_date": 0, "preset_text": ""})["blank_if_zero"] == ""


def test_records_passed_separately(call):
    args = {
        "customer_in": {"ref_no": 7, "name": "Ada"},
        "order_in": {"ref_no": 99, "customer_ref": 7, "total": 1},
        "audit_area": {"ref_no": 1, "calls": 41},
    }
    # AUDIT-AREA's REF-NO is never used, so not reported: the results' names no longer collide
    assert call("two-records.cob", args) == {"matched": "Y", "ref_no": 99, "calls": 42}  # SAME-CUSTOMER


def test_program_without_parameters(call):
    assert call("hello.cob", {}) == {}


def test_scalar_records(call):
    notes: list[str] = []
    assert call("scalars.cob", {"amount_in": 1}, notes) == {"text_out": ""}
    assert notes == []
