000100 IDENTIFICATION DIVISION.                                         FEEWAIVE
000200 PROGRAM-ID. FEEWAIVE.                                            FEEWAIVE
000300* Monthly fee waiver: accounts holding 10,000.00 or more pay      FEEWAIVE
000400* no fee; the others keep the fee they were quoted.               FEEWAIVE
000500 DATA DIVISION.                                                   FEEWAIVE
000600 LINKAGE SECTION.                                                 FEEWAIVE
000700 01  WK-BALANCE              PIC S9(9)V99 COMP-3.                 FEEWAIVE
000800 01  WK-MONTHLY-FEE          PIC 9(3)V99.                         FEEWAIVE
000900 01  WK-WAIVED               PIC X.                               FEEWAIVE
001000     88  WK-FEE-WAIVED       VALUE "Y".                           FEEWAIVE
001100     88  WK-FEE-CHARGED      VALUE "N".                           FEEWAIVE
001200 PROCEDURE DIVISION USING WK-BALANCE WK-MONTHLY-FEE WK-WAIVED.    FEEWAIVE
001300 A100-WAIVE.                                                      FEEWAIVE
001400     IF WK-BALANCE NOT < 10000                                    FEEWAIVE
001500         MOVE ZERO TO WK-MONTHLY-FEE                              FEEWAIVE
001600         SET WK-FEE-WAIVED TO TRUE                                FEEWAIVE
001700     ELSE                                                         FEEWAIVE
001800         SET WK-FEE-CHARGED TO TRUE                               FEEWAIVE
001900     END-IF                                                       FEEWAIVE
002000     GOBACK.                                                      FEEWAIVE
