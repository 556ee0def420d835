       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKECHO.
      *================================================================*
      * LNKECHO - BACK END OF THE LINK TESTS: SAYS WHAT EIBCALEN IT    *
      *   WAS GIVEN AND HOW IT WAS REACHED; WRITES A CUSTOMER (DUPREC *
      *   ABENDS THE TASK) OR ABENDS (LKAB) WHEN ASKED.                *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CALEN                    PIC S9(4) COMP.
           COPY CUSTREC.
       LINKAGE SECTION.
           COPY LNKCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE EIBCALEN TO WS-CALEN
           MOVE WS-CALEN TO LF-CALEN
           EVALUATE TRUE
               WHEN LF-REQ-ABEND
                   EXEC CICS ABEND ABCODE('LKAB') END-EXEC
               WHEN LF-REQ-EMPLOYEE
                   INITIALIZE CUSTOMER-RECORD
                   MOVE LF-CUST-ID TO CR-CUST-ID
                   MOVE LF-NAME TO CR-CUST-NAME
                   EXEC CICS WRITE FILE('CUSTFILE')
                             FROM(CUSTOMER-RECORD) RIDFLD(CR-CUST-ID)
                   END-EXEC
                   MOVE 'LINKED' TO LF-MESSAGE
               WHEN LF-REQ-XCTL
                   MOVE 'XCTLED' TO LF-MESSAGE
               WHEN OTHER
                   MOVE 'LINKED' TO LF-MESSAGE
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.
