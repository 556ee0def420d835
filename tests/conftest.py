import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

# The fast unit tests (`./test.sh -m unit`): these folders and modules run in-process, with no server,
# no COBOL worker and no cobc. Checked, not hoped: their tests may use no fixture that compiles
# (HEAVY_FIXTURES), and a process they start can only be a fresh Python running `-c` (a module-import
# check); anything else fails the test (see unit_starts_no_process).
UNIT = (
    "protocol/",
    "test_jsontext.py",
    "test_bundled.py",
    "cobol/precompile/test_scan.py",
    "cobol/precompile/test_cics_scan.py",
    "cobol/precompile/test_direction_sql.py",
    "cobol/test_faults.py",
    "cobol/test_layout.py",
    "cobol/test_pic.py",
    "cobol/test_schema.py",
    "db/test_translate.py",
    "db/test_cics_csd.py",
)
HEAVY_FIXTURES = frozenset(("cache_dir", "compiled_samples"))


def pytest_configure(config: pytest.Config) -> None:
    """One build of the C worker for the whole run: every build cache a test makes (its own, or a
    server's) finds it in one folder (COBOL_MCP_WORKER_CACHE), instead of compiling it again."""
    if "COBOL_MCP_WORKER_CACHE" not in os.environ:
        import tempfile

        config.worker_builds = tempfile.mkdtemp(prefix="cobol-mcp-worker-")  # type: ignore[attr-defined]
        os.environ["COBOL_MCP_WORKER_CACHE"] = config.worker_builds  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, "worker_builds", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("COBOL_MCP_WORKER_CACHE", None)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One build cache for the whole run, so each COBOL source compiles once."""
    path = tmp_path_factory.mktemp("cobol-cache")
    os.environ["COBOL_MCP_CACHE"] = str(path)
    return path


def is_unit(path: Path) -> bool:
    """Whether the test module at `path` is one of the fast unit tests (see UNIT)."""
    return path.resolve().relative_to(TESTS).as_posix().startswith(UNIT)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if is_unit(item.path):
            heavy = HEAVY_FIXTURES.intersection(item.fixturenames)
            if heavy:
                raise pytest.UsageError(f"{item.nodeid} is listed as a unit test but compiles: {sorted(heavy)}")
            item.add_marker(pytest.mark.unit)
    if shutil.which("cobc") is None and config.getoption("markexpr") != "unit":
        raise pytest.UsageError("GnuCOBOL's cobc is not installed: run ./test.sh, which installs it")


def unit_process_refusal(args) -> str | None:
    """Why a unit test may not start this process (None if it may: a fresh Python running `-c`)."""
    argv = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
    if len(argv) >= 2 and str(argv[0]) == sys.executable and str(argv[1]) in ("-c", "-S", "-I"):
        return None
    return f"a unit test starts no process but a fresh Python (-c): {[str(a) for a in argv[:3]]}"


@pytest.fixture(autouse=True)
def unit_starts_no_process(request, monkeypatch):
    """Under the unit marker, starting a server, a worker or cobc fails the test (see UNIT)."""
    if request.node.get_closest_marker("unit") is None:
        return
    start = subprocess.Popen.__init__

    def guarded(self, args, *rest, **options):
        refusal = unit_process_refusal(args)
        if refusal is not None:
            raise AssertionError(refusal)
        start(self, args, *rest, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", guarded)
