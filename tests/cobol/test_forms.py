"""Data forms beyond the classic USAGEs (native binary, INDEX, PIC N, 77 levels, 88 THRU lists, BLANK WHEN
ZERO): laid out as cobc lays them out, and carried through a real COBOL program and back."""

from __future__ import annotations

import struct
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.direction import recombine, redirect
from cobol_mcp.cobol.linkage.frozen import replace
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.linkage.storage import read_storage
from cobol_mcp.cobol.prepare.cobc_check import verify_with_cobc
from cobol_mcp.cobol.records.codec import FieldError, decode_outputs, encode_inputs
from cobol_mcp.cobol.records.schema import input_schema, output_schema

from .conftest import HAVE_COBC, call_sync, find, needs_cobc

FORMS = Path(__file__).parent / "realworld" / "forms"
FORM_PATHS = sorted(p for p in FORMS.iterdir() if p.suffix.lower() in (".cbl", ".cob"))

build = pytest.importorskip("cobol_mcp.cobol.prepare.cobc")
runtime = pytest.importorskip("cobol_mcp.cobol.runtime.pool")


@pytest.fixture(scope="module")
def call(tmp_path_factory):
    if not HAVE_COBC:
        pytest.skip("GnuCOBOL's cobc is not installed")
    rt = runtime.Runtime(max_workers=1)
    cache = tmp_path_factory.mktemp("forms-cache")
    loaded: dict[str, object] = {}

    def run(name: str, arguments: dict, notes: list[str] | None = None) -> dict:
        spec = parse_program(FORMS / name)
        if name not in loaded:
            module = build.build_module(FORMS / name, cache, source_format=spec.source_format)
            rt.load(name, module, spec.entry_symbol, [r.size for r in spec.records])
            loaded[name] = spec
        result = call_sync(rt, name, encode_inputs(spec, arguments), timeout=10.0)
        assert result.ok, result.error
        return decode_outputs(spec, result.buffers, notes)

    try:
        yield run
    finally:
        rt.close()


@needs_cobc
@pytest.mark.parametrize("path", FORM_PATHS, ids=lambda p: p.name)
def test_form_layouts_match_cobc(path):
    assert verify_with_cobc(path) == []


# ------------------------------------------------------------------------------- native binary, PIC N


def test_native_binary_items_span_the_machine_integer():
    spec = parse_program(FORMS / "SENSTAT.cbl")
    request = spec.records[0].field
    count, serial, offset = (find(request, n) for n in ("LS-COUNT", "LS-SERIAL", "LS-OFFSET"))
    assert (count.size, count.signed, count.native) == (1, False, "BINARY-CHAR UNSIGNED")
    assert (serial.size, serial.signed) == (8, False)
    assert (offset.size, offset.signed, offset.native) == (1, True, "BINARY-CHAR")
    station = find(request, "LS-STATION")
    assert (station.size, station.category) == (12, "national")
    props = input_schema(spec)["properties"]
    assert (props["ls_count"]["minimum"], props["ls_count"]["maximum"]) == (0, 255)
    assert (props["ls_offset"]["minimum"], props["ls_offset"]["maximum"]) == (-128, 127)
    serial_in = props["ls_serial"]  # 20 digits: more than a binary double keeps, so the bounds are text
    assert serial_in["type"] == ["integer", "string"] and "maximum" not in serial_in
    assert "from 0 to 18446744073709551615" in serial_in["description"]
    assert props["ls_reading"]["items"]["minimum"] == -32768
    assert props["ls_station"]["maxLength"] == 12
    out = output_schema(spec)["properties"]
    assert out["ls_last_ix"]["maximum"] == 2**31 - 1


