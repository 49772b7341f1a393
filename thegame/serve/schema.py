"""The API's contract, as the endpoints (``endpoints``) declare it: the
fields and their checks (the ``api`` wrapper runs them before a handler: a
field of the wrong JSON type, or an explicit ``null`` where none is meant,
is a 400 naming the field), the OpenAPI 3 document of ``GET
/api/openapi.json``, and the docs' endpoint table. The handlers then check
what the types cannot say (a legal record, a deal that exists)."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..models import InvalidInputError


class Json(StrEnum):
    """A JSON type, as OpenAPI names it."""

    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    STRING = "string"
    OBJECT = "object"
    ARRAY = "array"


_ARTICLE = {
    Json.INTEGER: "an integer",
    Json.NUMBER: "a number",
    Json.BOOLEAN: "true or false",
    Json.STRING: "a string",
    Json.OBJECT: "a JSON object",
    Json.ARRAY: "a list",
}


def json_type(value: Any) -> str:
    """The JSON type of a parsed value (``null`` for None)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


@dataclass(frozen=True)
class Field:
    """A query parameter or a body field: its JSON type(s) and what the
    handler accepts of it (a range, a list of names)."""

    name: str
    kinds: tuple[Json, ...]
    doc: str
    low: int | float | None = None
    high: int | float | None = None
    positive: bool = False  # a number > 0 (a time budget)
    enum: tuple[str, ...] = ()  # documented; the handler names the choices
    pattern: str | None = None
    format: str | None = None  # an OpenAPI string format ("date")
    min_length: int = 1  # a string's: an empty one is refused
    # An object's forms, each named by the keys it must have (a deal, a record, ...).
    forms: tuple[tuple[str, ...], ...] = ()
    nullable: bool = False  # null means "none" (the pages send it)
    items: Json | None = None  # an array's items
    fields: tuple[Field, ...] = ()  # an object's own fields, checked too
    default: Any = None

    def schema(self) -> dict[str, Any]:
        alts = [self._one(k) for k in self.kinds]
        out: dict[str, Any] = alts[0] if len(alts) == 1 else {"oneOf": alts}
        if self.nullable:
            out = {"oneOf": [*out.get("oneOf", [out]), {"type": "null"}]}
        out["description"] = self.doc
        if self.default is not None:
            out["default"] = self.default
        return out

    def _one(self, kind: Json) -> dict[str, Any]:
        out: dict[str, Any] = {"type": str(kind)}
        if kind in (Json.INTEGER, Json.NUMBER):
            if self.low is not None:
                out["minimum"] = self.low
            if self.high is not None:
                out["maximum"] = self.high
            if self.positive:
                out["exclusiveMinimum"] = 0
        if kind is Json.STRING:
            if self.enum:
                out["enum"] = list(self.enum)
            if self.pattern:
                out["pattern"] = self.pattern
            if self.format:
                out["format"] = self.format
            if not self.enum:
                out["minLength"] = self.min_length
        if kind is Json.ARRAY and self.items is not None:
            out["items"] = {"type": str(self.items)}
        if kind is Json.OBJECT and self.fields:
            out["properties"] = {f.name: f.schema() for f in self.fields}
        if kind is Json.OBJECT and self.forms:
            out["anyOf"] = [{"required": list(keys)} for keys in self.forms]
        return out

    def check(self, value: Any, where: str) -> None:
        """A 400 for a value of none of the field's types (null included)."""
        kind = json_type(value)
        if kind == "number" and Json.INTEGER in self.kinds and float(value).is_integer():
            kind, value = "integer", int(value)  # 3.0 is the integer 3 (JSON Schema)
        if kind == "null":
            if self.nullable:
                return
        elif kind in self.kinds or (kind == "integer" and Json.NUMBER in self.kinds):
            if kind == "integer" and Json.INTEGER in self.kinds:
                low, high = self.low, self.high
                if (low is not None and value < low) or (high is not None and value > high):
                    shown = str(value) if len(str(value)) <= 24 else str(value)[:24] + "…"
                    raise InvalidInputError(f"must be from {low} to {high}, not {shown}", where)
            if kind == "string":
                self._check_text(value, where)
            if kind in ("integer", "number") and Json.NUMBER in self.kinds:
                self._check_number(value, where)
            if kind == "object" and self.forms and not any(
                all(k in value for k in keys) for keys in self.forms
            ):
                keys = " or ".join(f'"{keys[0]}"' for keys in self.forms)
                raise InvalidInputError(f"must have {keys}", where)
            if kind == "object" and self.fields:
                check_fields(self.fields, value, where)
            if kind == "array" and self.items is not None:
                for i, item in enumerate(value):
                    if json_type(item) != self.items:
                        raise InvalidInputError(f"must be {_ARTICLE[self.items]}", f"{where}[{i}]")
            return
        wanted = " or ".join(_ARTICLE[k] for k in self.kinds)
        raise InvalidInputError(f"must be {wanted}, not {_NAMED.get(kind, kind)}", where)


    def _check_text(self, value: str, where: str) -> None:
        if self.enum:
            if value not in self.enum:
                raise InvalidInputError(
                    f"must be one of {', '.join(self.enum)}, not {_shown(value)}", where
                )
            return
        if len(value) < self.min_length:
            raise InvalidInputError("must not be empty", where)
        if self.format == "date":
            try:
                dt.date.fromisoformat(value)
            except ValueError:
                shown = _shown(value)
                raise InvalidInputError(f"not a valid date YYYY-MM-DD: {shown}", where) from None
        if self.pattern and not re.search(self.pattern, value):
            raise InvalidInputError(f"must be {self.doc}, not {_shown(value)}", where)

    def _check_number(self, value: float, where: str) -> None:
        if not math.isfinite(value):
            raise InvalidInputError(f"must be a finite positive number, not {value}", where)
        if self.positive and value <= 0:
            raise InvalidInputError(f"must be a finite positive number, not {value}", where)
        low, high = self.low, self.high
        if (low is not None and value < low) or (high is not None and value > high):
            raise InvalidInputError(f"must be from {low} to {high}, not {value}", where)


