000100 IDENTIFICATION DIVISION.                                         POLTRM01
000200 PROGRAM-ID. POLTERM.                                             POLTRM02
000300 AUTHOR. POLICY ADMINISTRATION.                                   POLTRM03
000400*================================================================*POLTRM04
000500* POLTERM - POLICY TERMS: ADD, INQUIRE, COUNT                    *POLTRM05
000600*   DATES COME FROM THE FRONT END IN THE FORM ITS USERS TYPE     *POLTRM06
000700*   THEM (USA MM/DD/YYYY OR EUR DD.MM.YYYY, AS DB2 TAKES THEM);  *POLTRM07
000800*   THEY ARE RETURNED IN THE FORM THE PROGRAM WAS PRECOMPILED    *POLTRM08
000900*   FOR (THE DATE AND TIME PRECOMPILER OPTIONS).                 *POLTRM09
001000*================================================================*POLTRM10
001100 ENVIRONMENT DIVISION.                                            POLTRM11
001200 DATA DIVISION.                                                   POLTRM12
001300 WORKING-STORAGE SECTION.                                         POLTRM13
001400     EXEC SQL INCLUDE SQLCA END-EXEC.                             POLTRM14
001500 01  WS-TERM.                                                     POLTRM15
001600     05  WS-POLICY-NO        PIC S9(9)    COMP.                   POLTRM16
001700     05  WS-ISSUE-DATE       PIC X(10).                           POLTRM17
001800     05  WS-EXPIRY-DATE      PIC X(10).                           POLTRM18
001900 01  WS-COUNT                PIC S9(9)    COMP.                   POLTRM19
002000 LINKAGE SECTION.                                                 POLTRM20
002100 01  LS-REQUEST.                                                  POLTRM21
002200     05  LS-FUNCTION         PIC X(1).                            POLTRM22
002300         88  LS-ADD                       VALUE 'A'.              POLTRM23
002400         88  LS-INQUIRE                   VALUE 'I'.              POLTRM24
002500         88  LS-COUNT-ISSUED              VALUE 'C'.              POLTRM25
002600     05  LS-POLICY-NO        PIC S9(9)    COMP.                   POLTRM26
002700     05  LS-ISSUE-DATE       PIC X(10).                           POLTRM27
002800     05  LS-EXPIRY-DATE      PIC X(10).                           POLTRM28
002900 01  LS-RESULT.                                                   POLTRM29
003000     05  LS-SQLCODE          PIC S9(9)    COMP.                   POLTRM30
003100     05  LS-COUNT            PIC S9(9)    COMP.                   POLTRM31
003200     05  LS-OUT-ISSUE        PIC X(10).                           POLTRM32
003300     05  LS-OUT-EXPIRY       PIC X(10).                           POLTRM33
003400 PROCEDURE DIVISION USING LS-REQUEST LS-RESULT.                   POLTRM34
003500 0000-MAINLINE.                                                   POLTRM35
003600     INITIALIZE LS-RESULT                                         POLTRM36
003700     MOVE LS-POLICY-NO   TO WS-POLICY-NO                          POLTRM37
003800     MOVE LS-ISSUE-DATE  TO WS-ISSUE-DATE                         POLTRM38
003900     MOVE LS-EXPIRY-DATE TO WS-EXPIRY-DATE                        POLTRM39
004000     EVALUATE TRUE                                                POLTRM40
004100         WHEN LS-ADD                                              POLTRM41
004200             PERFORM 1000-ADD-TERM                                POLTRM42
004300         WHEN LS-INQUIRE                                          POLTRM43
004400             PERFORM 2000-INQUIRE-TERM                            POLTRM44
004500         WHEN LS-COUNT-ISSUED                                     POLTRM45
004600             PERFORM 3000-COUNT-TERMS                             POLTRM46
004700     END-EVALUATE                                                 POLTRM47
004800     MOVE SQLCODE TO LS-SQLCODE                                   POLTRM48
004900     GOBACK.                                                      POLTRM49
005000                                                                  POLTRM50
005100 1000-ADD-TERM.                                                   POLTRM51
005200     EXEC SQL                                                     POLTRM52
005300         INSERT INTO TERMS.POLICY_TERM                            POLTRM53
005400                (POLICY_NO, ISSUE_DATE, EXPIRY_DATE)              POLTRM54
005500         VALUES (:WS-POLICY-NO, :WS-ISSUE-DATE, :WS-EXPIRY-DATE)  POLTRM55
005600     END-EXEC.                                                    POLTRM56
005700                                                                  POLTRM57
005800 2000-INQUIRE-TERM.                                               POLTRM58
005900     EXEC SQL                                                     POLTRM59
006000         SELECT ISSUE_DATE, EXPIRY_DATE                           POLTRM60
006100           INTO :WS-ISSUE-DATE, :WS-EXPIRY-DATE                   POLTRM61
006200           FROM TERMS.POLICY_TERM                                 POLTRM62
006300          WHERE POLICY_NO = :WS-POLICY-NO                         POLTRM63
006400     END-EXEC                                                     POLTRM64
006500     IF SQLCODE = 0                                               POLTRM65
006600         MOVE WS-ISSUE-DATE   TO LS-OUT-ISSUE                     POLTRM66
006700         MOVE WS-EXPIRY-DATE  TO LS-OUT-EXPIRY                    POLTRM67
006800     END-IF.                                                      POLTRM68
006900                                                                  POLTRM69
007000 3000-COUNT-TERMS.                                                POLTRM70
007100*   ISSUED IN 2011 OR LATER, EXPIRING BEFORE THE DATE GIVEN       POLTRM71
007200     EXEC SQL                                                     POLTRM72
007300         SELECT COUNT(*)                                          POLTRM73
007400           INTO :WS-COUNT                                         POLTRM74
007500           FROM TERMS.POLICY_TERM                                 POLTRM75
007600          WHERE ISSUE_DATE >= '1/1/2011'                          POLTRM76
007700            AND EXPIRY_DATE < :WS-EXPIRY-DATE                     POLTRM77
007800     END-EXEC                                                     POLTRM78
007900     MOVE WS-COUNT TO LS-COUNT.                                   POLTRM79
