000100 IDENTIFICATION DIVISION.                                         LOANSVC 
000200 PROGRAM-ID. INTCALC.                                             LOANSVC 
000300*================================================================ LOANSVC 
000400* Simple interest on a loan principal for a term in days          LOANSVC 
000500* (actual/365), at the rate of the loan's pricing tier (1-3).     LOANSVC 
000600*================================================================ LOANSVC 
000700 AUTHOR. LOAN SERVICING.                                          LOANSVC 
000800 ENVIRONMENT DIVISION.                                            LOANSVC 
000900 DATA DIVISION.                                                   LOANSVC 
001000 WORKING-STORAGE SECTION.                                         LOANSVC 
001100 01  WS-RATE-TABLE.                                               LOANSVC 
001200     05  WS-RATE-VALUES.                                          LOANSVC 
001300         10  FILLER              PIC 9V9999 VALUE 0.0350.         LOANSVC 
001400         10  FILLER              PIC 9V9999 VALUE 0.0475.         LOANSVC 
001500         10  FILLER              PIC 9V9999 VALUE 0.0625.         LOANSVC 
001600     05  WS-RATE REDEFINES WS-RATE-VALUES                         LOANSVC 
001700                                 PIC 9V9999 OCCURS 3 TIMES.       LOANSVC 
001800 01  WS-TIER-IDX                 PIC S9(4) COMP VALUE ZERO.       LOANSVC 
001900 LINKAGE SECTION.                                                 LOANSVC 
002000 01  LS-LOAN-IN.                                                  LOANSVC 
002100*    Principal in dollars and cents                               LOANSVC 
002200     05  LS-PRINCIPAL            PIC 9(9)V99.                     LOANSVC 
002300*    Pricing tier, 1 to 3                                         LOANSVC 
002400     05  LS-TIER                 PIC 9.                           LOANSVC 
002500     05  LS-TERM-DAYS            PIC 9(4).                        LOANSVC 
002600 01  LS-LOAN-OUT.                                                 LOANSVC 
002700     05  LS-INTEREST             PIC 9(9)V99.                     LOANSVC 
002800     05  LS-RATE-USED            PIC 9V9999.                      LOANSVC 
002900 PROCEDURE DIVISION USING LS-LOAN-IN LS-LOAN-OUT.                 LOANSVC 
003000 0000-MAINLINE.                                                   LOANSVC 
003100     MOVE LS-TIER TO WS-TIER-IDX                                  LOANSVC 
003200     PERFORM 1000-COMPUTE-INTEREST                                LOANSVC 
003300     EXIT PROGRAM.                                                LOANSVC 
003400 1000-COMPUTE-INTEREST.                                           LOANSVC 
003500     MOVE WS-RATE (WS-TIER-IDX) TO LS-RATE-USED                   LOANSVC 
003600     COMPUTE LS-INTEREST ROUNDED =                                LOANSVC 
003700         LS-PRINCIPAL * LS-RATE-USED * LS-TERM-DAYS / 365.        LOANSVC 
003800 9000-RESET-FOR-NEXT-LOAN.                                        LOANSVC 
003900*    Housekeeping of the old batch driver: never reached on a     LOANSVC 
004000*    CALL, because EXIT PROGRAM returns to the caller.            LOANSVC 
004100     MOVE ZERO TO WS-TIER-IDX                                     LOANSVC 
004200     MOVE WS-RATE (WS-TIER-IDX) TO LS-RATE-USED.                  LOANSVC 
004300 9999-EXIT.                                                       LOANSVC 
004400     GOBACK.                                                      LOANSVC 
