000100 IDENTIFICATION DIVISION.                                         TRMMASK 
000200 PROGRAM-ID. TRMMASK.                                             TRMMASK 
000300*================================================================ TRMMASK 
000400* MASK A CARD NUMBER FOR THE TERMINAL LINK. THE PAN IS XORED WITH TRMMASK 
000500* THE TERMINAL KEY (REPEATED TO 16 BYTES); THE FIRST THREE MASKED TRMMASK 
000600* BYTES ARE THE KEY CHECK VALUE; THE RECEIPT LINE SHOWS ONLY THE  TRMMASK 
000700* LAST FOUR DIGITS; THE AUDIT AREA TAKES TERMINAL AND SEQUENCE.   TRMMASK 
000800*================================================================ TRMMASK 
000900 ENVIRONMENT DIVISION.                                            TRMMASK 
001000 DATA DIVISION.                                                   TRMMASK 
001100 WORKING-STORAGE SECTION.                                         TRMMASK 
001200 01  WS-KEY-16                   PIC X(16).                       TRMMASK 
001300 01  WS-RECEIPT-MASK             PIC X(17)                        TRMMASK 
001400                                 VALUE 'CARD ************'.       TRMMASK 
001500 LINKAGE SECTION.                                                 TRMMASK 
001600     COPY TMREQ.                                                  TRMMASK 
001700     COPY TMREPLY.                                                TRMMASK 
001800 PROCEDURE DIVISION USING TM-REQUEST TM-REPLY.                    TRMMASK 
001900 0000-MAINLINE.                                                   TRMMASK 
002000     PERFORM 1000-MASK-PAN                                        TRMMASK 
002100     PERFORM 2000-BUILD-RECEIPT                                   TRMMASK 
002200     PERFORM 3000-FILL-AUDIT                                      TRMMASK 
002300     GOBACK.                                                      TRMMASK 
002400                                                                  TRMMASK 
002500 1000-MASK-PAN.                                                   TRMMASK 
002600     MOVE TM-TERMINAL-KEY TO WS-KEY-16 (1:8)                      TRMMASK 
002700     MOVE TM-TERMINAL-KEY TO WS-KEY-16 (9:8)                      TRMMASK 
002800     MOVE TM-PAN TO TM-MASKED-PAN                                 TRMMASK 
002900     CALL 'CBL_XOR' USING WS-KEY-16 TM-MASKED-PAN                 TRMMASK 
003000                          BY VALUE LENGTH OF TM-MASKED-PAN        TRMMASK 
003100     MOVE TM-MASKED-PAN (1:3) TO TM-KEY-CHECK.                    TRMMASK 
003200                                                                  TRMMASK 
003300 2000-BUILD-RECEIPT.                                              TRMMASK 
003400     MOVE SPACES TO TM-RECEIPT-LINE                               TRMMASK 
003500     STRING WS-RECEIPT-MASK DELIMITED BY SIZE                     TRMMASK 
003600            TM-PAN-LAST4    DELIMITED BY SIZE                     TRMMASK 
003700            INTO TM-RECEIPT-LINE.                                 TRMMASK 
003800                                                                  TRMMASK 
003900 3000-FILL-AUDIT.                                                 TRMMASK 
004000     MOVE TM-TERMINAL-ID TO TM-AUDIT-TERM                         TRMMASK 
004100     MOVE TM-SEQUENCE    TO TM-AUDIT-SEQ.                         TRMMASK 
