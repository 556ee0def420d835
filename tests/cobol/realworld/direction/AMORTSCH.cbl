000100 IDENTIFICATION DIVISION.                                         AMORTSCH
000200 PROGRAM-ID. AMORTSCH.                                            AMORTSCH
000300* Three-period amortisation schedule for a level-payment loan.    AMORTSCH
000400* The schedule rows are cleared, then each period's interest,     AMORTSCH
000500* principal repaid and closing balance are accumulated into them. AMORTSCH
000600 DATA DIVISION.                                                   AMORTSCH
000700 WORKING-STORAGE SECTION.                                         AMORTSCH
000800 01  WS-ROW                  PIC 9(2) COMP.                       AMORTSCH
000900 01  WS-PERIODS              PIC 9(2) VALUE 3.                    AMORTSCH
001000 01  WS-BALANCE              PIC S9(9)V99 COMP-3.                 AMORTSCH
001100 01  WS-INTEREST             PIC S9(9)V99 COMP-3.                 AMORTSCH
001200 LINKAGE SECTION.                                                 AMORTSCH
001300 01  AM-REQUEST.                                                  AMORTSCH
001400     05  AM-PRINCIPAL        PIC S9(9)V99 COMP-3.                 AMORTSCH
001500* Interest rate per period, e.g. 0.0125 for 1.25 %.               AMORTSCH
001600     05  AM-PERIOD-RATE      PIC V9(6) COMP-3.                    AMORTSCH
001700     05  AM-PAYMENT          PIC S9(9)V99 COMP-3.                 AMORTSCH
001800 01  AM-SCHEDULE.                                                 AMORTSCH
001900     05  AM-ROW              OCCURS 3 TIMES.                      AMORTSCH
002000         10  AM-INTEREST     PIC S9(9)V99 COMP-3.                 AMORTSCH
002100         10  AM-REPAID       PIC S9(9)V99 COMP-3.                 AMORTSCH
002200         10  AM-CLOSING      PIC S9(9)V99 COMP-3.                 AMORTSCH
002300     05  AM-TOTAL-INTEREST   PIC S9(9)V99 COMP-3.                 AMORTSCH
002400 PROCEDURE DIVISION USING AM-REQUEST AM-SCHEDULE.                 AMORTSCH
002500 0000-MAIN.                                                       AMORTSCH
002600     PERFORM 1000-CLEAR-ROW                                       AMORTSCH
002700         VARYING WS-ROW FROM 1 BY 1 UNTIL WS-ROW > 3              AMORTSCH
002800     MOVE ZERO TO AM-TOTAL-INTEREST                               AMORTSCH
002900     MOVE AM-PRINCIPAL TO WS-BALANCE                              AMORTSCH
003000     PERFORM VARYING WS-ROW FROM 1 BY 1                           AMORTSCH
003100             UNTIL WS-ROW > WS-PERIODS                            AMORTSCH
003200         PERFORM 2000-ONE-PERIOD                                  AMORTSCH
003300     END-PERFORM                                                  AMORTSCH
003400     GOBACK.                                                      AMORTSCH
003500 1000-CLEAR-ROW.                                                  AMORTSCH
003600     INITIALIZE AM-ROW (WS-ROW).                                  AMORTSCH
003700 2000-ONE-PERIOD.                                                 AMORTSCH
003800     COMPUTE WS-INTEREST ROUNDED = WS-BALANCE * AM-PERIOD-RATE    AMORTSCH
003900     ADD WS-INTEREST TO AM-INTEREST (WS-ROW)                      AMORTSCH
004000                        AM-TOTAL-INTEREST                         AMORTSCH
004100     COMPUTE AM-REPAID (WS-ROW) = AM-PAYMENT - WS-INTEREST        AMORTSCH
004200     IF AM-REPAID (WS-ROW) > WS-BALANCE                           AMORTSCH
004300         MOVE WS-BALANCE TO AM-REPAID (WS-ROW)                    AMORTSCH
004400     END-IF                                                       AMORTSCH
004500     SUBTRACT AM-REPAID (WS-ROW) FROM WS-BALANCE                  AMORTSCH
004600     ADD WS-BALANCE TO AM-CLOSING (WS-ROW).                       AMORTSCH
