IDENTIFICATION DIVISION.
PROGRAM-ID. validate-date.
*> Check whether a YYYYMMDD date is a real calendar date (Gregorian, leap
*> years included) and, if it is not, say why. Years run from 1601 to 9999,
*> the range of COBOL's intrinsic date functions.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-MONTH-NAMES VALUE "January  February March    April    May      June     "
                      & "July     August   SeptemberOctober  November December ".
   05 WS-MONTH-NAME PIC X(9) OCCURS 12 TIMES.
01 WS-MONTH-DAYS VALUE "312831303130313130313031".
   05 WS-DAYS-IN PIC 99 OCCURS 12 TIMES.
01 WS-WEEKDAYS VALUE "Monday   Tuesday  WednesdayThursday Friday   Saturday Sunday   ".
   05 WS-WEEKDAY PIC X(9) OCCURS 7 TIMES.
01 WS-LIMIT PIC 99.
01 WS-LEAP PIC X.
   88 LEAP-YEAR VALUE "Y" FALSE "N".
01 WS-LEAP-WORDS PIC X(8).
01 WS-WEEKDAY-INDEX PIC 9.
LINKAGE SECTION.
01 VALIDATE-DATE-IN.
   *> The date as eight digits, YYYYMMDD.
   05 DATE-TEXT PIC X(8).
   05 DATE-PARTS REDEFINES DATE-TEXT.
      10 YEAR-PART PIC 9(4).
      10 MONTH-PART PIC 99.
      10 DAY-PART PIC 99.
01 VALIDATE-DATE-OUT.
   *> Y when the date exists, N when it does not.
   05 VALID-FLAG PIC X.
      88 DATE-IS-VALID VALUE "Y".
      88 DATE-IS-INVALID VALUE "N".
   *> Why the date does not exist (blank when it does).
   05 REASON PIC X(80).
   *> The day of the week of a valid date.
   05 WEEKDAY PIC X(9).
PROCEDURE DIVISION USING VALIDATE-DATE-IN VALIDATE-DATE-OUT.
    SET DATE-IS-INVALID TO TRUE
    MOVE SPACES TO REASON WEEKDAY
    IF DATE-TEXT IS NOT NUMERIC
        MOVE "the date must be eight digits, YYYYMMDD" TO REASON
        GOBACK
    END-IF
    IF YEAR-PART < 1601
        STRING "year " YEAR-PART " is outside 1601-9999, "
               "the range of COBOL's calendar" DELIMITED BY SIZE INTO REASON
        GOBACK
    END-IF
    IF MONTH-PART < 1 OR MONTH-PART > 12
        STRING "month " MONTH-PART " is not between 01 and 12"
               DELIMITED BY SIZE INTO REASON
        GOBACK
    END-IF
    IF FUNCTION MOD(YEAR-PART, 4) = 0
       AND (FUNCTION MOD(YEAR-PART, 100) NOT = 0 OR FUNCTION MOD(YEAR-PART, 400) = 0)
        SET LEAP-YEAR TO TRUE
        MOVE "is a" TO WS-LEAP-WORDS
    ELSE
        SET LEAP-YEAR TO FALSE
        MOVE "is not a" TO WS-LEAP-WORDS
    END-IF
    MOVE WS-DAYS-IN(MONTH-PART) TO WS-LIMIT
    IF MONTH-PART = 2 AND LEAP-YEAR
        MOVE 29 TO WS-LIMIT
    END-IF
    IF DAY-PART < 1
        STRING "day 00 does not exist: days of the month start at 01"
               DELIMITED BY SIZE INTO REASON
        GOBACK
    END-IF
    IF DAY-PART > WS-LIMIT
        IF MONTH-PART = 2
            STRING "February " YEAR-PART " has " WS-LIMIT " days ("
                   YEAR-PART " " FUNCTION TRIM(WS-LEAP-WORDS) " leap year)"
                   DELIMITED BY SIZE INTO REASON
        ELSE
            STRING FUNCTION TRIM(WS-MONTH-NAME(MONTH-PART)) " has "
                   WS-LIMIT " days" DELIMITED BY SIZE INTO REASON
        END-IF
        GOBACK
    END-IF
    IF FUNCTION TEST-DATE-YYYYMMDD(FUNCTION NUMVAL(DATE-TEXT)) NOT = 0
        MOVE "not a date in COBOL's calendar" TO REASON
        GOBACK
    END-IF
    COMPUTE WS-WEEKDAY-INDEX =
        FUNCTION MOD(FUNCTION INTEGER-OF-DATE(FUNCTION NUMVAL(DATE-TEXT)) - 1, 7) + 1
    MOVE WS-WEEKDAY(WS-WEEKDAY-INDEX) TO WEEKDAY
    SET DATE-IS-VALID TO TRUE
    GOBACK.
