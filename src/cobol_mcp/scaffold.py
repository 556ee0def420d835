"""`new`: write a first CALLable program that follows every convention and compiles as it is.

The program is a small, real one (an order line's total, exact to the cent) rather than a blank
form, so a newcomer sees each convention at work: the description comment after PROGRAM-ID, an
input record named ``…-IN`` and an output record named ``…-OUT``, field comments that become
property descriptions, a VALUE that makes an input optional, RETURN-CODE for a refused input, and
GOBACK to return to the caller.
"""

from __future__ import annotations

import os
import re

__all__ = ["NAME", "ScaffoldError", "program_text", "write_program"]

# A COBOL word that leaves room for the "-OUT" record name within IBM's 30-character limit.
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*$")
MAX_NAME = 26

TEMPLATE = """\
IDENTIFICATION DIVISION.
PROGRAM-ID. {name}.
*> Compute an order line's total: unit price times quantity, exact to the
*> cent. Replace this comment with what your program does, in words an
*> agent can act on: it becomes the tool's description.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-TOTAL PIC 9(13)V99.
01 WS-LIMIT PIC 9(9)V99 VALUE 999999999.99.
LINKAGE SECTION.
*> A record named ...-IN is input only: its fields are the tool's arguments.
01 {name}-IN.
   *> Price of one unit, up to 9,999,999.99.
   05 UNIT-PRICE PIC 9(7)V99.
   *> How many units; 1 when not given (a VALUE makes an argument optional).
   05 QUANTITY PIC 9(5) VALUE 1.
*> A record named ...-OUT is output only: its fields are the tool's result.
01 {name}-OUT.
   *> unit_price * quantity, exact (an error above 999,999,999.99).
   05 LINE-TOTAL PIC 9(9)V99.
PROCEDURE DIVISION USING {name}-IN {name}-OUT.
MAIN-LOGIC.
    COMPUTE WS-TOTAL = UNIT-PRICE * QUANTITY
    IF WS-TOTAL > WS-LIMIT
*>      A RETURN-CODE other than zero makes the call an error result.
        MOVE 8 TO RETURN-CODE
        MOVE ZERO TO LINE-TOTAL
    ELSE
        MOVE WS-TOTAL TO LINE-TOTAL
    END-IF
*>  GOBACK returns to the caller; STOP RUN would end the whole run unit.
    GOBACK.
"""


class ScaffoldError(ValueError):
    """The program cannot be written; the message says why."""


def program_text(name: str) -> str:
    if len(name) > MAX_NAME or not NAME.match(name):
        raise ScaffoldError(
            f"{name!r} is not a usable PROGRAM-ID: letters and digits in words joined by "
            f"single hyphens, starting with a letter, at most {MAX_NAME} characters"
        )
    return TEMPLATE.format(name=name.upper())


def write_program(name: str, folder: str) -> str:
    """Write ``folder/name.cob`` (never over an existing file) and return its path."""
    text = program_text(name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name.lower()}.cob")
    try:
        with open(path, "x", encoding="ascii") as out:
            out.write(text)
    except FileExistsError:
        raise ScaffoldError(f"{path} exists already; choose another name or folder") from None
    return path
