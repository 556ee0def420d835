       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTADD.
      * Add a customer: hands the COMMAREA to CUSTADB by its literal
      * name; CUSTADB reads the customer and sets its number.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CALEN                      PIC S9(4) COMP.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CUSTAREA.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE EIBCALEN TO WS-CALEN
           MOVE '00' TO CA-RETURN-CODE
           EXEC CICS LINK PROGRAM('CUSTADB')
                COMMAREA(DFHCOMMAREA)
                LENGTH(WS-CALEN)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
