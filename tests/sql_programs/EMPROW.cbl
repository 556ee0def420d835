       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPROW.
      *================================================================*
      * EMPROW - ONE EMPLOYEE ROW BY NUMBER INTO THE DCLGEN STRUCTURE   *
      *   WITH AN INDICATOR ARRAY, THE NAME INTO A SHORT LISTING FIELD, *
      *   THE DEPARTMENT WITHOUT AN INDICATOR, AND A DEPARTMENT MOVE    *
      *   THAT MAY SET THE DEPARTMENT TO NULL (INDICATOR -1).           *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-IND-TABLE.
           05  WS-IND              PIC S9(4) COMP OCCURS 7 TIMES.
       01  WS-SHORT-NAME           PIC X(5).
       01  WS-SHORT-IND            PIC S9(4) COMP.
       01  WS-DEPT-NOIND           PIC X(3).
       01  WS-MOVE.
           05  WS-NEW-DEPT         PIC X(3).
           05  WS-NEW-DEPT-IND     PIC S9(4) COMP.
       LINKAGE SECTION.
       01  LS-EMPNO                PIC S9(9) COMP.
       01  LS-SQLCODE              PIC S9(9) COMP.
       PROCEDURE DIVISION USING LS-EMPNO LS-SQLCODE.
       0000-MAIN.
           MOVE LS-EMPNO TO EMPNO
           EXEC SQL
               SELECT * INTO :DCLEMPLOYEE:WS-IND-TABLE
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :EMPNO
           END-EXEC
           EXEC SQL
               SELECT LASTNAME INTO :WS-SHORT-NAME:WS-SHORT-IND
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :EMPNO
           END-EXEC
           EXEC SQL
               SELECT WORKDEPT INTO :WS-DEPT-NOIND
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :EMPNO
           END-EXEC
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET WORKDEPT = :WS-NEW-DEPT:WS-NEW-DEPT-IND
                WHERE EMPNO = :EMPNO
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           GOBACK.
