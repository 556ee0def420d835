000100* DATECA - commarea of the DATECALC date services.                DATECA  
000200 01  DATE-COMMAREA.                                               DATECA  
000300* What to do, and on which dates.                                 DATECA  
000400     05  DC-PARMS.                                                DATECA  
000500         10  DC-FUNCTION         PIC X.                           DATECA  
000600             88  DC-DAYS-BETWEEN VALUE "D".                       DATECA  
000700             88  DC-ADD-DAYS     VALUE "A".                       DATECA  
000800         10  DC-DATE-1           PIC 9(8).                        DATECA  
000900         10  DC-DATE-2           PIC 9(8).                        DATECA  
001000         10  DC-DAYS             PIC S9(5).                       DATECA  
001100* What came out.                                                  DATECA  
001200     05  DC-RESULTS.                                              DATECA  
001300         10  DC-DAY-COUNT        PIC S9(7).                       DATECA  
001400         10  DC-RESULT-DATE      PIC 9(8).                        DATECA  
001500* 1 Monday .. 7 Sunday.                                           DATECA  
001600         10  DC-DAY-OF-WEEK      PIC 9.                           DATECA  
001700* 0 ok, 8 bad first date, 12 bad second date, 16 bad function.    DATECA  
001800     05  DC-RETURN-CODE          PIC 9(2).                        DATECA  
