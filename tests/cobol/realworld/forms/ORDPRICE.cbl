000100 IDENTIFICATION DIVISION.                                         ORDPRICE
000200 PROGRAM-ID. ORDPRICE.                                            ORDPRICE
000300*    Price the lines of one order: extended amount per line,      ORDPRICE
000400*    order total, and the lines to back-order (over 100 units).   ORDPRICE
000500 DATA DIVISION.                                                   ORDPRICE
000600 WORKING-STORAGE SECTION.                                         ORDPRICE
000700 01  WS-SUB                  PIC S9(4) COMP.                      ORDPRICE
000800 01  WS-EXT                  PIC S9(7)V99 COMP-3.                 ORDPRICE
000900 LINKAGE SECTION.                                                 ORDPRICE
001000 01  LS-ORDER-REQUEST.                                            ORDPRICE
001100     05  LS-ORDER-ID         PIC X(8).                            ORDPRICE
001200     05  LS-LINE-COUNT       PIC S9(4) COMP.                      ORDPRICE
001300     05  LS-LINE             OCCURS 1 TO 20 TIMES                 ORDPRICE
001400                             DEPENDING ON LS-LINE-COUNT           ORDPRICE
001500                             INDEXED BY LS-LINE-IX.               ORDPRICE
001600         10  LS-SKU          PIC X(6).                            ORDPRICE
001700         10  LS-QTY          PIC 9(3).                            ORDPRICE
001800         10  LS-UNIT-PRICE   PIC S9(5)V99 COMP-3.                 ORDPRICE
001900 01  LS-ORDER-RESULT.                                             ORDPRICE
002000     05  LS-ORDER-TOTAL      PIC S9(7)V99 COMP-3.                 ORDPRICE
002100     05  LS-BACKORDER-COUNT  PIC 9(2).                            ORDPRICE
002200     05  LS-BACKORDER        OCCURS 0 TO 20                       ORDPRICE
002300                             DEPENDING ON LS-BACKORDER-COUNT.     ORDPRICE
002400         10  LS-BO-SKU       PIC X(6).                            ORDPRICE
002500         10  LS-BO-QTY       PIC 9(3).                            ORDPRICE
002600 01  LS-EXTENDED-RESULT.                                          ORDPRICE
002700     05  LS-EXT-AMOUNT       PIC S9(7)V99 OCCURS 1 TO 20          ORDPRICE
002800                             DEPENDING ON LS-LINE-COUNT.          ORDPRICE
002900 PROCEDURE DIVISION USING LS-ORDER-REQUEST LS-ORDER-RESULT        ORDPRICE
003000                          LS-EXTENDED-RESULT.                     ORDPRICE
003100 0000-MAIN.                                                       ORDPRICE
003200     MOVE ZERO TO LS-ORDER-TOTAL LS-BACKORDER-COUNT               ORDPRICE
003300     PERFORM 1000-PRICE-LINE                                      ORDPRICE
003400         VARYING WS-SUB FROM 1 BY 1 UNTIL WS-SUB > LS-LINE-COUNT  ORDPRICE
003500     IF LS-ORDER-ID = "BADCOUNT"                                  ORDPRICE
003600         MOVE 99 TO LS-BACKORDER-COUNT                            ORDPRICE
003700     END-IF                                                       ORDPRICE
003800     GOBACK.                                                      ORDPRICE
003900 1000-PRICE-LINE.                                                 ORDPRICE
004000     COMPUTE WS-EXT = LS-QTY (WS-SUB) * LS-UNIT-PRICE (WS-SUB)    ORDPRICE
004100     MOVE WS-EXT TO LS-EXT-AMOUNT (WS-SUB)                        ORDPRICE
004200     ADD WS-EXT TO LS-ORDER-TOTAL                                 ORDPRICE
004300     IF LS-QTY (WS-SUB) > 100                                     ORDPRICE
004400         ADD 1 TO LS-BACKORDER-COUNT                              ORDPRICE
004500         MOVE LS-SKU (WS-SUB) TO LS-BO-SKU (LS-BACKORDER-COUNT)   ORDPRICE
004600         COMPUTE LS-BO-QTY (LS-BACKORDER-COUNT) =                 ORDPRICE
004700             LS-QTY (WS-SUB) - 100                                ORDPRICE
004800     END-IF.                                                      ORDPRICE
