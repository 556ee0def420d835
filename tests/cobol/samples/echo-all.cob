IDENTIFICATION DIVISION.
PROGRAM-ID. echo-all.
*> Returns its input record unchanged (a byte-for-byte group MOVE).
DATA DIVISION.
LINKAGE SECTION.
01 ECHO-IN.
   COPY echo-fields.
01 ECHO-OUT.
   COPY "echo-fields.cpy".
PROCEDURE DIVISION USING ECHO-IN ECHO-OUT.
    MOVE ECHO-IN TO ECHO-OUT
    GOBACK.
END PROGRAM echo-all.
