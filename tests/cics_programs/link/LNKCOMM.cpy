      *================================================================*
      * LNKCOMM - COMMAREA OF THE LINK TESTS (65 BYTES): THE FRONT END *
      *   LNKFRNT PASSES IT ON TO LNKECHO BY LINK OR XCTL.             *
      *================================================================*
       01  DFHCOMMAREA.
           05  LF-REQUEST              PIC X(4).
               88  LF-REQ-CALEN                  VALUE 'EIBL'.
               88  LF-REQ-NOPGM                  VALUE 'NOPG'.
               88  LF-REQ-EMPLOYEE               VALUE 'EMPL'.
               88  LF-REQ-XCTL                   VALUE 'XCTL'.
               88  LF-REQ-ABEND                  VALUE 'HABN'.
               88  LF-REQ-NESTED                 VALUE 'NEST'.
           05  LF-CALEN                PIC 9(5).
           05  LF-FRONT-CALEN          PIC 9(5).
           05  LF-RESP                 PIC 9(4).
           05  LF-CUST-ID              PIC 9(8).
           05  LF-NAME                 PIC X(15).
           05  LF-MESSAGE              PIC X(20).
           05  LF-ABCODE               PIC X(4).
