000100 IDENTIFICATION DIVISION.                                         FEECALC 
000200 PROGRAM-ID. FEECALC.                                             FEECALC 
000300*================================================================ FEECALC 
000400* Monthly transaction fee: the first 10 transactions are free,    FEECALC 
000500* the rest are charged at the rate of the pricing tier (1-3);     FEECALC 
000600* a non-zero waiver waives it; a bad tier gives RETURN-CODE 8.    FEECALC 
000700*================================================================ FEECALC 
000800 AUTHOR. DEPOSIT SYSTEMS.                                         FEECALC 
000900 DATA DIVISION.                                                   FEECALC 
001000 WORKING-STORAGE SECTION.                                         FEECALC 
001100 01  WS-TIER-RATES.                                               FEECALC 
001200     05  FILLER                  PIC 9V99 VALUE 0.25.             FEECALC 
001300     05  FILLER                  PIC 9V99 VALUE 0.15.             FEECALC 
001400     05  FILLER                  PIC 9V99 VALUE 0.10.             FEECALC 
001500 01  WS-RATE-TABLE REDEFINES WS-TIER-RATES.                       FEECALC 
001600     05  WS-RATE                 PIC 9V99 OCCURS 3 TIMES.         FEECALC 
001700 01  WS-FREE-TXNS                PIC S9(4) COMP VALUE 10.         FEECALC 
001800 LINKAGE SECTION.                                                 FEECALC 
001900 01  LS-TXN-COUNT                PIC S9(4) COMP-5.                FEECALC 
002000 01  LS-FEE-OUT.                                                  FEECALC 
002100     05  LS-FEE-AMOUNT           PIC 9(5)V99.                     FEECALC 
002200     05  LS-BILLED-TXNS          PIC 9(4).                        FEECALC 
002300     05  LS-FEE-CODE             PIC X(4).                        FEECALC 
002400 01  LS-TIER                     USAGE BINARY-CHAR UNSIGNED.      FEECALC 
002500 01  LS-WAIVE                    USAGE BINARY-SHORT.              FEECALC 
002600 PROCEDURE DIVISION USING BY VALUE LS-TXN-COUNT                   FEECALC 
002700                          BY REFERENCE LS-FEE-OUT                 FEECALC 
002800                          BY VALUE LS-TIER LS-WAIVE.              FEECALC 
002900 0000-MAINLINE.                                                   FEECALC 
003000     MOVE ZERO TO LS-FEE-AMOUNT LS-BILLED-TXNS                    FEECALC 
003100     EVALUATE TRUE                                                FEECALC 
003200         WHEN LS-TIER < 1 OR LS-TIER > 3                          FEECALC 
003300             MOVE 'TIER' TO LS-FEE-CODE                           FEECALC 
003400             MOVE 8 TO RETURN-CODE                                FEECALC 
003500         WHEN LS-WAIVE NOT = ZERO                                 FEECALC 
003600             MOVE 'WAIV' TO LS-FEE-CODE                           FEECALC 
003700         WHEN LS-TXN-COUNT NOT > WS-FREE-TXNS                     FEECALC 
003800             MOVE 'FREE' TO LS-FEE-CODE                           FEECALC 
003900         WHEN OTHER                                               FEECALC 
004000             PERFORM 1000-CHARGE                                  FEECALC 
004100     END-EVALUATE                                                 FEECALC 
004200     GOBACK.                                                      FEECALC 
004300 1000-CHARGE.                                                     FEECALC 
004400     SUBTRACT WS-FREE-TXNS FROM LS-TXN-COUNT                      FEECALC 
004500     MOVE LS-TXN-COUNT TO LS-BILLED-TXNS                          FEECALC 
004600     COMPUTE LS-FEE-AMOUNT = LS-TXN-COUNT * WS-RATE (LS-TIER)     FEECALC 
004700     MOVE 'CHRG' TO LS-FEE-CODE.                                  FEECALC 
