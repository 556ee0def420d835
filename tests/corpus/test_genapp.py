"""GenApp, IBM's CICS general insurance application, served whole as its owners ship it (``../shared/corpus``).

The DBA's DDL and seed rows are cut out of ``base/cntl/db2cre.jcl`` as they stand (the installer's
``<DB2DBID>`` and ``<SQLID>`` filled in, nothing else touched) and applied by ``db apply``; the programs
name their tables unqualified, so the folder's ``qualifier`` is the database's, as DB2's BIND QUALIFIER.
The two KSDS files are loaded from ``base/data`` (KEYS and RECORDSIZE from ``base/cntl/adef121.jcl``).
Our own ``cobol-mcp.toml`` publishes the request types of the business programs as named tools.

Every expected value below is read off GenApp's sources and data:
- a customer: LGACUS01 LINKs LGACDB01, which takes its number from the named counter GENACUSTNUM in
  pool GENA, or, without that counter (GET COUNTER answers NOTFND), from the identity of CUSTOMER
  (``START WITH 1000001``); it INSERTs the row, LINKs LGACVS01 (WRITE to KSDSCUST, an ABEND LGV0 on any
  RESP but NORMAL) and LGACDB02 (the CUSTOMER_SECURE row). LGICUS01/LGICDB01 read it back ('01' for a
  number with no row), LGUCUS01/LGUCDB01/LGUCVS01 change it in DB2 and in KSDSCUST.
- a policy: LGAPOL01/LGAPDB01 INSERT a POLICY row (its number from the identity, also from 1000001)
  and the row of its kind, then LINK LGAPVS01 (a 64-byte KSDSPOLY record keyed by kind, customer and
  policy number); LGIPOL01/LGIPDB01 read it back; LGUPOL01/LGUPDB01 change it when the caller's
  LASTCHANGED is the row's ('02' otherwise); LGDPOL01/LGDPDB01/LGDPVS01 delete it (its kind's row goes
  by ON DELETE CASCADE) and its KSDSPOLY record.
GenApp has no program that deletes a customer (the ON DELETE CASCADE of its DDL is for the DBA)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from ..e2e.stdio_client import StdioClient
from .corpus import GENAPP, instream_sysin, needs, writable_copy

__all__ = ["postgres_url"]  # the fixture, used by name

pytestmark = needs(GENAPP)

SCHEMA = "GENASA1"  # what the installer puts for <DB2DBID>
ARGS = ("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--shutdown-grace", "0")

KINDS = {  # GenApp's policy kinds: request-id letter, the COMMAREA view of its data, its filler
    "motor": ("MOT", "CA-MOTOR", "CA-M-FILLER"),
    "endowment": ("END", "CA-ENDOWMENT", "CA-E-PADDING-DATA"),
    "house": ("HOU", "CA-HOUSE", "CA-H-FILLER"),
    "commercial": ("COM", "CA-COMMERCIAL", "CA-B-FILLER"),
}


def _toml() -> str:
    """Our cobol-mcp.toml for GenApp: its FCT (adef121.jcl's clusters), the qualifier, the named tools."""
    lines = [
        "[folder]",
        f'qualifier = "{SCHEMA}"',
        "",
        "[[datasets]]",
        'name = "KSDSCUST"',
        'organization = "ksds"',
        "record-length = 225",
        "keys = [10, 0]",
        'load = "data/ksdscust.txt"',
        "",
        "[[datasets]]",
        'name = "KSDSPOLY"',
        'organization = "ksds"',
        "record-length = 64",
        "keys = [21, 0]",
        'load = "data/ksdspoly.txt"',
        "",
    ]
    customer = {"add": ("LGACUS01", "ACUS"), "inquire": ("LGICUS01", "ICUS"), "update": ("LGUCUS01", "UCUS")}
    for verb, (program, code) in customer.items():
        lines += [
            f"[programs.{program}.tools.{verb}_customer]",
            f'fields.CA-REQUEST-ID = {{ hidden = true, value = "01{code}" }}',
            'fields.CA-REQUEST-SPECIFIC = { view = "CA-CUSTOMER-REQUEST" }',
            'fields.CA-POLICY-DATA = { hidden = true, value = "" }',
            "",
        ]
    policy = {"add": ("LGAPOL01", "A"), "inquire": ("LGIPOL01", "I"), "update": ("LGUPOL01", "U"),
              "delete": ("LGDPOL01", "D")}  # fmt: skip
    for kind, (code, view, filler) in KINDS.items():
        for verb, (program, letter) in policy.items():
            if verb == "update" and kind == "commercial":
                continue  # LGUPOL01 takes endowment, house and motor policies only
            lines += [
                f"[programs.{program}.tools.{verb}_{kind}_policy]",
                f'fields.CA-REQUEST-ID = {{ hidden = true, value = "01{letter}{code}" }}',
                'fields.CA-REQUEST-SPECIFIC = { view = "CA-POLICY-REQUEST" }',
                f'fields.CA-POLICY-SPECIFIC = {{ view = "{view}" }}',
                f'fields.{filler} = {{ hidden = true, value = "" }}',
                "",
            ]
    return "\n".join(lines)


def _ddl(folder: Path) -> Path:
    """db2cre.jcl's SQL, cut out of the job: every SYSIN deck, the installer's two names filled in."""
    decks = instream_sysin(GENAPP / "cntl" / "db2cre.jcl")
    sql = "\n".join(decks).replace("<DB2DBID>", SCHEMA).replace("<SQLID>", "GENAUSER")
    path = folder / "genapp.sql"
    path.write_text(sql)
    return path


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for the module: GenApp is compiled once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(params=["sqlite", "postgresql"])
def genapp(request: pytest.FixtureRequest, tmp_path: Path, cache: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = writable_copy(GENAPP / "src", tmp_path / "genapp")
    writable_copy(GENAPP / "data", folder / "data")
    toml = _toml()
    if request.param == "sqlite":
        db = Database("sqlite", str(folder / "cobol-mcp.db"))
    else:
        url = request.getfixturevalue("postgres_url")
        toml = toml.replace("[folder]\n", f'[folder]\ndatabase = "{url}"\n', 1)
        db = Database("postgresql", url)
    (folder / "cobol-mcp.toml").write_text(toml)
    apply_files([_ddl(tmp_path)], db, note=lambda line: None)
    with StdioClient(*ARGS, "--programs", str(folder), env={"COBOL_MCP_CACHE": str(cache)}) as client:
        client.initialize(timeout=900)  # a cold start compiles GenApp's 21 back-end programs first
        yield client, db


def _rows(db: Database, table: str, where: str = "", args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of GenApp's `table` (its unqualified name), `where` written with ``?`` for SQLite."""
    name = f'"{SCHEMA}.{table.upper()}"' if db.kind == "sqlite" else f"{SCHEMA.lower()}.{table.lower()}"
    sql = f"SELECT * FROM {name}" + (f" WHERE {where}" if where else "")
    conn = connect(db)
    try:
        if db.kind != "sqlite":
            sql = sql.replace("?", "%s")
        cur = conn if db.kind == "sqlite" else conn.cursor()
        return [tuple(row) for row in cur.execute(sql, args).fetchall()]
    finally:
        conn.close()


def _record(db: Database, dataset: str, key: bytes) -> bytes | None:
    """The record of `dataset` (a CICS file) with `key`, or None."""
    conn = connect(db)
    try:
        sql = "SELECT data FROM cics_records WHERE dataset = ? AND rid = ?"
        cur = conn if db.kind == "sqlite" else conn.cursor()
        row = cur.execute(sql if db.kind == "sqlite" else sql.replace("?", "%s"), (dataset, key)).fetchone()
        return None if row is None else bytes(row[0])
    finally:
        conn.close()


def _blank(schema: dict[str, Any]) -> object:
    """What an agent sends for a required argument it has nothing to say about: spaces or zero (an object's
    required properties each so)."""
    kinds = schema.get("type")
    if kinds == "object":
        return {key: _blank(schema["properties"][key]) for key in schema.get("required", [])}
    return 0 if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds) else ""


def _filled(blank: object, given: object) -> object:
    """`given` laid over `blank`: an object's properties merged, anything else replaced."""
    if isinstance(blank, dict) and isinstance(given, dict):
        return {**blank, **{key: _filled(blank.get(key), value) for key, value in given.items()}}
    return given


_SCHEMAS: dict[int, dict[str, dict[str, Any]]] = {}


def _call(client: StdioClient, name: str, **arguments: object) -> dict[str, Any]:
    """A tools/call, answered whenever the machine gets to it (a LINK chain of three programs, a busy CI).
    The arguments the tool's schema requires and the test does not give are sent blank, as an agent does."""
    if id(client) not in _SCHEMAS:
        listed = client.request("tools/list", {})["result"]["tools"]
        _SCHEMAS[id(client)] = {tool["name"]: tool["inputSchema"] for tool in listed}
    arguments = _filled(_blank(_SCHEMAS[id(client)][name]), arguments)  # type: ignore[assignment]
    reply = client.request("tools/call", {"name": name, "arguments": arguments}, timeout=300)
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def _ok(result: dict[str, Any]) -> dict[str, Any]:
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


CUSTOMER = {
    "ca_first_name": "Grace",
    "ca_last_name": "Hopper",
    "ca_dob": "1906-12-09",
    "ca_house_name": "Navy Yard",
    "ca_house_num": "7",
    "ca_postcode": "AR1 1NY",
    "ca_phone_mobile": "07700 900123",
    "ca_phone_home": "01632 960001",
    "ca_email_address": "grace@example.com",
}


def test_a_customer_of_the_seed_rows_is_read_and_an_unknown_one_gets_genapps_code(
    genapp: tuple[StdioClient, Database],
) -> None:
    client, _db = genapp
    listed = {tool["name"] for tool in client.request("tools/list", {})["result"]["tools"]}
    assert {"add_customer", "inquire_customer", "update_customer", "add_motor_policy"} <= listed, listed

    # db2cre.jcl's first customer: 'Andrew', 'Pandy', '1950-07-11', ' ', '34', 'PI101OO', home '01962 811234',
    # mobile '07799 123456'; LGICDB01 SELECTs it INTO the COMMAREA and sets '00'.
    answer = _ok(_call(client, "inquire_customer", ca_customer_num=1))
    assert answer["ca_return_code"] == 0
    got = answer["ca_customer_request"]
    assert (got["ca_first_name"], got["ca_last_name"], got["ca_dob"]) == ("Andrew", "Pandy", "1950-07-11")
    assert (got["ca_house_num"], got["ca_postcode"]) == ("34", "PI101OO")
    assert (got["ca_phone_home"], got["ca_phone_mobile"]) == ("01962 811234", "07799 123456")
    assert got["ca_email_address"] == "A.Pandy@beebhouse.com"

    # No row: SQLCODE +100, which LGICDB01 answers with '01'.
    assert _ok(_call(client, "inquire_customer", ca_customer_num=4242))["ca_return_code"] == 1


def test_a_customer_is_added_with_genapps_number_then_changed(genapp: tuple[StdioClient, Database]) -> None:
    client, db = genapp
    answer = _ok(_call(client, "add_customer", ca_customer_request=CUSTOMER))
    assert answer["ca_return_code"] == 0
    # No GENACUSTNUM counter: the identity of CUSTOMER gives it, START WITH 1000001 (the seed rows gave
    # their numbers themselves, which an identity does not count).
    number = answer["ca_customer_num"]
    assert number == 1000001
    row = _rows(db, "customer", "customerNumber = ?", (number,))
    assert len(row) == 1
    # LGACDB01's MOVEs to the COMMAREA it LINKs LGACDB02 with, and LGACDB02's INSERT of them
    secure = _rows(db, "customer_secure", "customerNumber = ?", (number,))
    assert [row[1:] for row in secure] == [("5732fec825535eeafb8fac50fee3a8aa", "N", 0)]
    record = _record(db, "KSDSCUST", b"0001000001")
    assert record is not None and record[10:20] == b"Grace     " and record[20:40] == b"Hopper".ljust(20)

    got = _ok(_call(client, "inquire_customer", ca_customer_num=number))["ca_customer_request"]
    assert {key: got[key] for key in CUSTOMER} == CUSTOMER

    changed = dict(CUSTOMER, ca_last_name="Hopper-Murray", ca_postcode="AR2 2NY")
    answer = _ok(_call(client, "update_customer", ca_customer_num=number, ca_customer_request=changed))
    assert answer["ca_return_code"] == 0
    got = _ok(_call(client, "inquire_customer", ca_customer_num=number))["ca_customer_request"]
    assert (got["ca_last_name"], got["ca_postcode"]) == ("Hopper-Murray", "AR2 2NY")
    record = _record(db, "KSDSCUST", b"0001000001")  # LGUCVS01 rewrote the file's record too
    assert record is not None and record[20:40] == b"Hopper-Murray".ljust(20)


def test_a_duplicate_file_record_after_the_db2_insert_abends_and_leaves_neither(
    genapp: tuple[StdioClient, Database],
) -> None:
    client, db = genapp
    # The file already holds the record the next customer number would write (the operator put it there):
    # LGACDB01's INSERT succeeds, LGACVS01's WRITE answers DUPREC and it ABENDs LGV0, so the task's unit of
    # work is backed out: the CUSTOMER row goes with it.
    conn = connect(db)
    try:
        sql = "INSERT INTO cics_records (dataset, rid, data) VALUES (?, ?, ?)"
        cur = conn if db.kind == "sqlite" else conn.cursor()
        record = b"0001000001" + b"OPERATOR".ljust(215)
        cur.execute(sql if db.kind == "sqlite" else sql.replace("?", "%s"), ("KSDSCUST", b"0001000001", record))
        conn.commit()
    finally:
        conn.close()
    result = _call(client, "add_customer", ca_customer_request=CUSTOMER)
    assert result.get("isError"), result
    assert "LGV0" in result["content"][0]["text"], result
    assert _rows(db, "customer", "customerNumber = ?", (1000001,)) == []
    assert _rows(db, "customer_secure", "customerNumber = ?", (1000001,)) == []
    assert _record(db, "KSDSCUST", b"0001000001") == b"0001000001" + b"OPERATOR".ljust(215)


def test_a_seed_motor_policy_is_read_back(genapp: tuple[StdioClient, Database]) -> None:
    client, _db = genapp
    # db2cre.jcl: policy 1 of customer 2, 'M', issued '2011-05-11', expiring '2012-05-10', changed
    # '2011-05-11 17:12:17'; its MOTOR row 'FORD' 'KA' 8500 'LL60LOO' 'ORANGE' 1000 '1999-07-19' 450 0.
    answer = _ok(_call(client, "inquire_motor_policy", ca_customer_num=2, ca_policy_request={"ca_policy_num": 1}))
    assert answer["ca_return_code"] == 0
    policy = answer["ca_policy_request"]
    common = policy["ca_policy_common"]
    assert (common["ca_issue_date"], common["ca_expiry_date"]) == ("2011-05-11", "2012-05-10")
    assert common["ca_lastchanged"] == "2011-05-11-17.12.17.000000"  # a TIMESTAMP as DB2 gives it as text
    motor = policy["ca_motor"]
    assert (motor["ca_m_make"], motor["ca_m_model"], motor["ca_m_value"]) == ("FORD", "KA", 8500)
    assert (motor["ca_m_regnumber"], motor["ca_m_colour"], motor["ca_m_cc"]) == ("LL60LOO", "ORANGE", 1000)
    assert (motor["ca_m_manufactured"], motor["ca_m_premium"], motor["ca_m_accidents"]) == ("1999-07-19", 450, 0)

    # Customer 3 has no policy 1: SQLCODE +100, '01'.
    answer = _ok(_call(client, "inquire_motor_policy", ca_customer_num=3, ca_policy_request={"ca_policy_num": 1}))
    assert answer["ca_return_code"] == 1


POLICIES: dict[str, dict[str, Any]] = {
    "motor": {"ca_m_make": "MORRIS", "ca_m_model": "MINOR", "ca_m_value": 4200, "ca_m_regnumber": "KTT 592",
              "ca_m_colour": "GREEN", "ca_m_cc": 948, "ca_m_manufactured": "1958-03-01", "ca_m_premium": 310,
              "ca_m_accidents": 1},
    "endowment": {"ca_e_with_profits": "Y", "ca_e_equities": "N", "ca_e_managed_fund": "Y",
                  "ca_e_fund_name": "STEADY", "ca_e_term": 25, "ca_e_sum_assured": 150000,
                  "ca_e_life_assured": "ADA LOVELACE"},
    "house": {"ca_h_property_type": "COTTAGE", "ca_h_bedrooms": 3, "ca_h_value": 325000,
              "ca_h_house_name": "ROSE COTTAGE", "ca_h_house_number": "12", "ca_h_postcode": "CB1 2AB"},
    "commercial": {"ca_b_address": "1 MARKET SQUARE", "ca_b_postcode": "CB2 3QJ", "ca_b_latitude": "52.2053N",
                   "ca_b_longitude": "0.1218E", "ca_b_customer": "THE BAKERY", "ca_b_proptype": "SHOP",
                   "ca_b_fireperil": 2, "ca_b_firepremium": 120, "ca_b_crimeperil": 1, "ca_b_crimepremium": 80,
                   "ca_b_floodperil": 0, "ca_b_floodpremium": 0, "ca_b_weatherperil": 1,
                   "ca_b_weatherpremium": 40, "ca_b_status": 0, "ca_b_rejectreason": ""},
}  # fmt: skip
KIND_TABLE = {"motor": "motor", "endowment": "endowment", "house": "house", "commercial": "commercial"}
VIEW_KEY = {"motor": "ca_motor", "endowment": "ca_endowment", "house": "ca_house", "commercial": "ca_commercial"}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_policy_of_each_kind_is_added_read_changed_and_deleted(
    genapp: tuple[StdioClient, Database], kind: str
) -> None:
    client, db = genapp
    common = {"ca_issue_date": "2026-01-01", "ca_expiry_date": "2027-01-01", "ca_brokerid": 77,
              "ca_brokersref": "BR-1", "ca_payment": 250}  # fmt: skip
    request = {"ca_policy_num": 0, "ca_policy_common": common, VIEW_KEY[kind]: POLICIES[kind]}
    answer = _ok(_call(client, f"add_{kind}_policy", ca_customer_num=1, ca_policy_request=request))
    assert answer["ca_return_code"] == 0
    number = answer["ca_policy_request"]["ca_policy_num"]
    assert number == 1000001  # the identity of POLICY, START WITH 1000001
    assert len(_rows(db, "policy", "policyNumber = ? AND customerNumber = 1", (number,))) == 1
    assert len(_rows(db, KIND_TABLE[kind], "policyNumber = ?", (number,))) == 1
    key = KINDS[kind][0][0].encode() + b"0000000001" + b"%010d" % number  # LGAPVS01's WF-Policy-Key
    assert _record(db, "KSDSPOLY", key) is not None

    read = {"ca_policy_num": number}
    got = _ok(_call(client, f"inquire_{kind}_policy", ca_customer_num=1, ca_policy_request=read))
    assert got["ca_return_code"] == 0
    stamp = got["ca_policy_request"]["ca_policy_common"]["ca_lastchanged"]
    assert got["ca_policy_request"]["ca_policy_common"]["ca_issue_date"] == "2026-01-01"
    if kind != "commercial":
        assert {k: got["ca_policy_request"][VIEW_KEY[kind]][k] for k in POLICIES[kind]} == POLICIES[kind]

        # A change with a LASTCHANGED that is not the row's is not made. LGUPDB01 MOVEs '02' then, but its
        # UPDATE-POLICY-DB2-INFO ends with PERFORM CLOSE-PCURSOR, whose CLOSE (SQLCODE 0) MOVEs '00' over it:
        # the caller hears '00', as on CICS, and the row is as it was.
        stale = dict(request, ca_policy_num=number,
                     ca_policy_common=dict(common, ca_lastchanged="2000-01-01-00.00.00.000000",
                                           ca_expiry_date="2029-01-01"))  # fmt: skip
        answer = _ok(_call(client, f"update_{kind}_policy", ca_customer_num=1, ca_policy_request=stale))
        assert answer["ca_return_code"] == 0
        got = _ok(_call(client, f"inquire_{kind}_policy", ca_customer_num=1, ca_policy_request=read))
        assert got["ca_policy_request"]["ca_policy_common"]["ca_expiry_date"] == "2027-01-01"
        # With the row's LASTCHANGED it is made.
        fresh = dict(stale, ca_policy_common=dict(common, ca_lastchanged=stamp, ca_expiry_date="2028-01-01"))
        answer = _ok(_call(client, f"update_{kind}_policy", ca_customer_num=1, ca_policy_request=fresh))
        assert answer["ca_return_code"] == 0
        got = _ok(_call(client, f"inquire_{kind}_policy", ca_customer_num=1, ca_policy_request=read))
        assert got["ca_policy_request"]["ca_policy_common"]["ca_expiry_date"] == "2028-01-01"

    answer = _ok(_call(client, f"delete_{kind}_policy", ca_customer_num=1, ca_policy_request=read))
    assert answer["ca_return_code"] == 0
    assert _rows(db, "policy", "policyNumber = ?", (number,)) == []
    assert _rows(db, KIND_TABLE[kind], "policyNumber = ?", (number,)) == []  # ON DELETE CASCADE
    assert _record(db, "KSDSPOLY", key) is None
