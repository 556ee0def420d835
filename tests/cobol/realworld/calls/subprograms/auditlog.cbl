000100 IDENTIFICATION DIVISION.                                         BILLING 
000200 PROGRAM-ID. AUDITLOG.                                            BILLING 
000300*================================================================ BILLING 
000400* Audit trail line for the billing subsystem (no parameters).     BILLING 
000500*================================================================ BILLING 
000600 ENVIRONMENT DIVISION.                                            BILLING 
000700 DATA DIVISION.                                                   BILLING 
000800 WORKING-STORAGE SECTION.                                         BILLING 
000900 01  WS-AUDIT-LINE               PIC X(40)                        BILLING 
001000         VALUE 'AUDIT BILLING INVOICE TOTALLED'.                  BILLING 
001100 PROCEDURE DIVISION.                                              BILLING 
001200 0000-MAINLINE.                                                   BILLING 
001300     DISPLAY WS-AUDIT-LINE                                        BILLING 
001400     GOBACK.                                                      BILLING 
