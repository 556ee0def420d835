IDENTIFICATION DIVISION.
PROGRAM-ID. TEST-SIMPLE-TEXT.
*> Conformance fixture: takes no arguments and returns the fixed text
*> "This is a simple text response for testing."
DATA DIVISION.
LINKAGE SECTION.
01 SIMPLE-TEXT-OUT.
   *> The fixed response text.
   05 TEXT-VALUE PIC X(60).
PROCEDURE DIVISION USING SIMPLE-TEXT-OUT.
    MOVE "This is a simple text response for testing." TO TEXT-VALUE
    GOBACK.
