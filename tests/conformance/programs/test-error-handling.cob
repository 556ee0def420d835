IDENTIFICATION DIVISION.
PROGRAM-ID. TEST-ERROR-HANDLING.
*> Conformance fixture: takes no arguments and always fails. It ends with
*> RETURN-CODE 8, which makes the call a tool error (isError: true) that
*> still carries the program's outputs.
DATA DIVISION.
LINKAGE SECTION.
01 ERROR-HANDLING-OUT.
   *> Why the call failed.
   05 MESSAGE-TEXT PIC X(60).
PROCEDURE DIVISION USING ERROR-HANDLING-OUT.
    MOVE "This tool intentionally returns an error for testing" TO MESSAGE-TEXT
    MOVE 8 TO RETURN-CODE
    GOBACK.
