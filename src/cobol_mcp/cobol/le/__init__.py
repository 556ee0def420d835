"""IBM Language Environment callable services that COBOL programs CALL, in C beside this file.

A program written for z/OS calls LE's date, time and condition services by name (``CALL 'CEEDAYS'
USING IN-DATE, PICSTR, LILIAN, FC``). They are served with LE's parameters and semantics: Lilian day
numbers (day 1 is 15 October 1582), Lilian seconds (a COMP-2 count of seconds since 00:00:00 on
14 October 1582), picture strings (``YYYY-MM-DD HH:MI:SS.999``, ``MMDDYY``, ``Mmmmmmmmmz ZD, YYYY``,
``YY.DDD``, ``Wwwwwwwwwz`` ...) and 12-byte feedback codes: severity, message number, the
case/severity/control byte and the facility ``CEE`` in EBCDIC (X'C3C5C5', as on z/OS, so the tokens
programs compare against, IBM's CEEIGZCT 88-levels among them, match); CEE000 is twelve zero bytes. A
feedback code left out (``OMITTED``) makes a condition of severity 2 or more end the program with LE's
message, as an unhandled condition ends the enclave. ``CEE3ABD`` ends the program with its user abend
code: a CALLable tool's call fails with it (its unit of work rolled back), a batch run unit ends with
it. Not served: the Japanese and ROC eras in picture strings (``<JJJJ>``: CEE2EM), a handler for
``CEE3ABD`` under CICS (``HANDLE ABEND`` does not see it).

The library is compiled once into the build cache (:mod:`..prepare.le_library`) and each service is a
``NAME.so`` link to it in the folder of PROGRAM-ID links on COB_LIBRARY_PATH (:mod:`..prepare.links`),
so libcob's CALL finds it in every way COBOL runs here: the C and Python workers (CALLable and CICS
programs) and the run units of console and batch programs. A program of the served folders with the
same PROGRAM-ID wins.

Its C files: ``le.h`` (what they share: parameters, feedback codes, the calendar, picture strings),
``conditions.c`` (feedback codes, CEEDCOD, CEENCOD, CEE3DMP, CEE3ABD), ``calendar.c`` (Lilian days and
seconds, the date and time services) and ``pictures.c`` (picture strings written and read).

Owns: the names of the services (:data:`SERVICES`) and their C files (:data:`FOLDER`, :data:`FILES`).
May import: the standard library only.
"""

import os

FOLDER = os.path.dirname(os.path.abspath(__file__))
FILES = ("le.h", "conditions.c", "calendar.c", "pictures.c")

# The entries services.c defines, each CALLable by this name.
SERVICES = (
    "CEE3ABD",
    "CEE3DMP",
    "CEECBLDY",
    "CEEDATE",
    "CEEDATM",
    "CEEDAYS",
    "CEEDCOD",
    "CEEDYWK",
    "CEEGMT",
    "CEEGMTO",
    "CEEISEC",
    "CEELOCT",
    "CEENCOD",
    "CEEQCEN",
    "CEESCEN",
    "CEESECI",
    "CEESECS",
    "CEEUTC",
)
