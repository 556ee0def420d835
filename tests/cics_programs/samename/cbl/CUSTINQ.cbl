       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTINQ.
      *================================================================*
      * CUSTINQ - CUSTOMER INQUIRY: THE NAME AND POSTCODE OF A         *
      *   CUSTOMER NUMBER. ITS COMMAREA IS THE COPY LIBRARY'S MEMBER   *
      *   OF THE SAME NAME, AS THE SOURCE LIBRARY AND THE COPY LIBRARY *
      *   OF A SHOP NAME THEM.                                         *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CUSTOMERS.
           03  FILLER                  PIC X(48) VALUE
               '0000000001ALICE ABERNATHY               AB1 2CD '.
           03  FILLER                  PIC X(48) VALUE
               '0000000002BRIAN BOYLE                   EF3 4GH '.
       01  WS-CUSTOMER-TABLE REDEFINES WS-CUSTOMERS.
           03  WS-CUSTOMER             OCCURS 2 TIMES
                                       INDEXED BY WS-IX.
               05  WS-NUM              PIC 9(10).
               05  WS-NAME             PIC X(30).
               05  WS-POSTCODE         PIC X(8).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CUSTINQ.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE '01INQC' TO CI-REQUEST-ID
           SET WS-IX TO 1
           SEARCH WS-CUSTOMER
               AT END
                   MOVE 1 TO CI-RETURN-CODE
               WHEN WS-NUM (WS-IX) = CI-CUSTOMER-NUM
                   MOVE 0 TO CI-RETURN-CODE
                   MOVE WS-NAME (WS-IX) TO CI-CUSTOMER-NAME
                   MOVE WS-POSTCODE (WS-IX) TO CI-POSTCODE
           END-SEARCH
           EXEC CICS RETURN END-EXEC.
