       IDENTIFICATION DIVISION.
       PROGRAM-ID. DEPTBUDG.
      *================================================================*
      * DEPTBUDG - A DEPARTMENT'S BUDGET, FOR A BATCH CALLER: THE SAME *
      *   DEPTCOMM RECORD AS DEPTINQ'S COMMAREA, INCLUDED UNDER ITS    *
      *   PARAMETER'S 01 LEVEL.                                        *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  WS-BUDGET                   PIC S9(13)V9(2) COMP-3.
       01  WS-DEPTNO                   PIC X(3).
       LINKAGE SECTION.
       01  DB-AREA.
           EXEC SQL INCLUDE DEPTCOMM END-EXEC.
       PROCEDURE DIVISION USING DB-AREA.
       0000-MAIN.
           MOVE DC-DEPTNO TO WS-DEPTNO
           EXEC SQL
               SELECT BUDGET INTO :WS-BUDGET
                 FROM PAYROLL.DEPT
                WHERE DEPTNO = :WS-DEPTNO
           END-EXEC
           IF SQLCODE = 0
               MOVE 0 TO DC-RETURN-CODE
               MOVE WS-BUDGET TO DC-BUDGET
           ELSE
               MOVE 1 TO DC-RETURN-CODE
               MOVE 0 TO DC-BUDGET
           END-IF
           MOVE SPACES TO DC-DEPTNAME
           GOBACK.
