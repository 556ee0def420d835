      *****************************************************************
      * CUSTLINK - LOOKS A CUSTOMER UP THROUGH THE CICS RUNTIME ENTRY  *
      *            (CICSRT), AS A TRANSLATED EXEC CICS LINK WOULD,     *
      *            PASSING ITS COMMAREA, AND CHECKS THE RESPONSE.      *
      *****************************************************************
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTLINK.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-COMMAND-NO               PIC S9(09)    COMP-5 VALUE 7.
       LINKAGE SECTION.
       01  LK-COMMAREA.
           05  LK-CUST-NO              PIC 9(06).
           05  LK-CUST-NAME            PIC X(20).
           05  LK-RESP                 PIC S9(08)    COMP.
               88  LK-RESP-NORMAL                    VALUE 0.
           05  LK-VERDICT              PIC X(08).
       PROCEDURE DIVISION USING LK-COMMAREA.
       0000-MAIN.
           MOVE -1 TO LK-RESP
           CALL 'CICSRT' USING BY VALUE WS-COMMAND-NO
                               BY REFERENCE LK-COMMAREA
           IF LK-RESP-NORMAL
               MOVE 'FOUND' TO LK-VERDICT
           ELSE
               MOVE 'NOTFND' TO LK-VERDICT
           END-IF
           GOBACK.
