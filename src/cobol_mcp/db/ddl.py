"""DB2 DDL into one target's: CREATE TABLE (types, defaults, identity, keys) and CREATE INDEX.

Types on SQLite: CHAR(n)/VARCHAR(n) with the RTRIM collation, so that comparisons ignore trailing
blanks as DB2's do, and a length check; DECIMAL(p,s) stored as the scaled integer (``12.50`` in
DECIMAL(15,2) is 1250: SUM, ORDER BY and comparisons stay exact, p ≤ 18 so it fits 64 bits), with a
check that it is one; DATE, TIME, TIMESTAMP as DB2's ISO text (``2026-11-25``, ``13.45.12``,
``2026-11-25-13.45.12.000000``) with checks of their shape (SQLCODE -180) and value (-181).
``GENERATED … AS IDENTITY`` on SQLite is ``INTEGER PRIMARY KEY AUTOINCREMENT`` (it must be the
table's primary key, INCREMENT BY 1; START WITH seeds ``sqlite_sequence``); on PostgreSQL it is
PostgreSQL's own identity. Storage clauses after the column list (``IN db.ts``, ``CCSID`` …) are
dropped and named in ``skipped``. DB2's ``FOREIGN KEY name (…)`` is ``CONSTRAINT name FOREIGN KEY (…)``;
``ALTER TABLE … ADD [COLUMN]`` and ``ALTER TABLE … [ADD] FOREIGN KEY`` are read here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .catalog import Column, Table, Untranslatable
from .dates import datetime_text
from .expr import Rewriter, matching, now_sql, split_args
from .lexer import Tok, untokenize
from .names import qualified_name, render_name, render_word

__all__ = ["Ddl", "alter_table_add", "alter_table_key", "create_index", "create_table"]

_INT_RANGE = {"SMALLINT": 32767, "INTEGER": 2147483647}
_TYPES = {"CHARACTER": "CHAR", "INT": "INTEGER", "DEC": "DECIMAL", "NUMERIC": "DECIMAL", "FLOAT": "DOUBLE",
          "GRAPHIC": "CHAR", "VARGRAPHIC": "VARCHAR", "LONG": "VARCHAR"}  # fmt: skip
_KNOWN = {"CHAR", "VARCHAR", "DECIMAL", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME", "TIMESTAMP",
          "DOUBLE", "REAL", "CLOB", "BLOB", "DBCLOB"}  # fmt: skip
_FMT = {
    "DATE": "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]",
    "TIME": "[0-9][0-9].[0-9][0-9].[0-9][0-9]",
    "TIMESTAMP": "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-[0-9][0-9].[0-9][0-9].[0-9][0-9]." + "[0-9]" * 6,
}
_PG_TYPES = {"DECIMAL": "NUMERIC", "DOUBLE": "DOUBLE PRECISION", "TIME": "TIME(0)", "TIMESTAMP": "TIMESTAMP(6)",
             "CLOB": "TEXT", "DBCLOB": "TEXT", "BLOB": "BYTEA"}  # fmt: skip


@dataclass
class Ddl:
    statements: list[str]  # to execute in order
    table: Table | None = None  # a created table, for the catalog
    skipped: list[str] = field(default_factory=list)  # clauses left out, as written


def _value(tokens: list[Tok], i: int) -> tuple[list[Tok], int]:
    """A default's value: a literal, a signed number, NULL, or CURRENT DATE/TIME/TIMESTAMP."""
    if tokens[i].text in ("-", "+") and i + 1 < len(tokens):
        return tokens[i : i + 2], i + 2
    if tokens[i].is_kw("CURRENT") and i + 1 < len(tokens):
        return tokens[i : i + 2], i + 2
    return tokens[i : i + 1], i + 1


