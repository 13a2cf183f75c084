"""The OpenAPI 3.1 description of the JSON API, built from the game registry."""

from __future__ import annotations

from companion.games import REGISTRY

ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _responses(ok_status: str, ok_schema: dict, description: str, *errors: str) -> dict:
    responses = {ok_status: {"description": description, **_json(ok_schema)}}
    for status in errors:
        responses[status] = {"description": "refused; nothing changed", **_json(ERROR)}
    return responses


AMIIBO_ID = {"name": "amiibo_id", "in": "path", "required": True, "description": "0x + 16 hex digits, case-insensitive",
             "schema": {"type": "string", "pattern": "^0[xX][0-9a-fA-F]{14}02$"}}
SEAT_LIST = {"type": "array", "items": {"type": "integer"}}
PROPOSAL = {"type": "object", "properties": {
    "id": {"type": "integer"}, "status": {"enum": ["pending", "agreed", "refused", "replaced"]},
    "needed": SEAT_LIST, "agreed": SEAT_LIST}}
PROPOSAL_ANSWER = {"type": "object", "properties": {"ok": {"const": True}, "proposal": PROPOSAL}}
NAMED = {"type": "object", "properties": {"key": {"type": "string"}, "name": {"type": ["string", "null"]}}}
FIGURE = {"type": "object", "required": ["id", "known", "label", "decoded"], "properties": {
    "id": {"type": "string"}, "known": {"type": "boolean"}, "name": {"type": ["string", "null"]},
    "name_source": {"enum": ["catalog", "host", None]}, "label": {"type": "string"},
    "decoded": {"type": "object", "properties": {field: {"type": "integer"} for field in (
        "game_series", "character", "character_number", "variant", "type", "model_number", "amiibo_series",
        "format_version")}},
    "character": NAMED, "game_series": NAMED, "amiibo_series": NAMED, "type": NAMED,
    "release": {"type": ["object", "null"], "properties": {region: {"type": ["string", "null"], "format": "date"}
                                                           for region in ("au", "eu", "jp", "na")}}}}

CODE_PARAMETER = {"name": "code", "in": "path", "required": True,
                  "description": "table code, 4–5 characters, case-insensitive",
                  "schema": {"type": "string", "pattern": "^[A-HJ-KM-NP-Za-hj-km-np-z2-9]{4,5}$"}}


RANKING = {"type": "object", "properties": {
    "criterion": {"type": "object"},
    "tiers": {"type": "array", "items": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "string"}, "label": {"type": "string"}, "display": {"type": ["string", "null"]},
        "source": {"type": ["string", "null"]}}}}}}}