def test_native_binary_bytes_are_machine_order():
    spec = parse_program(FORMS / "SENSTAT.cbl")
    args = {"ls_station": "N-07", "ls_count": 255, "ls_reading": [-32768, 32767, 0, 1, -1],
            "ls_serial": 2**64 - 1, "ls_offset": -128, "ls_scale": 1.5}  # fmt: skip
    data = encode_inputs(spec, args)[0]
    assert data[:12] == b"N-07        "
    assert data[12] == 255
    assert struct.unpack("=5h", data[13:23]) == (-32768, 32767, 0, 1, -1)
    assert struct.unpack("=Qb", data[23:32]) == (2**64 - 1, -128)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("ls_count", 256, "a whole number from 0 to 255"),
        ("ls_offset", -129, "a whole number from -128 to 127"),
        ("ls_serial", -1, "USAGE BINARY-DOUBLE UNSIGNED"),
        ("ls_count", "1.5", "a whole number"),
        ("ls_station", "x" * 13, "at most 12"),
    ],
)
def test_native_and_national_reject_what_does_not_fit(key, value, message):
    spec = parse_program(FORMS / "SENSTAT.cbl")
    args = {"ls_station": "A", "ls_count": 0, "ls_reading": [0] * 5, "ls_serial": 0, "ls_offset": 0,
            "ls_scale": 1, key: value}  # fmt: skip
    with pytest.raises(FieldError, match=message):
        encode_inputs(spec, args)


@needs_cobc
def test_sensor_statistics_through_cobol(call):
    readings = [-32768, 32767, 120, -5, 9]
    args = {"ls_station": "NORTH1", "ls_count": 4, "ls_reading": readings, "ls_serial": 2**64 - 2,
            "ls_offset": -3, "ls_scale": 0.5}  # fmt: skip
    got = call("SENSTAT.cbl", args)
    used = readings[:4]
    total = sum(used) + 4 * -3
    assert got["ls_station_out"] == "NORTH1"
    assert got["ls_total"] == total
    assert (got["ls_lowest"], got["ls_highest"]) == (min(used), max(used))
    assert got["ls_serial_next"] == str(2**64 - 1)  # decimal text: a double would round it
    assert got["ls_mean"] == Decimal(repr(total * 0.5 / 4))
    assert got["ls_last_ix"] == 5
    assert got["ls_shown"] == 40
    assert got["ls_status"] == "00"  # LS-OK


@needs_cobc
def test_blank_when_zero_and_88_thru_lists_through_cobol(call):
    args = {"ls_station": "", "ls_count": 0, "ls_reading": [0] * 5, "ls_serial": 0, "ls_offset": 0,
            "ls_scale": 1}  # fmt: skip
    got = call("SENSTAT.cbl", args)
    assert got["ls_shown"] == 0  # stored as spaces (BLANK WHEN ZERO), read back as zero
    assert got["ls_status"] == "W1"  # LS-WARNING, the second value of its list
    assert got["ls_mean"] == 0


# ------------------------------------------------------------------------------------------- refusals


def test_pointers_are_laid_out_but_never_part_of_the_json():
    """ACCTLOOK's area ends with two PCB addresses (one SYNC): they take 8 bytes each where cobc puts
    them, are no argument and no result, and its WORKING-STORAGE pointers are read like any item."""
    spec = parse_program(FORMS / "ACCTLOOK.cbl")
    (area,) = spec.records
    at = {f.name: (f.offset, f.size, f.direction) for f in area.field.children}
    assert at["AL-DB-PCB"] == (16, struct.calcsize("P"), "none")  # after 15 bytes, aligned by SYNC
    assert at["AL-TP-PCB"] == (16 + struct.calcsize("P"), struct.calcsize("P"), "none")
    shown = {"al_account", "al_balance", "al_standing", "al_pcbs_given"}
    assert set(input_schema(spec)["properties"]) | set(output_schema(spec)["properties"]) <= shown
    storage = read_storage(FORMS / "ACCTLOOK.cbl")
    assert storage.unreadable == {}
    sizes = {f.name: f.size for _, f in storage.records}
    assert sizes["WS-HEADER"] == 16 + struct.calcsize("P") + 2 and sizes["WS-EXIT-ROUTINE"] == struct.calcsize("P")


def test_an_address_kept_in_a_pointer_no_statement_uses_is_no_read():
    """``SET WS-ADDR-AREA TO ADDRESS OF AL-AREA``, the pointer named nowhere else: the area's items keep
    the directions their statements give them."""
    directions = {f.name: f.direction for f in parse_program(FORMS / "ACCTLOOK.cbl").records[0].field.children}
    assert directions["AL-BALANCE"] == "in" and directions["AL-STANDING"] == "out"


@needs_cobc
def test_pointers_arrive_as_null(call):
    got = call("ACCTLOOK.cbl", {"al_balance": "-12.50"})
    assert got == {"al_standing": "O", "al_pcbs_given": "N"}  # both addresses were binary zeros


