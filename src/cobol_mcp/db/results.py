"""What a statement answers (:class:`Outcome`: its :class:`Sqlca` and the host variables to store) and
an open cursor's state (:class:`Cursor`), as :mod:`.unit` keeps and gives them."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .catalog import Column
from .prepare import Prepared

__all__ = ["Cursor", "Outcome", "Sqlca"]


@dataclass
class Sqlca:
    """What a statement leaves in the program's SQLCA."""

    sqlcode: int = 0
    sqlstate: str = "00000"
    sqlerrd3: int = 0  # rows inserted, updated, deleted or fetched
    sqlwarn: str = " " * 11  # SQLWARN0 … SQLWARNA: "W" where set
    sqlerrm: str = ""

    def warn(self, flag: int) -> None:
        """Set SQLWARNn (and SQLWARN0, which says some flag is set)."""
        chars = list(self.sqlwarn)
        chars[0] = chars[flag] = "W"
        self.sqlwarn = "".join(chars)


@dataclass
class Outcome:
    """What a statement answers: its SQLCA, and the host variables and indicators to store."""

    sqlca: Sqlca
    sets: dict[str, object] = field(default_factory=dict)  # host variables and indicators to store


@dataclass
class Cursor:
    """An open cursor: its DECLARE, the driver's cursor and where the program is in its rows."""

    declare: Prepared
    driver: Any
    columns: list[Column | None]
    rowid: bool  # the first column is the row's rowid or ctid (WHERE CURRENT OF)
    current: object = None  # the rowid of the row FETCH last returned
    ahead: deque[Any] = field(default_factory=deque)  # rows fetched from the driver, not yet by the program
    failed: Exception | None = None  # the driver's error reading ahead: the FETCH reaching it gets it
    rows: list[Any] | None = None  # a SCROLL cursor's result table, read at OPEN (see .scroll)
    position: int = -1  # … and where it is: -1 before the first row, len(rows) after the last
