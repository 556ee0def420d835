      *================================================================*
      * EMPREQ - REQUEST AREA OF EMPENROL, THE ENROLMENT SUBPROGRAM    *
      *================================================================*
       01  EMP-ENROL-REQUEST.
           05  ER-LASTNAME             PIC X(15).
           05  ER-DEPT                 PIC X(3).
           05  ER-SQLCODE              PIC S9(9) COMP.
           05  ER-DEPT-COUNT           PIC S9(9) COMP.
