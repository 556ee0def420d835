"""Installable without a checkout: the sdist and wheel carry the bundled programs, and the wheel
installed into a fresh virtualenv serves tools from anywhere, compiling into the user cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import cobol_mcp
from cobol_mcp.cobol.prepare.native_worker import WORKER_FILES

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted(p.name for p in (ROOT / "src" / "cobol_mcp" / "programs").iterdir() if p.suffix == ".cob")


def has_build() -> bool:
    return subprocess.run([sys.executable, "-c", "import build, setuptools"], capture_output=True).returncode == 0


needs_tools = pytest.mark.skipif(
    shutil.which("cobc") is None or not has_build(), reason="needs cobc and the build and setuptools packages"
)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sdist and wheel built from a copy of the tree (a stale build/ folder must not leak in)."""
    tree = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out), str(tree)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


@needs_tools
def test_the_sdist_and_the_wheel_carry_the_bundled_programs(dist):
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    in_wheel = zipfile.ZipFile(wheel).namelist()
    with tarfile.open(sdist) as archive:
        in_sdist = archive.getnames()
    for name in PROGRAMS:
        assert f"cobol_mcp/programs/{name}" in in_wheel
        assert any(member.endswith(f"src/cobol_mcp/programs/{name}") for member in in_sdist)
    assert "cobol_mcp/cobol/runtime/worker.py" in in_wheel
    for name in WORKER_FILES:  # the C worker's sources: built by the server where it is installed
        assert f"cobol_mcp/cobol/runtime/{name}" in in_wheel
        assert any(member.endswith(f"src/cobol_mcp/cobol/runtime/{name}") for member in in_sdist)


@needs_tools
def test_the_wheel_serves_from_a_fresh_virtualenv_outside_the_checkout(dist, tmp_path):
    (wheel,) = dist.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    home = tmp_path / "home"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "COBOL_MCP", "VIRTUAL_ENV", "XDG_"))
    }
    env["HOME"] = str(home)
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": "1.10", "b": "2.20"}},
        },
    ]
    done = subprocess.run(
        [str(venv / "bin" / "cobol-mcp-server")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        input="".join(json.dumps(r) + "\n" for r in requests),
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["result"]["serverInfo"]["version"] == cobol_mcp.__version__
    assert replies[1]["result"]["structuredContent"] == {"sum": "3.30"}
    assert list((home / ".cache" / "cobol-mcp-server" / "manifests").glob("*.json"))  # the user cache
    if shutil.which(os.environ.get("CC") or "cc"):  # the C worker is built from the sources the wheel carries
        assert "Python worker" not in done.stderr, done.stderr
        assert list((home / ".cache" / "cobol-mcp-server" / "worker").glob("*/cobol-mcp-worker"))


def test_server_json_describes_this_package():
    server = json.loads((ROOT / "server.json").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert server["version"] == project["version"] == cobol_mcp.__version__
    assert f"mcp-name: {server['name']}" in (ROOT / "README.md").read_text()
    from cobol_mcp.cli import _parser

    known = {option for action in _parser("serve")._actions for option in action.option_strings}
    for package in server["packages"]:
        assert package["identifier"] == project["name"] and package["version"] == project["version"]
        assert package["transport"]["type"] in ("stdio", "streamable-http")
        for argument in package["packageArguments"]:
            assert argument["name"] in known, argument["name"]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_what_building_and_testing_leave_behind_is_ignored():
    """`python -m build` writes dist/, the tests' build cache may be .cobol-cache/: neither shows in git status."""
    for path in ("dist/cobol_mcp_server-0.1.0.tar.gz", ".cobol-cache/manifests/x.json"):
        done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, capture_output=True, timeout=30)
        assert done.returncode == 0, f"{path} is not ignored"
