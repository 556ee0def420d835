"""USING BY VALUE: served through a COBOL caller of the program's own shape, as a COBOL caller passes it."""

from __future__ import annotations

import shutil
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.prepare.cobc_check import verify_with_cobc
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.value_caller import value_caller_source, value_signature
from cobol_mcp.cobol.records.schema import input_schema, output_schema
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import find, needs_cobc

FOLDER = Path(__file__).parent / "realworld" / "byvalue"
CENT = Decimal("0.01")


def accrued(balance: Decimal, rate: Decimal, days: int) -> Decimal:
    """The oracle of ACCRUAL: each day's interest added, the balance rounded half up to the cent."""
    with localcontext() as ctx:
        ctx.prec = 60
        for _ in range(days):
            balance = (balance + balance * rate / 365).quantize(CENT, ROUND_HALF_UP)
    return balance


def fee(count: int, tier: int, waive: int) -> dict[str, Any]:
    """The oracle of FEECALC."""
    if not 1 <= tier <= 3:
        return {"ls_fee_amount": Decimal(0), "ls_billed_txns": 0, "ls_fee_code": "TIER"}
    if waive:
        return {"ls_fee_amount": Decimal(0), "ls_billed_txns": 0, "ls_fee_code": "WAIV"}
    if count <= 10:
        return {"ls_fee_amount": Decimal(0), "ls_billed_txns": 0, "ls_fee_code": "FREE"}
    rate = (Decimal("0.25"), Decimal("0.15"), Decimal("0.10"))[tier - 1]
    return {"ls_fee_amount": (count - 10) * rate, "ls_billed_txns": count - 10, "ls_fee_code": "CHRG"}


# ------------------------------------------------------------------------------------------- the model


def test_a_by_value_item_is_an_input_only_record_laid_out_as_cobc_lays_it_out():
    spec = parse_program(FOLDER / "ACCRUAL.cbl")
    assert [(r.name, r.by_value) for r in spec.records] == [
        ("LS-ACCOUNT", False),
        ("LS-DAYS", True),
        ("LS-RESULT", False),
    ]
    days = spec.records[1]
    assert (days.size, days.direction, days.field.native, days.field.usage) == (4, "in", "BINARY-LONG", "comp-5")
    assert (days.field.offset, days.field.direction) == (0, "in")
    assert "BY VALUE" in days.field.reason
    # the program SUBTRACTs from it, yet the caller's copy never changes: never a result
    assert "ls_days" in input_schema(spec)["properties"]
    assert "ls_days" not in output_schema(spec)["properties"]
    assert input_schema(spec)["properties"]["ls_days"]["type"] == "integer"


@needs_cobc
@pytest.mark.parametrize("name", ["ACCRUAL.cbl", "FEECALC.cbl"])
def test_layout_agrees_with_cobc(name: str):
    assert verify_with_cobc(FOLDER / name) == []


def test_mixed_order_keeps_each_parameter_in_its_place():
    spec = parse_program(FOLDER / "FEECALC.cbl")
    assert [(r.name, r.by_value, r.size) for r in spec.records] == [
        ("LS-TXN-COUNT", True, 2),
        ("LS-FEE-OUT", False, 15),
        ("LS-TIER", True, 1),
        ("LS-WAIVE", True, 2),
    ]
    assert value_signature(spec) == (
        "PIC S9(4) USAGE COMP-5",
        "REFERENCE",
        "USAGE BINARY-CHAR UNSIGNED",
        "USAGE BINARY-SHORT",
    )
    source = value_caller_source(value_signature(spec))
    call_text = " ".join(source.split("CALL LK-ENTRY USING")[1].split("END-CALL")[0].split())
    assert call_text == "BY VALUE LK-R001 BY REFERENCE LK-R002 BY VALUE LK-R003 BY VALUE LK-R004"
    assert "       01  LK-R003              USAGE BINARY-CHAR UNSIGNED." in source.splitlines()
    assert find(spec.records[1].field, "LS-FEE-CODE").direction == "out"


# ------------------------------------------------------------------------------------ through the server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    made = build_server(
        Options(programs=[("bv", str(FOLDER))], bundled=False, cache_dir=tmp_path_factory.mktemp("cache"))
    )
    try:
        yield made
    finally:
        made.runtime.close()


@needs_cobc
def test_a_program_passed_a_binary_long_by_value_matches_the_oracle(server: Any):
    cases = [
        ("1000.00", "0.0425", 30),
        ("250000.55", "0.0610", 365),
        ("0.99", "0.0100", 1),
        ("99999.99", "0.0999", 3660),
        ("12.34", "0.0000", 17),
    ]
    for balance, rate, days in cases:
        account = {"ls_ac_number": "DEP0001", "ls_ac_status": "ls_ac_open", "ls_ac_balance": balance}
        out = call(server, "accrual", {**account, "ls_ac_rate": rate, "ls_days": days})["structuredContent"]
        expected = accrued(Decimal(balance), Decimal(rate), days)
        assert out["ls_status"] == "00"  # LS-OK
        assert (out["ls_new_balance"], out["ls_days_accrued"]) == (expected, days)
        assert out["ls_interest"] == expected - Decimal(balance)
        assert "ls_days" not in out