@pytest.mark.parametrize(
    ("keys", "says"),
    [
        ("hidden = true", ""),
        ("hidden = true, value = 0", "value: AL-DB-PCB is USAGE POINTER, an address"),
        ("rename = 'db_pcb'", "rename: AL-DB-PCB is USAGE POINTER, an address"),
    ],
)
def test_hidden_names_a_pointer_and_nothing_else_applies(tmp_path, keys, says):
    from cobol_mcp.cobol.prepare.overrides import read_overrides

    (tmp_path / "cobol-mcp.toml").write_text(f"[programs.ACCTLOOK]\nfields.AL-DB-PCB = {{ {keys} }}\n")
    overrides = read_overrides(tmp_path).programs["ACCTLOOK"]
    spec = parse_program(FORMS / "ACCTLOOK.cbl")
    if not says:
        hidden = overrides.apply_to_spec(spec).records[0].field.children[4]
        assert hidden.name == "AL-DB-PCB" and hidden.key is None and not hidden.exposed
        return
    with pytest.raises(LinkageError, match=says):
        overrides.apply_to_spec(spec)


def test_native_usage_with_picture_and_national_usage_with_pic_x_are_refused(tmp_path):
    path = tmp_path / "bad.cob"
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. bad.\nDATA DIVISION.\nLINKAGE SECTION.\n01 CA-AREA.\n"
        "   05 CA-N PIC 9(4) BINARY-SHORT.\nPROCEDURE DIVISION USING CA-AREA.\n    GOBACK.\n"
    )
    with pytest.raises(LinkageError, match=r"bad\.cob:6: USAGE BINARY-SHORT items take no PICTURE"):
        parse_program(path)
    path.write_text(path.read_text().replace("PIC 9(4) BINARY-SHORT", "PIC X(4) USAGE NATIONAL"))
    with pytest.raises(LinkageError, match=r"bad\.cob:6: USAGE NATIONAL needs PIC N"):
        parse_program(path)


@needs_cobc
def test_group_usage_native_and_values_match_cobc(tmp_path):
    path = tmp_path / "grp.cob"
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. grp.\nDATA DIVISION.\nLINKAGE SECTION.\n01 CA-AREA.\n"
        "   05 CA-COUNTS USAGE BINARY-LONG UNSIGNED.\n      10 CA-IN.\n      10 CA-OUT.\n"
        '   05 CA-LIMIT BINARY-SHORT VALUE -300.\n   05 CA-TAG PIC N(3) VALUE N"ab".\n'
        "   05 CA-J PIC N(2) JUSTIFIED RIGHT.\n"
        "PROCEDURE DIVISION USING CA-AREA.\n    GOBACK.\n"
    )
    assert verify_with_cobc(path) == []
    area = parse_program(path).records[0].field
    assert find(area, "CA-OUT").native == "BINARY-LONG UNSIGNED"
    assert find(area, "CA-LIMIT").value == -300
    assert find(area, "CA-TAG").value == "ab"


# ----------------------------------------------------------------------------- OCCURS DEPENDING ON

ORDER = {
    "ls_order_id": "ORD-0042",
    "ls_line": [
        {"ls_sku": "AB-100", "ls_qty": 3, "ls_unit_price": Decimal("19.99")},
        {"ls_sku": "ZZ-999", "ls_qty": 150, "ls_unit_price": Decimal("0.25")},
        {"ls_sku": "CD-007", "ls_qty": 101, "ls_unit_price": Decimal("-2.50")},
    ],
}


def test_variable_table_sets_its_counter_and_keeps_the_rest_of_the_record():
    spec = parse_program(FORMS / "ORDPRICE.cbl")
    request = encode_inputs(spec, ORDER)[0]
    assert len(request) == 8 + 2 + 20 * 13  # laid out at the maximum, as cobc does
    assert request[8:10] == (3).to_bytes(2, "big")
    assert request[10:16] == b"AB-100"
    schema = input_schema(spec)
    assert "ls_line_count" not in schema["required"]
    assert (schema["properties"]["ls_line"]["minItems"], schema["properties"]["ls_line"]["maxItems"]) == (1, 20)
    out = output_schema(spec)["properties"]
    assert (out["ls_backorder"]["minItems"], out["ls_backorder"]["maxItems"]) == (0, 20)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ls_line": []}, r"must be an array of 1 to 20 items \(OCCURS 1 TO 20 DEPENDING ON LS-LINE-COUNT\), got 0"),
        ({"ls_line": ORDER["ls_line"] * 7}, "got 21 items"),
        ({"ls_line_count": 2}, r'"ls_line_count" must be 3, the number of items in "ls_line"'),
    ],
)
def test_variable_table_bounds_and_counter_agreement(change, message):
    spec = parse_program(FORMS / "ORDPRICE.cbl")
    with pytest.raises(FieldError, match=message):
        encode_inputs(spec, ORDER | change)


