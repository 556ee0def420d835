000100 IDENTIFICATION DIVISION.                                         BILLING 
000200 PROGRAM-ID. LINETOT.                                             BILLING 
000300*================================================================ BILLING 
000400* Total of an invoice's line amounts; the table is as long as     BILLING 
000500* the caller says (OCCURS DEPENDING ON). Only CALLed.             BILLING 
000600*================================================================ BILLING 
000700 ENVIRONMENT DIVISION.                                            BILLING 
000800 DATA DIVISION.                                                   BILLING 
000900 WORKING-STORAGE SECTION.                                         BILLING 
001000 01  WS-IDX                      PIC S9(4) COMP.                  BILLING 
001100 LINKAGE SECTION.                                                 BILLING 
001200 01  LS-LINE-COUNT               PIC 9(3).                        BILLING 
001300 01  LS-LINE-TABLE.                                               BILLING 
001400     05  LS-LINE-AMOUNT          PIC S9(7)V99                     BILLING 
001500             OCCURS 1 TO 50 TIMES DEPENDING ON LS-LINE-COUNT.     BILLING 
001600 01  LS-TOTAL                    PIC S9(9)V99.                    BILLING 
001700 PROCEDURE DIVISION USING LS-LINE-COUNT LS-LINE-TABLE LS-TOTAL.   BILLING 
001800 0000-MAINLINE.                                                   BILLING 
001900     MOVE ZERO TO LS-TOTAL                                        BILLING 
002000     PERFORM VARYING WS-IDX FROM 1 BY 1                           BILLING 
002100             UNTIL WS-IDX > LS-LINE-COUNT                         BILLING 
002200         ADD LS-LINE-AMOUNT (WS-IDX) TO LS-TOTAL                  BILLING 
002300     END-PERFORM                                                  BILLING 
002400     GOBACK.                                                      BILLING 
