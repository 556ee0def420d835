       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTEMP.
      *================================================================*
      * CUSTEMP - ENROLS A CUSTOMER AS AN EMPLOYEE: THE EMPLOYEE ROW   *
      *   (DB2) AND THE CUSTOMER RECORD (VSAM) IN ONE UNIT OF WORK.    *
      *   A CUSTOMER NUMBER ALREADY ON FILE ABENDS THE TASK (CDUP):    *
      *   THE EMPLOYEE ROW INSERTED BEFORE IT MUST GO WITH IT.         *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12)  VALUE 'ENROLLED'.
       01  WS-DEPT                     PIC X(3)   VALUE 'A00'.
       01  WS-HIREDATE                 PIC X(10)  VALUE '2024-04-01'.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           COPY CUSTREC.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CE-CUST-ID              PIC 9(8).
           05  CE-LASTNAME             PIC X(15).
           05  CE-SQLCODE              PIC S9(9).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE CE-LASTNAME TO WS-LASTNAME
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       :WS-HIREDATE)
           END-EXEC
           MOVE SQLCODE TO CE-SQLCODE
           INITIALIZE CUSTOMER-RECORD
           MOVE CE-CUST-ID TO CR-CUST-ID
           MOVE CE-LASTNAME TO CR-CUST-NAME
           EXEC CICS WRITE FILE('CUSTFILE') FROM(CUSTOMER-RECORD)
                     RIDFLD(CR-CUST-ID) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(DUPREC)
               EXEC CICS ABEND ABCODE('CDUP') END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
