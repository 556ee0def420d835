000100 IDENTIFICATION DIVISION.                                         ACCRUAL 
000200 PROGRAM-ID. ACCRUAL.                                             ACCRUAL 
000300*================================================================ ACCRUAL 
000400* Accrues interest on a deposit account day by day (actual/365,   ACCRUAL 
000500* compounded daily) for the number of days given.  The day count  ACCRUAL 
000600* is passed BY VALUE, as the end-of-day batch passes it.          ACCRUAL 
000700*================================================================ ACCRUAL 
000800 AUTHOR. DEPOSIT SYSTEMS.                                         ACCRUAL 
000900 ENVIRONMENT DIVISION.                                            ACCRUAL 
001000 DATA DIVISION.                                                   ACCRUAL 
001100 WORKING-STORAGE SECTION.                                         ACCRUAL 
001200 01  WS-MAX-DAYS                 PIC S9(4) COMP VALUE 3660.       ACCRUAL 
001300 LINKAGE SECTION.                                                 ACCRUAL 
001400     COPY ACCTREC.                                                ACCRUAL 
001500*    Days to accrue, 1 to 3660                                    ACCRUAL 
001600 01  LS-DAYS                     USAGE BINARY-LONG.               ACCRUAL 
001700 01  LS-RESULT.                                                   ACCRUAL 
001800     05  LS-INTEREST             PIC S9(9)V99.                    ACCRUAL 
001900     05  LS-NEW-BALANCE          PIC S9(9)V99.                    ACCRUAL 
002000     05  LS-DAYS-ACCRUED         PIC S9(4).                       ACCRUAL 
002100     05  LS-STATUS               PIC XX.                          ACCRUAL 
002200         88  LS-OK               VALUE '00'.                      ACCRUAL 
002300         88  LS-BAD-DAYS         VALUE '10'.                      ACCRUAL 
002400         88  LS-CLOSED           VALUE '20'.                      ACCRUAL 
002500 PROCEDURE DIVISION USING BY REFERENCE LS-ACCOUNT                 ACCRUAL 
002600                          BY VALUE LS-DAYS                        ACCRUAL 
002700                          BY REFERENCE LS-RESULT.                 ACCRUAL 
002800 0000-MAINLINE.                                                   ACCRUAL 
002900     INITIALIZE LS-RESULT                                         ACCRUAL 
003000     MOVE LS-AC-BALANCE TO LS-NEW-BALANCE                         ACCRUAL 
003100     EVALUATE TRUE                                                ACCRUAL 
003200         WHEN LS-AC-CLOSED                                        ACCRUAL 
003300             SET LS-CLOSED TO TRUE                                ACCRUAL 
003400         WHEN LS-DAYS < 1 OR LS-DAYS > WS-MAX-DAYS                ACCRUAL 
003500             SET LS-BAD-DAYS TO TRUE                              ACCRUAL 
003600         WHEN OTHER                                               ACCRUAL 
003700             PERFORM 1000-ACCRUE-ONE-DAY UNTIL LS-DAYS = ZERO     ACCRUAL 
003800             COMPUTE LS-INTEREST = LS-NEW-BALANCE - LS-AC-BALANCE ACCRUAL 
003900             SET LS-OK TO TRUE                                    ACCRUAL 
004000     END-EVALUATE                                                 ACCRUAL 
004100     GOBACK.                                                      ACCRUAL 
004200 1000-ACCRUE-ONE-DAY.                                             ACCRUAL 
004300     COMPUTE LS-NEW-BALANCE ROUNDED = LS-NEW-BALANCE              ACCRUAL 
004400         + LS-NEW-BALANCE * LS-AC-RATE / 365                      ACCRUAL 
004500     SUBTRACT 1 FROM LS-DAYS                                      ACCRUAL 
004600     ADD 1 TO LS-DAYS-ACCRUED.                                    ACCRUAL 
