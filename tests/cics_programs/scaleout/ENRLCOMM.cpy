      *================================================================*
      * ENRLCOMM - COMMAREA OF THE ENROLMENT SERVICE CUSTENRL (96 B)   *
      *   ENRCUS: A NEW CUSTOMER NUMBER FROM THE NAMED COUNTER, THE    *
      *   EMPLOYEE AND ADDRESS ROWS (DB2) AND THE CUSTOMER RECORD      *
      *   (VSAM, THROUGH CUSTVSAM) IN ONE UNIT OF WORK.                *
      *   INQENR: THE CUSTOMER RECORD AND ITS NUMBER OF DB2 ROWS.      *
      *================================================================*
       01  DFHCOMMAREA.
           05  EN-REQUEST-ID           PIC X(6).
               88  EN-REQ-ENROL                  VALUE 'ENRCUS'.
               88  EN-REQ-INQUIRE                VALUE 'INQENR'.
           05  EN-RETURN-CODE          PIC 9(2).
               88  EN-OK                         VALUE 0.
               88  EN-NOT-FOUND                  VALUE 4.
               88  EN-INVALID                    VALUE 12.
           05  EN-TASKN                PIC 9(7).
           05  EN-SQLCODE              PIC S9(9).
           05  EN-MESSAGE              PIC X(40).
           05  EN-CUSTOMER.
               10  EN-TAG              PIC X(15).
               10  EN-CUST-ID          PIC 9(8).
               10  EN-EMPNO            PIC S9(9).
               10  EN-ROWS             PIC 9(4).
               10  EN-CITY             PIC X(20).
