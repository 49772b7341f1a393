"""The API against its own contract: Schemathesis reads ``GET
/api/openapi.json`` and sends every ``/api/`` operation requests drawn from
it, in process (ASGI, no network), and checks each answer with every check
but the server-error one (a 503 is designed; ``no_fault`` checks it): a
status the schema documents, JSON of the documented shape (every error one
``{"error": ...}`` object), the documented headers (Retry-After on a 503),
405 for a method an operation lacks, what the schema refuses refused (400)
and what it allows accepted, or refused by the game's rules (422, as the
repository's ``schemathesis.toml`` says).

A small fixed example budget keeps the default run short; ``-m slow`` runs
a larger one. The searches get a server cap of half a second, so an answer
cut by the cap (``stopped_early``) or a 503 for a job past it are among
the answers checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from schemathesis import checks  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from thegame.serve.app import Settings, create_app  # noqa: E402
from thegame.serve.base import LOOPBACK_HOSTS  # noqa: E402

# Schemathesis's in-process client names the host "testserver": a name this
# server answers to only here (a foreign Host is refused, tests below).
SETTINGS = Settings(
    workers=2,
    time_cap=0.5,
    queue_wait=10.0,
    grace=1.0,
    default_time=0.5,
    hint_time=0.3,
    hindsight_time=0.1,
    hindsight_total=0.3,
    make_time=3.0,
    hosts=(*LOOPBACK_HOSTS, "testserver"),
)
CONFIG = Path(__file__).parents[2] / "schemathesis.toml"
# Examples per operation: the default run, and -m slow.
FEW, MANY = 10, 150


@schemathesis.check
def no_fault(ctx: object, response: schemathesis.Response, case: schemathesis.Case) -> None:
    """No 500 (a fault of the server); a 503 (busy, or a job past the cap)
    says when to come back."""
    status = response.status_code
    assert status < 500 or status == 503, f"{status}: {response.text[:200]}"
    if status == 503:
        assert int(response.headers["retry-after"][0]) >= 1


CHECKS = [
    no_fault,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
    checks.negative_data_rejection,  # what the schema refuses, the server refuses
    checks.positive_data_acceptance,  # what it allows, the server takes (or its rules refuse: 422)
    checks.missing_required_header,
    checks.use_after_free,
    checks.ensure_resource_availability,
    checks.ignored_auth,
    checks.unsupported_method,  # a method an endpoint lacks: 405, before any body check
    checks.allow_header_conformance,
]


@pytest.fixture(scope="module")
def api_schema() -> Iterator[object]:
    app = create_app(SETTINGS)
    config = SchemathesisConfig.from_path(str(CONFIG))
    yield schemathesis.openapi.from_asgi("/api/openapi.json", app, config=config)


schema = schemathesis.pytest.from_fixture("api_schema")
PHASES = [Phase.explicit, Phase.generate]


@schema.parametrize()
@settings(
    max_examples=FEW,
    deadline=None,
    phases=PHASES,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_its_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=MANY, deadline=None, phases=PHASES, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract_at_length(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
