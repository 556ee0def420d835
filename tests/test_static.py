"""Static checks run with the suite, so CI runs them: strict types over src/, ruff lint and format."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if not (BIN / tool).exists():
        pytest.skip(f"{tool} is not installed")
    return subprocess.run([str(BIN / tool), *args], capture_output=True, text=True, cwd=ROOT, timeout=600)


def test_mypy_strict_passes_over_src():
    done = run("mypy", "--no-incremental")  # files and strictness come from pyproject.toml
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_lint_is_clean():
    done = run("ruff", "check", "src", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean():
    done = run("ruff", "format", "--check", "src", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_type_ignores_say_why():
    """A `# type: ignore` is allowed only where the line says why the checker is wrong."""
    bare = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "src").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "# type: ignore" in line and "  # " not in line.split("# type: ignore", 1)[1]
    ]
    assert bare == []
