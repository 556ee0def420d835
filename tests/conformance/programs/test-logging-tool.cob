IDENTIFICATION DIVISION.
PROGRAM-ID. TEST-LOGGING-TOOL.
*> Conformance fixture: takes no arguments and DISPLAYs three log lines
*> while it runs. What a program DISPLAYs comes back as a text block of
*> the result, never as notifications/message.
DATA DIVISION.
LINKAGE SECTION.
01 LOGGING-OUT.
   *> What the program did.
   05 TEXT-VALUE PIC X(60).
PROCEDURE DIVISION USING LOGGING-OUT.
    DISPLAY "Tool execution started"
    DISPLAY "Tool processing data"
    DISPLAY "Tool execution completed"
    MOVE "Logged three lines." TO TEXT-VALUE
    GOBACK.