def _column(tokens: list[Tok], table: str, target: str, rw: Rewriter) -> tuple[Column, str, list[str]]:
    """One column definition: its model, its target text, and what goes after the table."""
    line = tokens[0].line
    name, i = tokens[0].text if tokens[0].kind == "id" else tokens[0].text[1:-1], 1
    if i >= len(tokens) or tokens[i].kind != "id":
        raise Untranslatable(line, f"column {name} has no data type")
    typ = _TYPES.get(tokens[i].text, tokens[i].text)
    i += 1
    if typ == "CHAR" and i < len(tokens) and tokens[i].is_kw("VARYING"):
        typ, i = "VARCHAR", i + 1
    if typ == "DOUBLE" and i < len(tokens) and tokens[i].is_kw("PRECISION"):
        i += 1
    if typ not in _KNOWN:
        raise Untranslatable(line, f"column {name}: the DB2 type {tokens[i - 1].text} is not supported")
    size: list[int] = []
    if i < len(tokens) and tokens[i].text == "(":
        close = matching(tokens, i)
        size = [int(p[0].text) for p in split_args(tokens[i + 1 : close]) if p and p[0].kind == "num"]
        i = close + 1
    length = size[0] if size else {"CHAR": 1, "DECIMAL": 5}.get(typ)
    scale = size[1] if len(size) > 1 and typ == "DECIMAL" else 0
    if typ == "TIMESTAMP":
        length = None
    col = Column(name, typ, length, scale)
    default: str | None = None
    constraints: list[str] = []
    identity: list[str] | None = None
    while i < len(tokens):
        tok = tokens[i]
        words = [t.text for t in tokens[i : i + 3]]
        if words[:2] == ["NOT", "NULL"]:
            col.nullable, i = False, i + 2
        elif words[:2] == ["WITH", "DEFAULT"] or words[:1] == ["DEFAULT"]:
            i += 2 if words[0] == "WITH" else 1
            if i < len(tokens) and not tokens[i].is_kw("NOT", "PRIMARY", "UNIQUE", "REFERENCES", "CHECK", "CONSTRAINT"):
                value, i = _value(tokens, i)
                default = _default(value, col, target, rw)
            else:
                default = _type_default(col, target)
        elif words[0] == "GENERATED" and "IDENTITY" in [t.text for t in tokens[i : i + 5]]:
            col.generated = "ALWAYS" if words[1] == "ALWAYS" else "BY DEFAULT"
            i += 4 if col.generated == "ALWAYS" else 5
            identity = []
            if i < len(tokens) and tokens[i].text == "(":
                close = matching(tokens, i)
                identity = _identity_options(tokens[i + 1 : close])
                i = close + 1
        elif words[:2] == ["PRIMARY", "KEY"]:
            constraints.append("PRIMARY KEY")
            i += 2
        elif tok.is_kw("UNIQUE"):
            constraints.append("UNIQUE")
            i += 1
        elif words[:2] == ["FOR", "BIT"] or words[:2] == ["FOR", "SBCS"] or words[:2] == ["FOR", "MIXED"]:
            i += 3
        elif tok.is_kw("CCSID"):
            i += 2
        elif tok.is_kw("REFERENCES", "CHECK", "CONSTRAINT"):
            constraints.append(rw.rewrite(tokens[i:]))
            i = len(tokens)
        else:
            raise Untranslatable(tok.line, f"column {name}: {tok.text} is not understood here")
    if col.generated and (typ not in ("SMALLINT", "INTEGER", "BIGINT") and not (typ == "DECIMAL" and scale == 0)):
        raise Untranslatable(line, f"identity column {name} must be an integer type")
    if col.generated:
        col.nullable = False
    text = _column_text(col, default, constraints, identity, target, line)
    return col, text, identity or []


def _identity_options(tokens: list[Tok]) -> list[str]:
    """``START WITH 1, INCREMENT BY 1, CACHE 20`` (commas optional, as DB2 allows) as option strings."""
    options: list[str] = []
    words = [t.text for t in tokens if t.text != ","]
    i = 0
    while i < len(words):
        take = 1
        if words[i] in ("START", "INCREMENT"):
            take = 3 + (i + 2 < len(words) and words[i + 2] in ("-", "+"))
        elif words[i] in ("CACHE", "MINVALUE", "MAXVALUE"):
            take = 2 + (i + 1 < len(words) and words[i + 1] in ("-", "+"))
        elif words[i] == "NO":
            take = 2
        options.append(" ".join(words[i : i + take]).replace("- ", "-").replace("+ ", ""))
        i += take
    return options


