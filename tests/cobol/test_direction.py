"""Parameter direction from the PROCEDURE DIVISION: realistic programs (tests/cobol/realworld/direction),
their derived directions and reasons, their schemas, and calls through the real runtime checked against
Python's Decimal and datetime."""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.model import Field, ProgramSpec
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.records.codec import FieldError, decode_outputs, encode_inputs
from cobol_mcp.cobol.records.schema import input_schema, output_schema
from cobol_mcp.commands import directions_report

from .conftest import HAVE_COBC, find, folder_caller

FOLDER = Path(__file__).parent / "realworld" / "direction"


@pytest.fixture(scope="module")
def progs() -> dict[str, ProgramSpec]:
    return {p.stem: parse_program(p) for p in sorted(FOLDER.glob("*.cbl"))}


def way(spec: ProgramSpec, name: str) -> tuple[str, str]:
    for r in spec.records:
        try:
            f: Field = find(r.field, name)
        except KeyError:
            continue
        return f.direction, f.reason
    raise KeyError(name)


# ------------------------------------------------------------------------------------------- directions


def test_premium_calculator_directions(progs):
    spec = progs["PREMCALC"]
    assert way(spec, "LS-AGE") == ("in", "read by IF at line 37, never written")
    assert way(spec, "LS-SUM-INSURED") == ("in", "read by IF at line 41, never written")
    assert way(spec, "LS-SMOKER") == ("in", "read by IF at line 57, never written")  # through its 88-level
    # set in 1000-VALIDATE (PERFORM THRU, GO TO the exit paragraph) before any read, on every path
    assert way(spec, "LS-PREMIUM") == ("out", "set by MOVE at line 36 before any read, on every path")
    assert way(spec, "LS-RC") == ("out", "set by MOVE at line 35 before any read, on every path")
    assert way(spec, "LS-AGENT-CODE") == ("in", "never used by the PROCEDURE DIVISION: not required, not reported")
    assert [r.direction for r in spec.records] == ["in", "in", "in", "in", "out", "out"]


def test_date_commarea_directions(progs):
    spec = progs["DATECALC"]
    assert way(spec, "DC-FUNCTION") == ("in", "read by WHEN at line 21, never written")
    assert way(spec, "DC-DATE-1")[0] == way(spec, "DC-DATE-2")[0] == way(spec, "DC-DAYS")[0] == "in"
    assert way(spec, "DC-DAY-COUNT") == ("out", "set by INITIALIZE at line 14 before any read, on every path")
    assert way(spec, "DC-RESULT-DATE")[0] == way(spec, "DC-DAY-OF-WEEK")[0] == "out"
    assert way(spec, "DC-RETURN-CODE") == ("out", "set by MOVE at line 15 before any read, on every path")
    record = spec.records[0]
    assert record.direction == "inout"
    assert (find(record.field, "DC-PARMS").direction, find(record.field, "DC-RESULTS").direction) == ("in", "out")


def test_write_in_one_branch_is_an_optional_in_out(progs):
    spec = progs["FEEWAIVE"]
    assert way(spec, "WK-BALANCE") == ("in", "read by IF at line 14, never written")
    assert way(spec, "WK-MONTHLY-FEE") == (
        "inout",
        "written by MOVE at line 15 on some paths or in part only, never read first: not required (the caller's "
        "value, or its VALUE or spaces/zeros, may come back)",
    )
    assert find(spec.records[1].field, "WK-MONTHLY-FEE").optional
    assert way(spec, "WK-WAIVED") == ("out", "set before any read on every path (by SET at line 16, SET at line 18)")


def test_passed_on_by_reference_falls_back_on_names(progs):
    spec = progs["CUSTKEY"]
    assert way(spec, "CK-SEARCH-KEY") == (
        "out",
        "passed to CALL 'CBL_TOUPPER' at line 21 (BY REFERENCE): direction unknown; named CUSTKEY-OUT: out",
    )
    assert way(spec, "CK-STYLE") == (
        "inout",
        "passed to CALL 'CBL_TOUPPER' at line 23 (BY REFERENCE): direction unknown; in/out by default",
    )
    assert way(spec, "CK-LABEL") == ("out", "set by MOVE at line 25 before any read, on every path")
    assert way(spec, "CK-NAME-LENGTH")[0] == "out"  # MOVE ZERO, then INSPECT TALLYING adds to it
    assert way(spec, "CK-SURNAME") == ("in", "read by MOVE at line 19, never written")


