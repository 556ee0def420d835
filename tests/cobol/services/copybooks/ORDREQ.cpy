      *****************************************************************
      * ORDREQ - ORDER LINE REQUEST AREA, PASSED TO THE SQL RUNTIME.  *
      *          THE SERVER FILLS ORD-ID AND ORD-STATUS, AND SCALES   *
      *          ORD-QTY, FOR EACH LINE THE PROGRAM ASKS ABOUT.       *
      *****************************************************************
       01  ORD-REQUEST.
           05  ORD-ID                  PIC X(08).
           05  ORD-QTY                 PIC S9(05)    COMP-3.
           05  ORD-STATUS              PIC X(02).
               88  ORD-FOUND                         VALUE 'OK'.
               88  ORD-NOT-FOUND                     VALUE 'NF'.
