      *================================================================*
      * LNKSQLC - COMMAREA OF THE LINK-WITH-SQL TESTS: THE FRONT END   *
      *   LNKSQLF PASSES IT ON TO LNKSQLB AND LNKCOUNT BY LINK.        *
      *================================================================*
       01  DFHCOMMAREA.
           05  LS-REQUEST              PIC X(4).
               88  LS-REQ-INSERT                 VALUE 'INSR'.
               88  LS-REQ-ABEND-AFTER            VALUE 'ABAF'.
               88  LS-REQ-DUPREC                 VALUE 'DUPR'.
               88  LS-REQ-COUNT-TWICE            VALUE 'CNT2'.
               88  LS-REQ-CURSORS                VALUE 'CURS'.
               88  LS-REQ-FAULT                  VALUE 'FALT'.
           05  LS-CUST-ID              PIC 9(8).
           05  LS-NAME                 PIC X(15).
           05  LS-SQLCODE              PIC S9(4) SIGN LEADING SEPARATE.
           05  LS-FIRST-COUNT          PIC 9(4).
           05  LS-SECOND-COUNT         PIC 9(4).
           05  LS-MESSAGE              PIC X(20).
