      *================================================================*
      * CHNERR - ERRORS CONTAINER: PUT ONLY WHEN A REQUEST IS REFUSED  *
      *   (NO 01 LEVEL: THE PROGRAM PUTS IT UNDER ITS OWN)             *
      *================================================================*
           05  ER-CODE                 PIC X(8).
           05  ER-TEXT                 PIC X(60).
