000100 IDENTIFICATION DIVISION.                                         LOANRATE
000200 PROGRAM-ID. LOANRATE.                                            LOANRATE
000300*================================================================ LOANRATE
000400* Prices a loan: the annual rate by rate type and credit tier,    LOANRATE
000500* and the total due with the origination fee.  Status 00 priced,  LOANRATE
000600* 10 unknown rate type, 20 credit tier out of range.              LOANRATE
000700*================================================================ LOANRATE
000800 AUTHOR. LENDING SYSTEMS.                                         LOANRATE
000900 ENVIRONMENT DIVISION.                                            LOANRATE
001000 DATA DIVISION.                                                   LOANRATE
001100 WORKING-STORAGE SECTION.                                         LOANRATE
001200 01  WS-FEE                      PIC S9(3)V99 COMP-3 VALUE ZERO.  LOANRATE
001300 LINKAGE SECTION.                                                 LOANRATE
001400     COPY LOANREC.                                                LOANRATE
001500 PROCEDURE DIVISION USING LR-REQUEST LR-REPLY.                    LOANRATE
001600 0000-MAINLINE.                                                   LOANRATE
001700     MOVE '00' TO LR-STATUS                                       LOANRATE
001800     MOVE SPACES TO LR-MESSAGE                                    LOANRATE
001900     MOVE ZERO TO LR-RATE                                         LOANRATE
002000     MOVE ZERO TO LR-TOTAL-DUE                                    LOANRATE
002100     PERFORM 1000-CHECK-TIER                                      LOANRATE
002200     IF LR-OK                                                     LOANRATE
002300         PERFORM 2000-PRICE                                       LOANRATE
002400     END-IF                                                       LOANRATE
002500     GOBACK.                                                      LOANRATE
002600 1000-CHECK-TIER.                                                 LOANRATE
002700     IF NOT LR-TIER-OK                                            LOANRATE
002800         SET LR-BAD-TIER TO TRUE                                  LOANRATE
002900         MOVE 'CREDIT TIER MUST BE 1 THRU 3' TO LR-MESSAGE        LOANRATE
003000     END-IF.                                                      LOANRATE
003100 2000-PRICE.                                                      LOANRATE
003200     EVALUATE TRUE                                                LOANRATE
003300         WHEN LR-FIXED-RATE                                       LOANRATE
003400             COMPUTE LR-RATE = 0.0450 + (LR-TIER - 1) * 0.0025    LOANRATE
003500             MOVE 1.00 TO WS-FEE                                  LOANRATE
003600         WHEN LR-VARIABLE                                         LOANRATE
003700             COMPUTE LR-RATE = 0.0375 + (LR-TIER - 1) * 0.0050    LOANRATE
003800             MOVE 2.50 TO WS-FEE                                  LOANRATE
003900         WHEN OTHER                                               LOANRATE
004000             SET LR-BAD-TYPE TO TRUE                              LOANRATE
004100             STRING 'UNKNOWN RATE TYPE ' DELIMITED BY SIZE        LOANRATE
004200                    LR-RATE-TYPE DELIMITED BY SIZE                LOANRATE
004300                    INTO LR-MESSAGE                               LOANRATE
004400             END-STRING                                           LOANRATE
004500     END-EVALUATE                                                 LOANRATE
004600     IF LR-OK                                                     LOANRATE
004700         COMPUTE LR-TOTAL-DUE = LR-PRINCIPAL + WS-FEE             LOANRATE
004800     END-IF.                                                      LOANRATE