def test_a_counter_given_with_the_right_value_is_accepted():
    spec = parse_program(FORMS / "ORDPRICE.cbl")
    assert encode_inputs(spec, ORDER | {"ls_line_count": 3}) == encode_inputs(spec, ORDER)


@needs_cobc
def test_variable_tables_through_cobol(call):
    got = call("ORDPRICE.cbl", ORDER)
    extended = [line["ls_qty"] * line["ls_unit_price"] for line in ORDER["ls_line"]]
    assert got["ls_ext_amount"] == extended  # counted by LS-LINE-COUNT, in another record
    assert got["ls_order_total"] == sum(extended)
    assert got["ls_backorder_count"] == 2
    assert got["ls_backorder"] == [{"ls_bo_sku": "ZZ-999", "ls_bo_qty": 50}, {"ls_bo_sku": "CD-007", "ls_bo_qty": 1}]
    one = call("ORDPRICE.cbl", {"ls_order_id": "ORD-1", "ls_line": ORDER["ls_line"][:1]})
    assert one["ls_backorder"] == [] and one["ls_ext_amount"] == [extended[0]]


@needs_cobc
def test_an_out_of_range_counter_from_cobol_is_reported_not_trusted(call):
    notes: list[str] = []
    got = call("ORDPRICE.cbl", ORDER | {"ls_order_id": "BADCOUNT"}, notes)
    assert got["ls_backorder_count"] == 99
    assert got["ls_backorder"] is None
    assert notes == ["ls_backorder: counter LS-BACKORDER-COUNT holds 99, outside OCCURS 0 TO 20; "
                     "the table is reported as null"]  # fmt: skip