def _column_text(
    col: Column, default: str | None, constraints: list[str], identity: list[str] | None, target: str, line: int
) -> str:
    name = render_name(col.name, target)
    if target == "postgresql":
        typ = _PG_TYPES.get(col.type, col.type)
        if col.type in ("CHAR", "VARCHAR") or col.type == "DECIMAL":
            typ += f"({col.length})" if col.type != "DECIMAL" else f"({col.length}, {col.scale})"
        parts = [name, typ]
        if identity is not None:
            opts = [o for o in identity if o not in ("NO CACHE", "ORDER", "NO ORDER")]
            kind = "ALWAYS" if col.generated == "ALWAYS" else "BY DEFAULT"
            parts.append(f"GENERATED {kind} AS IDENTITY" + (f" ({' '.join(opts)})" if opts else ""))
    else:
        if col.type == "DECIMAL" and (col.length or 0) > 18:
            raise Untranslatable(line, f"DECIMAL({col.length},{col.scale}) is beyond SQLite's exact 18 digits")
        typ = {"DOUBLE": "REAL", "CLOB": "TEXT", "DBCLOB": "TEXT"}.get(col.type, col.type)
        if col.type in ("CHAR", "VARCHAR"):
            typ += f"({col.length})"
        elif col.type == "DECIMAL":
            typ += f"({col.length},{col.scale})"
        if identity is not None:
            typ = "INTEGER"
        parts = [name, typ]
        if identity is not None:
            if "PRIMARY KEY" not in constraints:
                raise Untranslatable(line, f"identity column {col.name} must be the primary key on SQLite")
            if any(o.startswith("INCREMENT BY") and o != "INCREMENT BY 1" for o in identity) or "CYCLE" in identity:
                raise Untranslatable(line, f"identity column {col.name}: only INCREMENT BY 1 on SQLite")
            constraints = [c for c in constraints if c != "PRIMARY KEY"]
            parts.append("PRIMARY KEY AUTOINCREMENT")
        if col.type in ("CHAR", "VARCHAR"):
            parts.append("COLLATE RTRIM")
    if not col.nullable:
        parts.append("NOT NULL")
    if default is not None:
        parts.append(f"DEFAULT {default}")
    parts += constraints
    if target == "sqlite":
        parts += _checks(col)
    return " ".join(parts)


def _checks(col: Column) -> list[str]:
    """SQLite's checks for what DB2's types enforce, named so errors map onto DB2's SQLCODEs."""
    c = render_name(col.name, "sqlite")
    if col.type in ("CHAR", "VARCHAR"):
        return [f'CONSTRAINT "DB2LEN_{col.name}" CHECK (length({c}) <= {col.length})']
    if col.type == "DECIMAL":
        limit = 10 ** (col.length or 5)
        return [
            f"CONSTRAINT \"DB2DEC_{col.name}\" CHECK ({c} IS NULL OR typeof({c}) = 'integer' AND abs({c}) < {limit})"
        ]
    if col.type in _INT_RANGE:
        top = _INT_RANGE[col.type]
        return [f'CONSTRAINT "DB2DEC_{col.name}" CHECK ({c} BETWEEN {-top - 1} AND {top})']
    if col.type in _FMT:
        value = {
            "DATE": f"date({c}, '+0 days') IS {c}",
            "TIME": f"time(replace({c}, '.', ':'), '+0 days') IS replace({c}, '.', ':')",
        }.get(
            col.type,
            f"datetime(substr({c}, 1, 10) || ' ' || replace(substr({c}, 12, 8), '.', ':'), '+0 days') IS "
            f"substr({c}, 1, 10) || ' ' || replace(substr({c}, 12, 8), '.', ':')",
        )
        return [f"CONSTRAINT \"DB2FMT_{col.name}\" CHECK ({c} GLOB '{_FMT[col.type]}')",
                f'CONSTRAINT "DB2VAL_{col.name}" CHECK ({value})']  # fmt: skip
    return []


