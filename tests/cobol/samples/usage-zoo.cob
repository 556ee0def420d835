IDENTIFICATION DIVISION.
PROGRAM-ID. usage-zoo IS INITIAL PROGRAM.
*> Every storage format GnuCOBOL offers for numbers and text, in one
*> COMMAREA-style record that the program reads and writes back.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-COUNTER PIC 9(4) COMP VALUE 0.
01 WS-SAVE    PIC X(2000).
LINKAGE SECTION.
01 ZOO-AREA.
   *> Display numerics in every sign convention.
   05 DISPLAY-NUMBERS.
      10 D-UNSIGNED       PIC 9(5).
      10 D-TRAILING       PIC S9(3)V99.
      10 D-LEADING        PIC S9(3)V99 SIGN IS LEADING.
      10 D-LEAD-SEP       PIC S9(3)V99 SIGN LEADING SEPARATE CHARACTER.
      10 D-TRAIL-SEP      PIC S999V99 SIGN TRAILING SEPARATE.
      10 D-BLANK-ZERO     PIC 9(4) BLANK WHEN ZERO.
      10 D-SCALED-UP      PIC S9(3)PP.
      10 D-SCALED-DOWN    PIC SVPP99.
      10 D-DEFAULTED      PIC S9(3)V9 VALUE -12.5.
   05 SIGNED-GROUP SIGN LEADING SEPARATE.
      10 SG-A             PIC S9(2).
      10 SG-B             PIC S9(2)V9.
   05 PACKED-NUMBERS.
      10 P-ODD            PIC S9(5)V99 COMP-3.
      10 P-EVEN           PIC 9(4) PACKED-DECIMAL.
      10 P-UNSIGNED       PIC 9(3)V9 COMPUTATIONAL-3.
      10 P-BIG            PIC S9(18) COMP-3.
   05 INHERITED-PACKED USAGE IS COMP-3.
      10 IP-A             PIC S9(3).
      10 IP-B             PIC 9(2)V9.
   05 BINARY-NUMBERS.
      10 B-TINY           PIC 9(2) COMP.
      10 B-SHORT          PIC S9(4) BINARY.
      10 B-LONG           PIC S9(9)V99 COMP-4.
      10 B-WORD           PIC 9(9) COMPUTATIONAL.
      10 B-HUGE           PIC S9(18) COMPUTATIONAL-4.
      10 B-SCALED         PIC 9(3)PP COMP.
   05 INHERITED-BINARY BINARY.
      10 IB-A             PIC S9(4).
      10 IB-B             PIC 9(6).
   05 NATIVE-NUMBERS.
      10 N-SIGNED         PIC S9(4) COMP-5.
      10 N-UNSIGNED       PIC 9(9) COMPUTATIONAL-5.
      10 N-DECIMAL        PIC S9(7)V99 COMP-5.
   05 FLOATS.
      10 F-SINGLE         COMP-1.
      10 F-DOUBLE         USAGE IS COMPUTATIONAL-2.
   05 ALIGNED-ITEMS.
      10 AL-TAG           PIC X.
      10 AL-BIN           PIC S9(9) COMP SYNC.
      10 AL-TAG2          PIC X.
      10 AL-NATIVE        PIC S9(18) COMP-5 SYNCHRONIZED.
      10 AL-FLOAT         COMP-2 SYNC.
   05 TEXTS.
      10 T-ALNUM          PIC X(10).
      10 T-ALPHA          PIC A(5).
      10 T-RIGHT          PIC X(6) JUSTIFIED RIGHT.
      10 T-MIXED          PIC XX99XX.
      10 T-SPACES         PIC X(3) VALUE SPACES.
      10 T-ZEROS          PIC X(3) VALUE ZEROS.
      10 T-ALL            PIC X(4) VALUE ALL "-".
      10 T-QUOTED         PIC X(8) VALUE 'it''s'.
      10 FILLER           PIC X(2) VALUE X"0D0A".
PROCEDURE DIVISION USING BY REFERENCE ZOO-AREA.
    ADD 1 TO WS-COUNTER
    MOVE ZOO-AREA TO WS-SAVE
    MOVE WS-SAVE TO ZOO-AREA
    GOBACK.
