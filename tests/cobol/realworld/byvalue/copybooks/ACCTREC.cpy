000100*    Deposit account as kept on the account master                ACCTREC 
000200 01  LS-ACCOUNT.                                                  ACCTREC 
000300     05  LS-AC-NUMBER            PIC X(10).                       ACCTREC 
000400     05  LS-AC-STATUS            PIC X.                           ACCTREC 
000500         88  LS-AC-OPEN          VALUE 'O'.                       ACCTREC 
000600         88  LS-AC-CLOSED        VALUE 'C'.                       ACCTREC 
000700     05  LS-AC-BALANCE           PIC S9(9)V99 COMP-3.             ACCTREC 
000800*    Annual rate, e.g. 0.0425                                     ACCTREC 
000900     05  LS-AC-RATE              PIC 9V9(4).                      ACCTREC 
