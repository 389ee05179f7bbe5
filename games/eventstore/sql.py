"""The store's SQL tools: binary cursors and the bulk insert of rows as arrays.

The hottest writes (an append's events, a game's score sheet, a rebuild's batches)
are one statement each: every column goes over as one binary array (``%b``) and
PostgreSQL unnests them. The ORM's ``bulk_create`` spent most of an append adapting
values in Python, and psycopg's text-array quoting runs a regex per element.
:class:`BulkInsert` writes such a statement from a model's fields, so a column list
is never written out by hand::

    TURNS = BulkInsert(GameTurn, ["game_id", "index", ..., "notes"])
    TURNS.insert(rows)          # rows in that column order; jsonb as JSON text
    TURNS.copy(rows)            # the same rows through COPY (a rebuild's bulk)
    TURNS.insert(TURNS.json_rows(values))   # jsonb columns given as Python values
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connection
from django.db.models import Field, Model

# The array type each kind of model field is sent as. JSON goes over as text and is
# cast on the server; small integers go as int (PostgreSQL casts on assignment).
_ARRAY_TYPES = {
    "AutoField": "int",
    "BigAutoField": "bigint",
    "BigIntegerField": "bigint",
    "BinaryField": "bytea",
    "BooleanField": "bool",
    "CharField": "text",
    "DateTimeField": "timestamptz",
    "IntegerField": "int",
    "JSONField": "jsonb",
    "PositiveIntegerField": "int",
    "PositiveSmallIntegerField": "int",
    "SmallIntegerField": "int",
    "TextField": "text",
    "UUIDField": "uuid",
}


def _array_type(field: Field[Any, Any]) -> str:
    target = field.target_field if field.is_relation else field
    return _ARRAY_TYPES[target.get_internal_type()]


class BulkInsert:
    """One INSERT of many rows of a model, a binary array per column.

    `columns` are field names or attnames (``game_id`` for a foreign key ``game``),
    in the order of each row's values; a jsonb column takes JSON text. `constant`
    columns take one value for every row of a statement (sent once, before the
    arrays). `returning` columns come back from :meth:`insert`, one tuple a row.
    """

    def __init__(
        self,
        model: type[Model],
        columns: Sequence[str],
        *,
        constant: Sequence[str] = (),
        returning: Sequence[str] = (),
    ) -> None:
        meta = model._meta
        self.table = meta.db_table
        fields = [meta.get_field(name) for name in columns]
        fixed = [meta.get_field(name) for name in constant]
        self.columns = tuple(field.column for field in fields)
        kinds = [_array_type(field) for field in fields]
        self._json = tuple(i for i, kind in enumerate(kinds) if kind == "jsonb")
        names = ", ".join(self.columns)
        selected = ", ".join(
            [f"%s::{_array_type(field)}" for field in fixed]
            + [
                f"u.{column}::jsonb" if kind == "jsonb" else f"u.{column}"
                for column, kind in zip(self.columns, kinds, strict=True)
            ]
        )
        arrays = ", ".join(
            "%b::text[]" if kind == "jsonb" else f"%b::{kind}[]" for kind in kinds
        )
        self.sql = (
            f"INSERT INTO {self.table} "
            f"({', '.join([*(field.column for field in fixed), names])}) "
            f"SELECT {selected} FROM unnest({arrays}) AS u({names})"
        )
        if returning:
            returned = ", ".join(meta.get_field(name).column for name in returning)
            self.sql += f" RETURNING {returned}"
        self.copy_sql = f"COPY {self.table} ({names}) FROM STDIN"

    def json_rows(self, rows: Iterable[Sequence[Any]]) -> list[list[Any]]:
        """`rows` of Python values with their jsonb columns written as JSON text."""
        written = []
        for row in rows:
            values = list(row)
            for index in self._json:
                values[index] = json_text(values[index])
            written.append(values)
        return written

    def insert(
        self, rows: Sequence[Sequence[Any]], constants: Sequence[Any] = ()
    ) -> list[tuple[Any, ...]]:
        """Insert `rows` (in the caller's transaction); the returned columns."""
        if not rows:
            return []
        with binary_cursor() as cursor:
            cursor.execute(self.sql, self.parameters(rows, constants))
            return cursor.fetchall() if cursor.description else []

    def parameters(
        self, rows: Sequence[Sequence[Any]], constants: Sequence[Any] = ()
    ) -> list[Any]:
        """The statement's parameters for `rows` (for a statement that embeds this
        one, such as the append's, which moves the stream's head too)."""
        return [*constants, *(list(column) for column in zip(*rows, strict=True))]

    def copy(self, rows: Sequence[Sequence[Any]]) -> None:
        """Insert `rows` through COPY, whose rows psycopg formats in C (the arrays
        of an INSERT are built element by element in Python): for a rebuild's bulk."""
        if not rows:
            return
        with binary_cursor() as cursor, cursor.copy(self.copy_sql) as copy:
            write = copy.write_row
            for row in rows:
                write(row)


def json_text(value: Any) -> str:
    """A value as the JSON text a jsonb column of a :class:`BulkInsert` takes."""
    return json.dumps(value, ensure_ascii=False)


@contextmanager
def binary_cursor() -> Iterator[psycopg.Cursor[Any]]:
    """A psycopg cursor with server-side binding on Django's connection (and in its
    transaction), for the hot statements that send arrays or read rows in binary.

    Only these statements use it, with values the code itself chose: elsewhere
    Django binds on the client, which refuses an integer too large for its column
    instead of sending it as int4.
    """
    connection.ensure_connection()
    # Django's own exceptions (IntegrityError…), as from its cursors.
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cur:
        # Logged like Django's own when it logs (DEBUG, or a test counting queries).
        yield _LoggedCursor(cur) if connection.queries_logged else cur  # type: ignore[misc]


class _LoggedCursor:
    """A psycopg cursor whose statements go to Django's query log."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
        start = time.monotonic()
        try:
            return self._cursor.execute(query, params, **options)
        finally:
            connection.queries_log.append(
                {"sql": str(query), "time": f"{time.monotonic() - start:.3f}"}
            )

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


_JSON_DECODER = json.JSONDecoder()
_EMPTY_OBJECT = b"{}"


def loads_utf8(data: bytes) -> Any:
    """A jsonb value read in binary. PostgreSQL prints jsonb as one value with no
    surrounding whitespace, so `raw_decode` parses it without the two whitespace
    scans of `json.loads`; metadata is almost always `{}` (a fresh dict each time:
    callers may change it). Measured on a read of half the national log (2.9 s),
    JSON took 1.2-1.4 s; 0.4-0.5 s less with these."""
    if data == _EMPTY_OBJECT:
        return {}
    return _JSON_DECODER.raw_decode(data.decode())[0]
