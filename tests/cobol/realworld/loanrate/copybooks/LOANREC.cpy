000100*================================================================ LOANREC 
000200* LOANREC: the rate request and the reply of LOANRATE.            LOANREC 
000300*================================================================ LOANREC 
000400 01  LR-REQUEST.                                                  LOANREC 
000500*    Rate type: F fixed, V variable                               LOANREC 
000600     05  LR-RATE-TYPE            PIC X.                           LOANREC 
000700         88  LR-FIXED-RATE       VALUE 'F'.                       LOANREC 
000800         88  LR-VARIABLE         VALUE 'V'.                       LOANREC 
000900*    Credit tier, 1 (best) to 3                                   LOANREC 
001000     05  LR-TIER                 PIC 9.                           LOANREC 
001100         88  LR-TIER-OK          VALUE 1 THRU 3.                  LOANREC 
001200*    Amount borrowed                                              LOANREC 
001300     05  LR-PRINCIPAL            PIC S9(16)V99.                   LOANREC 
001400 01  LR-REPLY.                                                    LOANREC 
001500     05  LR-STATUS               PIC XX.                          LOANREC 
001600         88  LR-OK               VALUE '00'.                      LOANREC 
001700         88  LR-BAD-TYPE         VALUE '10'.                      LOANREC 
001800         88  LR-BAD-TIER         VALUE '20'.                      LOANREC 
001900*    Annual rate, as a fraction                                   LOANREC 
002000     05  LR-RATE                 PIC 9V9999.                      LOANREC 
002100*    Principal plus the origination fee                           LOANREC 
002200     05  LR-TOTAL-DUE            PIC S9(16)V99.                   LOANREC 
002300     05  LR-MESSAGE              PIC X(40).                       LOANREC 
