000100 IDENTIFICATION DIVISION.                                         CUSTMNT 
000200 PROGRAM-ID. CUSTVAL.                                             CUSTMNT 
000300*================================================================ CUSTMNT 
000400* Validate a customer maintenance request before it is applied:   CUSTMNT 
000500* the id is required and the credit limit may not exceed the      CUSTMNT 
000600* branch maximum. RETURN-CODE 8 and an error status when invalid. CUSTMNT 
000700*================================================================ CUSTMNT 
000800 ENVIRONMENT DIVISION.                                            CUSTMNT 
000900 DATA DIVISION.                                                   CUSTMNT 
001000 WORKING-STORAGE SECTION.                                         CUSTMNT 
001100 01  WS-MAX-CREDIT-LIMIT         PIC 9(7)V99 VALUE 250000.00.     CUSTMNT 
001200 LINKAGE SECTION.                                                 CUSTMNT 
001300 01  LS-CUST-REQUEST.                                             CUSTMNT 
001400     05  LS-CUST-ID              PIC X(8).                        CUSTMNT 
001500     05  LS-CUST-NAME            PIC X(30).                       CUSTMNT 
001600     05  LS-CREDIT-LIMIT         PIC 9(7)V99.                     CUSTMNT 
001700 01  LS-CUST-RESULT.                                              CUSTMNT 
001800     05  LS-STATUS               PIC X(2).                        CUSTMNT 
001900     05  LS-MESSAGE              PIC X(40).                       CUSTMNT 
002000 PROCEDURE DIVISION USING LS-CUST-REQUEST LS-CUST-RESULT.         CUSTMNT 
002100 0000-MAINLINE.                                                   CUSTMNT 
002200     MOVE 'OK' TO LS-STATUS                                       CUSTMNT 
002300     MOVE SPACES TO LS-MESSAGE                                    CUSTMNT 
002400     PERFORM 1000-VALIDATE-REQUEST                                CUSTMNT 
002500     GOBACK.                                                      CUSTMNT 
002600 1000-VALIDATE-REQUEST.                                           CUSTMNT 
002700     EVALUATE TRUE                                                CUSTMNT 
002800         WHEN LS-CUST-ID = SPACES                                 CUSTMNT 
002900             MOVE 'E1' TO LS-STATUS                               CUSTMNT 
003000             MOVE 'CUSTOMER ID IS REQUIRED' TO LS-MESSAGE         CUSTMNT 
003100             MOVE 8 TO RETURN-CODE                                CUSTMNT 
003200         WHEN LS-CREDIT-LIMIT > WS-MAX-CREDIT-LIMIT               CUSTMNT 
003300             MOVE 'E2' TO LS-STATUS                               CUSTMNT 
003400             MOVE 'CREDIT LIMIT OVER BRANCH MAXIMUM' TO LS-MESSAGECUSTMNT 
003500             MOVE 8 TO RETURN-CODE                                CUSTMNT 
003600     END-EVALUATE.                                                CUSTMNT 
