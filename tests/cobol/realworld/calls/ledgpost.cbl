000100 IDENTIFICATION DIVISION.                                         ZOSPORT 
000200 PROGRAM-ID. LEDGPOST.                                            ZOSPORT 
000300*================================================================ ZOSPORT 
000400* Posts an amount to a ledger account and has the shop's audit    ZOSPORT 
000500* routine GLAUDIT record it: a routine this folder does not hold. ZOSPORT 
000600*================================================================ ZOSPORT 
000700 ENVIRONMENT DIVISION.                                            ZOSPORT 
000800 DATA DIVISION.                                                   ZOSPORT 
000900 WORKING-STORAGE SECTION.                                         ZOSPORT 
001000 01  WS-AUDIT-RECORD.                                             ZOSPORT 
001100     05  WS-AUDIT-ACCOUNT        PIC X(10).                       ZOSPORT 
001200     05  WS-AUDIT-AMOUNT         PIC S9(9)V99 COMP-3.             ZOSPORT 
001300 LINKAGE SECTION.                                                 ZOSPORT 
001400 01  LS-POSTING-REQUEST.                                          ZOSPORT 
001500     05  LS-ACCOUNT              PIC X(10).                       ZOSPORT 
001600     05  LS-AMOUNT               PIC S9(9)V99.                    ZOSPORT 
001700 01  LS-POSTING-RESULT.                                           ZOSPORT 
001800     05  LS-STATUS               PIC X(2).                        ZOSPORT 
001900 PROCEDURE DIVISION USING LS-POSTING-REQUEST LS-POSTING-RESULT.   ZOSPORT 
002000 0000-MAINLINE.                                                   ZOSPORT 
002100     MOVE LS-ACCOUNT TO WS-AUDIT-ACCOUNT                          ZOSPORT 
002200     MOVE LS-AMOUNT TO WS-AUDIT-AMOUNT                            ZOSPORT 
002300     CALL 'GLAUDIT' USING WS-AUDIT-RECORD                         ZOSPORT 
002400     MOVE 'OK' TO LS-STATUS                                       ZOSPORT 
002500     GOBACK.                                                      ZOSPORT 
