       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPHOLD.
      *================================================================*
      * EMPHOLD - BATCH STEP THAT HOLDS ITS UNIT OF WORK OPEN.          *
      *   READS A FOLDER NAME FROM SYSIN, GIVES HAAS A NEW SALARY,      *
      *   CREATES <FOLDER>/UPDATED AND WAITS FOR <FOLDER>/RELEASE       *
      *   BEFORE IT ENDS (ITS UPDATE IS COMMITTED THEN). A RUN THAT IS  *
      *   STOPPED WHILE IT WAITS MUST LEAVE THE SALARY AS IT WAS.       *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  WS-FOLDER               PIC X(150).
       01  WS-PATH                 PIC X(200).
       01  WS-FILE-INFO            PIC X(16).
       01  WS-ACCESS               PIC X COMP-X VALUE 2.
       01  WS-DENY                 PIC X COMP-X VALUE 0.
       01  WS-DEVICE               PIC X COMP-X VALUE 0.
       01  WS-HANDLE               PIC X(4).
       01  WS-NAP                  PIC S9(18) COMP-5 VALUE 10000000.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-SALARY               PIC S9(7)V99 COMP-3 VALUE 99999.99.
           EXEC SQL END DECLARE SECTION END-EXEC.
       PROCEDURE DIVISION.
       0000-MAIN.
           ACCEPT WS-FOLDER
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = :WS-SALARY
                WHERE LASTNAME = 'HAAS'
           END-EXEC
           IF SQLCODE NOT = 0
               DISPLAY 'EMPHOLD: UPDATE FAILED ' SQLCODE
               MOVE 16 TO RETURN-CODE
               STOP RUN
           END-IF
           PERFORM 1000-SIGNAL-UPDATED
           PERFORM 2000-WAIT-FOR-RELEASE
           DISPLAY 'EMPHOLD: RELEASED'
           STOP RUN.

       1000-SIGNAL-UPDATED.
           MOVE SPACES TO WS-PATH
           STRING WS-FOLDER DELIMITED BY SPACE
                  '/UPDATED' DELIMITED BY SIZE
                  INTO WS-PATH
           CALL 'CBL_CREATE_FILE' USING WS-PATH WS-ACCESS WS-DENY
                                        WS-DEVICE WS-HANDLE
           CALL 'CBL_CLOSE_FILE' USING WS-HANDLE.

       2000-WAIT-FOR-RELEASE.
           MOVE SPACES TO WS-PATH
           STRING WS-FOLDER DELIMITED BY SPACE
                  '/RELEASE' DELIMITED BY SIZE
                  INTO WS-PATH
           CALL 'CBL_CHECK_FILE_EXIST' USING WS-PATH WS-FILE-INFO
           PERFORM UNTIL RETURN-CODE = 0
               CALL 'CBL_GC_NANOSLEEP' USING WS-NAP
               CALL 'CBL_CHECK_FILE_EXIST' USING WS-PATH WS-FILE-INFO
           END-PERFORM
           MOVE ZERO TO RETURN-CODE.
