       IDENTIFICATION DIVISION.
       PROGRAM-ID. CICSBNUL.
      *================================================================*
      * CICSBNUL - CICSBCAL WITHOUT ITS EXEC CICS RETURN: A PLAIN      *
      *   SUBPROGRAM THAT COUNTS AND GOBACKS (THE PRICE OF THE CALL    *
      *   ITSELF, NO EXCHANGE WITH THE SERVER).                        *
      *================================================================*
       DATA DIVISION.
       LINKAGE SECTION.
       01  LK-AREA.
           05  LK-HITS                 PIC 9(8)  COMP.
           05  LK-DATA                 PIC X(96).
       PROCEDURE DIVISION USING LK-AREA.
       0000-MAIN.
           ADD 1 TO LK-HITS
           GOBACK.
