       IDENTIFICATION DIVISION.
       PROGRAM-ID. INSTPLAN.
      *    Splits a premium into three instalments: two equal ones and
      *    a last one that takes the cents the division leaves over.
       AUTHOR. BILLING SYSTEMS.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-COUNTERS.
           05  WS-I                PIC S9(4) COMP.
           05  WS-PAID             PIC S9(7)V99 COMP-3.
       LINKAGE SECTION.
       01  LS-PLAN.
           05  LS-PREMIUM          PIC 9(7)V99.
           05  LS-SCHEDULE         OCCURS 3 TIMES.
               10  LS-AMT          PIC 9(7)V99.
       PROCEDURE DIVISION USING LS-PLAN.
       0000-MAIN.
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 3
               MOVE ZERO TO LS-AMT (WS-I)
           END-PERFORM
           MOVE ZERO TO WS-PAID
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 2
               DIVIDE LS-PREMIUM BY 3 GIVING LS-AMT (WS-I)
               ADD LS-AMT (WS-I) TO WS-PAID
           END-PERFORM
           MOVE 3 TO WS-I
           SUBTRACT WS-PAID FROM LS-PREMIUM GIVING LS-AMT (WS-I)
           GOBACK.