@pytest.mark.parametrize(
    ("linkage", "message"),
    [
        (
            "01 CA-AREA.\n   05 CA-T PIC X OCCURS 1 TO 5 DEPENDING ON WS-N.",
            "CA-T OCCURS DEPENDING ON WS-N: the counter is not an item of a USING record",
        ),
        (
            "01 CA-AREA.\n   05 CA-N PIC 9V9.\n   05 CA-T PIC X OCCURS 1 TO 5 DEPENDING ON CA-N.",
            "the counter must be a whole-number elementary item",
        ),
        (
            "01 CA-AREA.\n   05 CA-N PIC 9.\n   05 CA-T PIC X OCCURS 1 TO 5 DEPENDING ON CA-N.\n   05 CA-Z PIC X.",
            "items after a variable table are not supported",
        ),
        (
            "01 CA-AREA.\n   05 CA-N PIC 9.\n   05 CA-G OCCURS 2.\n"
            "      10 CA-T PIC X OCCURS 1 TO 5 DEPENDING ON CA-N.",
            "a variable table inside another table is not supported",
        ),
    ],
)
def test_variable_tables_that_cannot_be_served_are_refused(tmp_path, linkage, message):
    path = tmp_path / "odo.cob"
    path.write_text(f"IDENTIFICATION DIVISION.\nPROGRAM-ID. odo.\nDATA DIVISION.\nLINKAGE SECTION.\n{linkage}\n"
                    "PROCEDURE DIVISION USING CA-AREA.\n    GOBACK.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"odo\.cob:\d+: .*" + message):
        parse_program(path)


# ------------------------------------------------------------------- what a call cannot pass: refused


@pytest.mark.parametrize(
    ("linkage", "using", "message"),
    [
        (
            "01 LS-TEXT PIC 9 ANY LENGTH.",
            "LS-TEXT",
            r":5: LS-TEXT: PIC 9 ANY LENGTH is not served: only PIC X ANY LENGTH is",
        ),
        (
            "01 LS-N USAGE BINARY-DOUBLE.",
            "BY VALUE LS-N",
            r":7: USING BY VALUE LS-N is not supported: it is 8 bytes while cobc 3.1.2 passes a BY VALUE item",
        ),
        (
            "01 LS-N PIC X.\n01 LS-R PIC S9(9) COMP-5.",
            "LS-N RETURNING LS-R",
            r":8: PROCEDURE DIVISION RETURNING is not supported: GnuCOBOL 3.1.2 does not implement",
        ),
    ],
)
def test_parameters_a_call_cannot_pass_are_refused_with_the_reason(tmp_path, linkage, using, message):
    path = tmp_path / "pass.cob"
    path.write_text(f"IDENTIFICATION DIVISION.\nPROGRAM-ID. pass.\nDATA DIVISION.\nLINKAGE SECTION.\n{linkage}\n"
                    f"\nPROCEDURE DIVISION USING {using}.\n    GOBACK.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"pass\.cob" + message):
        parse_program(path)


# ----------------------------------------------------------------------------- DECIMAL-POINT IS COMMA


def test_decimal_comma_reads_values_and_edited_pictures_with_the_comma():
    spec = parse_program(FORMS / "FACTURA.cbl")
    request, result = (r.field for r in spec.records)
    assert find(request, "FA-VAT-RATE").value == Decimal("21.00")
    assert find(request, "FA-DISCOUNT").value == Decimal("0.125")  # written VALUE ,125
    printed = find(result, "FA-GROSS-PRINTED")
    assert (printed.size, printed.scale) == (15, 2)
    assert input_schema(spec)["properties"]["fa_vat_rate"]["default"] == 21


def _euro(value: Decimal, width: int) -> str:
    """The oracle of PIC -ZZZ.ZZZ.ZZ9,99: a fixed sign position, then thousands with points and the
    decimals after a comma, zeros suppressed."""
    text = f"{abs(value):,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")
    return ("-" if value < 0 else " ") + text.rjust(width - 1)


@needs_cobc
@pytest.mark.parametrize("net", [Decimal("1234567.80"), Decimal("-42.10"), Decimal("0.00")])
def test_decimal_comma_invoice_through_cobol(call, net):
    got = call("FACTURA.cbl", {"fa_net_amount": net, "fa_region": "FR"})
    discounted = net * (1 - Decimal("0.125"))
    vat = (discounted * Decimal("21.00") / 100).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    gross = (discounted + vat).quantize(Decimal("0.01"), rounding="ROUND_DOWN")
    assert got["fa_vat_amount"] == vat  # JSON numbers stay numbers
    assert got["fa_gross_amount"] == gross
    assert got["fa_gross_printed"] == _euro(gross, 15).strip()
    assert got["fa_rate_printed"] == "21,00"
    assert got["fa_status"] == "OK"


def test_decimal_point_needs_is_comma(tmp_path):
    path = tmp_path / "dp.cob"
    path.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. dp.\nENVIRONMENT DIVISION.\nCONFIGURATION SECTION.\n"
                    "SPECIAL-NAMES.\n    DECIMAL-POINT IS PERIOD.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"dp\.cob:6: DECIMAL-POINT must be followed by IS COMMA"):
        parse_program(path)


# ------------------------------------------------------------------------------------------ dialects

ACCOUNT = FORMS / "dialects" / "ACCTUPD.cbl"


@needs_cobc
@pytest.mark.parametrize("dialect", ["default", "ibm", "mf", "mvs", "bs2000", "acu", "rm", "realia"])
def test_dialect_layouts_match_cobc(dialect):
    assert verify_with_cobc(ACCOUNT, dialect=dialect) == []


@needs_cobc
@pytest.mark.parametrize("dialect", ["default", "ibm", "mf"])
def test_generated_layouts_match_cobc_under_dialects(tmp_path, dialect):
    """Every binary digit count, signed or not, COMP and COMP-5, aligned or not, and COMP-1."""
    lines = ["01 DIGITS-AREA."]
    for d in range(1, 19):
        lines += [f"   05 U{d} PIC 9({d}) COMP.", f"   05 S{d} PIC S9({d}) BINARY.", f"   05 G{d} PIC 9({d}) COMP-5."]
        lines += [f"   05 F{d} PIC S9({d}) COMP-5.", f"   05 T{d} PIC X.", f"   05 Y{d} PIC S9({d}) COMP SYNC."]
    lines += ["   05 C1 COMP-1 SYNC.", "   05 C2 COMP-2 SYNC.", "   05 N1 BINARY-LONG SYNC."]
    path = tmp_path / "digits.cob"
    path.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. digits.\nDATA DIVISION.\nLINKAGE SECTION.\n"
                    + "\n".join(lines) + "\nPROCEDURE DIVISION USING DIGITS-AREA.\n    GOBACK.\n")  # fmt: skip
    assert verify_with_cobc(path, dialect=dialect) == []


