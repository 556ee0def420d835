"""A program's spec as the build cache keeps it (a pickle beside its module).

Apart from :mod:`.programs` (which writes them) so that a tool reading its spec on first use imports
the record model only, not the parser, cobc or the direction analysis.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from ..linkage.model import ProgramSpec

__all__ = ["load_spec"]


def load_spec(path: Path | str) -> ProgramSpec:
    with open(path, "rb") as handle:
        spec = pickle.load(handle)
    if not isinstance(spec, ProgramSpec):
        raise TypeError(f"{path} does not hold a program spec")
    return spec
