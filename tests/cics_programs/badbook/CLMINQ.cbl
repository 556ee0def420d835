       IDENTIFICATION DIVISION.
       PROGRAM-ID. CLMINQ.
      *================================================================*
      * CLMINQ - A CLAIM'S AMOUNT AND STATUS. ITS COMMAREA'S BOOK HAS  *
      *   A MISSPELT USAGE: THE REFUSAL NAMES THE BOOK AND THIS        *
      *   PROGRAM.                                                     *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-FOUND                    PIC X VALUE 'N'.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CLMCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO CL-RETURN-CODE
           MOVE 'O' TO CL-STATUS
           EXEC CICS RETURN END-EXEC.