def test_binary_sizes_follow_the_dialect():
    sizes = {}
    for dialect in ("default", "ibm", "mf"):
        area = parse_program(ACCOUNT, dialect=dialect).records[0].field
        sizes[dialect] = [find(area, n).size for n in ("CA-BRANCH", "CA-ACCOUNT-NO", "CA-TXN-COUNT")]
    assert sizes == {"default": [1, 8, 4], "ibm": [2, 8, 4], "mf": [1, 5, 3]}
    assert parse_program(ACCOUNT, dialect="ibm").dialect == "ibm"


def test_binary_comp_1_dialects_make_comp_1_a_short_integer(tmp_path):
    path = tmp_path / "c1.cob"
    path.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. c1.\nDATA DIVISION.\nLINKAGE SECTION.\n"
                    "01 CA-AREA.\n   05 CA-RATE COMP-1.\nPROCEDURE DIVISION USING CA-AREA.\n    GOBACK.\n")  # fmt: skip
    rate = parse_program(path, dialect="acu").records[0].field.children[0]
    assert (rate.size, rate.native, rate.category) == (2, "COMP-1", "numeric")
    assert input_schema(parse_program(path, dialect="acu"))["properties"]["ca_rate"]["maximum"] == 32767
    if HAVE_COBC:
        assert verify_with_cobc(path, dialect="acu") == []


def test_unknown_dialect_is_refused():
    from cobol_mcp.cobol.linkage.dialect import DialectError

    with pytest.raises(DialectError, match=r"dialect no-such: no no-such\.conf in"):
        parse_program(ACCOUNT, dialect="no-such")
    with pytest.raises(DialectError, match="is not a cobc dialect name"):
        parse_program(ACCOUNT, dialect="../etc/x")


STOCK = FORMS / "dialects" / "STKMOVE.cbl"


@needs_cobc
@pytest.mark.parametrize("dialect", ["default", "mf"])
def test_comp_x_and_comp_6_layouts_match_cobc(dialect):
    assert verify_with_cobc(STOCK, dialect=dialect) == []


def test_comp_x_and_comp_6_bytes():
    spec = parse_program(STOCK)
    key, on_hand, moved, count = (find(spec.records[0].field, n) for n in
                                  ("LK-ITEM-KEY", "LK-QTY-ON-HAND", "LK-QTY-MOVED", "LK-MOVE-COUNT"))  # fmt: skip
    assert [f.size for f in (key, on_hand, moved, count)] == [4, 4, 3, 1]
    args = {"lk_item_key": 4000000, "lk_qty_on_hand": 1234567, "lk_qty_moved": 99999,
            "lk_direction": "lk_issue", "lk_move_count": 99}  # fmt: skip
    data = encode_inputs(spec, args)[0]
    assert data[:4] == (4000000).to_bytes(4, "big")
    assert data[4:8] == bytes.fromhex("01234567")  # COMP-6: packed digits, no sign nibble
    assert data[8:11] == (99999).to_bytes(3, "big")
    assert output_schema(spec)["properties"]["lk_move_count"]["maximum"] == 255  # the whole byte
    with pytest.raises(FieldError, match=r"-1 does not fit PIC X\(4\) \(a whole number from 0 to 4294967295\)"):
        encode_inputs(spec, args | {"lk_item_key": -1})


