000100 IDENTIFICATION DIVISION.                                         ACCTUPD
000200 PROGRAM-ID. ACCTUPD.                                             ACCTUPD
000300*    Post one day's movements to an account: count them, add them ACCTUPD
000400*    to the balance, and raise the branch's running usage counter.ACCTUPD
000500 DATA DIVISION.                                                   ACCTUPD
000600 WORKING-STORAGE SECTION.                                         ACCTUPD
000700 01  WS-SUB                  PIC S9(4) COMP.                      ACCTUPD
000800 LINKAGE SECTION.                                                 ACCTUPD
000900 01  CA-ACCOUNT-AREA.                                             ACCTUPD
001000     05  CA-BRANCH           PIC 9(2) COMP.                       ACCTUPD
001100     05  CA-ACCOUNT-NO       PIC 9(11) COMP.                      ACCTUPD
001200     05  CA-TXN-COUNT        PIC S9(6) COMP.                      ACCTUPD
001300     05  CA-STATUS           PIC X.                               ACCTUPD
001400         88  CA-POSTED       VALUE "P".                           ACCTUPD
001500         88  CA-REJECTED     VALUE "R".                           ACCTUPD
001600     05  CA-LIMIT            PIC S9(8) COMP SYNC.                 ACCTUPD
001700     05  CA-USAGE            PIC S9(4) COMP.                      ACCTUPD
001800     05  CA-BALANCE          PIC S9(9)V99 COMP-3.                 ACCTUPD
001900     05  CA-MOVEMENT-COUNT   PIC 9(2) COMP-5.                     ACCTUPD
002000     05  CA-MOVEMENT         PIC S9(7)V99 COMP                    ACCTUPD
002100                             OCCURS 10 TIMES.                     ACCTUPD
002200 PROCEDURE DIVISION USING CA-ACCOUNT-AREA.                        ACCTUPD
002300 0000-MAIN.                                                       ACCTUPD
002400     IF CA-MOVEMENT-COUNT > 10                                    ACCTUPD
002500         SET CA-REJECTED TO TRUE                                  ACCTUPD
002600         GOBACK                                                   ACCTUPD
002700     END-IF                                                       ACCTUPD
002800     PERFORM 1000-POST-MOVEMENT                                   ACCTUPD
002900         VARYING WS-SUB FROM 1 BY 1                               ACCTUPD
003000         UNTIL WS-SUB > CA-MOVEMENT-COUNT                         ACCTUPD
003100     ADD 9000 TO CA-USAGE                                         ACCTUPD
003200     SET CA-POSTED TO TRUE                                        ACCTUPD
003300     GOBACK.                                                      ACCTUPD
003400 1000-POST-MOVEMENT.                                              ACCTUPD
003500     ADD CA-MOVEMENT (WS-SUB) TO CA-BALANCE                       ACCTUPD
003600     ADD 1 TO CA-TXN-COUNT.                                       ACCTUPD
