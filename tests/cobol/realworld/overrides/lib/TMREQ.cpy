000100*---------------------------------------------------------------- TRM0412 
000200* TMREQ: TERMINAL MASKING REQUEST (LINK LAYOUT V2, SEE TRM-0412)  TRM0412 
000300*---------------------------------------------------------------- TRM0412 
000400 01  TM-REQUEST.                                                  TRM0412 
000500     05  TM-TERMINAL-KEY         PIC X(8).                        TRM0412 
000600     05  TM-TERMINAL-ID          PIC X(4).                        TRM0412 
000700     05  TM-SEQUENCE             PIC 9(8).                        TRM0412 
000800     05  TM-PAN                  PIC X(16).                       TRM0412 
000900     05  TM-PAN-PARTS REDEFINES TM-PAN.                           TRM0412 
001000         10  TM-PAN-BIN          PIC X(6).                        TRM0412 
001100         10  TM-PAN-MIDDLE       PIC X(6).                        TRM0412 
001200         10  TM-PAN-LAST4        PIC X(4).                        TRM0412 