def openapi_document() -> dict:
    games = {game.id: game.options_schema() for game in REGISTRY.values()}
    create_body = {"type": "object", "required": ["game"], "properties": {
        "game": {"type": "string", "enum": sorted(games)},
        "options": {"oneOf": list(games.values())},
        "timeout": {"type": "integer", "minimum": 2, "maximum": 600, "default": 60,
                    "description": "seconds a step that needs another phone waits before the game's rule "
                                   "or the host settles it"}}}
    created = {"type": "object", "properties": {k: {"type": "string"} for k in
                                                ("code", "join_url", "host_token", "commitment")}}
    anchor = {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"}
    seat_body = {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 24},
        "commitment": {**anchor, "description": "the anchor of the phone's hash chain (docs/fairness.md); "
                                                "the phone then reveals the chain in rounds (entropy.reveal) "
                                                "and with its actions ('reveal'). This or 'entropy' is required"},
        "entropy": {**anchor, "description": "the same anchor from a client that never takes part in rounds"}}}
    action = {"type": "object", "required": ["type"], "properties": {
        "type": {"type": "string", "description": "a game action such as 'roll'; a host action "
                                                  "table.joining / table.rename / table.remove / "
                                                  "table.start / table.close / table.again / table.another "
                                                  "{game, options} / table.handoff {seat} / table.decide "
                                                  "{seat, action} / table.stop_waiting {seat} / table.withdraw {seat} / table.give_host "
                                                  "{seat} / table.undo {seat} / table.entropy_restart / "
                                                  "table.remove_figure {figure} / table.name_figure "
                                                  "{figure, name} / table.pick_figure {seat, amiibo_id} / "
                                                  "table.give_figure {seat}; or a "
                                                  "seat's seat.undo / seat.leave / seat.handoff {allow} / "
                                                  "entropy.reveal {value}"},
        "reveal": {**anchor, "description": "the seat's next chain value: the action's draws depend on it"},
        "id": {"type": "string", "description": "idempotency key: a repeat returns the first answer",
               "pattern": "^[A-Za-z0-9_.:-]{1,64}$"}}, "additionalProperties": True,
        "description": "at most 16 KiB"}
    bearer = [{"bearer": []}]
    display_state = {"type": "object", "properties": {
        "state": {"enum": ["waiting", "expired", "asked", "paired"]}, "table": {"type": "string"},
        "host": {"type": ["string", "null"]}, "contested": {"type": "boolean"}, "url": {"type": "string"},
        "asks": {"type": "array", "items": {"type": "object", "properties": {
            "table": {"type": "string"}, "host": {"type": ["string", "null"]}, "until": {"type": "number"},
            "in": {"type": "number", "description": "seconds before the TV shows it (one table asking)"}}}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Companion", "version": "1",
                 "description": "Tables, seats and actions of a Companion game-table server."},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "a seat token or the host token"}},
            "schemas": {"Error": {"type": "object", "required": ["ok", "error"], "properties": {
                "ok": {"const": False}, "error": {"type": "string"},
                "fault": {"const": True, "description": "the server failed on its side (500, or its storage: "
                                                        "503), not a refusal; a 'reveal' sent with the action "
                                                        "was not spent (docs/fairness.md: vetoes)"}}},
                "Figure": FIGURE,
                "View": {"type": "object", "properties": {
                    "version": {"type": "integer"}, "table": {"type": "object"},
                    "you": {"type": "object"}, "game": {"type": ["object", "null"]}}}},
        },
        "paths": {
            "/api/games": {"get": {"summary": "the games and their options",
                                   "responses": _responses("200", {"type": "object"}, "games")}},
            "/api/options/check": {"post": {
                "summary": "check a game's options as a new table would (the create form, field by field)",
                "requestBody": {"required": True, **_json({"type": "object", "required": ["game"], "properties": {
                    "game": {"type": "string"}, "options": {"type": "object"},
                    "changed": {"type": "string", "description": "the option just set (blamed for a bad mix)"}}})},
                "responses": _responses("200", {"type": "object", "required": ["ok"], "properties": {
                    "ok": {"type": "boolean"}, "options": {"type": "object"}, "error": {"type": "string"},
                    "option": {"type": ["string", "null"]}}}, "the verdict", "400", "403", "413")}},
            "/api/tables": {"post": {
                "summary": "create a table", "requestBody": {"required": True, **_json(create_body)},
                "responses": _responses("201", created, "created", "400", "403", "413")}},
            "/api/tables/{code}": {"get": {
                "summary": "the view of the token's holder (public view without a token)",
                "parameters": [CODE_PARAMETER], "security": [*bearer, {}],
                "responses": _responses("200", {"$ref": "#/components/schemas/View"}, "view", "401", "404")}},
            "/api/tables/{code}/seats": {"post": {
                "summary": "take a seat", "parameters": [CODE_PARAMETER],
                "requestBody": {"required": True, **_json(seat_body)},
                "responses": _responses("201", {"type": "object", "properties": {
                    "seat": {"type": "integer"}, "token": {"type": "string"}, "code": {"type": "string"}}},
                    "seated", "400", "403", "404", "410")}},
            "/api/tables/{code}/handoff": {"post": {
                "summary": "take a seat the host handed to this phone with a one-time code (table.handoff); the "
                           "phone's anchor (commitment, or entropy) is required (400), and a seat whose phone is "
                           "here moves only once that phone allowed it (seat.handoff, else 409)",
                "parameters": [CODE_PARAMETER],
                "requestBody": {"required": True, **_json({"type": "object", "required": ["handoff"], "properties": {
                    "handoff": {"type": "string", "maxLength": 20}, "commitment": seat_body["properties"]["entropy"],
                    "entropy": seat_body["properties"]["entropy"]}})},
                "responses": _responses("201", {"type": "object", "properties": {
                    "seat": {"type": "integer"}, "token": {"type": "string"}, "code": {"type": "string"}}},
                    "seated", "400", "403", "404", "409", "410", "429")}},
            "/api/tables/{code}/actions": {"post": {
                "summary": "act (the same path as the Socket.IO event 'act')", "parameters": [CODE_PARAMETER],
                "security": bearer, "requestBody": {"required": True, **_json(action)},
                "responses": _responses("200", {"type": "object", "properties": {
                    "ok": {"const": True}, "events": {"type": "array"}, "duplicate": {"type": "boolean"}}},
                    "accepted", "400", "401", "403", "404", "409", "410", "413", "429")}},
            "/api/tables/{code}/close": {"post": {
                "summary": "close the table and reveal its seed (host token)", "parameters": [CODE_PARAMETER],
                "security": bearer,
                "responses": _responses("200", {"type": "object", "properties": {
                    "ok": {"const": True}, "seed": {"type": "string"}}}, "closed", "401", "403", "404", "410")}},
            "/api/displays": {"post": {
                "summary": "a TV's one-time pairing code (6 characters, 10 minutes) and the key that asks for it",
                "responses": _responses("201", {"type": "object", "properties": {
                    "code": {"type": "string"}, "key": {"type": "string"}, "expires": {"type": "number"},
                    "pair_url": {"type": "string"}}}, "the code", "403", "429")}},
            "/api/displays/mine": {"get": {
                "summary": "what the TV holding this key shows: waiting, expired, the tables asking for it "
                           "(named, with their host), or paired with a table",
                "security": bearer,
                "responses": _responses("200", display_state, "the state", "401")}, "post": {
                "summary": "the TV itself shows one of the tables that asked for it, or refuses them all (null)",
                "security": bearer,
                "requestBody": {"required": True, **_json({"type": "object", "required": ["table"], "properties": {
                    "table": {"type": ["string", "null"]}}})},
                "responses": _responses("200", display_state, "the state", "401", "404", "409")}},
            "/api/tables/{code}/display": {"post": {
                "summary": "the host (host key or a seat with the host's rights) sends a TV's code: that TV shows "
                           "the table, without the host's rights",
                "parameters": [CODE_PARAMETER], "security": bearer,
                "requestBody": {"required": True, **_json({"type": "object", "required": ["pairing"], "properties": {
                    "pairing": {"type": "string", "maxLength": 20},
                    "current": {"type": "string", "description": "the host token of the table a paired TV shows: "
                                                                 "without it a paired TV is not moved (409)"}}})},
                "responses": _responses("200", {"type": "object", "properties": {
                    "ok": {"const": True}, "table": {"type": "string"}, "state": {"enum": ["asked", "paired"]},
                    "contested": {"type": "boolean"}}},
                    "paired", "400", "401", "403", "404", "409", "410", "429")}},
            "/api/amiibo/{amiibo_id}": {"get": {
                "summary": "decode an amiibo id and describe the figure", "parameters": [AMIIBO_ID],
                "responses": _responses("200", {"$ref": "#/components/schemas/Figure"}, "the figure", "400")}},
            "/api/amiibo": {"get": {
                "summary": "search the figure catalogue by name (English, French, names given by hosts)",
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "string", "maxLength": 100}},
                               {"name": "limit", "in": "query",
                                "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}}],
                "responses": _responses("200", {"type": "object", "properties": {
                    "query": {"type": "string"},
                    "results": {"type": "array", "items": {"$ref": "#/components/schemas/Figure"}}}},
                    "matches", "400")}},
            "/api/tables/{code}/log": {"get": {
                "summary": "the public log of one game of the table: commitment, entropy, every draw, "
                           "events, the seed once that game is over",
                "parameters": [CODE_PARAMETER, {"name": "game", "in": "query", "description":
                                                "the game's number at the table (the current one by default)",
                                                "schema": {"type": "integer", "minimum": 1}}],
                "responses": _responses("200", {"type": "object"}, "log", "404")}},
            "/api/criteria": {"get": {
                "summary": "Amiiboxe's criteria and references, worded in the caller's language",
                "responses": _responses("200", {"type": "object", "properties": {
                    "criteria": {"type": "array", "items": {"type": "object"}},
                    "references": {"type": "array", "items": {"type": "object"}}}}, "criteria")}},
            "/api/rankings/{criterion}": {
                "parameters": [{"name": "criterion", "in": "path", "required": True, "schema": {"type": "string"}}],
                "get": {
                    "summary": "figures ranked by a criterion, best first, in tiers of ties, with values and sources",
                    "parameters": [
                        {"name": "figures", "in": "query", "schema": {"type": "string"},
                         "description": "amiibo ids separated by commas (at most 60)"},
                        {"name": "table", "in": "query", "schema": {"type": "string"},
                         "description": "rank the figures registered at this table instead"}],
                    "responses": _responses("200", RANKING, "the ranking", "400", "404")},
                "put": {
                    "summary": "propose a new order of the house ranking of a judgement criterion, for figures "
                               "seated at the table (a host or seat token of the table); the other seats agree",
                    "security": bearer,
                    "requestBody": {"required": True, "content": {"application/json": {"schema": {
                        "type": "object", "required": ["table", "tiers"], "properties": {
                            "table": {"type": "string"},
                            "tiers": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}}}}},
                    "responses": {**_responses("200", RANKING, "agreed at once (the host, or nobody else seated): "
                                               "the ranking, saved", "400", "401", "403", "404", "409", "429"),
                                  "202": {"description": "a proposal, waiting for the other seats",
                                          **_json(PROPOSAL_ANSWER)}}}},
            "/api/rankings/proposals": {"get": {
                "summary": "the table's proposals waiting for agreement",
                "parameters": [{"name": "table", "in": "query", "required": True, "schema": {"type": "string"}}],
                "responses": _responses("200", {"type": "object", "properties": {
                    "pending": {"type": "array", "items": {"type": "object"}}}}, "pending proposals", "404")}},
            "/api/rankings/proposals/{proposal}": {"post": {
                "summary": "agree to (or refuse) a proposal: a seat it waits for, or the host for the table",
                "parameters": [{"name": "proposal", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "security": bearer,
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["table", "agree"], "properties": {
                        "table": {"type": "string"}, "agree": {"type": "boolean"}}}}}},
                "responses": _responses("200", PROPOSAL_ANSWER, "the proposal, pending, agreed or refused",
                                        "400", "401", "403", "404", "409")}},
            "/api/amiibo/{amiibo_id}/name": {"put": {
                "summary": "name a figure in the catalogue (the server's administrator key, COMPANION_ADMIN_KEY)",
                "parameters": [AMIIBO_ID], "security": bearer,
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string"}, "lang": {"enum": ["en", "fr"]}}}}}},
                "responses": _responses("200", {"$ref": "#/components/schemas/Figure"}, "the figure, named",
                                        "400", "401", "403")}},
        },
    }
