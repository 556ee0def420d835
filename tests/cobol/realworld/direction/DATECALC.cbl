000100 IDENTIFICATION DIVISION.                                         DATECALC
000200 PROGRAM-ID. DATECALC.                                            DATECALC
000300* Date services for the branch systems: days between two dates,   DATECALC
000400* or a date plus a number of days, with the day of the week.      DATECALC
000500 DATA DIVISION.                                                   DATECALC
000600 WORKING-STORAGE SECTION.                                         DATECALC
000700 01  WS-INT-1                PIC S9(9) COMP.                      DATECALC
000800 01  WS-INT-2                PIC S9(9) COMP.                      DATECALC
000900 LINKAGE SECTION.                                                 DATECALC
001000     COPY DATECA.                                                 DATECALC
001100 PROCEDURE DIVISION USING DATE-COMMAREA.                          DATECALC
001200 MAIN-LINE SECTION.                                               DATECALC
001300 MAIN-START.                                                      DATECALC
001400     INITIALIZE DC-RESULTS                                        DATECALC
001500     MOVE ZERO TO DC-RETURN-CODE                                  DATECALC
001600     IF FUNCTION TEST-DATE-YYYYMMDD(DC-DATE-1) NOT = ZERO         DATECALC
001700         MOVE 8 TO DC-RETURN-CODE                                 DATECALC
001800         GOBACK                                                   DATECALC
001900     END-IF                                                       DATECALC
002000     EVALUATE TRUE                                                DATECALC
002100         WHEN DC-DAYS-BETWEEN                                     DATECALC
002200             PERFORM DAYS-BETWEEN                                 DATECALC
002300         WHEN DC-ADD-DAYS                                         DATECALC
002400             PERFORM ADD-DAYS                                     DATECALC
002500         WHEN OTHER                                               DATECALC
002600             MOVE 16 TO DC-RETURN-CODE                            DATECALC
002700     END-EVALUATE                                                 DATECALC
002800     GOBACK.                                                      DATECALC
002900 DATE-ROUTINES SECTION.                                           DATECALC
003000 DAYS-BETWEEN.                                                    DATECALC
003100     IF FUNCTION TEST-DATE-YYYYMMDD(DC-DATE-2) NOT = ZERO         DATECALC
003200         MOVE 12 TO DC-RETURN-CODE                                DATECALC
003300     ELSE                                                         DATECALC
003400         COMPUTE WS-INT-1 = FUNCTION INTEGER-OF-DATE(DC-DATE-1)   DATECALC
003500         COMPUTE WS-INT-2 = FUNCTION INTEGER-OF-DATE(DC-DATE-2)   DATECALC
003600         SUBTRACT WS-INT-1 FROM WS-INT-2 GIVING DC-DAY-COUNT      DATECALC
003700         PERFORM WEEKDAY-OF-2                                     DATECALC
003800     END-IF.                                                      DATECALC
003900 ADD-DAYS.                                                        DATECALC
004000     COMPUTE WS-INT-2 = FUNCTION INTEGER-OF-DATE(DC-DATE-1)       DATECALC
004100                      + DC-DAYS                                   DATECALC
004200     MOVE FUNCTION DATE-OF-INTEGER(WS-INT-2) TO DC-RESULT-DATE    DATECALC
004300     PERFORM WEEKDAY-OF-2.                                        DATECALC
004400 WEEKDAY-OF-2.                                                    DATECALC
004500     COMPUTE DC-DAY-OF-WEEK = FUNCTION MOD(WS-INT-2 - 1, 7) + 1.  DATECALC
