      *> Unsigned whole number.
           05 COUNT-U          PIC 9(4).
      *> Money amount.
           05 AMOUNT           PIC S9(5)V99.
           05 LEAD-SIGN        PIC S9(3) SIGN LEADING.
           05 SEP-LEAD         PIC S9(3)V9 SIGN IS LEADING SEPARATE.
           05 SEP-TRAIL        PIC S9(3) SIGN TRAILING SEPARATE.
           05 BLANK-ZERO       PIC 9(4) BLANK WHEN ZERO.
           05 PACKED-ODD       PIC S9(5)V99 COMP-3.
           05 PACKED-EVEN      PIC 9(4) PACKED-DECIMAL.
           05 BIN-TINY         PIC 9(2) BINARY.
           05 BIN-SHORT        PIC S9(4) COMP.
           05 BIN-LONG         PIC S9(9)V99 COMPUTATIONAL-4.
           05 BIN-HUGE         PIC S9(18) COMP.
           05 NATIVE-S         PIC S9(4) COMP-5.
           05 NATIVE-U         PIC 9(9) COMPUTATIONAL-5.
           05 HUGE-DISPLAY     PIC S9(20)V9(18).
           05 HUGE-PACKED      PIC S9(31)V9(7) COMP-3.
           05 FLOAT-S          COMP-1.
           05 FLOAT-D          USAGE IS COMP-2.
           05 SCALED-UP        PIC 9(3)PP.
           05 SCALED-DOWN      PIC SVPP99.
           05 NAME             PIC X(12).
           05 INITIALS         PIC A(3).
           05 RIGHT-TEXT       PIC X(6) JUSTIFIED RIGHT.
           05 STATUS-CODE      PIC X.
              88 ACTIVE        VALUE "A".
              88 CLOSED        VALUE "C" "X".
              88 PENDING       VALUE "P" THRU "R".
           05 LEVEL-NUM        PIC 99.
              88 LOW-LEVEL     VALUE 0 THRU 9.
              88 TOP-LEVEL     VALUE 99.
           05 SYNC-TAG         PIC X.
           05 SYNC-BIN         PIC S9(9) COMP SYNC.
           05 ITEMS OCCURS 2 TIMES.
              10 ITEM-CODE     PIC X(3).
              10 ITEM-QTY      PIC S9(3) COMP-3.
              10 ITEM-FLAGS    PIC 9 OCCURS 3.
           05 PACKED-GROUP     USAGE COMP-3.
              10 PG-A          PIC S9(3).
              10 PG-B          PIC 9(2)V9.
           05 FILLER           PIC X(2).
           05 DATE-NUM         PIC 9(8).
           05 DATE-PARTS REDEFINES DATE-NUM.
              10 DATE-YYYY     PIC 9(4).
              10 DATE-MMDD     PIC 9(4).