def test_check_report_lines(progs):
    assert directions_report(progs["FEEWAIVE"]) == [
        "  WK-BALANCE: in - read by IF at line 14, never written",
        "  WK-MONTHLY-FEE: in/out, optional - written by MOVE at line 15 on some paths or in part only, never read "
        "first: not required (the caller's value, or its VALUE or spaces/zeros, may come back)",
        "  WK-WAIVED: out - set before any read on every path (by SET at line 16, SET at line 18)",
    ]
    assert "  DATE-COMMAREA.DC-PARMS.DC-DAYS: in - read by COMPUTE at line 40, never written" in directions_report(
        progs["DATECALC"]
    )
    # a required argument that comes back says how to change that
    assert directions_report(progs["CUSTKEY"])[-1] == (
        "  CK-STYLE: in/out - passed to CALL 'CBL_TOUPPER' at line 23 (BY REFERENCE): direction unknown; in/out by "
        'default; a required argument, reported back (to change: direction = "out" or "in" under '
        "[programs.CUSTKEY.fields.CK-STYLE] in cobol-mcp.toml)"
    )


# ---------------------------------------------------------------------------------------------- schemas


def test_schemas_leave_out_results_and_pure_inputs(progs):
    prem = progs["PREMCALC"]
    # LS-AGENT-CODE is never used: accepted, neither required nor reported
    assert list(input_schema(prem)["properties"]) == ["ls_age", "ls_sum_insured", "ls_smoker", "ls_agent_code"]
    assert input_schema(prem)["required"] == ["ls_age", "ls_sum_insured", "ls_smoker"]
    assert list(output_schema(prem)["properties"]) == ["ls_premium", "ls_rc"]

    date = progs["DATECALC"]
    ins = input_schema(date)
    assert list(ins["properties"]) == ["dc_parms"]
    assert list(ins["properties"]["dc_parms"]["properties"]) == ["dc_function", "dc_date_1", "dc_date_2", "dc_days"]
    outs = output_schema(date)
    assert list(outs["properties"]) == ["dc_results", "dc_return_code"]
    assert list(outs["properties"]["dc_results"]["properties"]) == ["dc_day_count", "dc_result_date", "dc_day_of_week"]

    fee = progs["FEEWAIVE"]
    assert list(input_schema(fee)["properties"]) == ["wk_balance", "wk_monthly_fee"]
    assert input_schema(fee)["required"] == ["wk_balance"]  # the fee is set on one path and never read
    assert list(output_schema(fee)["properties"]) == ["wk_monthly_fee", "wk_waived"]
    assert "wk_fee_waived = 'Y'; wk_fee_charged = 'N'" in output_schema(fee)["properties"]["wk_waived"]["description"]

    key = progs["CUSTKEY"]
    assert list(input_schema(key)["properties"]) == ["ck_first_name", "ck_surname", "ck_style"]
    assert list(output_schema(key)["properties"]) == ["ck_search_key", "ck_label", "ck_name_length", "ck_style"]


def test_codec_refuses_results_as_arguments_and_initialises_them(progs):
    spec = progs["DATECALC"]
    with pytest.raises(FieldError, match="unexpected argument 'dc_results'"):
        encode_inputs(spec, {"dc_parms": {}, "dc_results": {}})
    (data,) = encode_inputs(spec, {"dc_parms": {"dc_function": "dc_add_days", "dc_date_1": 20240229,
                                                "dc_date_2": 0, "dc_days": 1}})  # fmt: skip
    assert data[:22] == b"A2024022900000000" + b"00001"  # DC-DAYS +1
    assert data[22:] == b"0" * 7 + b"0" * 8 + b"0" + b"00"  # results start as zeros, as "out" records do
    assert decode_outputs(spec, [data]) == {
        "dc_results": {"dc_day_count": 0, "dc_result_date": 0, "dc_day_of_week": 0},
        "dc_return_code": 0,
    }


