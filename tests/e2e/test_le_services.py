"""Language Environment callable services as COBOL programs CALL them (tests/cobol/le): Lilian days and
seconds, picture strings and feedback codes, through the real server, in a CALLable program (the
worker) and a batch program (a run unit). Expected values come from Python's datetime and from the
layout of a condition token, never from the services themselves. A CICS program
(tests/cics_programs/le) calls them too, and its task abends through CEE3ABD."""

import struct
import time
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from .stdio_client import StdioClient

LE = Path(__file__).resolve().parent.parent / "cobol" / "le"
CICS = Path(__file__).resolve().parent.parent / "cics_programs" / "le"
LILIAN_ZERO = date(1582, 10, 14)  # day 0: Lilian day 1 is 15 October 1582
OFFSET = timedelta(hours=5, minutes=30)  # the server's local time zone below (TZ), no summer time
SUCCESS = "\0" * 12


def lilian(day: date) -> int:
    return day.toordinal() - LILIAN_ZERO.toordinal()


def lilian_seconds(moment: datetime) -> Decimal:
    midnight = datetime(moment.year, moment.month, moment.day)
    into = moment - midnight
    return Decimal(lilian(moment.date()) * 86400 + into.seconds) + Decimal(into.microseconds // 1000) / 1000


def symbol(number: int) -> str:
    """CEE and the message number in three base-32 digits (0-9, A-V)."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
    return "CEE" + "".join(digits[(number >> shift) & 31] for shift in (10, 5, 0))


def token(number: int, severity: int = 3) -> str:
    """A case 1 condition token of facility CEE (in EBCDIC, as z/OS writes it), I_S_Info zero."""
    raw = struct.pack(">hhB3si", severity, number, 0x40 | severity << 3 | 1, "CEE".encode("cp037"), 0)
    return raw.decode("latin-1")


@pytest.fixture(scope="module")
def le(tmp_path_factory):
    cache = tmp_path_factory.mktemp("le-cache")
    with StdioClient(
        "--no-bundled",
        "--programs",
        str(LE),
        "--cobol-workers",
        "1",
        env={"COBOL_MCP_CACHE": str(cache), "TZ": "IST-5:30"},
    ) as client:
        client.initialize(timeout=600)  # a cold start: the worker, the services and the programs compiled
        yield client


def service(client, name, text="", picture="", lilian_in=0, seconds="0", parts=(0,) * 7):
    result = client.call(
        "ledates",
        le_service_in=name,
        le_text_in=text,
        le_text_len_in=len(text),
        le_picture_in=picture,
        le_picture_len_in=len(picture),
        le_lilian_in=lilian_in,
        le_seconds_in=seconds,
        le_part_in=list(parts),
    )
    assert not result.get("isError"), result
    return result["structuredContent"]


def assert_condition(out, number, severity=3):
    assert out["le_token_out"] == token(number, severity)
    assert (out["le_severity_out"], out["le_msg_no_out"]) == (severity, number)
    assert out["le_condition_out"] == symbol(number)


@pytest.mark.parametrize(
    ("text", "picture", "expected"),
    [
        ("1988-05-16", "YYYY-MM-DD", date(1988, 5, 16)),
        ("6/2/88", "MM/DD/YY", date(1988, 6, 2)),  # delimiters: leading zeros may be left out
        ("060288", "MMDDYY", date(1988, 6, 2)),
        ("88154", "YYDDD", date(1988, 1, 1) + timedelta(days=153)),
        ("   20240229", "YYYYMMDD", date(2024, 2, 29)),  # leading blanks skipped
        ("2000-02-29 and more", "YYYY-MM-DD", date(2000, 2, 29)),  # what follows a date is ignored
        ("May 16, 1988", "Mmmmmmmmmz DD, YYYY", date(1988, 5, 16)),
        ("16 sep 2001", "DD MMM YYYY", date(2001, 9, 16)),
        ("1582-10-15", "YYYY-MM-DD", date(1582, 10, 15)),
        ("9999-12-31", "YYYY-MM-DD", date(9999, 12, 31)),
    ],
)
def test_ceedays_gives_the_lilian_day(le, text, picture, expected):
    out = service(le, "DAYS", text, picture)
    assert out["le_lilian_out"] == lilian(expected)
    assert out["le_token_out"] == SUCCESS and out["le_condition_out"] == "CEE000"


def test_the_lilian_range_is_ibms():
    # IBM: 16 May 1988 is day 148138 and 31 December 9999 day 3,074,324 (checks the helper above).
    assert lilian(date(1988, 5, 16)) == 148138
    assert lilian(date(9999, 12, 31)) == 3074324


@pytest.mark.parametrize(
    ("text", "picture", "number"),
    [
        ("2023-02-29", "YYYY-MM-DD", 2508),  # 2023 is no leap year
        ("1900-02-29", "YYYY-MM-DD", 2508),  # nor is 1900
        ("2024-13-01", "YYYY-MM-DD", 2508),
        ("2024-04-31", "YYYY-MM-DD", 2508),
        ("1582-10-14", "YYYY-MM-DD", 2513),  # before the Gregorian calendar
        ("1988X0516", "YYYYMMDD", 2520),  # not the picture's form
        ("19880516", "YYYYMMD", 2518),  # no picture string
        ("1988-05", "YYYY-MM", 2507),  # no day
        ("202402", "YYYYMMDD", 2507),  # the text ends first
        ("", "YYYY-MM-DD", 2507),
        ("Foo 16, 1988", "Mmmmmmmmmz DD, YYYY", 2517),
        ("16.05.1988", "<JJJJ> YY.MM.DD", 2518),  # eras are not served
    ],
)
def test_ceedays_refuses_bad_input_with_its_feedback_code(le, text, picture, number):
    out = service(le, "DAYS", text, picture)
    assert out["le_lilian_out"] == 0
    assert_condition(out, number)


@pytest.mark.parametrize(
    ("day", "picture", "expected"),
    [
        (date(1988, 5, 16), "Wwwwwwwwwz, Mmmmmmmmmz ZD, YYYY", "Monday, May 16, 1988"),
        (date(2024, 3, 5), "Wwwwwwwwwz, Mmmmmmmmmz ZD, YYYY", "Tuesday, March 5, 2024"),
        (date(1988, 5, 16), "MM/DD/YY", "05/16/88"),
        (date(2024, 12, 31), "YYYY.DDD", "2024.366"),
        (date(2024, 9, 7), "MMMMMMMMMM|WWW|Mmm|ZM/ZD", "SEPTEMBER |SAT|Sep|9/7"),
        (date(2024, 9, 7), "YYYYMMDD HH:MI:SS", "20240907 00:00:00"),  # CEEDATE: a day, no time
        (date(1582, 10, 15), "W YYYY-MM-DD", "F 1582-10-15"),
    ],
)
def test_ceedate_writes_the_picture(le, day, picture, expected):
    out = service(le, "DATE", picture=picture, lilian_in=lilian(day))
    assert out["le_text_out"] == expected
    assert out["le_token_out"] == SUCCESS


@pytest.mark.parametrize(("day", "picture", "number"), [(0, "YYYY", 2512), (3074325, "YYYY", 2512), (1, "DDDD", 2518)])
def test_ceedate_refuses_a_day_out_of_range_or_a_bad_picture(le, day, picture, number):
    out = service(le, "DATE", picture=picture, lilian_in=day)
    assert out["le_text_out"] == ""
    assert_condition(out, number)


@pytest.mark.parametrize(
    ("moment", "picture", "expected"),
    [
        (datetime(1988, 5, 16, 19, 1, 1, 123000), "YYYY-MM-DD HH:MI:SS.999", "1988-05-16 19:01:01.123"),
        (datetime(1988, 5, 16, 19, 1, 1, 123000), "ZH:MI AP a.p. Mmm DD", "7:01 PM p.m. May 16"),
        (datetime(2024, 1, 1, 0, 5, 9, 870000), "HH:MI:SS.9 ap", "12:05:09.8 am"),
        (datetime(2024, 1, 1, 12, 0), "YYYYMMDDHHMISS99", "2024010112000000"),
    ],
)
def test_ceedatm_writes_lilian_seconds(le, moment, picture, expected):
    out = service(le, "DATM", picture=picture, seconds=str(lilian_seconds(moment)))
    assert out["le_text_out"] == expected
    assert out["le_token_out"] == SUCCESS


@pytest.mark.parametrize("seconds", ["86399.999", "0", "265621680000.000"])
def test_ceedatm_refuses_seconds_out_of_range(le, seconds):
    out = service(le, "DATM", picture="YYYY", seconds=seconds)
    assert out["le_text_out"] == ""
    assert_condition(out, 2505)


@pytest.mark.parametrize(
    ("text", "picture", "moment"),
    [
        ("1988-05-16 19:01:01.123", "YYYY-MM-DD HH:MI:SS.999", datetime(1988, 5, 16, 19, 1, 1, 123000)),
        ("92/6/3 3.35.03 PM", "YY/MM/DD HH.MI.SS AP", datetime(1992, 6, 3, 15, 35, 3)),
        ("92.155 3.35.03 pm", "YY.DDD   HH.MI.SS AP", datetime(1992, 6, 3, 15, 35, 3)),
        ("12:30 AM 2024-01-31", "ZH:MI AP YYYY-MM-DD", datetime(2024, 1, 31, 0, 30)),
        ("1992-05-17", "YYYY-MM-DD-HH:MI", datetime(1992, 5, 17)),  # the time left out: zeros
        ("20240229235959999", "YYYYMMDDHHMISS999", datetime(2024, 2, 29, 23, 59, 59, 999000)),
    ],
)
def test_ceesecs_gives_lilian_seconds(le, text, picture, moment):
    out = service(le, "SECS", text, picture)
    assert Decimal(str(out["le_seconds_out"])) == lilian_seconds(moment)
    assert out["le_token_out"] == SUCCESS


@pytest.mark.parametrize(
    ("text", "picture", "number"),
    [
        ("2024-01-31 24:00", "YYYY-MM-DD HH:MI", 2510),
        ("2024-01-31 13:00 PM", "YYYY-MM-DD HH:MI AP", 2510),
        ("2024-01-31 10:60", "YYYY-MM-DD HH:MI", 2516),
        ("2024-01-31 10:59:61", "YYYY-MM-DD HH:MI:SS", 2519),
        ("2024-01-31 1O:00", "YYYY-MM-DD HH:MI", 2525),
        ("2023-02-29 10:00", "YYYY-MM-DD HH:MI", 2508),
    ],
)
def test_ceesecs_refuses_bad_input_with_its_feedback_code(le, text, picture, number):
    out = service(le, "SECS", text, picture)
    assert Decimal(str(out["le_seconds_out"])) == 0
    assert out["le_token_out"] == token(number)


def test_ceeisec_and_ceeseci_are_inverse(le):
    moment = datetime(2031, 7, 4, 8, 9, 10, 11000)
    parts = (2031, 7, 4, 8, 9, 10, 11)
    out = service(le, "ISEC", parts=parts)
    assert Decimal(str(out["le_seconds_out"])) == lilian_seconds(moment)
    back = service(le, "SECI", seconds=str(lilian_seconds(moment)))
    assert tuple(back["le_part_out"]) == parts and back["le_token_out"] == SUCCESS


@pytest.mark.parametrize(
    ("parts", "number"),
    [
        ((1581, 12, 31, 0, 0, 0, 0), 2514),
        ((2024, 13, 1, 0, 0, 0, 0), 2517),
        ((2023, 2, 29, 0, 0, 0, 0), 2511),
        ((1582, 10, 14, 0, 0, 0, 0), 2513),
        ((2024, 1, 1, 24, 0, 0, 0), 2510),
        ((2024, 1, 1, 0, 60, 0, 0), 2516),
        ((2024, 1, 1, 0, 0, 60, 0), 2519),
        ((2024, 1, 1, 0, 0, 0, 1000), 2515),
    ],
)
def test_ceeisec_names_the_bad_part(le, parts, number):
    out = service(le, "ISEC", parts=parts)
    assert Decimal(str(out["le_seconds_out"])) == 0
    assert_condition(out, number)


def test_ceeseci_refuses_seconds_out_of_range(le):
    out = service(le, "SECI", seconds="12.5")
    assert out["le_part_out"] == [0] * 7
    assert_condition(out, 2505)


@pytest.mark.parametrize("day", [date(1582, 10, 15), date(1988, 5, 16), date(2024, 2, 29), date(9999, 12, 31)])
def test_ceedywk_counts_from_sunday(le, day):
    out = service(le, "DYWK", lilian_in=lilian(day))
    assert out["le_part_out"][0] == day.isoweekday() % 7 + 1


def test_ceedywk_refuses_day_zero(le):
    out = service(le, "DYWK", lilian_in=0)
    assert out["le_part_out"][0] == 0
    assert_condition(out, 2512)


@pytest.mark.parametrize(("text", "expected"), [("1601-01-01", 1), ("2024-02-29", None), ("1600-12-31", 0)])
def test_ceecbldy_gives_the_cobol_integer_date(le, text, expected):
    out = service(le, "CBDY", text, "YYYY-MM-DD")
    if expected == 0:
        assert out["le_lilian_out"] == 0
        assert_condition(out, 2513)
        return
    day = date.fromisoformat(text)
    assert out["le_lilian_out"] == day.toordinal() - date(1600, 12, 31).toordinal()
    assert out["le_token_out"] == SUCCESS


def test_ceedcod_takes_a_token_apart(le):
    out = service(le, "DCOD", "2024-02-30", "YYYY-MM-DD")
    assert out["le_part_out"] == [3, 2508, 1, 3, 1, 0, 0]  # c_1, c_2, case, severity, control, I_S_Info
    assert out["le_text_out"] == "CEE".encode("cp037").decode("latin-1")


def test_ceegmt_and_ceeloct_tell_the_time(le):
    unix_day0 = lilian(date(1970, 1, 1)) * 86400
    before = Decimal(int(time.time() * 1000)) / 1000 + unix_day0
    gmt = service(le, "GMT ")
    local = service(le, "LOCT")
    after = Decimal(int(time.time() * 1000) + 1) / 1000 + unix_day0
    offset = int(OFFSET.total_seconds())
    assert before <= Decimal(str(gmt["le_seconds_out"])) <= after
    assert gmt["le_lilian_out"] == int(Decimal(str(gmt["le_seconds_out"])) // 86400)
    seconds = Decimal(str(local["le_seconds_out"]))
    assert before + offset <= seconds <= after + offset
    assert local["le_lilian_out"] == int(seconds // 86400)
    moment = datetime.combine(LILIAN_ZERO, datetime.min.time()) + timedelta(milliseconds=int(seconds * 1000))
    assert local["le_text_out"] == moment.strftime("%Y%m%d%H%M%S") + f"{moment.microsecond // 1000:03d}"


def test_ceegmto_gives_the_offset_of_local_time(le):
    out = service(le, "GMTO")
    assert out["le_part_out"][:2] == [5, 30]
    assert Decimal(str(out["le_seconds_out"])) == int(OFFSET.total_seconds())
    assert datetime.now(timezone(OFFSET)).utcoffset() == OFFSET  # the zone the server was given


def test_an_omitted_feedback_code_makes_a_severe_condition_end_the_call(le):
    fine = service(le, "NOFC", "2024-02-29", "YYYY-MM-DD")
    assert fine["le_lilian_out"] == lilian(date(2024, 2, 29))
    failed = le.call(
        "ledates", le_service_in="NOFC", le_text_in="2024-02-30", le_text_len_in=10, le_picture_in="YYYY-MM-DD",
        le_picture_len_in=10, le_lilian_in=0, le_seconds_in=0, le_part_in=[0] * 7,
    )  # fmt: skip
    assert failed["isError"] is True
    text = failed["content"][0]["text"]
    assert "CEE2508S" in text and "CEE2EC" in text and "LEDATES.cbl:" in text
    after = service(le, "DAYS", "2024-03-01", "YYYY-MM-DD")  # the server keeps serving
    assert after["le_lilian_out"] == lilian(date(2024, 3, 1))


def test_cee3abd_fails_the_call_with_its_abend_code(le):
    failed = le.call(
        "ledates", le_service_in="ABND", le_text_in="", le_text_len_in=0, le_picture_in="", le_picture_len_in=0,
        le_lilian_in=999, le_seconds_in=0, le_part_in=[0] * 7,
    )  # fmt: skip
    assert failed["isError"] is True
    assert "user abend code U0999" in failed["content"][0]["text"]
    assert service(le, "DYWK", lilian_in=1)["le_part_out"][0] == 6  # a Friday; the server keeps serving


def test_a_batch_program_ages_invoices_with_the_services(le):
    run_date = date(2024, 3, 1)
    lines = ["2024-03-01", "INV00001 2024-02-29", "INV00002 2023-02-29", "INV00003 2024-3-1", "INV00004 2024-03-15"]
    result = le.call("leaging", input="\n".join(lines) + "\n")
    assert not result.get("isError"), result
    expected = []
    aged = (("INV00001", date(2024, 2, 29)), ("INV00003", date(2024, 3, 1)), ("INV00004", date(2024, 3, 15)))
    for number, day in aged:
        words = f"{day.strftime('%A')}, {day.day} {day.strftime('%b')} {day.year}"
        expected.append(f"{number} {(run_date - day).days:>7} DAY +{day.isoweekday() % 7 + 1:09d} {words:<30}")
    expected.insert(1, "INV00002 NO SUCH DATE 2023-02-29")
    assert result["structuredContent"]["stdout"].splitlines() == [*expected, "AGED 003 REJECTED 001"]


def test_a_batch_program_abends_through_cee3abd(le):
    result = le.call("leaging", input="2024-02-30\n")
    assert result["isError"] is True
    out = result["structuredContent"]
    assert out["stdout"] == "RUN DATE 2024-02-30 REJECTED, MESSAGE 2508\nLEAGING ABENDING\n"
    assert "user abend code U3001" in out["stderr"] and "LEAGING.cbl:" in out["stderr"]


@pytest.fixture(scope="module")
def cics(tmp_path_factory):
    folder = tmp_path_factory.mktemp("le-cics") / "le"  # a CICS folder gets its database beside its programs
    folder.mkdir()
    (folder / "LEDUECIC.cbl").write_bytes((CICS / "LEDUECIC.cbl").read_bytes())
    with StdioClient(
        "--no-bundled", "--programs", str(folder), "--copybooks", str(LE / "copybooks"),
        env={"COBOL_MCP_CACHE": str(folder.parent / "cache")},
    ) as client:  # fmt: skip
        client.initialize(timeout=600)  # a cold start: the worker, the services and the program compiled
        yield client


@pytest.mark.parametrize(
    ("received", "terms"), [(date(2024, 2, 20), 30), (date(2024, 12, 20), 45), (date(1999, 12, 31), 0)]
)
def test_a_cics_program_calls_the_services(cics, received, terms):
    result = cics.call("leduecic", ca_received_date=received.isoformat(), ca_terms_days=terms)
    assert not result.get("isError"), result
    assert result["structuredContent"] == {"ca_due_date": (received + timedelta(days=terms)).isoformat()}


def test_cee3abd_abends_a_cics_task_with_its_code(cics):
    result = cics.call("leduecic", ca_received_date="2024-02-30", ca_terms_days=30)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "user abend code U4001" in text and "LEDUECIC.cbl:" in text
    again = cics.call("leduecic", ca_received_date="2024-02-29", ca_terms_days=1)  # the server keeps serving
    assert again["structuredContent"] == {"ca_due_date": "2024-03-01"}


CARDDEMO_DATE = (
    Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "carddemo" / "app" / "cbl" / "CSUTLDTC.cbl"
)


@pytest.mark.skipif(not CARDDEMO_DATE.is_file(), reason="the public applications (../shared/corpus) are not here")
@pytest.mark.parametrize(
    ("text", "severity", "number", "result"),
    [
        ("2024-02-29", 0, 0, "Date is valid"),
        ("2023-02-29", 3, 2508, "Datevalue error"),
        ("2024-13-01", 3, 2508, "Datevalue error"),
        ("ABCD-01-01", 3, 2520, "Nonnumeric data"),
    ],
)
def test_carddemos_date_check_classifies_the_feedback_code(tmp_path, text, severity, number, result):
    # CardDemo's CSUTLDTC calls CEEDAYS and tells the outcome by its own 88-levels on the token's hex.
    folder = tmp_path / "cbl"
    folder.mkdir()
    (folder / CARDDEMO_DATE.name).write_bytes(CARDDEMO_DATE.read_bytes())
    with StdioClient("--no-bundled", "--programs", str(folder), env={"COBOL_MCP_CACHE": str(tmp_path / "c")}) as client:
        client.initialize(timeout=600)
        reply = client.call("csutldtc", ls_date=text, ls_date_format="YYYY-MM-DD")
    out = reply["structuredContent"]["ls_result"]
    assert out.startswith(f"{severity:04d}Mesg Code: {number:04d} {result}"), out
    assert out.rstrip().endswith("Mask used:YYYY-MM-DD")  # kept whole: it holds a control byte
    assert reply.get("isError", False) is (severity != 0)  # its RETURN-CODE is the severity
