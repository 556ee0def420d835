       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPFAIL.
      *================================================================*
      * EMPFAIL - ADDS AN EMPLOYEE, THEN CALLS THE NEXT STEP BY NAME,   *
      *   WHICH IS NOT INSTALLED: A RUNTIME ERROR ENDS THE RUN UNIT     *
      *   AFTER THE INSERT, SO NOTHING IT DID MAY STAY IN THE DATABASE. *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-NEXT-STEP            PIC X(8) VALUE 'EMPNOTIF'.
       LINKAGE SECTION.
       01  LS-LASTNAME             PIC X(15).
       01  LS-SQLCODE              PIC S9(9).
       PROCEDURE DIVISION USING LS-LASTNAME LS-SQLCODE.
       0000-MAIN.
           MOVE LS-LASTNAME TO LASTNAME
           MOVE 'GONE' TO FIRSTNAME-TEXT
           MOVE 4 TO FIRSTNAME-LEN
           MOVE 'A00' TO WORKDEPT
           MOVE ZERO TO SALARY
           MOVE '2024-01-01' TO HIREDATE
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:LASTNAME, :FIRSTNAME, :WORKDEPT, :SALARY,
                       :HIREDATE)
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           CALL WS-NEXT-STEP USING LS-LASTNAME
           GOBACK.
