"""Each endpoint is declared once (``thegame.serve.endpoints``): the routes,
the OpenAPI document, the checks and the docs' endpoint table are made from
that declaration and agree with it; and what the schema says of a value
(an empty one, a day that does not exist, ``3.0`` for an integer, a record
without its optional fields) is what the server does."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from conftest import DAY, blunder_record
from starlette.routing import Route

from thegame.serve.app import create_app
from thegame.serve.endpoints import ENDPOINTS
from thegame.serve.schema import endpoint_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_routes_are_the_declarations(client: httpx.Client) -> None:
    app = create_app()
    routes = {
        (method, r.path)
        for r in app.routes
        if isinstance(r, Route) and r.path.startswith("/api/")
        for method in (r.methods or ()) - {"HEAD"}
    }
    assert routes == set(ENDPOINTS)
    document = client.get("/api/openapi.json").json()
    operations = {(m.upper(), p) for p, ops in document["paths"].items() for m in ops}
    assert operations == set(ENDPOINTS)


def test_the_docs_table_is_made_from_the_declarations() -> None:
    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    assert "<!-- endpoints -->" in page  # the hook puts the table there
    assert "| endpoint | body (JSON) | answer |" not in page  # no second, hand-kept copy
    table = endpoint_table(ENDPOINTS)
    shown = re.findall(r"^\| `(GET|POST) (/api/[^`?]*)", table, re.M)
    documented = {k for k, spec in ENDPOINTS.items() if spec.takes or spec.gives}
    assert set(shown) == documented and len(shown) == len(documented)
    assert documented == set(ENDPOINTS) - {("GET", "/api/openapi.json")}


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/api/mind/odds"), ("POST", "/api/job"), ("POST", "/api/cento/daily"),
     ("PUT", "/api/solve"), ("PATCH", "/api/board"), ("DELETE", "/api/hint")],
)  # fmt: skip
def test_a_method_an_endpoint_lacks_is_a_405_whatever_its_body(
    client: httpx.Client, method: str, path: str
) -> None:
    r = client.request(method, path)  # no Content-Type: still a 405, not a 415
    assert r.status_code == 405, r.text
    assert r.headers["allow"] and "not allowed" in r.json()["error"]


@pytest.mark.parametrize(
    ("url", "name"),
    [("/api/daily?date=", "date"), ("/api/daily?variant=", "variant"),
     ("/api/mind/odds?players=", "players"), ("/api/cento/daily?date=%20", "date"),
     ("/api/job?id=", "id")],
)  # fmt: skip
def test_an_empty_value_is_refused(client: httpx.Client, url: str, name: str) -> None:
    r = client.get(url)
    assert r.status_code == 400
    assert r.json()["error"].startswith(f"{name}: must not be empty")


def test_a_day_is_what_the_schema_says(client: httpx.Client) -> None:
    document = client.get("/api/openapi.json").json()
    date = next(
        p["schema"] for p in document["paths"]["/api/daily"]["get"]["parameters"]
        if p["name"] == "date"
    )  # fmt: skip
    assert date["format"] == "date"
    pattern = re.compile(date["pattern"])
    for day in ("0000-00-00", "0000-01-01", "2026-13-01", "2026-00-10", "2026-01-32"):
        assert not pattern.match(day), day  # invalid by the schema: refused
        assert client.get("/api/daily", params={"date": day}).status_code == 400
    assert pattern.match(DAY)
    assert client.get("/api/daily", params={"date": DAY}).status_code == 200


def test_a_whole_number_written_as_a_float_is_that_integer(client: httpx.Client) -> None:
    r = client.get("/api/mind/odds", params={"players": "2", "tolerance": "3.0"})
    assert r.status_code == 200, r.text
    assert r.json()["tolerance"] == 3
    r = client.post("/api/jobs", json={"mind_odds": {"players": 2.0, "tolerance": 3.0}})
    assert r.status_code == 200, r.text
    r = client.post("/api/jobs", json={"mind_odds": {"players": 2, "tolerance": 2.5}})
    assert r.status_code == 400 and "tolerance" in r.json()["error"]


def test_a_record_without_its_optional_fields_is_read(client: httpx.Client) -> None:
    record = blunder_record().to_dict()
    deal_only = {"deal": record["deal"]}  # "turns" is not required
    r = client.post("/api/check", json={"record": deal_only})
    assert r.status_code == 200 and r.json()["legal"] is True
    # A record with none of the keys the schema names for its forms is refused.
    document = client.get("/api/openapi.json").json()
    body = document["paths"]["/api/check"]["post"]["requestBody"]["content"]
    forms = body["application/json"]["schema"]["properties"]["record"]["oneOf"][0]["anyOf"]
    assert {"required": ["deal"]} in forms
    r = client.post("/api/check", json={"record": {}})
    assert r.status_code == 400
