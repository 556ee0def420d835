IDENTIFICATION DIVISION.
PROGRAM-ID. add-numbers.
*> Adds two signed decimal numbers and returns their sum.
*>
*> Both addends may have up to 9 integer digits and 2 decimal places.
DATA DIVISION.
LINKAGE SECTION.
*> The two addends.
01 ADD-IN.
   *> First addend.
   05 A PIC S9(9)V99.
   *> Second addend.
   05 B PIC S9(9)V99.
01 ADD-OUT.
   05 SUM-AB PIC S9(10)V99. *> The sum of a and b.
PROCEDURE DIVISION USING ADD-IN ADD-OUT.
    COMPUTE SUM-AB = A + B
    GOBACK.
END PROGRAM add-numbers.
