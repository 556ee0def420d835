000100 IDENTIFICATION DIVISION.                                         ACCTPY01
000200 PROGRAM-ID. ACCTPAY.                                             ACCTPY02
000300 AUTHOR. ACCOUNTS RECEIVABLE.                                     ACCTPY03
000400*================================================================*ACCTPY04
000500* ACCTPAY - POST A PAYMENT TO AN ACCOUNT                         *ACCTPY05
000600*   THE PROGRAM NAMES ITS TABLES WITHOUT A SCHEMA: THE PACKAGE   *ACCTPY06
000700*   IS BOUND WITH QUALIFIER(IBMUSER), AS THE DBA CREATED THEM.   *ACCTPY07
000800*   THE AUDIT ROW GOES TO PAYMENT_LOG, WHICH THE DBA HAS NOT     *ACCTPY08
000900*   CREATED YET: THAT INSERT ANSWERS -204 UNTIL THEN.            *ACCTPY09
001000*================================================================*ACCTPY10
001100 ENVIRONMENT DIVISION.                                            ACCTPY11
001200 DATA DIVISION.                                                   ACCTPY12
001300 WORKING-STORAGE SECTION.                                         ACCTPY13
001400     EXEC SQL INCLUDE SQLCA END-EXEC.                             ACCTPY14
001500 01  WS-ACCOUNT.                                                  ACCTPY15
001600     05  WS-ACCT-NO          PIC X(8).                            ACCTPY16
001700     05  WS-BALANCE          PIC S9(9)V99 COMP-3.                 ACCTPY17
001800     05  WS-PAYMENT          PIC S9(9)V99 COMP-3.                 ACCTPY18
001900 LINKAGE SECTION.                                                 ACCTPY19
002000 01  LS-PAYMENT-IN.                                               ACCTPY20
002100     05  LS-ACCT-NO          PIC X(8).                            ACCTPY21
002200     05  LS-AMOUNT           PIC S9(9)V99 COMP-3.                 ACCTPY22
002300 01  LS-RESULT-OUT.                                               ACCTPY23
002400     05  LS-NEW-BALANCE      PIC S9(9)V99 COMP-3.                 ACCTPY24
002500     05  LS-SQLCODE          PIC S9(9)    COMP.                   ACCTPY25
002600     05  LS-LOG-SQLCODE      PIC S9(9)    COMP.                   ACCTPY26
002700 PROCEDURE DIVISION USING LS-PAYMENT-IN LS-RESULT-OUT.            ACCTPY27
002800 0000-MAINLINE.                                                   ACCTPY28
002900     INITIALIZE LS-RESULT-OUT                                     ACCTPY29
003000     MOVE LS-ACCT-NO TO WS-ACCT-NO                                ACCTPY30
003100     MOVE LS-AMOUNT  TO WS-PAYMENT                                ACCTPY31
003200     EXEC SQL                                                     ACCTPY32
003300         UPDATE ACCOUNT                                           ACCTPY33
003400            SET BALANCE = BALANCE - :WS-PAYMENT                   ACCTPY34
003500          WHERE ACCOUNT.ACCT_NO = :WS-ACCT-NO                     ACCTPY35
003600     END-EXEC                                                     ACCTPY36
003700     MOVE SQLCODE TO LS-SQLCODE                                   ACCTPY37
003800     IF SQLCODE = 0                                               ACCTPY38
003900         EXEC SQL                                                 ACCTPY39
004000             SELECT A.BALANCE                                     ACCTPY40
004100               INTO :WS-BALANCE                                   ACCTPY41
004200               FROM ACCOUNT A                                     ACCTPY42
004300              WHERE A.ACCT_NO = :WS-ACCT-NO                       ACCTPY43
004400         END-EXEC                                                 ACCTPY44
004500         MOVE SQLCODE    TO LS-SQLCODE                            ACCTPY45
004600         MOVE WS-BALANCE TO LS-NEW-BALANCE                        ACCTPY46
004700         EXEC SQL                                                 ACCTPY47
004800             INSERT INTO PAYMENT_LOG (ACCT_NO, AMOUNT)            ACCTPY48
004900             VALUES (:WS-ACCT-NO, :WS-PAYMENT)                    ACCTPY49
005000         END-EXEC                                                 ACCTPY50
005100         MOVE SQLCODE TO LS-LOG-SQLCODE                           ACCTPY51
005200     END-IF                                                       ACCTPY52
005300     GOBACK.                                                      ACCTPY53
