       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTENRL.
      *================================================================*
      * CUSTENRL - ENROLMENT FRONT END OF THE CUSTOMER SERVICE         *
      *   ENRCUS: TAKES A CUSTOMER NUMBER FROM THE NAMED COUNTER       *
      *   CUSTNO (DEFINING IT THE FIRST TIME), INSERTS THE EMPLOYEE    *
      *   ROW AND ITS ADDRESS ROW, AND LINKS TO THE VSAM BACK END      *
      *   CUSTVSAM TO WRITE THE CUSTOMER RECORD. IF THE BACK END       *
      *   REFUSES, THE TASK ABENDS (CENR): THE ROWS GO WITH IT.        *
      *   INQENR: READS THE RECORD THROUGH CUSTVSAM AND COUNTS THE     *
      *   ADDRESS ROWS OF THE CUSTOMER.                                *
      *   A REQUEST THAT FAILS IS LOGGED THROUGH ERRLOG (TS CUSTERRS). *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-PROGRAMS.
           05  WS-BACKEND              PIC X(8)  VALUE 'CUSTVSAM'.
           05  WS-LOGGER               PIC X(8)  VALUE 'ERRLOG'.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-RESP2                    PIC S9(8) COMP.
       01  WS-NEXT-ID                  PIC S9(8) COMP.
       01  WS-DB2-FIELDS.
           05  WS-LASTNAME             PIC X(15).
           05  WS-EMPNO                PIC S9(9) COMP.
           05  WS-ROWS                 PIC S9(9) COMP.
           05  WS-ADDR-CUST-ID         PIC 9(8).
           05  WS-ADDR-LINE            PIC X(17).
           05  WS-ADDR-CITY            PIC X(20).
           EXEC SQL INCLUDE SQLCA END-EXEC.
           COPY CUSTCOMM REPLACING ==DFHCOMMAREA==
                                BY ==WS-CUST-COMMAREA==.
       01  WS-ERR-AREA.
           COPY ERRLOGCA.
       LINKAGE SECTION.
           COPY ENRLCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF EIBCALEN < LENGTH OF DFHCOMMAREA
               EXEC CICS ABEND ABCODE('CENL') NODUMP END-EXEC
           END-IF
           MOVE 0 TO EN-RETURN-CODE EN-SQLCODE
           MOVE SPACES TO EN-MESSAGE
           MOVE EIBTASKN TO EN-TASKN
           EVALUATE TRUE
               WHEN EN-REQ-ENROL
                   PERFORM 1000-CHECK-TAG
                   IF EN-OK
                       PERFORM 2000-ENROL
                   END-IF
               WHEN EN-REQ-INQUIRE
                   PERFORM 3000-INQUIRE
               WHEN OTHER
                   MOVE 12 TO EN-RETURN-CODE
                   MOVE 'UNKNOWN REQUEST TYPE' TO EN-MESSAGE
           END-EVALUATE
           IF NOT EN-OK AND NOT EN-NOT-FOUND
               PERFORM 9000-LOG-ERROR
           END-IF
           EXEC CICS RETURN END-EXEC.

       1000-CHECK-TAG.
           IF EN-TAG = SPACES
               MOVE 12 TO EN-RETURN-CODE
               MOVE 'A TAG IS REQUIRED' TO EN-MESSAGE
           END-IF.

       2000-ENROL.
           PERFORM 2100-NEW-NUMBER
           MOVE EN-TAG TO WS-LASTNAME
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, 'ENROLLED', 'A00', '2024-04-01')
           END-EXEC
           IF SQLCODE NOT = 0
               MOVE SQLCODE TO EN-SQLCODE
               EXEC CICS ABEND ABCODE('CEMP') END-EXEC
           END-IF
           EXEC SQL
               SELECT EMPNO INTO :WS-EMPNO
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :WS-LASTNAME
           END-EXEC
           MOVE WS-EMPNO TO EN-EMPNO
           PERFORM 2200-ADDRESS-LINE
           MOVE SPACES TO WS-ADDR-CITY
           STRING 'TASK ' EN-TASKN DELIMITED BY SIZE INTO WS-ADDR-CITY
           EXEC SQL
               INSERT INTO PAYROLL.EMPADDR (EMPNO, LINE1, CITY)
               VALUES (:WS-EMPNO, :WS-ADDR-LINE, :WS-ADDR-CITY)
           END-EXEC
           IF SQLCODE NOT = 0
               MOVE SQLCODE TO EN-SQLCODE
               EXEC CICS ABEND ABCODE('CADR') END-EXEC
           END-IF
           INITIALIZE WS-CUST-COMMAREA
           SET CA-REQ-ADD TO TRUE
           MOVE EN-CUST-ID TO CA-CUST-ID
           MOVE EN-TAG TO CA-CUST-NAME
           MOVE 0 TO CA-CUST-BALANCE
           MOVE WS-ADDR-CITY TO CA-CUST-CITY EN-CITY
           EXEC CICS LINK PROGRAM(WS-BACKEND)
                     COMMAREA(WS-CUST-COMMAREA)
                     LENGTH(LENGTH OF WS-CUST-COMMAREA)
           END-EXEC
           IF NOT CA-OK
               EXEC CICS ABEND ABCODE('CENR') END-EXEC
           END-IF.

       2100-NEW-NUMBER.
           EXEC CICS GET COUNTER('CUSTNO') POOL('CUSTPOOL')
                     VALUE(WS-NEXT-ID) RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
      *    NOT DEFINED YET: INVREQ, RESP2 201 (NAMED COUNTER NOT FOUND)
           IF WS-RESP = DFHRESP(INVREQ) AND WS-RESP2 = 201
               EXEC CICS DEFINE COUNTER('CUSTNO') POOL('CUSTPOOL')
                         VALUE(1) MINIMUM(1) MAXIMUM(99999999)
                         RESP(WS-RESP)
               END-EXEC
               EXEC CICS GET COUNTER('CUSTNO') POOL('CUSTPOOL')
                         VALUE(WS-NEXT-ID)
               END-EXEC
           END-IF
           MOVE WS-NEXT-ID TO EN-CUST-ID.

       2200-ADDRESS-LINE.
           MOVE EN-CUST-ID TO WS-ADDR-CUST-ID
           STRING 'CUSTOMER ' WS-ADDR-CUST-ID DELIMITED BY SIZE
               INTO WS-ADDR-LINE.

       3000-INQUIRE.
           INITIALIZE WS-CUST-COMMAREA
           SET CA-REQ-INQUIRE TO TRUE
           MOVE EN-CUST-ID TO CA-CUST-ID
           EXEC CICS LINK PROGRAM(WS-BACKEND)
                     COMMAREA(WS-CUST-COMMAREA)
                     LENGTH(LENGTH OF WS-CUST-COMMAREA)
           END-EXEC
           IF CA-OK
               MOVE CA-CUST-NAME TO EN-TAG WS-LASTNAME
               MOVE CA-CUST-CITY TO EN-CITY
               PERFORM 2200-ADDRESS-LINE
               EXEC SQL
                   SELECT COUNT(*) INTO :WS-ROWS
                     FROM PAYROLL.EMPADDR A
                     JOIN PAYROLL.EMPLOYEE E ON E.EMPNO = A.EMPNO
                    WHERE A.LINE1 = :WS-ADDR-LINE
                      AND E.LASTNAME = :WS-LASTNAME
               END-EXEC
               MOVE SQLCODE TO EN-SQLCODE
               MOVE WS-ROWS TO EN-ROWS
           ELSE
               MOVE CA-RETURN-CODE TO EN-RETURN-CODE
               MOVE CA-MESSAGE TO EN-MESSAGE
           END-IF.

       9000-LOG-ERROR.
           MOVE 'CUSTENRL' TO EL-PROGRAM
           MOVE EN-RETURN-CODE TO EL-CODE
           MOVE EN-MESSAGE TO EL-TEXT
           EXEC CICS LINK PROGRAM(WS-LOGGER)
                     COMMAREA(WS-ERR-AREA)
                     NOHANDLE
           END-EXEC.
