"""The overrides file (cobol-mcp.toml): what it changes in a tool, checked through the real server and a
real COBOL call, and every mistake in it named with its file and line."""

from __future__ import annotations

import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.prepare.overrides import read_overrides
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import needs_cobc

FOLDER = Path(__file__).parent / "realworld" / "overrides"


def tariff(age: int, group: int, ncd: int, cover: str) -> Decimal:
    """The tariff the program implements, in Python's Decimal: the oracle for its answers."""
    factor = Decimal("1.8") if age < 25 else Decimal("1.3") if age > 70 else Decimal(1)
    if cover == "T":
        factor = (factor * Decimal("0.6")).quantize(Decimal("0.0001"), ROUND_HALF_UP)
    premium = Decimal("420.00") * factor * (1 + Decimal(group) / 50) * (1 - Decimal(ncd) / 20)
    return premium.quantize(Decimal("0.01"), ROUND_HALF_UP)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    cache = tmp_path_factory.mktemp("cache")
    server = build_server(Options(programs=[("ins", str(FOLDER))], bundled=False, cache_dir=str(cache)))
    yield server
    server.runtime.close()


@needs_cobc
def test_program_keys_name_title_describe_annotate_and_time_the_tool(served: Any) -> None:
    assert served.errors == []
    definition = served.catalog.tool("motor_premium").definition()
    assert definition["title"] == "Motor insurance premium"
    assert definition["description"].startswith("Annual motor premium from the 2024 tariff book")
    assert definition["annotations"] == {"readOnlyHint": True, "idempotentHint": True}
    assert served.catalog.tool("motor_premium").timeout == 2.5
    assert served.catalog.tool("premcalc") is None


@needs_cobc
def test_field_keys_shape_the_input_schema(served: Any) -> None:
    schema = served.catalog.tool("motor_premium").definition()["inputSchema"]
    props = schema["properties"]
    assert "pp_channel" not in props  # hidden: the program is given "WB" on every call
    assert props["driver_age"]["description"].startswith("Age of the main driver in whole years. PIC 9(3)")
    assert "pp_driver_age" not in props
    assert props["pp_ncd_years"]["default"] == 0
    assert "pp_ncd_years" not in schema["required"]
    assert "pp_premium" not in props and "pp_rc" not in props  # out by the file, and by the code
    premium = next(
        f for f in served.catalog.tool("motor_premium").spec.records[0].field.children if f.name == "PP-PREMIUM"
    )
    assert premium.direction == "out" and premium.reason.startswith(f"set by {FOLDER / 'cobol-mcp.toml'}:")
    assert set(props["pp_cover"]["anyOf"][1]["enum"]) >= {"comprehensive", "third_party_fire_theft", "third_party_only"}


@needs_cobc
@pytest.mark.parametrize(
    ("age", "group", "ncd", "cover", "code"),
    [
        (30, 10, 5, "comprehensive", "C"),
        (19, 33, 0, "third_party_only", "T"),
        (75, 7, None, "third_party_fire_theft", "F"),
    ],
)
def test_calls_send_the_pinned_value_and_the_default(served: Any, age, group, ncd, cover, code) -> None:
    arguments = {"driver_age": age, "pp_vehicle_group": group, "pp_cover": cover}
    if ncd is not None:
        arguments["pp_ncd_years"] = ncd
    result = call(served, "motor_premium", arguments)
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert out["pp_rc"] == 0  # the channel arrived as "WB" although the caller never saw it
    assert Decimal(str(out["pp_premium"])) == tariff(age, group, ncd or 0, code)
    assert set(out) == {"pp_premium", "pp_rc"}  # inputs are not echoed back; the channel is hidden


def write(folder: Path, toml: str) -> Path:
    folder.mkdir(exist_ok=True)
    shutil.copy(FOLDER / "premcalc.cbl", folder / "premcalc.cbl")
    (folder / "cobol-mcp.toml").write_text(toml)
    return folder / "cobol-mcp.toml"


@pytest.mark.parametrize(
    ("toml", "line", "says"),
    [
        ("[programs.PREMCALC]\nname = 'x'\ncolour = 'red'\n", 3, "programs.PREMCALC.colour: unknown key"),
        ("[programs.PREMCALC]\n\nname = 'no spaces allowed'\n", 3, "is not a tool name"),
        ("[programs.PREMCALC]\ntimeout = -1\n", 2, "must be a number of seconds above 0"),
        ("[programs.PREMCALC]\nannotations = { readOnly = true }\n", 2, "unknown annotation 'readOnly'"),
        ("[programs.PREMCALC.fields.PP-RC]\ndirection = 'up'\n", 2, "must be one of in, out, inout, none"),
        ("[programs.PREMCALC.fields.PP-RC]\nbytes = 'hex'\nlabels = {}\n", 3, "has no condition names"),
        ("[settings]\nx = 1\n", 1, "unknown key 'settings'"),
        ("[programs.PREMCALC\nname = 'x'\n", 1, "invalid TOML"),
    ],
)
def test_a_mistake_in_the_file_names_its_line(tmp_path: Path, toml: str, line: int, says: str) -> None:
    path = write(tmp_path / "cobol", toml)
    if toml.startswith("[programs.PREMCALC]") or toml.startswith("[programs.PREMCALC."):
        problem = read_overrides(path.parent).programs["PREMCALC"].problem  # that program only is not served
        assert problem is not None and problem.endswith("; PREMCALC is not served")
    else:
        with pytest.raises(LinkageError) as caught:
            read_overrides(path.parent)
        problem = str(caught.value)
    assert problem.startswith(f"{path}:{line}: ")
    assert says in problem


@needs_cobc
@pytest.mark.parametrize(
    ("toml", "line", "says"),
    [
        ("[programs.PREMCALC.fields.PP-COLOUR]\nrename = 'x'\n", 1, "no LINKAGE item 'PP-COLOUR' in PREMCALC"),
        ("# a comment\n[programs.PREMCALK]\nname = 'x'\n", 2, "[programs.PREMCALK] matches no program"),
        ("[programs.PREMCALC.fields.PP-RC]\ndefault = 123\n", 1, "does not fit PP-RC"),
        ("[programs.PREMCALC.fields.PP-RC]\n\nhidden = true\n", 3, "needs the value the program is given"),
        ("[programs.PREMCALC.fields.PP-COVER]\nlabels = { PP-COVER-X = 'x' }\n", 1, "no 88-level 'PP-COVER-X'"),
        ("[programs.PREMCALC.fields.PP-RC]\nrename = 'pp_premium'\n", 1, "would be named 'pp_premium'"),
    ],
)
def test_a_name_that_matches_nothing_is_an_error_and_the_program_is_not_served(
    tmp_path: Path, toml: str, line: int, says: str
) -> None:
    path = write(tmp_path / "cobol", toml)
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    assert any(e.startswith(f"{path}:{line}: ") and says in e for e in scan.errors), scan.errors
    if "matches no program" not in says:
        assert scan.programs == []


def test_a_broken_file_serves_nothing_of_its_folder_and_says_so(tmp_path: Path) -> None:
    path = write(tmp_path / "cobol", "[programs.PREMCALC]\nname = \n")
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    assert scan.programs == []
    assert scan.errors[0].startswith(f"{path}:2: invalid TOML")
    assert "no program of" in scan.errors[0]


def test_no_file_no_change(tmp_path: Path) -> None:
    found = read_overrides(tmp_path)
    assert found.path is None and found.programs == {} and found.unused() == []