@needs_cobc
@pytest.mark.parametrize(("status", "days", "expected"), [
    ("ls_ac_open", 0, "10"), ("ls_ac_open", -5, "10"), ("ls_ac_open", 3661, "10"),  # LS-BAD-DAYS
    ("ls_ac_open", 2**31 - 1, "10"), ("O", -(2**31), "10"),  # LS-AC-OPEN by its name or its value
    ("ls_ac_closed", 10, "20"),  # LS-CLOSED
])  # fmt: skip
def test_the_by_value_item_arrives_with_its_sign_and_range(server: Any, status: str, days: int, expected: str):
    args = {"ls_ac_number": "DEP0002", "ls_ac_status": status, "ls_ac_balance": "500.00", "ls_ac_rate": "0.05"}
    out = call(server, "accrual", {**args, "ls_days": days})["structuredContent"]
    assert (out["ls_status"], out["ls_new_balance"], out["ls_days_accrued"]) == (expected, Decimal("500.00"), 0)


@needs_cobc
def test_by_value_and_by_reference_in_mixed_order_match_the_oracle(server: Any):
    for count, tier, waive in [(25, 2, 0), (10, 1, 0), (11, 1, 0), (9999, 3, 0), (-3, 1, 0), (40, 1, 1),
                               (40, 3, -1), (40, 0, 0), (40, 4, 0), (40, 255, 0)]:  # fmt: skip
        args = {"ls_txn_count": count, "ls_tier": tier, "ls_waive": waive}
        result = call(server, "feecalc", args)
        assert result["structuredContent"] == fee(count, tier, waive), args
        assert result.get("isError", False) is not (1 <= tier <= 3), result  # RETURN-CODE 8 for a bad tier


@needs_cobc
def test_a_by_value_form_cobc_cannot_pass_is_refused_and_the_rest_served(server: Any):
    assert len(server.errors) == 1
    assert server.errors[0].startswith(f"{FOLDER / 'PADLEN.cbl'}:12: USING BY VALUE LS-LEN is not supported: ")
    assert "big-endian" in server.errors[0] and "COMP-5 or BINARY-LONG" in server.errors[0]


# ------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("linkage", "using", "message"),
    [
        (
            "01 LS-G.\n   05 LS-N PIC S9(4) COMP-5.",
            "BY VALUE LS-G",
            "BY VALUE LS-G is not supported: it is a group item",
        ),
        ("01 LS-N PIC S9(5)V99 COMP-5.", "BY VALUE LS-N", "BY VALUE LS-N is not supported: it has decimal places"),
        ("01 LS-N PIC S9(11) COMP-5.", "BY VALUE LS-N", "BY VALUE LS-N is not supported: it is 8 bytes"),
        ("01 LS-N PIC 9(4) COMP-3.", "BY VALUE LS-N", "BY VALUE LS-N is not supported: USAGE COMP-3"),
        ("01 LS-N USAGE COMP-2.", "BY VALUE LS-N", "BY VALUE LS-N is not supported: USAGE COMP-2"),
        ("01 LS-N PIC 9(4) COMP.", "LS-N BY CONTENT LS-N", "USING BY CONTENT is not supported"),
    ],
)
def test_other_by_value_forms_are_refused_with_file_line_and_reason(tmp_path, linkage, using, message):
    path = tmp_path / "pass.cob"
    path.write_text(f"IDENTIFICATION DIVISION.\nPROGRAM-ID. pass.\nDATA DIVISION.\nLINKAGE SECTION.\n{linkage}\n"
                    f"PROCEDURE DIVISION USING {using}.\n    GOBACK.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"pass\.cob:\d+: (USING )?" + message):
        parse_program(path)


def test_an_entry_using_by_value_is_refused_with_the_reason(tmp_path):
    path = tmp_path / "ent.cob"
    path.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. ent.\nDATA DIVISION.\nLINKAGE SECTION.\n"
                    "01 LS-N USAGE BINARY-LONG.\nPROCEDURE DIVISION.\n    GOBACK.\n"
                    "    ENTRY 'ENT2' USING BY VALUE LS-N.\n    GOBACK.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"ent\.cob:8: ENTRY ENT2 USING BY VALUE is not supported for an ENTRY"):
        parse_program(path)


@needs_cobc
def test_an_override_cannot_make_a_by_value_item_a_result(tmp_path: Path):
    folder = tmp_path / "cobol"
    shutil.copytree(FOLDER, folder)
    (folder / "PADLEN.cbl").unlink()
    (folder / "cobol-mcp.toml").write_text("[programs.FEECALC.fields.LS-TIER]\ndirection = 'inout'\n")
    scan = scan_folder(folder, cache_dir=tmp_path / "cache")
    assert [p.spec.program_id for p in scan.programs] == ["ACCRUAL"]
    assert scan.errors == [
        f"{folder / 'cobol-mcp.toml'}:1: direction: LS-TIER is passed BY VALUE: the program works on its own copy "
        "and cannot return it, so it can only be in or none"
    ]
