000100 IDENTIFICATION DIVISION.                                         ZOSPORT 
000200 PROGRAM-ID. LEGACYDT.                                            ZOSPORT 
000300*================================================================ ZOSPORT 
000400* Lilian day number of a YYYYMMDD date, through the Language      ZOSPORT 
000500* Environment callable service CEEDAYS (as written for z/OS).     ZOSPORT 
000600*================================================================ ZOSPORT 
000700 ENVIRONMENT DIVISION.                                            ZOSPORT 
000800 DATA DIVISION.                                                   ZOSPORT 
000900 WORKING-STORAGE SECTION.                                         ZOSPORT 
001000 01  WS-DATE-VSTRING.                                             ZOSPORT 
001100     05  WS-DATE-LEN             PIC S9(4) COMP VALUE 8.          ZOSPORT 
001200     05  WS-DATE-TEXT            PIC X(8).                        ZOSPORT 
001300 01  WS-PICTURE-VSTRING.                                          ZOSPORT 
001400     05  WS-PICTURE-LEN          PIC S9(4) COMP VALUE 8.          ZOSPORT 
001500     05  WS-PICTURE-TEXT         PIC X(8) VALUE 'YYYYMMDD'.       ZOSPORT 
001600 01  WS-LILIAN                   PIC S9(9) COMP.                  ZOSPORT 
001700 01  WS-FEEDBACK-CODE            PIC X(12).                       ZOSPORT 
001800 LINKAGE SECTION.                                                 ZOSPORT 
001900 01  LS-LILIAN-REQUEST.                                           ZOSPORT 
002000     05  LS-DATE                 PIC 9(8).                        ZOSPORT 
002100 01  LS-LILIAN-RESULT.                                            ZOSPORT 
002200     05  LS-LILIAN-DAY           PIC 9(9).                        ZOSPORT 
002300 PROCEDURE DIVISION USING LS-LILIAN-REQUEST LS-LILIAN-RESULT.     ZOSPORT 
002400 0000-MAINLINE.                                                   ZOSPORT 
002500     MOVE LS-DATE TO WS-DATE-TEXT                                 ZOSPORT 
002600     CALL 'CEEDAYS' USING WS-DATE-VSTRING WS-PICTURE-VSTRING      ZOSPORT 
002700                          WS-LILIAN WS-FEEDBACK-CODE              ZOSPORT 
002800     MOVE WS-LILIAN TO LS-LILIAN-DAY                              ZOSPORT 
002900     GOBACK.                                                      ZOSPORT 
