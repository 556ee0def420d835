       IDENTIFICATION DIVISION.
       PROGRAM-ID. DEPTINQ.
      *================================================================*
      * DEPTINQ - A DEPARTMENT'S NAME AND BUDGET, BY NUMBER, FROM DB2. *
      *   ITS COMMAREA IS THE DEPTCOMM MEMBER, BROUGHT IN UNDER THE    *
      *   01 LEVEL BY THE DB2 PRECOMPILER (EXEC SQL INCLUDE).          *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-SQLCODE                  PIC -9(9).
           EXEC SQL
               INCLUDE SQLCA
           END-EXEC.
           EXEC SQL
               INCLUDE DCLDEPT
           END-EXEC.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           EXEC SQL
             INCLUDE DEPTCOMM
           END-EXEC.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE DC-DEPTNO TO DEPTNO
           EXEC SQL
               SELECT DEPTNAME, BUDGET
                 INTO :DEPTNAME, :BUDGET
                 FROM PAYROLL.DEPT
                WHERE DEPTNO = :DEPTNO
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   MOVE 0 TO DC-RETURN-CODE
                   MOVE DEPTNAME-TEXT (1:DEPTNAME-LEN) TO DC-DEPTNAME
                   MOVE BUDGET TO DC-BUDGET
               WHEN 100
                   MOVE 1 TO DC-RETURN-CODE
                   MOVE SPACES TO DC-DEPTNAME
                   MOVE 0 TO DC-BUDGET
               WHEN OTHER
                   MOVE SQLCODE TO WS-SQLCODE
                   EXEC CICS ABEND ABCODE('DSQL') END-EXEC
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.