# ------------------------------------------------------------------------------------- through the runtime


@pytest.fixture(scope="module")
def call(tmp_path_factory, progs):
    with folder_caller(tmp_path_factory.mktemp("direction-build"), FOLDER, progs) as run:
        yield run


def premium_oracle(age: int, sum_insured: Decimal, smoker: bool) -> tuple[Decimal, int]:
    if not 18 <= age <= 99:
        return Decimal("0.00"), 8
    if sum_insured == 0:
        return Decimal("0.00"), 12
    rate = (
        Decimal("1.20")
        if age < 30
        else Decimal("2.50")
        if age < 50
        else Decimal("4.75")
        if age < 65
        else Decimal("9.10")
    )
    loading = Decimal("1.50") if smoker else Decimal("1.00")
    return (sum_insured * rate * loading / 1000).quantize(Decimal("0.01"), ROUND_HALF_UP), 0


@pytest.mark.parametrize(
    ("age", "sum_insured", "smoker"),
    [(25, "123456.78", "N"), (30, "250000.00", "Y"), (49, "99999.99", "Y"), (64, "1000000.00", "N"),
     (65, "75000.50", "Y"), (99, "5000.00", "N"), (17, "100000.00", "N"), (40, "0", "Y")],
)  # fmt: skip
def test_premium_calls(call, age, sum_insured, smoker):
    arguments = {
        "ls_age": age,
        "ls_sum_insured": sum_insured,
        "ls_smoker": "ls_is_smoker" if smoker == "Y" else "ls_non_smoker",
        "ls_agent_code": "AG0042",
    }
    out = call("PREMCALC", arguments)
    premium, rc = premium_oracle(age, Decimal(sum_insured), smoker == "Y")
    assert out == {"ls_premium": premium, "ls_rc": rc}
    del arguments["ls_agent_code"]  # never used: not required
    assert call("PREMCALC", arguments) == out


@pytest.mark.parametrize(
    ("first", "second"), [(20240101, 20241231), (20231231, 20240301), (19991231, 20000101), (20240315, 20240101)]
)
def test_days_between_calls(call, first, second):
    out = call("DATECALC", {"dc_parms": {"dc_function": "dc_days_between", "dc_date_1": first,
                                         "dc_date_2": second, "dc_days": 0}})  # fmt: skip
    d1, d2 = (datetime.datetime.strptime(str(d), "%Y%m%d").date() for d in (first, second))
    assert out == {
        "dc_results": {"dc_day_count": (d2 - d1).days, "dc_result_date": 0, "dc_day_of_week": d2.isoweekday()},
        "dc_return_code": 0,
    }


@pytest.mark.parametrize(("start", "days"), [(20240228, 1), (20240229, 365), (20231215, -400), (16010101, 0)])
def test_add_days_calls(call, start, days):
    out = call("DATECALC", {"dc_parms": {"dc_function": "dc_add_days", "dc_date_1": start, "dc_date_2": 0,
                                         "dc_days": days}})  # fmt: skip
    result = datetime.datetime.strptime(str(start), "%Y%m%d").date() + datetime.timedelta(days=days)
    assert out["dc_results"] == {
        "dc_day_count": 0,
        "dc_result_date": int(result.strftime("%Y%m%d")),
        "dc_day_of_week": result.isoweekday(),
    }
    assert out["dc_return_code"] == 0


def test_date_return_codes(call):
    base = {"dc_function": "dc_days_between", "dc_date_1": 20240101, "dc_date_2": 20240101, "dc_days": 0}
    assert call("DATECALC", {"dc_parms": {**base, "dc_date_1": 20230229}})["dc_return_code"] == 8
    assert call("DATECALC", {"dc_parms": {**base, "dc_date_2": 20241301}})["dc_return_code"] == 12
    spec_args = {"dc_parms": {**base, "dc_function": "dc_add_days"}}
    assert call("DATECALC", spec_args)["dc_return_code"] == 0


@pytest.mark.parametrize(("balance", "fee"), [("12000.00", "7.50"), ("10000.00", "7.50"), ("9999.99", "7.50"),
                                              ("-250.00", "12.00"), ("0", "0")])  # fmt: skip