def _shown(value: Any, most: int = 24) -> str:
    text = str(value)
    return repr(text if len(text) <= most else text[:most] + "…")


_NAMED = {"null": "null", "boolean": "true/false", "integer": "an integer", "number": "a number",
          "string": "a string", "array": "a list", "object": "an object"}  # fmt: skip


def check_fields(fields: Iterable[Field], data: dict[str, Any], prefix: str = "") -> None:
    """Every field of ``data`` declared in ``fields`` checked; a whole number
    sent as ``3.0`` is made the integer 3 here, so the handler reads one type."""
    for f in fields:
        if f.name in data:
            value = data[f.name]
            f.check(value, f"{prefix}.{f.name}" if prefix else f.name)
            if isinstance(value, float) and Json.INTEGER in f.kinds and value.is_integer():
                data[f.name] = int(value)


def check_required(required: Iterable[str], given: Any) -> None:
    """A 400 for a required parameter or body field left out."""
    for name in required:
        if name not in given:
            raise InvalidInputError("required", name)


def check_one_of(names: tuple[str, ...], data: dict[str, Any]) -> None:
    """A 400 unless exactly one of ``names`` is given (a deal's source)."""
    if not names:
        return
    given = [n for n in names if data.get(n) is not None]
    if len(given) > 1:
        both = " and ".join(given)
        raise InvalidInputError(f"give one of {', '.join(names)}, not {both}", "body")
    if not given:
        raise InvalidInputError(f"give one of {', '.join(names)}", "body")


def check_query(fields: Iterable[Field], query: Any) -> None:
    """Each declared query parameter given checked as its field says; one
    given empty (``date=``) is refused: an absent one takes its default, an
    empty one is a mistake."""
    for f in fields:
        if f.name not in query:
            continue
        raw = query[f.name]
        if not raw.strip():
            raise InvalidInputError("must not be empty (leave it out for the default)", f.name)
        f.check(_query_value(f, raw), f.name)


def _query_value(f: Field, raw: str) -> Any:
    """A query string as its field's JSON value (a whole number for an integer)."""
    if Json.INTEGER not in f.kinds:
        return raw
    text = raw.strip()
    whole, point, zeros = text.partition(".")
    if point and zeros and not zeros.strip("0"):
        text = whole  # 3.0 is the whole number 3
    # ASCII digits only: str.isdigit also takes "²", which int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise InvalidInputError(f"must be a whole number, not {_shown(raw)}", f.name)
    # Longer than the bound's digits is out of range, and not parsed.
    if f.high is not None and len(text.lstrip("0")) > len(str(int(f.high))):
        raise InvalidInputError(f"must be from {f.low} to {f.high}, not {_shown(text)}", f.name)
    return int(text)


