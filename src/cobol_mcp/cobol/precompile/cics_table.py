"""What the EXEC CICS translator knows: the commands it carries, their options, and CICS's named values.

Written from IBM's CICS application programming command reference (the option lists, which options are
required, the format of each argument) and its tables of EIBFN function codes and RESP values.

Each command's options are written as ``NAME=kind`` in the order its CALL passes them (see
:mod:`.cics_generate`). A kind says what the argument is:

=========  ============================================================================================
(none)     a flag: no argument
``nN``     a name or other character data-value of N bytes (FILE 8, PROGRAM 8, QNAME 16 …): read
``xN``     a character data-area of N bytes the command sets (ASSIGN USERID, FORMATTIME YYYYMMDD …)
``h f d``  a halfword, fullword or doubleword binary data-value (LENGTH, FLENGTH, VALUE of DCOUNTER …)
``a``      a data-area the command reads (FROM, RESOURCE …), by reference
``p``      a pointer-ref (SET, ADDRESS COMMAREA …) or pointer-value (DATAPOINTER); SET of a command that
           gives data is ``p<>``: passed as it was, so a command that gives none leaves it unchanged
``l``      a label (HANDLE ABEND LABEL): a paragraph or section of the program
=========  ============================================================================================

A suffix ``<`` marks an argument the command sets, ``<>`` one it reads and sets; ``?`` an argument that
may be left out (``DATESEP`` alone means ``DATESEP('/')``). ``required``: groups of alternatives, one of
each group must be given (``FILE|DATASET``); ``one_of``: options that exclude each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "COMMANDS",
    "CONDITIONS",
    "DFHVALUES",
    "NOT_CARRIED",
    "OPTION_ALIASES",
    "REFUSED",
    "Command",
    "OptionKind",
    "option_kind",
]


@dataclass(frozen=True)
class OptionKind:
    code: str  # "", "n", "x", "h", "f", "d", "a", "p", "l"
    size: int = 0  # of n and x
    reads: bool = True  # the command reads the argument
    sets: bool = False  # the command sets it
    optional_arg: bool = False

    @property
    def takes_arg(self) -> bool:
        return self.code != ""

    @property
    def numeric(self) -> bool:
        return self.code in ("h", "f", "d")


def option_kind(spec: str) -> OptionKind:
    """``n8``, ``h<>``, ``a<``, ``n1?`` … as an :class:`OptionKind` (see the module)."""
    if not spec:
        return OptionKind("")
    optional = spec.endswith("?")
    spec = spec.rstrip("?")
    sets = spec.endswith("<") or spec.endswith("<>")
    reads = not sets or spec.endswith("<>")
    core = spec.rstrip("<>")
    return OptionKind(core[0], int(core[1:] or 0), reads, sets, optional)


@dataclass(frozen=True)
class Command:
    name: str  # "READ", "WRITEQ TS", "GET COUNTER" …
    eibfn: int  # the function code CICS puts in EIBFN (0 where this translator knows none)
    options: dict[str, OptionKind]  # in the order of the CALL's arguments
    required: tuple[tuple[str, ...], ...] = ()
    one_of: tuple[tuple[str, ...], ...] = ()
    any_option: bool = False  # at least one option (ASSIGN, ADDRESS)
    conditions: bool = False  # options are condition names (HANDLE/IGNORE CONDITION)
    notes: dict[str, str] = field(default_factory=dict)  # option -> why it is refused


_FILE_READ = ("FILE=n8 INTO=a< SET=p<> LENGTH=h<> RIDFLD=a<> KEYLENGTH=h REQID=h SYSID=n4 TOKEN=f< RBA RRN "
              "XRBA DEBKEY DEBREC GENERIC EQUAL GTEQ UPDATE NOSUSPEND UNCOMMITTED CONSISTENT REPEATABLE")  # fmt: skip
_COUNTER = "COUNTER=n16 POOL=n8"


def _cmd(name: str, eibfn: int, options: str, required: str = "", one_of: str = "", *, any_option: bool = False,
         conditions: bool = False, notes: dict[str, str] | None = None) -> Command:  # fmt: skip
    parsed = {}
    for word in options.split():
        opt, _, spec = word.partition("=")
        parsed[opt] = option_kind(spec)
    req = tuple(tuple(group.split("|")) for group in required.split())
    excl = tuple(tuple(group.split("|")) for group in one_of.split())
    return Command(name, eibfn, parsed, req, excl, any_option, conditions, notes or {})


def _counter(name: str, eibfn: int, extra: str, wide: bool) -> Command:
    word = "DCOUNTER" if wide else "COUNTER"
    value = "d" if wide else "f"
    return _cmd(f"{name} {word}", eibfn, f"{word}=n16 POOL=n8 " + extra.replace("#", value), word)


_LIST = [
    # program control
    _cmd("LINK", 0x0E02, "PROGRAM=n8 COMMAREA=a<> LENGTH=h DATALENGTH=h CHANNEL=n16 SYSID=n4 TRANSID=n4 "
         "INPUTMSG=a INPUTMSGLEN=h SYNCONRETURN", "PROGRAM", "COMMAREA|CHANNEL"),
    _cmd("XCTL", 0x0E04, "PROGRAM=n8 COMMAREA=a<> LENGTH=h CHANNEL=n16 INPUTMSG=a INPUTMSGLEN=h", "PROGRAM",
         "COMMAREA|CHANNEL"),
    _cmd("RETURN", 0x0E08, "TRANSID=n4 COMMAREA=a LENGTH=h CHANNEL=n16 INPUTMSG=a INPUTMSGLEN=h IMMEDIATE "
         "ENDACTIVITY", notes={"TRANSID": "RETURN TRANSID (a pseudo-conversation) needs a terminal",
                                "IMMEDIATE": "RETURN IMMEDIATE needs a terminal"}),
    _cmd("ABEND", 0x0E0C, "ABCODE=n4 CANCEL NODUMP"),
    _cmd("HANDLE ABEND", 0x0E0E, "PROGRAM=n8 LABEL=l CANCEL RESET", one_of="PROGRAM|LABEL|CANCEL|RESET"),
    _cmd("HANDLE CONDITION", 0x0204, "", conditions=True),
    _cmd("IGNORE CONDITION", 0x020A, "", conditions=True),
    _cmd("PUSH HANDLE", 0x020C, ""),
    _cmd("POP HANDLE", 0x020E, ""),
    _cmd("ASSIGN", 0x0208, "ABCODE=x4< APPLID=x8< CHANNEL=x16< CWALENG=h< INVOKINGPROG=x8< NETNAME=x8< "
         "OPID=x3< PROGRAM=x8< RETURNPROG=x8< STARTCODE=x2< SYSID=x4< TASKPRIORITY=h< TCTUALENG=h< "
         "TERMCODE=x2< TWALENG=h< USERID=x8< USERNAME=x20< USERPRIORITY=f<", any_option=True),
    _cmd("ADDRESS", 0x0202, "ACEE=p< COMMAREA=p< CWA=p< EIB=p< TCTUA=p< TWA=p<", any_option=True),
    _cmd("GETMAIN", 0x0C02, "SET=p< FLENGTH=f LENGTH=h INITIMG=n1 BELOW SHARED NOSUSPEND USERDATAKEY "
         "CICSDATAKEY", "SET FLENGTH|LENGTH", "FLENGTH|LENGTH"),
    _cmd("FREEMAIN", 0x0C04, "DATA=a DATAPOINTER=p", "DATA|DATAPOINTER", "DATA|DATAPOINTER"),
    _cmd("ENQ", 0x1204, "RESOURCE=a LENGTH=h MAXLIFETIME=f UOW TASK LUW NOSUSPEND", "RESOURCE",
         "UOW|TASK|LUW|MAXLIFETIME"),
    _cmd("DEQ", 0x1206, "RESOURCE=a LENGTH=h MAXLIFETIME=f UOW TASK LUW", "RESOURCE", "UOW|TASK|LUW|MAXLIFETIME"),
    _cmd("ASKTIME", 0x4A02, "ABSTIME=d<"),
    _cmd("FORMATTIME", 0x4A04, "ABSTIME=d DATE=x8< DATEFORM=x6< DATESEP=n1? DATESTRING=x64< DAYCOUNT=f< "
         "DAYOFMONTH=f< DAYOFWEEK=f< DDMMYY=x8< DDMMYYYY=x10< FULLDATE=x10< MILLISECONDS=f< MMDDYY=x8< "
         "MMDDYYYY=x10< MONTHOFYEAR=f< STRINGFORMAT=f STRINGZONE=f TIME=x8< TIMESEP=n1? YEAR=f< "
         "YYDDD=x6< YYDDMM=x8< YYMMDD=x8< YYYYDDD=x8< YYYYDDMM=x10< YYYYMMDD=x10<", "ABSTIME"),
    _cmd("DELAY", 0x1004, "INTERVAL=f TIME=f FOR HOURS=f MINUTES=f SECONDS=f MILLISECS=f UNTIL REQID=n8", "",
         "INTERVAL|TIME|FOR|UNTIL"),
    _cmd("SYNCPOINT", 0x1602, "ROLLBACK"),
    # file control
    _cmd("READ", 0x0602, _FILE_READ, "FILE INTO|SET RIDFLD", "INTO|SET GTEQ|EQUAL"),
    _cmd("READNEXT", 0x060E, _FILE_READ, "FILE INTO|SET RIDFLD", "INTO|SET"),
    _cmd("READPREV", 0x0610, _FILE_READ, "FILE INTO|SET RIDFLD", "INTO|SET"),
    _cmd("WRITE", 0x0604, "FILE=n8 FROM=a RIDFLD=a<> KEYLENGTH=h LENGTH=h SYSID=n4 RBA RRN XRBA MASSINSERT "
         "NOSUSPEND", "FILE FROM RIDFLD"),
    _cmd("REWRITE", 0x0606, "FILE=n8 FROM=a LENGTH=h SYSID=n4 TOKEN=f NOSUSPEND", "FILE FROM"),
    _cmd("DELETE", 0x0608, "FILE=n8 RIDFLD=a KEYLENGTH=h NUMREC=h< SYSID=n4 TOKEN=f RBA RRN XRBA GENERIC "
         "NOSUSPEND", "FILE"),
    _cmd("UNLOCK", 0x060A, "FILE=n8 SYSID=n4 TOKEN=f", "FILE"),
    _cmd("STARTBR", 0x060C, "FILE=n8 RIDFLD=a<> KEYLENGTH=h REQID=h SYSID=n4 RBA RRN XRBA DEBKEY DEBREC "
         "GENERIC EQUAL GTEQ", "FILE RIDFLD", "GTEQ|EQUAL"),
    _cmd("RESETBR", 0x0614, "FILE=n8 RIDFLD=a<> KEYLENGTH=h REQID=h SYSID=n4 RBA RRN XRBA GENERIC EQUAL GTEQ",
         "FILE RIDFLD", "GTEQ|EQUAL"),
    _cmd("ENDBR", 0x0612, "FILE=n8 REQID=h SYSID=n4", "FILE"),
    # temporary storage and transient data
    _cmd("WRITEQ TS", 0x0A02, "QUEUE=n8 QNAME=n16 FROM=a LENGTH=h NUMITEMS=h< ITEM=h<> SYSID=n4 REWRITE MAIN "
         "AUXILIARY NOSUSPEND", "QUEUE|QNAME FROM", "QUEUE|QNAME MAIN|AUXILIARY"),
    _cmd("READQ TS", 0x0A04, "QUEUE=n8 QNAME=n16 INTO=a< SET=p<> LENGTH=h<> NUMITEMS=h< ITEM=h SYSID=n4 NEXT",
         "QUEUE|QNAME INTO|SET", "QUEUE|QNAME INTO|SET ITEM|NEXT"),
    _cmd("DELETEQ TS", 0x0A06, "QUEUE=n8 QNAME=n16 SYSID=n4", "QUEUE|QNAME", "QUEUE|QNAME"),
    _cmd("WRITEQ TD", 0x0802, "QUEUE=n4 FROM=a LENGTH=h SYSID=n4", "QUEUE FROM"),
    _cmd("READQ TD", 0x0804, "QUEUE=n4 INTO=a< SET=p<> LENGTH=h<> SYSID=n4 NOSUSPEND", "QUEUE INTO|SET",
         "INTO|SET"),
    _cmd("DELETEQ TD", 0x0806, "QUEUE=n4 SYSID=n4", "QUEUE"),
    # terminal control and BMS text: served for a task without a terminal, as CICS serves it (NOTALLOC, ABM3)
    _cmd("RECEIVE", 0x0402, "INTO=a< SET=p<> LENGTH=h<> FLENGTH=f<> MAXLENGTH=h MAXFLENGTH=f NOTRUNCATE ASIS BUFFER "
         "CONVID=n4 SESSION=n4", "", "INTO|SET LENGTH|FLENGTH MAXLENGTH|MAXFLENGTH",
         notes={"CONVID": "RECEIVE CONVID (a conversation with another program) is not supported",
                "SESSION": "RECEIVE SESSION (a conversation with another system) is not supported"}),
    _cmd("SEND", 0x0404, "FROM=a LENGTH=h FLENGTH=f WAIT INVITE LAST ERASE DEFAULT ALTERNATE CTLCHAR=n1 STRFIELD "
         "DEFRESP CNOTCOMPL CONVID=n4 SESSION=n4", "", "LENGTH|FLENGTH",
         notes={"CONVID": "SEND CONVID (a conversation with another program) is not supported",
                "SESSION": "SEND SESSION (a conversation with another system) is not supported"}),
    _cmd("SEND TEXT", 0, "FROM=a LENGTH=h ERASE DEFAULT ALTERNATE FREEKB ALARM CURSOR=h PRINT NLEOM L40 L64 L80 "
         "HONEOM WAIT LAST HEADER=a TRAILER=a JUSTIFY=h JUSFIRST JUSLAST ACCUM PAGING TERMINAL SET=p< REQID=n2 "
         "OUTPARTN=n2 ACTPARTN=n2 FORMFEED FMHPARM=n1 LDC=n2 MSR=n1 NOEDIT MAPPED", "FROM"),
    _cmd("SEND CONTROL", 0, "ERASE ERASEAUP DEFAULT ALTERNATE FREEKB ALARM FRSET CURSOR=h PRINT NLEOM L40 L64 L80 "
         "HONEOM ACCUM PAGING TERMINAL WAIT LAST SET=p< REQID=n2 MSR=n1 LDC=n2 OUTPARTN=n2 ACTPARTN=n2 FORMFEED"),
    # interval control: a transaction started after the starter's unit of work commits, and its data
    _cmd("START", 0x1008, "TRANSID=n4 FROM=a LENGTH=h FMH INTERVAL=f TIME=f AFTER AT HOURS=f MINUTES=f SECONDS=f "
         "TERMID=n4 USERID=n8 SYSID=n4 RTRANSID=n4 RTERMID=n4 QUEUE=n8 REQID=n8 NOCHECK PROTECT CHANNEL=n16",
         "TRANSID", "INTERVAL|TIME|AFTER|AT FROM|CHANNEL"),
    _cmd("RETRIEVE", 0x100A, "INTO=a< SET=p<> LENGTH=h<> RTRANSID=x4< RTERMID=x4< QUEUE=x8< WAIT", "INTO|SET",
         "INTO|SET"),
    # the asynchronous API: a child transaction run at once, in its own unit of work, its channel fetched
    _cmd("RUN", 0, "TRANSID=n4 CHANNEL=n16 CHILD=x16<", "TRANSID CHILD"),
    _cmd("FETCH", 0, "CHILD=n16 ANY=x16< CHANNEL=x16< COMPSTATUS=f< ABCODE=x4< NOSUSPEND TIMEOUT=f", "CHILD|ANY",
         "CHILD|ANY"),
    _cmd("FREE", 0, "CHILD=n16"),
    # channels and containers
    _cmd("PUT CONTAINER", 0x3416, "CONTAINER=n16 CHANNEL=n16 FROM=a FLENGTH=f BIT CHAR DATATYPE=f APPEND",
         "CONTAINER FROM", "BIT|CHAR|DATATYPE"),
    _cmd("GET CONTAINER", 0x3414, "CONTAINER=n16 CHANNEL=n16 INTO=a< SET=p<> FLENGTH=f<> NODATA",
         "CONTAINER INTO|SET|NODATA", "INTO|SET|NODATA"),
    _cmd("DELETE CONTAINER", 0x3410, "CONTAINER=n16 CHANNEL=n16", "CONTAINER"),
    _cmd("MOVE CONTAINER", 0x3412, "CONTAINER=n16 AS=n16 CHANNEL=n16 TOCHANNEL=n16", "CONTAINER AS"),
    _cmd("STARTBROWSE CONTAINER", 0, "CHANNEL=n16 BROWSETOKEN=f<", "BROWSETOKEN"),
    _cmd("GETNEXT CONTAINER", 0, "CONTAINER=x16< BROWSETOKEN=f", "CONTAINER BROWSETOKEN"),
    _cmd("ENDBROWSE CONTAINER", 0, "BROWSETOKEN=f", "BROWSETOKEN"),
]  # fmt: skip
for _wide in (False, True):
    _LIST += [
        _counter("DEFINE", 0, "VALUE=# MINIMUM=# MAXIMUM=# NOSUSPEND", _wide),
        _counter("GET", 0, "VALUE=#< INCREMENT=# COMPAREMIN=# COMPAREMAX=# REDUCE WRAP NOSUSPEND", _wide),
        _counter("PUT", 0, "INCREMENT=# REDUCE NOSUSPEND", _wide),
        _counter("UPDATE", 0, "VALUE=# COMPAREMIN=# COMPAREMAX=# NOSUSPEND", _wide),
        _counter("QUERY", 0, "VALUE=#< MINIMUM=#< MAXIMUM=#< NOSUSPEND", _wide),
        _counter("REWIND", 0, "INCREMENT=# NOSUSPEND", _wide),
        _counter("DELETE", 0, "NOSUSPEND", _wide),
    ]

COMMANDS: dict[str, Command] = {c.name: c for c in _LIST}

# The old spelling of an option, as the translator still takes it: option -> what it stands for.
OPTION_ALIASES = {"DATASET": "FILE"}

# Commands this runtime will not carry: the first words -> the reason.
REFUSED = {
    "SEND MAP": "SEND MAP is a BMS screen: served once screens are (a tool has no terminal)",
    "RECEIVE MAP": "RECEIVE MAP is a BMS screen: served once screens are (a tool has no terminal)",
    "SEND PAGE": "SEND PAGE is BMS paging: served once screens are (a tool has no terminal)",
    "PURGE MESSAGE": "PURGE MESSAGE is BMS paging: served once screens are (a tool has no terminal)",
    "CONVERSE": "CONVERSE needs a terminal: a tool has none",
    "HANDLE AID": "HANDLE AID is for a terminal's attention keys: served once screens are (a tool has none)",
    "CANCEL": "CANCEL (of a STARTed transaction) is not supported",
    "ISSUE": "ISSUE (terminal and session control) is not supported",
    "ALLOCATE": "ALLOCATE (a session) is not supported",
    "LOAD": "LOAD of a program or table is not supported",
}

# DFHRESP(name): the condition's value in EIBRESP and RESP (IBM: EIB response codes).
CONDITIONS = {
    "NORMAL": 0, "ERROR": 1, "RDATT": 2, "WRBRK": 3, "EOF": 4, "EODS": 5, "EOC": 6, "INBFMH": 7,
    "ENDINPT": 8, "NONVAL": 9, "NOSTART": 10, "TERMIDERR": 11, "FILENOTFOUND": 12, "DSIDERR": 12,
    "NOTFND": 13, "DUPREC": 14, "DUPKEY": 15, "INVREQ": 16, "IOERR": 17, "NOSPACE": 18, "NOTOPEN": 19,
    "ENDFILE": 20, "ILLOGIC": 21, "LENGERR": 22, "QZERO": 23, "SIGNAL": 24, "QBUSY": 25, "ITEMERR": 26,
    "PGMIDERR": 27, "TRANSIDERR": 28, "ENDDATA": 29, "INVTSREQ": 30, "EXPIRED": 31, "RETPAGE": 32,
    "RTEFAIL": 33, "RTESOME": 34, "TSIOERR": 35, "MAPFAIL": 36, "INVERRTERM": 37, "INVMPSZ": 38,
    "IGREQID": 39, "OVERFLOW": 40, "INVLDC": 41, "NOSTG": 42, "JIDERR": 43, "QIDERR": 44, "NOJBUFSP": 45,
    "DSSTAT": 46, "SELNERR": 47, "FUNCERR": 48, "UNEXPIN": 49, "NOPASSBKRD": 50, "NOPASSBKWR": 51,
    "SYSIDERR": 53, "ISCINVREQ": 54, "ENQBUSY": 55, "ENVDEFERR": 56, "IGREQCD": 57, "SESSIONERR": 58,
    "SYSBUSY": 59, "SESSBUSY": 60, "NOTALLOC": 61, "CBIDERR": 62, "INVEXITREQ": 63, "INVPARTNSET": 64,
    "INVPARTN": 65, "PARTNFAIL": 66, "USERIDERR": 69, "NOTAUTH": 70, "VOLIDERR": 71, "SUPPRESSED": 72,
    "RESIDERR": 75, "NOSPOOL": 80, "TERMERR": 81, "ROLLEDBACK": 82, "END": 83, "DISABLED": 84,
    "ALLOCERR": 85, "STRELERR": 86, "OPENERR": 87, "SPOLBUSY": 88, "SPOLERR": 89, "NODEIDERR": 90,
    "TASKIDERR": 91, "TCIDERR": 92, "DSNNOTFOUND": 93, "LOADING": 94, "MODELIDERR": 95,
    "OUTDESCRERR": 96, "PARTNERIDERR": 97, "PROFILEIDERR": 98, "NETNAMEIDERR": 99, "LOCKED": 100,
    "RECORDBUSY": 101, "UOWNOTFOUND": 102, "UOWLNOTFOUND": 103, "CONTAINERERR": 110, "TOKENERR": 112,
    "CHANNELERR": 122, "CCSIDERR": 123, "CODEPAGEERR": 125, "NOTFINISHED": 113,
}  # fmt: skip

# DFHVALUE(name): the CVDA values the carried commands take or give (IBM: CVDA numeric values).
DFHVALUES = {
    "BASE": 10, "KEYED": 8, "NOTKEYED": 9, "ESDS": 5, "KSDS": 6, "RRDS": 7, "FIXED": 12, "VARIABLE": 13,
    "OPEN": 18, "CLOSED": 19, "ENABLED": 23, "DISABLED": 24, "BELOW": 159, "ACTIVE": 181, "TASK": 233,
    "AUXILIARY": 247, "BIT": 1020, "APPEND": 1036, "BINARY": 1038, "NOTAPPLIC": 1, "IGNORE": 1, "VSAM": 3,
    "REMOTE": 4, "PATH": 11, "UNDEFINED": 14, "BLOCKED": 16, "UNBLOCKED": 17, "OPENING": 20, "CLOSING": 21,
    "DISABLING": 25, "RECOVERABLE": 29, "NOTRECOVABLE": 30, "READABLE": 35, "NOTREADABLE": 36, "UPDATABLE": 37,
    "NOTUPDATABLE": 38, "BROWSABLE": 39, "NOTBROWSABLE": 40, "ADDABLE": 41, "NOTADDABLE": 42, "DELETABLE": 43,
    "NOTDELETABLE": 44, "ANY": 158, "ALTERNATE": 197, "INPUT": 226, "OUTPUT": 227,
    # FETCH CHILD|ANY COMPSTATUS: ABEND is IBM's number; NORMAL and SECERROR are this translator's own (IBM's
    # were not at hand), so a program comparing with DFHVALUE(NORMAL) works as on CICS.
    "ABEND": 900, "NORMAL": 9021, "SECERROR": 9022,
    # FORMATTIME STRINGFORMAT and STRINGZONE: these four numbers are this translator's own, IBM's not
    # having been at hand. DFHVALUE(RFC3339), or a fullword MOVEd from it, works as on CICS; a program
    # that hard-codes IBM's number gets INVREQ.
    "RFC1123": 9001, "RFC3339": 9002, "UTC": 9011, "LOCAL": 9012,
}  # fmt: skip

# Names CICS has for DFHRESP or DFHVALUE whose numbers this translator does not carry (yet): a program that
# uses one is told so, not that CICS has no such name.
NOT_CARRIED = frozenset({
    "TIMEDOUT", "INCOMPLETE", "APPNOTFOUND", "POOLERR", "TIMERERR", "SYMBOLERR", "TEMPLATERR", "NOTSUPERUSER",
    "CSDERR", "DUPRES", "RESUNAVAIL", "ACTIVITYBUSY", "ACTIVITYERR", "EVENTERR", "PROCESSBUSY", "PROCESSERR",
    "JSONERR", "LINKABEND", "MULTIPART", "CHAR", "DPLSUBSET", "FULLAPI", "THREADSAFE", "QUASIRENT", "REQUIRED",
    "MAIN", "SHARED", "EXCLUSIVE", "INSTALLED", "NOTINSTALLED", "DYNAMIC", "STATIC", "RELEASED", "ACQUIRED",
    "INSERVICE", "OUTSERVICE", "CICSSECURITY", "NOTPURGEABLE", "PURGEABLE", "FIRSTQUIESCE",
})  # fmt: skip
