"""A short seeded run of bench/fuzz.py against the real stdio server: no invariant may break."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from ..conftest import ROOT


def load_fuzz():
    spec = importlib.util.spec_from_file_location("fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [1, 20261122])
def test_seeded_stdio_fuzz_run_keeps_every_invariant(cache_dir, seed):
    fuzz = load_fuzz()
    report = fuzz.run(seed, 3000, [sys.executable, "-m", "cobol_mcp"], timeout=600)
    assert report.problem_count == 0, report.summary(seed)
    assert report.exit_status == 0 and report.lines == 3000 and report.replies > 1000


def test_every_id_the_grammar_makes_is_json():
    """The driver expects a reply under each request's id, so an id must be valid JSON, also on line 0
    (where a form such as `{n}1777...` once began with a leading zero)."""
    import json
    import random

    fuzz = load_fuzz()
    for seed in range(300):
        grammar = fuzz.Grammar(random.Random(seed))
        for n in (0, 1, 7, 10):
            text = grammar.request_id(n)
            json.loads(text, parse_float=str, parse_int=str)  # raises on text that is not JSON