@needs_cobc
@pytest.mark.parametrize("dialect", ["default", "mf"])
def test_stock_movement_through_cobol(post, dialect):
    args = {"lk_item_key": 70001, "lk_qty_on_hand": 500, "lk_qty_moved": 120, "lk_direction": "lk_issue",
            "lk_move_count": 254}  # fmt: skip
    got = post(dialect, args, STOCK)
    assert (got["lk_qty_on_hand"], got["lk_move_count"], got["lk_result"]) == (380, 255, "OK")
    assert got["lk_item_key"] == 70001
    got = post(dialect, args | {"lk_qty_moved": 501}, STOCK)
    assert (got["lk_qty_on_hand"], got["lk_result"]) == (500, "NS")  # LK-NO-STOCK
    got = post(dialect, args | {"lk_direction": "lk_receipt", "lk_qty_on_hand": 9999000, "lk_qty_moved": 999}, STOCK)
    assert got["lk_qty_on_hand"] == 9999999


@pytest.fixture(scope="module")
def post(tmp_path_factory):
    if not HAVE_COBC:
        pytest.skip("GnuCOBOL's cobc is not installed")
    from cobol_mcp.cobol.prepare.programs import compile_programs

    runtimes: dict[str, object] = {}  # one per dialect: the three modules share their entry symbol
    cache = tmp_path_factory.mktemp("dialect-cache")

    def run(dialect: str, arguments: dict, source: Path = ACCOUNT) -> dict:
        (program,) = compile_programs(source, cache_dir=cache, dialect=dialect)
        assert not isinstance(program, str), program
        assert program.spec.dialect == dialect
        rt = runtimes.setdefault(f"{source.name}-{dialect}", runtime.Runtime(max_workers=1))
        rt.load(dialect, program.module, program.spec.entry_symbol, [r.size for r in program.spec.records])
        result = call_sync(rt, dialect, encode_inputs(program.spec, arguments), timeout=10.0)
        assert result.ok, result.error
        # every item's bytes as the program left them, those it never uses (so does not report) included:
        # these tests are about layouts
        every = tuple(recombine(replace(r, field=redirect(r.field, "inout", "layout"))) for r in program.spec.records)
        return decode_outputs(program.spec, result.buffers) | decode_outputs(
            replace(program.spec, records=every), result.buffers
        )

    try:
        yield run
    finally:
        for rt in runtimes.values():
            rt.close()


MOVEMENTS = [Decimal("100.50"), Decimal("-20.25"), Decimal("0.75")] + [Decimal(0)] * 7


@needs_cobc
@pytest.mark.parametrize(("dialect", "usage"), [("default", 8000), ("ibm", 18000), ("mf", 18000)])
def test_account_posting_through_cobol_under_each_dialect(post, dialect, usage):
    args = {"ca_branch": 42, "ca_account_no": 99999999999, "ca_txn_count": -5,
            "ca_limit": -12345678, "ca_usage": 9000, "ca_balance": Decimal("1000.00"), "ca_movement_count": 3,
            "ca_movement": MOVEMENTS}  # fmt: skip
    got = post(dialect, args)
    assert got["ca_balance"] == Decimal("1000.00") + sum(MOVEMENTS)
    assert got["ca_txn_count"] == -2
    assert got["ca_status"] == "P"  # CA-POSTED
    assert (got["ca_branch"], got["ca_limit"]) == (42, -12345678)
    # Text where the dialect's binary item may hold the whole 8-byte integer (more than a double keeps)
    assert got["ca_account_no"] == ("99999999999" if dialect == "ibm" else 99999999999)
    # binary-truncate: the default keeps COMP within its PIC digits, ibm and mf keep the whole integer
    assert got["ca_usage"] == usage


@needs_cobc
def test_decimal_comma_pictures_match_cobc(tmp_path):
    path = tmp_path / "dc.cob"
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. dc.\nENVIRONMENT DIVISION.\nCONFIGURATION SECTION.\n"
        "SPECIAL-NAMES.\n    DECIMAL-POINT IS COMMA.\nDATA DIVISION.\nLINKAGE SECTION.\n01 CA-AREA.\n"
        "   05 CA-A PIC ,99.\n   05 CA-B PIC Z.ZZ9,99-.\n   05 CA-C PIC 9.999.\n   05 CA-D PIC 9V99 VALUE 1,5.\n"
        "PROCEDURE DIVISION USING CA-AREA.\n    GOBACK.\n"
    )
    assert verify_with_cobc(path) == []
    area = parse_program(path).records[0].field
    assert [(c.size, c.scale) for c in area.children] == [(3, 2), (9, 2), (5, 0), (3, 2)]
    assert find(area, "CA-D").value == Decimal("1.5")