def _type_default(col: Column, target: str) -> str:
    """WITH DEFAULT without a value: DB2's default for the type."""
    if col.type in ("DATE", "TIME", "TIMESTAMP"):
        return now_sql(col.type, target) if target == "postgresql" else f"({now_sql(col.type, target)})"
    if col.type == "CHAR":
        return "'" + " " * (col.length or 1) + "'"
    if col.type in ("VARCHAR", "CLOB", "DBCLOB"):
        return "''"
    return "0"


def _default(value: list[Tok], col: Column, target: str, rw: Rewriter) -> str:
    if value[0].is_kw("CURRENT") and value[1].is_kw("DATE", "TIME", "TIMESTAMP"):
        return _type_default(Column(col.name, value[1].text), target)
    if value[0].is_kw("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP"):
        return _type_default(Column(col.name, value[0].text[8:]), target)
    if value[0].is_kw("NULL"):
        return "NULL"
    if value[-1].kind == "num":
        number = rw.number(value[-1], col)
        return ("-" if value[0].text == "-" else "") + number
    if value[0].kind == "str" and len(value) == 1:
        text = datetime_text(value[0].text[1:-1], col.type, target)
        return "'" + (text.ljust(col.length or 0) if col.type == "CHAR" else text) + "'"
    raise Untranslatable(value[0].line, f"column {col.name}: the default {value[0].text} is not translated")


