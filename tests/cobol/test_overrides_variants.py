"""One program, several tools: ``[programs.PROG.tools.NAME]`` in cobol-mcp.toml. What each variant
inherits and overrides, how a chosen view narrows its schemas, calls that reach the program with the
variant's hidden values, and every mistake named with its file and line (the program not served, its
neighbours served)."""

from __future__ import annotations

import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.prepare.overrides import read_overrides
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.tool_entry import program_entry
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import needs_cobc

FOLDER = Path(__file__).parent / "realworld" / "variants"
TOML = FOLDER / "cobol-mcp.toml"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    cache = tmp_path_factory.mktemp("cache")
    server = build_server(Options(programs=[("bank", str(FOLDER))], bundled=False, cache_dir=str(cache)))
    yield server
    server.runtime.close()


@needs_cobc
def test_each_variant_is_a_tool_and_the_plain_tool_is_not_published(served: Any) -> None:
    assert served.errors == []
    assert sorted(served.catalog.names) == ["convert_euros", "echoarea", "simple_interest"]
    assert served.catalog.tool("acctcalc") is None


@needs_cobc
def test_a_variant_inherits_the_program_keys_it_does_not_give(served: Any) -> None:
    interest = served.catalog.tool("simple_interest")
    convert = served.catalog.tool("convert_euros")
    own, inherited = interest.definition(), convert.definition()
    assert own["title"] == "Simple interest on a deposit"
    assert own["description"].startswith("Simple interest on a deposit over whole years")
    assert own["annotations"] == {"readOnlyHint": True, "idempotentHint": True}  # the program's, then its own
    assert inherited["title"] == "ACCTCALC convert_euros"  # neither gives one: the program and the tool
    assert inherited["description"] == "Deposit calculator of the branch system."
    assert inherited["annotations"] == {"readOnlyHint": True}
    assert interest.timeout == convert.timeout == 20
    # the program's field table, merged key by key with the variant's own
    message = own["outputSchema"]["properties"]["ac_message"]
    assert message["description"] == "Why the request was refused (spaces when it was not)."
    refusal = inherited["outputSchema"]["properties"]["refusal"]
    assert refusal["description"] == "Why the request was refused (spaces when it was not)."
    assert "ac_message" not in inherited["outputSchema"]["properties"]


@needs_cobc
def test_a_chosen_view_narrows_both_schemas_and_keeps_the_directions(served: Any) -> None:
    interest = served.catalog.tool("simple_interest")
    definition = interest.definition()
    assert list(definition["inputSchema"]["properties"]) == ["ac_interest"]  # no request id, no other view
    view = definition["inputSchema"]["properties"]["ac_interest"]
    assert sorted(view["properties"]) == ["ac_int_principal", "ac_int_rate", "ac_int_years"]  # interest: out
    assert sorted(definition["outputSchema"]["properties"]) == ["ac_interest", "ac_message", "ac_return_code"]
    out = definition["outputSchema"]["properties"]["ac_interest"]["properties"]
    assert "interest" in out and "ac_cnv_result" not in out
    convert = served.catalog.tool("convert_euros").definition()
    assert list(convert["inputSchema"]["properties"]) == ["ac_convert"]
    assert sorted(convert["inputSchema"]["properties"]["ac_convert"]["properties"]) == [
        "ac_cnv_amount",
        "ac_cnv_currency",
    ]
    area = interest.spec.records[0].field
    data = next(c for c in area.children if c.name == "AC-INTEREST")
    principal = next(c for c in data.children if c.name == "AC-INT-PRINCIPAL")
    assert principal.direction == "inout" and principal.reason.startswith("as AC-REQUEST-DATA, whose bytes")


