IDENTIFICATION DIVISION.
PROGRAM-ID. add.
*> Add two decimal numbers exactly. COBOL's COMPUTE works in decimal, not
*> binary floating point, so 0.1 + 0.2 is 0.3 and 1.10 + 2.20 is 3.30:
*> COBOL has been adding money like this since 1959.
DATA DIVISION.
LINKAGE SECTION.
01 ADD-IN.
   *> The first addend: up to 29 integer digits and 8 decimal places.
   05 A PIC S9(29)V9(8).
   *> The second addend: up to 29 integer digits and 8 decimal places.
   05 B PIC S9(29)V9(8).
01 ADD-OUT.
   *> The exact sum a + b.
   05 TOTAL PIC S9(30)V9(8).
PROCEDURE DIVISION USING ADD-IN ADD-OUT.
    COMPUTE TOTAL = A + B
    GOBACK.