def create_table(tokens: list[Tok], target: str, catalog: dict[str, Table]) -> Ddl:
    """``CREATE TABLE name (…) [storage clauses]`` for ``target``."""
    name, i = qualified_name(tokens, 2)
    if i >= len(tokens) or tokens[i].text != "(":
        raise Untranslatable(tokens[0].line, "CREATE TABLE without a column list (LIKE, AS) is not translated")
    close = matching(tokens, i)
    rw = Rewriter(target, catalog)
    table, parts, seeds = Table(name), [], []
    pk_columns: list[str] = []
    elements = split_args(tokens[i + 1 : close])
    for element in elements:
        if element and element[0].is_kw("PRIMARY") and len(element) > 3:
            pk_columns = [t.text for t in element[3:-1] if t.kind == "id"]
    for element in elements:
        if not element:
            raise Untranslatable(tokens[i].line, "an empty element in the column list")
        head = element[0]
        if head.is_kw("PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "CONSTRAINT"):
            continue
        moved = target == "sqlite" and pk_columns == [head.text] and any(t.is_kw("IDENTITY") for t in element)
        if moved:
            element = [*element, Tok("id", "PRIMARY", head.line), Tok("id", "KEY", head.line)]
        col, text, identity = _column(element, name, target, rw)
        table.columns.append(col)
        parts.append(text)
        start = next((o.split()[-1] for o in identity if o.startswith("START WITH")), None)
        if start is not None and target == "sqlite":
            seeds.append(f"INSERT INTO sqlite_sequence (name, seq) VALUES ('{name}', {int(start) - 1})")
    rw.catalog = {**catalog, name: table}
    rw.note_tables(tokens[i:close])
    for element in elements:
        head = element[0]
        if not head.is_kw("PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "CONSTRAINT"):
            continue
        if (
            head.is_kw("PRIMARY")
            and target == "sqlite"
            and any(c.generated for c in table.columns if c.name in pk_columns)
        ):
            continue  # carried by the identity column itself
        if head.is_kw("FOREIGN") and len(element) > 3 and element[2].kind in ("id", "qid") and element[3].text == "(":
            element = [Tok("id", "CONSTRAINT", head.line), element[2], *element[:2], *element[3:]]  # DB2 names it so
        parts.append(rw.rewrite(element))
    statements = []
    if target == "postgresql" and "." in name:
        statements.append(f"CREATE SCHEMA IF NOT EXISTS {render_name(name.split('.')[0], target)}")
    statements.append(f"CREATE TABLE {render_name(name, target)} ({', '.join(parts)})")
    statements += seeds
    skipped = [untokenize(tokens[close + 1 :])] if close + 1 < len(tokens) else []
    return Ddl(statements, table, skipped)


def alter_table_add(tokens: list[Tok], target: str, catalog: dict[str, Table]) -> Ddl:
    """``ALTER TABLE name ADD [COLUMN] definition`` for ``target``: the column appended to the table (and,
    on SQLite, to its catalog, by the caller from ``table``: the table with its new column last).
    Other ALTER TABLE forms are refused, saying which."""
    name, i = qualified_name(tokens, 2)
    line = tokens[0].line
    if i >= len(tokens) or not tokens[i].is_kw("ADD"):
        what = " ".join(t.text for t in tokens[i : i + 2]) or "nothing"
        raise Untranslatable(line, f"ALTER TABLE {name} {what}: only ALTER TABLE … ADD [COLUMN] is run")
    i += 1
    if i < len(tokens) and tokens[i].is_kw("COLUMN"):
        i += 1
    elif i < len(tokens) and tokens[i].is_kw("PRIMARY", "FOREIGN", "UNIQUE", "CHECK", "CONSTRAINT", "PARTITION"):
        raise Untranslatable(line, f"ALTER TABLE {name} ADD {tokens[i].text}: only ADD [COLUMN] is run")
    known = catalog.get(name)
    if known is None and target == "sqlite":
        raise Untranslatable(line, f"ALTER TABLE {name}: no such table was created by db apply")
    col, text, identity = _column(tokens[i:], name, target, Rewriter(target, catalog))
    if identity or col.generated:
        raise Untranslatable(line, f"ALTER TABLE {name} ADD {col.name}: an identity column is not added")
    if target == "sqlite" and "'now'" in text:
        raise Untranslatable(line, f"ALTER TABLE {name} ADD {col.name}: SQLite cannot add a column whose "
                                   "default is the current date or time")  # fmt: skip
    table = Table(name, [*(known.columns if known else []), col])
    return Ddl([f"ALTER TABLE {render_name(name, target)} ADD COLUMN {text}"], table)


def alter_table_key(tokens: list[Tok], target: str, catalog: dict[str, Table]) -> tuple[str, str] | None:
    """``ALTER TABLE name [ADD] [CONSTRAINT c] FOREIGN KEY [c] (…) REFERENCES …`` (DB2 takes it without ADD):
    the table and the constraint as ``target`` writes it in a column list; None for another ALTER."""
    name, i = qualified_name(tokens, 2)
    i += i < len(tokens) and tokens[i].is_kw("ADD")
    clause = tokens[i:]
    at = 2 if clause[:1] and clause[0].is_kw("CONSTRAINT") else 0
    if not (len(clause) > at + 2 and clause[at].is_kw("FOREIGN") and clause[at + 1].is_kw("KEY")):
        return None
    if clause[at + 2].kind in ("id", "qid") and len(clause) > at + 3 and clause[at + 3].text == "(":
        clause = [Tok("id", "CONSTRAINT", clause[at].line), clause[at + 2], *clause[at : at + 2], *clause[at + 3 :]]
    rw = Rewriter(target, catalog)
    rw.note_tables(clause)
    return name, rw.rewrite(clause)


def create_index(tokens: list[Tok], target: str) -> Ddl:
    """``CREATE [UNIQUE] INDEX name ON table (col [ASC|DESC], …) [storage clauses]`` for ``target``."""
    unique = tokens[1].is_kw("UNIQUE")
    name, i = qualified_name(tokens, 3 if unique else 2)
    if i >= len(tokens) or not tokens[i].is_kw("ON"):
        raise Untranslatable(tokens[0].line, "CREATE INDEX without ON table")
    table, i = qualified_name(tokens, i + 1)
    if i >= len(tokens) or tokens[i].text != "(":
        raise Untranslatable(tokens[0].line, "CREATE INDEX without its columns")
    close = matching(tokens, i)
    columns = [" ".join(render_word(t.text, target) if t.kind == "id" else t.text for t in part)
               for part in split_args(tokens[i + 1 : close])]  # fmt: skip
    index = render_name(name if target == "sqlite" else name.rpartition(".")[2], target)
    text = f"CREATE {'UNIQUE ' if unique else ''}INDEX {index} ON {render_name(table, target)} ({', '.join(columns)})"
    skipped = [untokenize(tokens[close + 1 :])] if close + 1 < len(tokens) else []
    return Ddl([text], None, skipped)