@needs_cobc
@pytest.mark.parametrize(("principal", "rate", "years"), [(1000, "2.5", 3), ("123456.78", "4.25", 7)])
def test_a_variant_call_reaches_the_program_with_its_hidden_request_id(served: Any, principal, rate, years) -> None:
    arguments = {"ac_interest": {"ac_int_principal": principal, "ac_int_rate": rate, "ac_int_years": years}}
    result = call(served, "simple_interest", arguments)
    assert not result.get("isError"), result
    out = result["structuredContent"]
    expected = (Decimal(str(principal)) * Decimal(rate) * years / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert out["ac_return_code"] == 0 and out["ac_message"] == ""  # not 'UNKNOWN REQUEST TYPE'
    assert Decimal(str(out["ac_interest"]["interest"])) == expected


@needs_cobc
@pytest.mark.parametrize(("currency", "rate"), [("USD", "1.0850"), ("GBP", "0.8420"), ("CHF", "0.9370")])
def test_the_other_variant_takes_the_other_request_type(served: Any, currency: str, rate: str) -> None:
    result = call(served, "convert_euros", {"ac_convert": {"ac_cnv_amount": "250.40", "ac_cnv_currency": currency}})
    out = result["structuredContent"]
    assert out["ac_return_code"] == 0, out
    expected = (Decimal("250.40") * Decimal(rate)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert Decimal(str(out["ac_convert"]["ac_cnv_result"])) == expected
    refused = call(served, "convert_euros", {"ac_convert": {"ac_cnv_amount": 1, "ac_cnv_currency": "JPY"}})
    assert refused["structuredContent"]["ac_return_code"] == 12
    assert refused["structuredContent"]["refusal"] == "UNKNOWN CURRENCY"
    view = {"ac_cnv_amount": 1, "ac_cnv_currency": "USD"}
    wrong = call(served, "convert_euros", {"ac_request_id": "SIMINT", "ac_convert": view})
    assert wrong.get("isError") and "ac_request_id" in wrong["content"][0]["text"]  # hidden: not an argument


# ------------------------------------------------------------------------------------------ the plain tool


def folder_with(tmp_path: Path, toml: str) -> Path:
    folder = tmp_path / "bank"
    shutil.copytree(FOLDER, folder)
    (folder / "cobol-mcp.toml").write_text(toml)
    return folder / "cobol-mcp.toml"


VARIANT = """\
[programs.ACCTCALC.tools.simple_interest]
fields.AC-REQUEST-ID = { hidden = true, value = "SIMINT" }
fields.AC-REQUEST-DATA = { view = "AC-INTEREST" }
"""


def tool_names(path: Path, tmp_path: Path) -> tuple[list[str], list[str]]:
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    names = [program_entry(program, False, tmp_path / "cache")["tool_name"] for program in scan.programs]
    return names, scan.errors


@needs_cobc
def test_plain_tool_publishes_the_program_beside_its_variants(tmp_path: Path) -> None:
    toml = '[programs.ACCTCALC]\nplain-tool = true\nname = "deposit_calc"\n'
    toml += 'fields.AC-REQUEST-ID = { rename = "request", description = "SIMINT or CONVRT." }\n\n' + VARIANT
    path = folder_with(tmp_path, toml)
    names, errors = tool_names(path, tmp_path)
    assert errors == []  # the variant hides the item: the program's rename and description of it are dropped
    assert sorted(names) == ["deposit_calc", "echoarea", "simple_interest"]
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    plain = next(p for p in scan.programs if p.overrides is not None and p.overrides.variant is None)
    shown = {c.key: c for c in plain.spec.records[0].field.children if c.exposed}
    assert {"request", "ac_request_data"} <= set(shown) and shown["request"].description == "SIMINT or CONVRT."
    variant = next(p for p in scan.programs if p.overrides is not None and p.overrides.variant is not None)
    hidden = next(c for c in variant.spec.records[0].field.children if c.name == "AC-REQUEST-ID")
    assert hidden.key is None and hidden.value == "SIMINT"


# ------------------------------------------------------------------------------------------------ mistakes


def line_of(path: Path, text: str, after: int = 0) -> int:
    lines = path.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > after and text in line)


@needs_cobc
@pytest.mark.parametrize(
    ("toml", "needle", "says"),
    [
        (VARIANT + "colour = 'red'\n", "colour", "tools.simple_interest.colour: unknown key"),
        (VARIANT + "name = 'x'\n", "name =", "a tool's name is its table's"),
        (VARIANT + "timeout = 0\n", "timeout", "must be a number of seconds above 0"),
        (VARIANT + "annotations = { readOnly = true }\n", "annotations", "unknown annotation 'readOnly'"),
        ("[programs.ACCTCALC.tools.'two words']\n", "two words", "'two words' is not a tool name"),
        ("[programs.ACCTCALC.tools]\nx = 1\n", "x = 1", "tools.x: must be a table"),
        (VARIANT + "fields.AC-MESSAGE = { colour = 1 }\n", "colour", "tools.simple_interest.fields.AC-MESSAGE.colour"),
        (
            "[programs.ACCTCALC.fields.AC-MESSAGE]\nbytes = 'hex'\n\n"
            + VARIANT
            + "fields.AC-MESSAGE = { labels = {} }\n",
            "labels",
            "has no condition names",  # the program's table and the variant's, merged: checked as one
        ),
    ],
)
def test_a_mistake_in_a_variant_names_its_line_and_keeps_only_its_program_out(
    tmp_path: Path, toml: str, needle: str, says: str
) -> None:
    path = folder_with(tmp_path, toml)
    line = line_of(path, needle)
    names, errors = tool_names(path, tmp_path)
    assert any(e.startswith(f"{path}:{line}: ") and says in e and "ACCTCALC is not served" in e for e in errors), errors
    assert names == ["echoarea"]  # the neighbour is served


@needs_cobc
@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ('fields.AC-REQUEST-ID = { hidden = true, value = "SIMINTX" }\n', "does not fit AC-REQUEST-ID"),
        ('fields.AC-NOPE = { rename = "x" }\n', "no LINKAGE item 'AC-NOPE' in ACCTCALC"),
        ("fields.AC-MESSAGE = { hidden = true }\n", "tools.other.fields.AC-MESSAGE.hidden: a hidden field needs the"),
        ('fields.AC-REQUEST-DATA = { view = "AC-NOPE" }\n', "'AC-NOPE' is not a view of AC-REQUEST-DATA"),
        (
            'fields.AC-REQUEST-DATA = { view = "AC-INTEREST" }\nfields.AC-INT-RATE = { rename = "ac_int_years" }\n',
            "would be named 'ac_int_years'",
        ),
    ],
)
def test_a_variant_value_the_program_cannot_take_is_an_error_at_its_line(
    tmp_path: Path, fields: str, says: str
) -> None:
    toml = '[programs.ACCTCALC.tools.simple_interest]\nfields.AC-REQUEST-DATA = { view = "AC-INTEREST" }\n'
    toml += 'fields.AC-INT-AMOUNT = { rename = "interest" }\n[programs.ACCTCALC.tools.other]\n' + fields
    path = folder_with(tmp_path, toml)
    names, errors = tool_names(path, tmp_path)
    line = line_of(path, fields.split(" =")[0], after=line_of(path, "tools.other"))
    if "would be named" in says:  # a clash of the whole record: said at the variant's table
        line = line_of(path, "tools.other")
    assert any(e.startswith(f"{path}:{line}: ") and says in e for e in errors), errors
    assert names == ["echoarea"]


