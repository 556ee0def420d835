000100 IDENTIFICATION DIVISION.                                         BILLING 
000200 PROGRAM-ID. INVTOTAL.                                            BILLING 
000300*================================================================ BILLING 
000400* Invoice total from up to five lines of quantity and unit price. BILLING 
000500*================================================================ BILLING 
000600 ENVIRONMENT DIVISION.                                            BILLING 
000700 DATA DIVISION.                                                   BILLING 
000800 WORKING-STORAGE SECTION.                                         BILLING 
000900 01  WS-LINE-COUNT               PIC 9(3).                        BILLING 
001000 01  WS-LINE-TABLE.                                               BILLING 
001100     05  WS-LINE-AMOUNT          PIC S9(7)V99 OCCURS 50 TIMES.    BILLING 
001200 01  WS-TOTAL                    PIC S9(9)V99.                    BILLING 
001300 01  WS-IDX                      PIC S9(4) COMP.                  BILLING 
001400 LINKAGE SECTION.                                                 BILLING 
001500 01  LS-INVOICE-REQUEST.                                          BILLING 
001600     05  LS-INVOICE-LINE OCCURS 5 TIMES.                          BILLING 
001700         10  LS-QUANTITY         PIC 9(4).                        BILLING 
001800         10  LS-UNIT-PRICE       PIC 9(5)V99.                     BILLING 
001900 01  LS-INVOICE-RESULT.                                           BILLING 
002000     05  LS-INVOICE-TOTAL        PIC S9(9)V99.                    BILLING 
002100 PROCEDURE DIVISION USING LS-INVOICE-REQUEST LS-INVOICE-RESULT.   BILLING 
002200 0000-MAINLINE.                                                   BILLING 
002300     CALL 'AUDITLOG'                                              BILLING 
002400     MOVE 5 TO WS-LINE-COUNT                                      BILLING 
002500     PERFORM VARYING WS-IDX FROM 1 BY 1 UNTIL WS-IDX > 5          BILLING 
002600         COMPUTE WS-LINE-AMOUNT (WS-IDX) =                        BILLING 
002700             LS-QUANTITY (WS-IDX) * LS-UNIT-PRICE (WS-IDX)        BILLING 
002800     END-PERFORM                                                  BILLING 
002900     CALL 'LINETOT' USING WS-LINE-COUNT WS-LINE-TABLE WS-TOTAL    BILLING 
003000     MOVE WS-TOTAL TO LS-INVOICE-TOTAL                            BILLING 
003100     GOBACK.                                                      BILLING 
