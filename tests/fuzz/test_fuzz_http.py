"""A short seeded run of bench/fuzz_http.py against the real HTTP server (sessions, then stateless):
no invariant may break, and the server answers every request and stays alive."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from ..conftest import ROOT

pytest.importorskip("uvicorn")


def load_fuzz_http():
    spec = importlib.util.spec_from_file_location("fuzz_http", ROOT / "bench" / "fuzz_http.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_http"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("seed", "server_args"), [(1, ()), (20261123, ("--stateless",))])
def test_seeded_http_fuzz_run_keeps_every_invariant(cache_dir, seed, server_args):
    fuzz = load_fuzz_http()
    report = fuzz.run(seed, 2000, server_args=server_args)
    assert not report.problems, report.summary()
    assert report.alive and report.requests == 2000
    assert report.statuses[200] > 500 and sum(n for s, n in report.statuses.items() if s >= 400) > 300