@needs_cobc
def test_two_variants_of_one_name_keep_both_programs_out(tmp_path: Path) -> None:
    toml = VARIANT + '\n[programs.ECHOAREA.tools.simple_interest]\ndescription = "x"\n'
    path = folder_with(tmp_path, toml)
    names, errors = tool_names(path, tmp_path)
    first, second = line_of(path, "ACCTCALC.tools"), line_of(path, "ECHOAREA.tools")
    assert names == []
    assert any(e.startswith(f"{path}:{first}: ") and "ACCTCALC is not served" in e for e in errors), errors
    assert any(e.startswith(f"{path}:{second}: ") and "ECHOAREA is not served" in e for e in errors), errors
    assert any(f"at {path}:{first}" in e for e in errors)  # each names the other


@needs_cobc
def test_a_variant_named_like_another_programs_tool_keeps_its_own_program_out(tmp_path: Path) -> None:
    path = folder_with(tmp_path, VARIANT + '[programs.ACCTCALC.tools.echoarea]\ndescription = "x"\n')
    names, errors = tool_names(path, tmp_path)
    line = line_of(path, "tools.echoarea")
    assert names == ["echoarea"]
    assert any(e.startswith(f"{path}:{line}: ") and "the tool of ECHOAREA" in e for e in errors), errors
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    assert [callee for callee, _ in scan.callees] == ["ACCTCALC"]  # still CALLable by other programs


def test_keys_of_the_program_table_that_only_variants_give_meaning_are_checked(tmp_path: Path) -> None:
    for toml, says in [
        ("[programs.ACCTCALC]\nplain-tool = true\n", "only a program with tools"),
        ("[programs.ACCTCALC]\nplain-tool = 'yes'\n", "must be true or false"),
        ("[programs.ACCTCALC]\nname = 'calc'\n\n" + VARIANT, "which is not published beside its tools"),
        ("[programs.ACCTCALC]\ntools = 3\n", "must be a table of tools"),
    ]:
        path = folder_with(tmp_path / str(len(says)), toml)
        problem = read_overrides(path.parent).programs["ACCTCALC"].problem
        assert problem is not None and problem.startswith(f"{path}:2: ") and says in problem


CONSOLE = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. DAYEND.
       PROCEDURE DIVISION.
           DISPLAY 'DAY END DONE'
           STOP RUN.
