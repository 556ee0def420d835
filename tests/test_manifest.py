"""The start-up manifest: a warm start reads it; any change it covers remakes it; failures are not kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cobol_mcp import manifest
from cobol_mcp.jsontext import dumps, loads
from cobol_mcp.options import Options

SAMPLE = Path(__file__).parent / "cobol" / "samples" / "add-numbers.cob"
needs_cobc = pytest.mark.skipif(shutil.which("cobc") is None, reason="GnuCOBOL (cobc) is not installed")


def options(tmp_path: Path) -> Options:
    return Options(programs=[("mine", tmp_path / "src")], bundled=False, cache_dir=tmp_path / "cache")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    shutil.copy(SAMPLE, tmp_path / "src" / SAMPLE.name)
    return tmp_path / "src"


@needs_cobc
def test_a_warm_start_reads_what_the_cold_start_made(tmp_path, folder):
    made = manifest.make(options(tmp_path))
    assert [entry["tool_name"] for entry in made["backends"]["mine"]] == ["add_numbers"]
    assert manifest.load(options(tmp_path)) == made


@needs_cobc
def test_a_changed_source_remakes_it(tmp_path, folder):
    manifest.make(options(tmp_path))
    source = folder / SAMPLE.name
    source.write_text(source.read_text() + "\n")
    assert manifest.load(options(tmp_path)) is None


@needs_cobc
def test_a_failed_program_is_tried_again_at_the_next_start(tmp_path, folder, monkeypatch):
    """cobc missing at the first start must not leave a manifest that serves nothing forever."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    failed = manifest.make(options(tmp_path))
    assert failed["backends"]["mine"] == [] and "cobc is not installed" in failed["errors"][0]
    assert manifest.load(options(tmp_path)) is None
    monkeypatch.undo()  # cobc is back
    assert manifest.load(options(tmp_path)) is None
    fixed = manifest.make(options(tmp_path))
    assert [entry["tool_name"] for entry in fixed["backends"]["mine"]] == ["add_numbers"]
    assert manifest.load(options(tmp_path)) == fixed


@needs_cobc
def test_a_folder_setting_is_kept_once_per_folder_and_entries_say_their_kind(tmp_path, folder):
    (folder / "cobol-mcp.toml").write_text("[folder]\ndata-dir = 'data'\n")
    (folder / "data").mkdir()
    made = manifest.make(options(tmp_path))
    assert made["errors"] == []
    assert made["folders"] == {"mine": {"data_dir": str(folder / "data"), "database": None}}
    (entry,) = made["backends"]["mine"]
    assert entry["kind"] == "callable" and "data_dir" not in entry
    assert manifest.load(options(tmp_path)) == made


@needs_cobc
def test_a_manifest_of_an_older_format_is_made_again_not_read(tmp_path, folder):
    made = manifest.make(options(tmp_path))
    path = Path(manifest.path_for(options(tmp_path), str(tmp_path / "cache")))
    old = loads(path.read_bytes())
    old["stamp"][0] = manifest.FORMAT - 1  # what an older version wrote: its own FORMAT first
    old["backends"] = {"mine": [{k: v for k, v in e.items() if k != "kind"} for e in made["backends"]["mine"]]}
    path.write_text(dumps(old))
    assert manifest.load(options(tmp_path)) is None


@needs_cobc
@pytest.mark.parametrize("name", ["worker.h", "worker_services.c"])
def test_a_changed_c_worker_file_remakes_it(tmp_path, folder, monkeypatch, name):
    """The manifest names the C worker built from the sources: a change to any of them (not only
    worker.c) must remake it, or a warm start would run the worker built before the change."""
    sources = tmp_path / "runtime"
    shutil.copytree(manifest.WORKER_FOLDER, sources, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    monkeypatch.setattr(manifest, "WORKER_FOLDER", str(sources))
    manifest.make(options(tmp_path))
    assert manifest.load(options(tmp_path)) is not None
    with (sources / name).open("a") as handle:
        handle.write("\n/* changed */\n")
    assert manifest.load(options(tmp_path)) is None
