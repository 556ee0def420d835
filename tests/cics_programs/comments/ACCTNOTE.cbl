000100 IDENTIFICATION DIVISION.                                         ACCTNOTE
000200 PROGRAM-ID. ACCTNOTE.                                            ACCTNOTE
000300*================================================================*ACCTNOTE
000400* ACCTNOTE - THE STANDING NOTE OF AN ACCOUNT, AND THE TIME IT    *ACCTNOTE
000500*   WAS ASKED FOR (CICS ABSTIME).                                *ACCTNOTE
000600*================================================================*ACCTNOTE
000700 AUTHOR. J. O'Brien.                                              ACCTNOTE
000800 INSTALLATION. O'Connell Street branch, Dublin's data centre      ACCTNOTE
000900     (the night shift's "batch" window).                          ACCTNOTE
001000 DATE-WRITTEN. 12 Mar 1991.                                       ACCTNOTE
001100 DATE-COMPILED.                                                   ACCTNOTE
001200 SECURITY. Branch staff only - don't LINK from a terminal.        ACCTNOTE
001300 REMARKS. Kept for the auditors' EXEC CICS review.                ACCTNOTE
001400 DATA DIVISION.                                                   ACCTNOTE
001500 WORKING-STORAGE SECTION.                                         ACCTNOTE
001600 01  WS-ABSTIME                  PIC S9(15) COMP-3.               ACCTNOTE
001700 01  WS-NOTES.                                                    ACCTNOTE
001800     03  FILLER                  PIC X(36) VALUE                  ACCTNOTE
001900         '10001CUSTOMER''S ADDRESS UNCONFIRMED '.                 ACCTNOTE
002000     03  FILLER                  PIC X(36) VALUE                  ACCTNOTE
002100         '10002NO NOTE                       '.                   ACCTNOTE
002200 01  WS-NOTE-TABLE REDEFINES WS-NOTES.                            ACCTNOTE
002300     03  WS-NOTE-ENTRY           OCCURS 2 TIMES                   ACCTNOTE
002400                                 INDEXED BY WS-IX.                ACCTNOTE
002500         05  WS-ACCOUNT          PIC 9(5).                        ACCTNOTE
002600         05  WS-NOTE             PIC X(31).                       ACCTNOTE
002700 LINKAGE SECTION.                                                 ACCTNOTE
002800 01  DFHCOMMAREA.                                                 ACCTNOTE
002900     03  AN-ACCOUNT              PIC 9(5).                        ACCTNOTE
003000     03  AN-RETURN-CODE          PIC 9(2).                        ACCTNOTE
003100     03  AN-NOTE                 PIC X(31).                       ACCTNOTE
003200     03  AN-ASKED-AT             PIC 9(15).                       ACCTNOTE
003300 PROCEDURE DIVISION.                                              ACCTNOTE
003400 0000-MAIN.                                                       ACCTNOTE
003500     EXEC CICS ASKTIME ABSTIME(WS-ABSTIME) END-EXEC               ACCTNOTE
003600     MOVE WS-ABSTIME TO AN-ASKED-AT                               ACCTNOTE
003700     SET WS-IX TO 1                                               ACCTNOTE
003800     SEARCH WS-NOTE-ENTRY                                         ACCTNOTE
003900         AT END                                                   ACCTNOTE
004000             MOVE 13 TO AN-RETURN-CODE                            ACCTNOTE
004100             MOVE SPACES TO AN-NOTE                               ACCTNOTE
004200         WHEN WS-ACCOUNT (WS-IX) = AN-ACCOUNT                     ACCTNOTE
004300             MOVE 0 TO AN-RETURN-CODE                             ACCTNOTE
004400             MOVE WS-NOTE (WS-IX) TO AN-NOTE                      ACCTNOTE
004500     END-SEARCH                                                   ACCTNOTE
004600     EXEC CICS RETURN END-EXEC.                                   ACCTNOTE
