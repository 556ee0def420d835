"""The architecture is checked, not hoped for: layers point down, packages say what they own, and no
module reaches into another's private names."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cobol_mcp"
LINT = Path(sys.executable).with_name("lint-imports")

needs_linter = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")


def lint(src_parent: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src_parent)}
    return subprocess.run(
        [str(LINT), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


@needs_linter
def test_import_contracts_are_kept():
    done = lint(ROOT / "src")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@needs_linter
@pytest.mark.parametrize(
    ("module", "line", "named"),
    [
        ("protocol/jsonrpc.py", "from ..catalog import Catalog", "cobol_mcp.protocol.jsonrpc -> cobol_mcp.catalog"),
        (
            "cobol/linkage/model.py",
            "from ..records import codec",
            "cobol_mcp.cobol.linkage.model -> cobol_mcp.cobol.records",
        ),
        ("protocol/framing.py", "import socket", "cobol_mcp.protocol.framing -> socket"),
        ("cobol/tool.py", "import ctypes", "cobol_mcp.cobol.tool -> ctypes"),
    ],
)
def test_a_wrong_import_fails_the_check_and_is_named(tmp_path, module, line, named):
    copy = tmp_path / "src" / "cobol_mcp"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.cob", "*.cpy"))
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}  # noqa\n")
    done = lint(tmp_path / "src")
    assert done.returncode != 0
    assert named in done.stdout


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_imports_another_modules_private_names():
    crossings = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                crossings += [
                    f"{path.relative_to(SRC)}:{node.lineno}: {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and alias.name != "__version__"
                ]
    assert crossings == []


def test_every_package_says_what_it_owns_and_may_import():
    for init in sorted(SRC.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        if init.parent == SRC:
            assert "Layers" in doc, init
        else:
            assert "Owns:" in doc and "May import:" in doc, init.relative_to(SRC)
