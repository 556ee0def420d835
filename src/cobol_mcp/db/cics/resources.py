"""All of CICS's resources for one tool call's unit of work, and SYNCPOINT [ROLLBACK] over them and the SQL."""

from __future__ import annotations

from collections.abc import Mapping

from ..unit import Unit
from .counters import Counters
from .fct import DatasetDef
from .files import FileControl
from .queues import TdQueues, TsQueues

__all__ = ["Resources"]


class Resources:
    """``files``, ``ts``, ``td`` and ``counters`` on ``unit``'s connection; ``fct``: the datasets by FILE name."""

    def __init__(self, unit: Unit, fct: Mapping[str, DatasetDef], program: str = "") -> None:
        self.unit = unit
        self.files = FileControl(unit, fct)
        self.ts = TsQueues(unit)
        self.td = TdQueues(unit, program)
        self.counters = Counters(unit)

    def syncpoint(self, rollback: bool = False) -> None:
        """SYNCPOINT: commit the SQL and every resource (ROLLBACK: undo them); READ UPDATE holds end."""
        self.unit.rollback() if rollback else self.unit.commit()
        self.files.syncpoint()

    def end(self, ok: bool) -> None:
        """The tool call's end: commit (normal end) or roll back (anything else), and close the connection."""
        self.files.syncpoint()
        self.unit.end(ok)
