import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One build cache for the whole run, so each COBOL source compiles once."""
    path = tmp_path_factory.mktemp("cobol-cache")
    os.environ["COBOL_MCP_CACHE"] = str(path)
    return path


def pytest_collection_modifyitems(config, items):
    if shutil.which("cobc") is None:
        raise pytest.UsageError("GnuCOBOL's cobc is not installed: run ./test.sh, which installs it")
