       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKMID.
      *================================================================*
      * LNKMID - MIDDLE OF A LINK CHAIN: LINKS TO LNKECHO ASKING IT TO *
      *   ABEND. WITHOUT A HANDLE ABEND OF ITS OWN IT MUST NOT RESUME. *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ECHO                     PIC X(8)  VALUE 'LNKECHO'.
       LINKAGE SECTION.
           COPY LNKCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 'HABN' TO LF-REQUEST
           EXEC CICS LINK PROGRAM(WS-ECHO)
                     COMMAREA(DFHCOMMAREA)
           END-EXEC
           MOVE 'MID RESUMED' TO LF-NAME
           EXEC CICS RETURN END-EXEC.