@dataclass(frozen=True)
class Endpoint:
    """One operation of the API: its parameters, its body and its answer."""

    summary: str
    query: tuple[Field, ...] = ()
    body: tuple[Field, ...] | None = None  # None: no body
    answer: tuple[str, ...] = ()  # fields every 200 answer has
    worker: bool = True  # may wait for the pool (a 503)
    time_limit: bool = False  # takes a time_limit (the 503's advice)
    one_of: tuple[str, ...] = ()  # body fields of which exactly one is given
    required: tuple[str, ...] = ()  # query parameters or body fields always given
    missing: bool = False  # may answer 404: what it names does not exist (a job)
    handler: str = ""  # "module:function" in thegame.serve, the route's endpoint
    # The docs' endpoint table: the endpoint as shown (default "METHOD path"),
    # what it takes and what it gives (no row without them).
    shown: str = ""
    takes: str = ""
    gives: str = ""


ERROR = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {"type": "string", "description": "one line saying what is wrong"}},
}
_WHY = {
    "400": "a request this schema refuses: a field missing, empty, of the wrong type or range",
    "422": "a request this schema allows but the game's rules refuse: a deck that is not "
    "one, an illegal record or play (the message names the rule)",
    "403": "a foreign Host, or a request from another site",
    "404": "what the request names does not exist (a job that ended long ago)",
    "408": "the body did not arrive in time",
    "413": "a body over 1 MB",
    "415": "a body that is not Content-Type: application/json",
    "503": "every worker stayed busy, or the job ran past the server's cap",
    "500": "a fault of the server (a bug), logged",
}


def _error(status: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": _WHY[status],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if status == "503":
        out["headers"] = {
            "Retry-After": {"description": "seconds", "schema": {"type": "string"}},
        }
    return out


def _not_empty(schema: dict[str, Any]) -> dict[str, Any]:
    """A query parameter's schema: a string one is never empty nor blank (``check_query``)."""
    if schema.get("type") == "string" and "enum" not in schema:
        schema["minLength"] = 1
        schema.setdefault("pattern", r"\S")
    return schema


def _body(spec: Endpoint) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: f.schema() for f in spec.body or ()},
    }
    if spec.one_of:
        out["oneOf"] = [{"required": [name]} for name in spec.one_of]
    if spec.required:
        out["required"] = list(spec.required)
    return out


def operation(method: str, path: str, spec: Endpoint) -> dict[str, Any]:
    answer: dict[str, Any] = {"type": "object"}
    if spec.answer:
        answer["required"] = list(spec.answer)
    op: dict[str, Any] = {
        "summary": spec.summary,
        "operationId": f"{method.lower()}{path[4:].replace('/', '_').replace('.', '_')}",
        "responses": {
            "200": {
                "description": "the answer",
                "content": {"application/json": {"schema": answer}},
            },
        },
    }
    statuses = ["400", "403", "500"]
    if spec.query or spec.body is not None:
        statuses.append("422")
    if spec.query:
        op["parameters"] = [
            {
                "name": f.name,
                "in": "query",
                "required": f.name in spec.required,
                "schema": _not_empty(f.schema()),
            }
            for f in spec.query
        ]
    if spec.body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {
                    "schema": _body(spec),
                }
            },
        }
        statuses += ["408", "413", "415"]
    if spec.worker:
        statuses.append("503")
    if spec.missing:
        statuses.append("404")
    for s in sorted(statuses):
        op["responses"][s] = _error(s)
    return op


def openapi(endpoints: dict[tuple[str, str], Endpoint], version: str) -> dict[str, Any]:
    """The OpenAPI 3 document of the declared ``endpoints``."""
    paths: dict[str, dict[str, Any]] = {}
    for (method, path), spec in endpoints.items():
        paths.setdefault(path, {})[method.lower()] = operation(method, path, spec)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "thegame serve",
            "version": version,
            "description": "The JSON API of `thegame serve`: the command line's words "
            "(`verdict`, `turns`, `optimal`, `cards_left`, `stats`); every error is "
            '`{"error": "<one line>"}`.',
        },
        "paths": paths,
        "components": {"schemas": {"Error": ERROR}},
    }


def endpoint_table(endpoints: dict[tuple[str, str], Endpoint]) -> str:
    """The docs' table of the endpoints (Markdown), one row per declared
    endpoint that has its words (``takes``, ``gives``)."""
    rows = ["| endpoint | body (JSON) | answer |", "|---|---|---|"]
    for (method, path), spec in endpoints.items():
        if spec.takes or spec.gives:
            rows.append(f"| `{spec.shown or f'{method} {path}'}` | {spec.takes} | {spec.gives} |")
    return "\n".join(rows)
