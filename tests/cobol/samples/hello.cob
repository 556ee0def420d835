       IDENTIFICATION DIVISION.
       PROGRAM-ID. HELLO.
      *> Says hello on standard output; takes no arguments.
       PROCEDURE DIVISION.
           DISPLAY "Hello from COBOL"
           GOBACK.
