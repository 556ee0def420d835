"""The README is a front door that works, and the docs hold together.

Every relative link and ``#anchor`` in README.md and docs/*.md resolves (anchors as GitHub makes
them from headings); the README stays small; every ``cobol-mcp-server`` / ``./run.sh`` command the
README and the docs show is accepted by the real command line, option by option; and the options
reference lists every option the command line has.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_LIMIT = 12_000  # bytes: what a newcomer reads in five minutes

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`[^`]*`")
COMMANDS = ("./run.sh", "cobol-mcp-server", ".venv/bin/cobol-mcp-server", "uvx cobol-mcp-server")
SUBCOMMANDS = ("new", "call", "check")


def prose_lines(text: str) -> list[str]:
    """The lines of a page outside fenced and indented code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced and not line.startswith("    "):
            lines.append(line)
    return lines


def code_lines(text: str) -> list[str]:
    """The lines of fenced and indented code blocks, and the inline code spans of the prose."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
        elif fenced or line.startswith("    "):
            lines.append(line.strip())
        else:
            lines += [span.strip("`") for span in INLINE_CODE.findall(line)]
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its rendered text, lower-cased, punctuation dropped, spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(page.read_text()):
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return [
        target
        for line in prose_lines(page.read_text())
        for target in LINK.findall(INLINE_CODE.sub("", line))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto: ... are not ours to check
    ]


def test_slugs_are_githubs():
    assert slug("Overrides: cobol-mcp.toml") == "overrides-cobol-mcptoml"
    assert slug("Batch programs (SELECT … ASSIGN)") == "batch-programs-select--assign"
    assert slug("`add(a, b)`") == "adda-b"
    assert slug("What a 2026-07-28 request gets") == "what-a-2026-07-28-request-gets"


def test_a_broken_link_or_anchor_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## Two words\n\n[a](#two-words) [b](#missing) [c](other.md)\n\n    [d](#in-code)\n")
    assert links(page) == ["#two-words", "#missing", "other.md"]
    assert anchors(page) == {"title", "two-words"}
    assert broken(page) == ["page.md: #missing", "page.md: other.md"]


def broken(page: Path) -> list[str]:
    problems = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        missing = not goal.exists() or (anchor and goal.suffix == ".md" and anchor not in anchors(goal))
        if missing:
            problems.append(f"{page.name}: {target}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page):
    assert broken(page) == []


def test_the_readme_is_a_front_door():
    size = len(README.read_bytes())
    assert size < README_LIMIT, f"README.md is {size} bytes: move reference text into docs/"
    text = README.read_text()
    assert "\n    ./test.sh " in text  # the CI runs the test command the README shows
    assert "\n    ./run.sh " in text


def test_every_docs_page_is_in_the_index():
    index = links(DOCS / "README.md")
    for page in sorted(DOCS.glob("*.md")):
        if page.name != "README.md":
            assert page.name in index, f"docs/README.md does not link {page.name}"


def commands(page: Path) -> list[tuple[str, list[str]]]:
    """(subcommand, options) of every command line of the server that the page shows."""
    found = []
    for line in code_lines(page.read_text()):
        line = line.removeprefix("$ ")
        for start in COMMANDS:
            if line == start or line.startswith(start + " "):
                words = shlex.split(line[len(start) :].split(" # ")[0].split(" | ")[0], comments=True)
                sub = words[0] if words and words[0] in SUBCOMMANDS else "serve"
                found.append((sub, [w.split("=")[0] for w in words if w.startswith("--")]))
                break
    return found


@cache
def help_text(sub: str) -> str:
    argv = [sys.executable, "-m", "cobol_mcp", *([] if sub == "serve" else [sub]), "--help"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def accepts(sub: str, option: str) -> bool:
    return option in ("--help", "--version") or re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text(sub))


def test_the_readme_shows_commands_and_each_is_accepted():
    shown = commands(README)
    assert {sub for sub, _ in shown} >= {"serve", "new", "check", "call"}
    for sub, options in shown:
        assert all(accepts(sub, option) for option in options), (sub, options)


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_command_in_the_docs_is_accepted(page):
    for sub, options in commands(page):
        unknown = [option for option in options if not accepts(sub, option)]
        assert unknown == [], f"{page.name}: cobol-mcp-server {sub} has no {unknown}"


def test_an_unknown_option_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("    ./run.sh check --programs ./cobol --no-such-thing   # a comment\n")
    assert commands(page) == [("check", ["--programs", "--no-such-thing"])]
    assert accepts("check", "--programs") and not accepts("check", "--no-such-thing")


def test_the_options_reference_lists_every_option():
    """docs/http-and-operations.md#options names every option `cobol-mcp-server --help` has."""
    text = (DOCS / "http-and-operations.md").read_text()
    section = text[text.index("\n## Options") : text.index("\n## ", text.index("\n## Options") + 1)]
    listed = set(re.findall(r"^\s*(--[a-z][\w-]*)", section, re.M)) | set(re.findall(r", (--[a-z][\w-]*)", section))
    described = help_text("serve").partition("\noptions:")[2]  # not the usage lines of the other commands
    options = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", described))
    options -= {"--http-workers"}  # the long spelling of --workers
    assert sorted(options - listed) == []


@pytest.mark.skipif(shutil.which("cobc") is None, reason="GnuCOBOL (cobc) is not installed")
def test_the_readme_first_program_runs_as_shown(tmp_path, cache_dir):
    """The README's "Your first program" lines, run as they stand in a fresh folder, do what they say."""
    section = README.read_text().split("\n## Your first program\n")[1].split("\n## ")[0]
    lines = [line.strip() for line in section.splitlines() if line.startswith("    ./run.sh ")]
    assert [shlex.split(line)[1] for line in lines] == ["new", "check", "call", "--programs"]
    listing = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
    for line in lines:
        command, _, said = line.partition(" # ")
        words = shlex.split(command)[1:]
        serve = words[0] == "--programs"
        done = subprocess.run(
            [sys.executable, "-m", "cobol_mcp", *words],
            input=listing if serve else "",
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
            env={**os.environ, "COBOL_MCP_CACHE": str(cache_dir)},
        )
        assert done.returncode == 0, (line, done.stderr)
        if words[0] == "new":
            written = re.search(r"writes (\S+)", said).group(1)
            assert (tmp_path / written).is_file()
        elif words[0] == "check":
            schemas = {tool["name"]: tool["inputSchema"] for tool in json.loads(done.stdout)["tools"]}
            assert set(schemas["order_total"]["properties"]) == {"unit_price", "quantity"}
        elif words[0] == "call":
            assert done.stdout.strip() == said.strip()
        else:
            tools = {tool["name"] for tool in json.loads(done.stdout)["result"]["tools"]}
            assert tools == {"order_total", "add", "format_currency", "validate_date"}, said
