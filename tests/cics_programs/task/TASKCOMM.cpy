      *================================================================*
      * TASKCOMM - COMMAREA OF CUSTTASK (TASK AND STORAGE SERVICES)    *
      *================================================================*
       01  DFHCOMMAREA.
           05  TA-REQUEST              PIC X(3).
               88  TA-REQ-STORAGE                VALUE 'GTM'.
               88  TA-REQ-LENGTH                 VALUE 'LEN'.
               88  TA-REQ-ADDRESS                VALUE 'ADR'.
               88  TA-REQ-HOLD                   VALUE 'HLD'.
               88  TA-REQ-TRY                    VALUE 'TRY'.
               88  TA-REQ-TRY-HANDLED            VALUE 'TRH'.
               88  TA-REQ-WAIT                   VALUE 'WAI'.
               88  TA-REQ-GO-AHEAD               VALUE 'GOA'.
               88  TA-REQ-DELAY                  VALUE 'DLY'.
               88  TA-REQ-LONG-DELAY             VALUE 'DLL'.
               88  TA-REQ-TIME                   VALUE 'FMT'.
               88  TA-REQ-STAMP                  VALUE 'FMS'.
               88  TA-REQ-ABEND-EXIT             VALUE 'ABX'.
           05  TA-KEY                  PIC 9(8).
           05  TA-RESP                 PIC 9(4).
           05  TA-RESP2                PIC 9(4).
           05  TA-COUNT                PIC 9(4).
           05  TA-FLAG                 PIC X(1).
           05  TA-TEXT                 PIC X(64).
           05  TA-DATE                 PIC X(10).
           05  TA-MILLIS               PIC 9(4).
           05  TA-FORM                 PIC X(6).
