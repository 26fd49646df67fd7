"""The OpenAPI schema at /api/schema/ names each request body after its endpoint and documents errors.

A client generated from the schema needs each body's own fields: one shared ``Input`` component (the register
body) for create game, moves, tournaments, standing orders, token and register would mislead it, and so would
missing error statuses.
"""

import io

import pytest
from django.core.management import call_command

# Each operation that takes a body, and the component its JSON body must be (its own, with its fields).
REQUEST_BODIES = {
    ("post", "/api/auth/register/"): ("RegisterRequest", {"username", "email", "password"}),
    ("post", "/api/auth/token/"): ("TokenRequest", {"username", "password"}),
    ("post", "/api/games/"): ("GameCreateRequest", {"game", "seats", "options", "clock", "public", "bots", "seed",
                                                    "rated", "press"}),
    ("post", "/api/games/{game_id}/join/"): ("GameJoinRequest", {"invite"}),
    ("post", "/api/games/{game_id}/moves/"): ("MoveRequest", {"prompt", "option"}),
    ("post", "/api/games/{game_id}/standing-orders/"): ("StandingOrdersRequest", {"orders"}),
    # table talk
    ("post", "/api/games/{game_id}/messages/"): ("MessageRequest", {"text", "to"}),
    ("put", "/api/games/{game_id}/notes/"): ("NotesRequest", {"text"}),
    ("post", "/api/games/{game_id}/messages/{message_id}/report/"): ("MessageReportRequest", {"reason"}),
    ("put", "/api/games/{game_id}/seats/{position}/mute/"): ("SeatMuteRequest", {"reason"}),
    ("post", "/api/games/{game_id}/undo/"): ("UndoRequest", {"prompt", "to"}),  # take-backs
    ("put", "/api/auth/webhook/"): ("WebhookRequest", {"url"}),  # turn webhooks
    ("post", "/api/auth/webhook/"): ("WebhookRotateRequest", {"rotate_secret"}),  # rotates its signing secret
    ("post", "/api/tournaments/"): ("TournamentCreateRequest", {"name", "game", "format", "table_size", "clock"}),
    ("post", "/api/tournaments/{tournament_id}/cancel/"): ("TournamentCancelRequest", {"reason"}),
    # drop and replace are one endpoint (EntryManageApi) with one body: {player, by}.
    ("post", "/api/tournaments/{tournament_id}/drop/"): ("EntryManageRequest", {"player", "by"}),
    ("post", "/api/tournaments/{tournament_id}/replace/"): ("EntryManageRequest", {"player", "by"}),
}


@pytest.fixture
def schema(db, api, user):
    return api.as_user(user).get("/api/schema/?format=json").json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def test_every_request_body_points_to_its_own_component(schema):
    """No two request bodies share a component (such as one ``Input`` for all)."""
    found = {}
    for method, path, operation in _operations(schema):
        if "requestBody" in operation:
            found[(method, path)] = _ref_name(operation["requestBody"]["content"]["application/json"]["schema"]["$ref"])
    assert found == {op: name for op, (name, _) in REQUEST_BODIES.items()}
    components = schema["components"]["schemas"]
    for name, fields in REQUEST_BODIES.values():
        assert fields <= set(components[name]["properties"]), name
    assert "Input" not in components


def test_the_clock_and_the_seed_document_their_bounds(schema):
    """The bounds the server enforces are the ones the schema states."""
    from games.services.clock import CLOCK_BOUNDS

    create = schema["components"]["schemas"]["GameCreateRequest"]["properties"]
    assert create["seed"]["maximum"] == 2 ** 63 - 1 and create["seed"]["minimum"] == 0
    clock = create["clock"]
    assert clock["additionalProperties"] is False
    for key, (low, high) in CLOCK_BOUNDS.items():
        assert (clock["properties"][key]["minimum"], clock["properties"][key]["maximum"]) == (low, high)


def test_every_operation_documents_its_errors_with_the_error_body(schema):
    """Every status an endpoint answers is documented; errors have the {error, detail} body."""
    for method, path, operation in _operations(schema):
        responses = operation["responses"]
        errors = {code for code in responses if code.startswith("4")}
        assert errors, (method, path)
        for code in errors:
            ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
            assert _ref_name(ref) == "ErrorResponse", (method, path, code)
        if "{game_id}" in path or "{tournament_id}" in path:
            assert "404" in responses, (method, path)
        if operation.get("security") and {} not in operation["security"]:
            assert "401" in responses, (method, path)  # a token is required
    assert set(schema["components"]["schemas"]["ErrorResponse"]["required"]) == {"error", "detail"}


def test_the_conditional_get_documents_its_304(schema):
    responses = schema["paths"]["/api/games/{game_id}/"]["get"]["responses"]
    assert "304" in responses and "content" not in responses["304"]
    assert _ref_name(responses["200"]["content"]["application/json"]["schema"]["$ref"]) == "GameDetailResponse"


def test_the_schema_validates_without_a_warning(db, tmp_path):
    """`manage.py spectacular --validate --fail-on-warn` passes (a component collision would be a warning)."""
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out), stderr=io.StringIO())
    assert out.stat().st_size > 0
