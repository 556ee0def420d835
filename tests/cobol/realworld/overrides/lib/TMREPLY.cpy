000100*---------------------------------------------------------------- TRM0412 
000200* TMREPLY: TERMINAL MASKING REPLY                                 TRM0412 
000300*---------------------------------------------------------------- TRM0412 
000400 01  TM-REPLY.                                                    TRM0412 
000500     05  TM-MASKED-PAN           PIC X(16).                       TRM0412 
000600     05  TM-KEY-CHECK.                                            TRM0412 
000700         10  TM-KCV-HIGH         PIC X(2).                        TRM0412 
000800         10  TM-KCV-LOW          PIC X(1).                        TRM0412 
000900     05  TM-RECEIPT-LINE         PIC X(24).                       TRM0412 
001000     05  TM-AUDIT                PIC X(12).                       TRM0412 
001100     05  TM-AUDIT-PARTS REDEFINES TM-AUDIT.                       TRM0412 
001200         10  TM-AUDIT-TERM       PIC X(4).                        TRM0412 
001300         10  TM-AUDIT-SEQ        PIC 9(8).                        TRM0412 
