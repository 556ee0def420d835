000100*    NAMEKEYR: the match key handed back by NAMEKEY               NAMEKEYR
000200 01  LS-KEY.                                                      NAMEKEYR
000300     05  LS-KEY-LENGTH           PIC 9(7).                        NAMEKEYR
000400     05  LS-KEY-LETTERS          PIC 9(7).                        NAMEKEYR
000500     05  LS-KEY-CHECKSUM         PIC 9(5).                        NAMEKEYR
000600     05  LS-KEY-INITIAL          PIC X.                           NAMEKEYR
