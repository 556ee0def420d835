      ******************************************************************
      * BRNCHCA - THE CALLER'S AREA OF BRNCHINQ.                       *
      ******************************************************************
       01  BRANCH-AREA.
      *    The branch wanted.
           05  BA-BRANCH-CODE          PIC X(4).
      *    Its name, spaces when there is no such branch.
           05  BA-BRANCH-NAME          PIC X(20).
      *    The SQLCODE of the look-up: 0, or +100 for no such branch.
           05  BA-SQLCODE              PIC S9(9).
