       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKCOUNT.
      *================================================================*
      * LNKCOUNT - COUNTS THE TIMES IT RAN IN WORKING-STORAGE AND      *
      *   RETURNS THE COUNT: IN LS-FIRST-COUNT THE FIRST TIME OF A     *
      *   TASK, IN LS-SECOND-COUNT AFTER THAT. ON CICS EVERY LINK IS A *
      *   NEW COPY OF THE PROGRAM: THE COUNT IS 1 EACH TIME.           *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-TIMES-RUN                PIC 9(4)  VALUE ZERO.
       LINKAGE SECTION.
           COPY LNKSQLC.
       PROCEDURE DIVISION.
       0000-MAIN.
           ADD 1 TO WS-TIMES-RUN
           IF LS-FIRST-COUNT = ZERO
               MOVE WS-TIMES-RUN TO LS-FIRST-COUNT
           ELSE
               MOVE WS-TIMES-RUN TO LS-SECOND-COUNT
           END-IF
           MOVE 'COUNTED' TO LS-MESSAGE
           EXEC CICS RETURN END-EXEC.
