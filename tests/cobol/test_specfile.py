"""Spec files and the value objects they hold: what is written is read back equal, value for value,
and a file of another format or a damaged one is refused with a clear error (the build parses again)."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.frozen import replace
from cobol_mcp.cobol.linkage.model import Condition, Field, ProgramSpec
from cobol_mcp.cobol.linkage.pic import Picture, parse_picture
from cobol_mcp.cobol.prepare.programs import compile_programs
from cobol_mcp.cobol.prepare.specfile import FORMAT, SpecFileError, dumps, load_spec, loads

from .conftest import SAMPLE_PATHS, find, needs_cobc, sample


def walk(f: Field):
    yield f
    for c in (*f.children, *f.alternatives):
        yield from walk(c)


@pytest.mark.parametrize("path", SAMPLE_PATHS, ids=lambda p: p.name)
def test_a_spec_file_reads_back_equal(specs, tmp_path, path):
    spec = specs[path.name]
    target = tmp_path / "x.spec"
    target.write_bytes(dumps(spec))
    back = load_spec(str(target))
    assert back == spec and hash(back) == hash(spec) and repr(back) == repr(spec)
    for mine, theirs in zip(
        (f for r in back.records for f in walk(r.field)), (f for r in spec.records for f in walk(r.field)), strict=True
    ):
        assert type(mine.value) is type(theirs.value)  # a Decimal VALUE stays a Decimal, text stays text
        for got, want in zip(mine.conditions, theirs.conditions, strict=True):
            assert [tuple(map(type, v)) for v in got.values] == [tuple(map(type, v)) for v in want.values]
    assert back.source == spec.source and isinstance(back.source, Path)


def test_values_keep_their_exact_text(specs):
    zoo = specs["usage-zoo.cob"]
    defaulted = find(zoo.records[0].field, "D-DEFAULTED")
    back = loads(dumps(zoo))
    assert isinstance(defaulted.value, Decimal)
    assert str(find(back.records[0].field, "D-DEFAULTED").value) == str(defaulted.value) == "-12.5"


def test_a_units_file_holds_specs_and_reasons(specs):
    units = (specs["hello.cob"], "prog.cbl:3: not a tool: why", specs["PAYROLL.CBL"])
    assert loads(dumps(units)) == units


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (pickle.dumps({"a": 1}), "not a spec file of this version"),
        (b"cobol-mcp spec 0\n" + b"\0" * 8, "not a spec file of this version"),
        (FORMAT + b"\xff\x00", "damaged spec file"),
        (FORMAT, "damaged spec file"),
        (FORMAT + __import__("marshal").dumps([99, "x"]), "damaged spec file"),
        (FORMAT + __import__("marshal").dumps([1, "too few"]), "damaged spec file"),
    ],
)
def test_other_files_are_refused_with_the_reason(tmp_path, data, message):
    path = tmp_path / "x.spec"
    path.write_bytes(data)
    with pytest.raises(SpecFileError, match=message) as raised:
        load_spec(str(path))
    assert str(path) in str(raised.value)


def test_a_file_that_holds_no_spec_is_refused(tmp_path):
    path = tmp_path / "x.spec"
    path.write_bytes(dumps(("just a reason",)))
    with pytest.raises(SpecFileError, match="does not hold a program spec"):
        load_spec(str(path))


def test_what_a_spec_file_cannot_hold_is_refused_when_written(specs):
    with pytest.raises(TypeError, match="cannot hold float"):
        dumps(replace(specs["hello.cob"], description=1.5))  # type: ignore[arg-type]  # the point of the test


@needs_cobc
def test_a_damaged_cached_units_file_is_parsed_again(tmp_path):
    cache = tmp_path / "cache"
    first = compile_programs(sample("add-numbers.cob"), cache_dir=cache)
    for unit in (cache / "specs").glob("*.units.spec"):
        unit.write_bytes(b"junk")
    again = compile_programs(sample("add-numbers.cob"), cache_dir=cache)
    assert [p.spec for p in again] == [p.spec for p in first]  # type: ignore[union-attr]
    assert load_spec(str(again[0].spec_path)) == first[0].spec  # type: ignore[union-attr]


# ------------------------------------------------------------------------------ the value objects


def test_value_objects_are_immutable_and_compared_by_value():
    pic = parse_picture("S9(3)V99")
    assert pic == Picture("S9(3)V99", "numeric", 5, 5, 5, 2, True) and pic.integer_digits == 3
    assert pic != Picture("S9(3)V99", "numeric", 5, 5, 5, 2, False)
    assert pic != ("S9(3)V99", "numeric", 5, 5, 5, 2, True)  # only the same class compares equal
    assert len({pic, parse_picture("S9(3)V99")}) == 1
    with pytest.raises(AttributeError, match="immutable"):
        pic.scale = 3  # type: ignore[misc]  # the point of the test
    with pytest.raises(AttributeError, match="immutable"):
        del pic.scale  # type: ignore[misc]  # the point of the test
    assert repr(Condition("OK", "ok", ((Decimal(1), None),))) == (
        "Condition(name='OK', key='ok', values=((Decimal('1'), None),))"
    )


def test_fields_take_the_same_defaults_by_keyword_or_position():
    by_position = Field("WS-A", "ws_a", 5, 0, 3, None, "X(3)", "display")
    by_keyword = Field(name="WS-A", key="ws_a", level=5, offset=0, size=3, occurs=None, pic="X(3)", usage="display")
    assert by_position == by_keyword
    assert (by_keyword.category, by_keyword.truncated, by_keyword.direction, by_keyword.children) == (
        "group",
        True,
        "inout",
        (),
    )
    with pytest.raises(TypeError):
        Field("WS-A", "ws_a", 5, 0, 3, None, "X(3)")  # type: ignore[call-arg]  # the point of the test


def test_replace_changes_only_what_it_names(specs):
    spec = specs["PAYROLL.CBL"]
    record = spec.records[0]
    changed = replace(record, direction="none")
    assert changed.direction == "none" and changed.field is record.field and record.direction == "in"
    assert replace(spec, records=(changed,)).copybooks == spec.copybooks
    with pytest.raises(TypeError):
        replace(record, colour="blue")


def test_specs_copy_and_pickle_equal(specs):
    spec = specs["usage-zoo.cob"]
    assert copy.copy(spec) == spec and copy.deepcopy(spec) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_program_specs_keep_their_paths_as_text(specs):
    spec = specs["PAYROLL.CBL"]
    assert isinstance(spec.source_name, str) and spec.source == Path(spec.source_name)
    assert spec.copybooks == tuple(Path(p) for p in spec.copybook_names) and spec.copybooks
    assert ProgramSpec("P", "p", "P", "", (), "fixed", Path("/x/p.cbl"), (Path("/x/c.cpy"),)) == ProgramSpec(
        "P", "p", "P", "", (), "fixed", "/x/p.cbl", ("/x/c.cpy",)
    )


class StubRuntime:
    def load(self, *args: object, **kwargs: object) -> None:
        pass


def test_a_tool_whose_spec_file_does_not_load_is_reported_and_the_rest_goes_on(tmp_path, capfd):
    from cobol_mcp.catalog import Catalog
    from cobol_mcp.cobol.prepare.entries import CallableEntry
    from cobol_mcp.cobol.tool import CobolTool

    old = tmp_path / "old.pickle"
    old.write_bytes(pickle.dumps({"from": "an older version"}))
    entry: CallableEntry = {"kind": "callable", "tool_name": "old", "program_id": "OLD", "module": "/nowhere.so",
             "symbol": "OLD", "driver": None, "driver_symbol": "", "sizes": [1], "padding": 0, "bundled": False,
             "definition": {"name": "old"}, "spec_path": str(old), "source": "/nowhere.cbl"}  # fmt: skip
    tool = CobolTool(entry, StubRuntime(), backend="mine")  # type: ignore[arg-type]  # only load() is used
    tool.warm()  # the server's warm-up after its first reply loads the codec only: nothing to report yet
    catalog = Catalog()
    catalog.add_backend("mine", [tool])
    outcomes: list[object] = []
    catalog.call("old", {}, outcomes.append)
    assert isinstance(outcomes[0], SpecFileError)  # the transport's internal-error reply; serving goes on
    assert f"{old}: not a spec file of this version" in capfd.readouterr().err