"""


@needs_cobc
def test_a_console_program_has_no_variants(tmp_path: Path) -> None:
    path = folder_with(tmp_path, '[programs.DAYEND.tools.day_end]\ndescription = "x"\n')
    (path.parent / "DAYEND.cbl").write_text(CONSOLE)
    names, errors = tool_names(path, tmp_path)
    assert any(e.startswith(f"{path}:1: ") and "DAYEND has no PROCEDURE DIVISION USING" in e for e in errors), errors
    assert "dayend" not in names and "day_end" not in names


def test_the_file_says_where_each_variant_key_is() -> None:
    found = read_overrides(FOLDER).programs["ACCTCALC"]
    assert [v.name for v in found.variants] == ["simple_interest", "convert_euros"] and not found.plain
    convert = found.of_variant(found.variants[1])
    assert convert.fields["AC-MESSAGE"] == {
        "description": "Why the request was refused (spaces when it was not).",
        "rename": "refusal",
    }
    assert convert.where("AC-MESSAGE") == f"{TOML}:{line_of(TOML, 'AC-MESSAGE = { rename')}"
    interest = found.of_variant(found.variants[0])
    assert interest.where("ac-message") == f"{TOML}:{line_of(TOML, '[programs.ACCTCALC.fields.AC-MESSAGE]')}"
    assert interest.where("AC-REQUEST-ID") == f"{TOML}:{line_of(TOML, 'SIMINT')}"
    assert convert.where("AC-REQUEST-ID") == f"{TOML}:{line_of(TOML, 'CONVRT')}"


@needs_cobc
def test_a_hidden_value_inside_the_chosen_view_reaches_the_program(tmp_path: Path) -> None:
    toml = """\
[programs.ACCTCALC.tools.convert_to_pounds]
fields.AC-REQUEST-ID = { hidden = true, value = "CONVRT" }
fields.AC-REQUEST-DATA = { view = "AC-CONVERT" }
fields.AC-CNV-CURRENCY = { hidden = true, value = "GBP" }
fields.AC-CNV-RESULT = { direction = "out" }
"""
    path = folder_with(tmp_path, toml)
    server = build_server(Options(programs=[("bank", str(path.parent))], bundled=False, cache_dir=str(tmp_path / "c")))
    try:
        tool = server.catalog.tool("convert_to_pounds")
        assert list(tool.definition()["inputSchema"]["properties"]["ac_convert"]["properties"]) == ["ac_cnv_amount"]
        out = call(server, "convert_to_pounds", {"ac_convert": {"ac_cnv_amount": 1000}})["structuredContent"]
        assert (out["ac_return_code"], out["ac_message"]) == (0, "")  # the view's bytes hold GBP, not spaces
        assert Decimal(str(out["ac_convert"]["ac_cnv_result"])) == Decimal("842.00")
    finally:
        server.runtime.close()


@needs_cobc
def test_a_variant_named_like_its_own_plain_tool_keeps_its_program_out(tmp_path: Path) -> None:
    path = folder_with(tmp_path, '[programs.ACCTCALC]\nplain-tool = true\nname = "simple_interest"\n\n' + VARIANT)
    names, errors = tool_names(path, tmp_path)
    line = line_of(path, "tools.simple_interest")
    assert names == ["echoarea"]
    assert any(e.startswith(f"{path}:{line}: ") and "the tool of ACCTCALC" in e for e in errors), errors


@needs_cobc
def test_a_mistake_in_a_program_table_keeps_only_that_program_out(tmp_path: Path) -> None:
    path = folder_with(tmp_path, '[programs.ECHOAREA]\ndescription = "Echo."\n\n[programs.ACCTCALC]\ncolour = "red"\n')
    names, errors = tool_names(path, tmp_path)
    assert names == ["echoarea"]  # ACCTCALC is out (as it is when its table is wrong), its neighbour is served
    known = "name, title, description, annotations, timeout, fields, tools, plain-tool, containers"
    assert errors == [f"{path}:5: programs.ACCTCALC.colour: unknown key (known: {known}); ACCTCALC is not served"]


def test_a_variant_may_give_only_the_value_of_an_item_its_program_hides(tmp_path: Path) -> None:
    toml = '[programs.ACCTCALC.fields.AC-REQUEST-ID]\nhidden = true\nvalue = "SIMINT"\n\n' + VARIANT.replace(
        'fields.AC-REQUEST-ID = { hidden = true, value = "SIMINT" }', "fields.AC-REQUEST-ID = { value = 'CONVRT' }"
    )
    (tmp_path / "cobol-mcp.toml").write_text(toml)
    found = read_overrides(tmp_path).programs["ACCTCALC"]
    assert found.problem is None, found.problem
    assert found.variants[0].fields["AC-REQUEST-ID"] == {"hidden": True, "value": "CONVRT"}
