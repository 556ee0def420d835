"""The FCT of cobol-mcp.toml: [[datasets]] checked with file:line, and datasets created and loaded once."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cobol_mcp.db.cics.fct import DatasetError, create_datasets, load_records, parse_datasets, rid_of
from cobol_mcp.db.url import Database


def parse(tmp_path: Path, text: str) -> list:  # type: ignore[type-arg]
    return parse_datasets(tomllib.loads(text).get("datasets"), tmp_path / "cobol-mcp.toml", text, tmp_path)


GOOD = '[[datasets]]\nname = "CUSTFILE"\norganization = "ksds"\nrecord-length = 20\nkeys = [4, 0]\n'


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[[datasets]]\nname = "CUSTOMERFILE"\norganization = "ksds"\nrecord-length = 20\nkeys = [4, 0]\n', 2,
         "datasets.CUSTOMERFILE.name: must be 1 to 8 letters"),
        ('[[datasets]]\nname = "A"\norganization = "vsam"\nrecord-length = 20\n', 3,
         "datasets.A.organization: must be one of ksds, esds, rrds, not 'vsam'"),
        ('[[datasets]]\nname = "A"\norganization = "ksds"\nrecord-length = 20\n', 1,
         "keys = [length, offset] is required"),
        ('[[datasets]]\nname = "A"\norganization = "esds"\nrecord-length = 20\nkeys = [4, 0]\n', 5,
         "only a KSDS has keys: an ESDS is read by RBA"),
        ('[[datasets]]\nname = "A"\norganization = "ksds"\nrecord-length = [10, 80]\nkeys = [8, 4]\n', 5,
         "must lie inside the shortest record (10 bytes)"),
        ('[[datasets]]\nname = "A"\norganization = "rrds"\nrecord-length = [90, 80]\n', 4,
         "the minimum not above the maximum"),
        ('[[datasets]]\nname = "A"\norganization = "rrds"\nrecord-length = 80\nrecfm = "F"\n', 5,
         "datasets.A.recfm: unknown key (known: name, organization, record-length, keys, load)"),
        ('[[datasets]]\nname = "A"\norganization = "rrds"\nrecord-length = 80\nload = "none.txt"\n', 5,
         "datasets.A.load: no such file"),
        (GOOD + "\n" + GOOD.replace("CUSTFILE", "custfile"), 8, "defined twice (the first at"),
        ('datasets = "CUSTFILE"\n', 1, "datasets must be an array of tables"),
    ],
)  # fmt: skip
def test_each_mistake_is_named_with_its_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    with pytest.raises(DatasetError) as caught:
        parse(tmp_path, text)
    assert str(caught.value).startswith(f"{tmp_path / 'cobol-mcp.toml'}:{line}: ")
    assert message in str(caught.value)


def test_a_load_file_outside_the_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text("0001SOMEONE ELSE'S\n")
    (folder / "linked.txt").symlink_to(tmp_path / "outside.txt")
    for load in ("../outside.txt", str(tmp_path / "outside.txt"), "linked.txt"):
        text = GOOD + f"load = {load!r}\n"
        with pytest.raises(DatasetError) as caught:
            parse_datasets(tomllib.loads(text).get("datasets"), folder / "cobol-mcp.toml", text, folder)
        assert str(caught.value).startswith(f"{folder / 'cobol-mcp.toml'}:6: datasets.CUSTFILE.load: "), load
        assert "is outside the folder" in str(caught.value), load


def test_load_files_pad_fixed_records_and_refuse_long_lines_and_duplicate_keys(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_bytes(b"0002BOB\r\n0001ALICE\n")
    [ksds] = parse(tmp_path, GOOD + 'load = "c.txt"\n')
    assert load_records(ksds) == [(b"0002", b"0002BOB".ljust(20)), (b"0001", b"0001ALICE".ljust(20))]
    (tmp_path / "c.txt").write_bytes(b"0001ALICE\n0002" + b"X" * 17 + b"\n")
    with pytest.raises(DatasetError, match=r"c\.txt:2: a record of 21 bytes; CUSTFILE's records have at most 20"):
        load_records(ksds)
    (tmp_path / "c.txt").write_bytes(b"0001ALICE\n0003CAROL\n0001AGAIN\n")
    with pytest.raises(DatasetError, match=r"c\.txt:3: key b'0001' of CUSTFILE again \(first on line 1\)"):
        load_records(ksds)
    (tmp_path / "e.txt").write_bytes(b"ONE\nTHREE\n")
    [esds] = parse(
        tmp_path, '[[datasets]]\nname = "LOG"\norganization = "esds"\nrecord-length = [1, 9]\nload = "e.txt"\n'
    )
    assert load_records(esds) == [(rid_of(0), b"ONE"), (rid_of(3), b"THREE")]


def test_a_dataset_is_loaded_when_created_and_must_keep_its_definition(tmp_path: Path) -> None:
    db = Database("sqlite", str(tmp_path / "f.db"))
    (tmp_path / "c.txt").write_bytes(b"0001ALICE\n")
    defs = parse(tmp_path, GOOD + 'load = "c.txt"\n')
    assert create_datasets(db, defs) == ["CUSTFILE"]
    (tmp_path / "c.txt").write_bytes(b"0001ALICE\n0002BOB\n")
    assert create_datasets(db, defs) == []  # there already: not loaded again over the records it has
    import sqlite3

    assert sqlite3.connect(db.target).execute("SELECT count(*) FROM cics_records").fetchone() == (1,)
    changed = parse(tmp_path, GOOD.replace("20", "30"))
    expected = (
        r"toml:1: datasets.CUSTFILE: .* otherwise \(ksds record-length 20 keys \[4, 0\], not ksds record-length 30"
    )
    with pytest.raises(DatasetError, match=expected):
        create_datasets(db, changed)


def test_a_load_added_after_the_dataset_was_made_is_said_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    db = Database("sqlite", str(tmp_path / "f.db"))
    assert create_datasets(db, parse(tmp_path, GOOD)) == ["CUSTFILE"]  # made without records
    (tmp_path / "c.txt").write_bytes(b"0001ALICE\n0002BOB\n")
    capsys.readouterr()
    assert create_datasets(db, parse(tmp_path, GOOD + 'load = "c.txt"\n')) == []  # line 6: the load key
    said = capsys.readouterr().err
    assert f"{tmp_path / 'cobol-mcp.toml'}:6: datasets.CUSTFILE: load = 'c.txt' was not loaded" in said
    assert "`cobol-mcp-server db load CUSTFILE`" in said
    assert sqlite3.connect(db.target).execute("SELECT count(*) FROM cics_records").fetchone() == (0,)


def test_db_load_replaces_the_records_and_redefines_the_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3
    import subprocess
    import sys

    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "cobol-mcp.toml").write_text(GOOD)
    db = Database("sqlite", str(folder / "cobol-mcp.db"))
    create_datasets(db, parse_datasets(tomllib.loads(GOOD)["datasets"], folder / "cobol-mcp.toml", GOOD, folder))
    conn = sqlite3.connect(db.target)
    conn.execute("INSERT INTO cics_records VALUES ('CUSTFILE', X'30303039', X'30303039')")  # a program's record
    conn.commit()
    (folder / "c.txt").write_bytes(b"0001ALICE\n0002BOB\n")
    text = GOOD.replace("20", "30") + 'load = "c.txt"\n'  # a longer record, and its load file
    (folder / "cobol-mcp.toml").write_text(text)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "cobol_mcp", "db", "load", *args, "--programs", f"app={folder}"]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)

    wrong = run("NOFILE")
    assert (
        wrong.returncode == 1 and "no [[datasets]] named NOFILE (names: CUSTFILE); nothing was loaded" in wrong.stderr
    )
    done = run("custfile")
    assert done.returncode == 0, done.stderr
    assert "loaded CUSTFILE: 2 record(s)" in done.stdout
    rows = conn.execute("SELECT rid, data FROM cics_records ORDER BY rid").fetchall()
    assert rows == [(b"0001", b"0001ALICE".ljust(30)), (b"0002", b"0002BOB".ljust(30))]
    assert conn.execute("SELECT max_length FROM cics_datasets").fetchall() == [(30,)]
    defs = parse_datasets(tomllib.loads(text)["datasets"], folder / "cobol-mcp.toml", text, folder)
    capsys.readouterr()
    assert create_datasets(db, defs) == []  # as the file says now, loaded from its file: nothing to say
    assert "was not loaded" not in capsys.readouterr().err
