      *================================================================*
      * POLREC - RECORD OF THE POLICY FILE POLFILE (KSDS, 80 BYTES,    *
      *   KEY PR-POLICY-NO: KEYS(8 0))                                 *
      *================================================================*
       01  POLICY-RECORD.
           05  PR-POLICY-NO            PIC 9(8).
           05  PR-HOLDER-NAME          PIC X(30).
           05  PR-PRODUCT              PIC X(3).
           05  PR-STATUS               PIC X(1).
               88  PR-ACTIVE                     VALUE 'A'.
           05  PR-LAST-TASK            PIC 9(7).
           05  FILLER                  PIC X(31).