def test_fee_waiver_calls(call, balance, fee):
    out = call("FEEWAIVE", {"wk_balance": balance, "wk_monthly_fee": fee})
    waived = Decimal(balance) >= 10000
    expected_fee = Decimal("0.00") if waived else Decimal(fee).quantize(Decimal("0.01"))
    assert out == {"wk_monthly_fee": expected_fee, "wk_waived": "Y" if waived else "N"}
    assert call("FEEWAIVE", {"wk_balance": balance})["wk_monthly_fee"] == 0  # left out: starts as zero


@pytest.mark.parametrize(("first", "surname", "style"), [("Grace", "Hopper", "plain"), ("Jean", "Sammet", "Bold")])
def test_customer_key_calls(call, first, surname, style):
    out = call("CUSTKEY", {"ck_first_name": first, "ck_surname": surname, "ck_style": style})
    assert out == {
        "ck_search_key": surname.upper(),
        "ck_label": f"{surname.upper()}, {first}",
        "ck_name_length": len(surname),
        "ck_style": style.upper(),
    }


@pytest.mark.skipif(not HAVE_COBC, reason="GnuCOBOL's cobc is not installed")
def test_check_command_prints_each_items_direction(cache_dir, capsys):
    from cobol_mcp.commands import check_command
    from cobol_mcp.options import Options

    status = check_command(Options(programs=[("direction", str(FOLDER))], bundled=False))
    lines = capsys.readouterr().err.splitlines()
    assert status == 0
    at = lines.index("premcalc: callable, inputs: ls_age, ls_sum_insured, ls_smoker, ls_agent_code")
    assert lines[at + 1 : at + 7] == [
        "  LS-AGE: in - read by IF at line 37, never written",
        "  LS-SUM-INSURED: in - read by IF at line 41, never written",
        "  LS-SMOKER: in - read by IF at line 57, never written",
        "  LS-AGENT-CODE: in, optional - never used by the PROCEDURE DIVISION: not required, not reported",
        "  LS-PREMIUM: out - set by MOVE at line 36 before any read, on every path",
        "  LS-RC: out - set by MOVE at line 35 before any read, on every path",
    ]


def test_a_go_to_out_of_a_perform_into_an_ending_error_paragraph_is_followed(progs):
    """CLMCHK's validation, PERFORMed THRU its exit, GOes TO 9000-REJECT, which PERFORMs its log
    paragraph and falls into 9000-RETURN's GOBACK: it never comes back, so every path is followed."""
    spec = progs["CLMCHK"]
    for name in ("CL-REQUEST-ID", "CL-CLAIM-AMOUNT", "CL-POLICY-LIMIT", "CL-EXCESS"):
        assert way(spec, name)[0] == "in", way(spec, name)
    assert way(spec, "CL-RETURN-CODE") == ("out", "set by MOVE at line 24 before any read, on every path")
    assert way(spec, "CL-MESSAGE") == ("out", "set by MOVE at line 25 before any read, on every path")
    settled = "set before any read on every path (by MOVE at line 56, COMPUTE at line 44, MOVE at line 46)"
    assert way(spec, "CL-PAYABLE") == ("out", settled)
    assert set(input_schema(spec)["required"]) == {"cl_request_id", "cl_claim_amount", "cl_policy_limit", "cl_excess"}


def test_a_table_cleared_through_its_only_item_by_a_counter_of_a_group_is_no_input(progs, call):
    """INSTPLAN clears LS-AMT(WS-I) for WS-I 1 to 3 before it adds to it: WS-I is an item of the group
    WS-COUNTERS (which no statement names), set by a MOVE after the loops, but nothing in the loop's body
    changes it. The schedule is a result, and the premium the only argument."""
    spec = progs["INSTPLAN"]
    cleared = "set by MOVE at line 19 for every occurrence (PERFORM at line 18) before any read, on every path"
    assert way(spec, "LS-AMT") == ("out", cleared)
    assert input_schema(spec)["required"] == ["ls_premium"]
    out = call("INSTPLAN", {"ls_premium": "100.00"})
    assert [str(a["ls_amt"]) for a in out["ls_schedule"]] == ["33.33", "33.33", "33.34"]  # the last takes the cent
