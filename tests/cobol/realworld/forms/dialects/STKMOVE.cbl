000100 IDENTIFICATION DIVISION.                                         STKMOVE
000200 PROGRAM-ID. STKMOVE.                                             STKMOVE
000300*    Apply one stock movement (a receipt or an issue) to the stockSTKMOVE
000400*    record of an item; an issue larger than the stock is refused.STKMOVE
000500 DATA DIVISION.                                                   STKMOVE
000600 LINKAGE SECTION.                                                 STKMOVE
000700 01  LK-STOCK-RECORD.                                             STKMOVE
000800     05  LK-ITEM-KEY         PIC X(4) COMP-X.                     STKMOVE
000900     05  LK-QTY-ON-HAND      PIC 9(7) COMP-6.                     STKMOVE
001000     05  LK-QTY-MOVED        PIC 9(5) COMP-X.                     STKMOVE
001100     05  LK-DIRECTION        PIC X.                               STKMOVE
001200         88  LK-RECEIPT      VALUE "R".                           STKMOVE
001300         88  LK-ISSUE        VALUE "I".                           STKMOVE
001400     05  LK-MOVE-COUNT       PIC X COMP-X.                        STKMOVE
001500     05  LK-RESULT           PIC X(2).                            STKMOVE
001600         88  LK-DONE         VALUE "OK".                          STKMOVE
001700         88  LK-NO-STOCK     VALUE "NS".                          STKMOVE
001800 PROCEDURE DIVISION USING LK-STOCK-RECORD.                        STKMOVE
001900 0000-MAIN.                                                       STKMOVE
002000     EVALUATE TRUE                                                STKMOVE
002100         WHEN LK-RECEIPT                                          STKMOVE
002200             ADD LK-QTY-MOVED TO LK-QTY-ON-HAND                   STKMOVE
002300             SET LK-DONE TO TRUE                                  STKMOVE
002400         WHEN LK-ISSUE AND LK-QTY-MOVED > LK-QTY-ON-HAND          STKMOVE
002500             SET LK-NO-STOCK TO TRUE                              STKMOVE
002600         WHEN LK-ISSUE                                            STKMOVE
002700             SUBTRACT LK-QTY-MOVED FROM LK-QTY-ON-HAND            STKMOVE
002800             SET LK-DONE TO TRUE                                  STKMOVE
002900     END-EVALUATE                                                 STKMOVE
003000     IF LK-DONE                                                   STKMOVE
003100         ADD 1 TO LK-MOVE-COUNT                                   STKMOVE
003200     END-IF                                                       STKMOVE
003300     GOBACK.                                                      STKMOVE
