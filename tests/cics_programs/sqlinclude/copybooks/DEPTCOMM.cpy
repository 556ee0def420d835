      *----------------------------------------------------------------*
      * DEPTCOMM - THE DEPARTMENT INQUIRY'S COMMAREA, INCLUDED UNDER   *
      *   THE 01 LEVEL OF THE PROGRAM THAT USES IT                     *
      *----------------------------------------------------------------*
           03  DC-DEPTNO               PIC X(3).
           03  DC-RETURN-CODE          PIC 9(2).
           03  DC-DEPTNAME             PIC X(36).
           03  DC-BUDGET               PIC 9(13)V99.
