"""The JSON API, and every bad input it must refuse without changing anything.

Bad inputs tried here: unknown table code, closed table, empty / too long /
blank / control-character names, forged token, a removed seat's (expired) token,
another table's token, a missing token, a malformed Authorization header, an
action for another seat, the host trying to play, a seat trying host actions,
unknown action types, missing and wrongly typed fields, a non-object body,
malformed JSON, a wrong content type, a body over 16 KiB, a repeated action id,
a flood of actions, and requests from another origin (CORS).
"""

from __future__ import annotations

import pytest

from tests.helpers import ENTROPY, bearer, new_table, snapshot


def roll(client, code, token, **extra):
    return client.post(f"/api/tables/{code}/actions", json={"type": "roll", **extra}, headers=bearer(token))


# The happy path --------------------------------------------------------------

def test_create_join_roll_view_close_and_log(client):
    table = new_table(client)
    code, ana = table["code"], table["seats"]["Ana"]
    assert table["join_url"] == f"http://127.0.0.1:5000/t/{code}"
    assert len(table["commitment"]) == 64 and len(code) == 4
    assert ana["seat"] == 1 and table["seats"]["Bo"]["seat"] == 2

    rolled = roll(client, code, ana["token"])
    assert rolled.status_code == 200 and rolled.json["ok"] is True
    value = rolled.json["events"][0]["values"][0]
    assert 1 <= value <= 6

    view = client.get(f"/api/tables/{code.lower()}", headers=bearer(ana["token"])).json
    assert view["you"] == {"role": "seat", "seat": 1}
    assert view["game"]["last"]["values"] == [value]
    assert [s["name"] for s in view["table"]["seats"]] == ["Ana", "Bo"]
    assert view["table"]["seed"] is None

    host_view = client.get(f"/api/tables/{code}", headers=bearer(table["host_token"])).json
    assert host_view["you"]["role"] == "host"

    log = client.get(f"/api/tables/{code}/log").json
    assert log["seed"] is None and log["commitment"] == table["commitment"]
    assert [e["kind"] for e in log["entries"]].count("commit") == 2
    draws = [e for e in log["entries"] if e["kind"] == "draw"]
    assert len(draws) == 1 and draws[0]["result"] == value

    closed = client.post(f"/api/tables/{code}/close", headers=bearer(table["host_token"]))
    assert closed.status_code == 200 and len(closed.json["seed"]) == 64
    assert client.get(f"/api/tables/{code}/log").json["seed"] == closed.json["seed"]


def test_table_codes_avoid_look_alikes_and_are_case_insensitive(client):
    codes = {new_table(client, names=())["code"] for _ in range(30)}
    assert all(len(c) in (4, 5) and not set(c) & set("0O1IL") for c in codes)
    code = codes.pop()
    assert client.get(f"/api/tables/{code.lower()}").status_code == 200


def test_names_are_trimmed_and_any_script_is_welcome(client):
    code = new_table(client, names=())["code"]
    for name, kept in [("  Zoé  ", "Zoé"), ("李雷", "李雷"), ("🎲🐉", "🎲🐉"), ("<b>x</b>", "<b>x</b>"), ("x" * 24, "x" * 24)]:
        seat = client.post(f"/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY})
        assert seat.status_code == 201
    view = client.get(f"/api/tables/{code}").json
    assert [s["name"] for s in view["table"]["seats"]] == ["Zoé", "李雷", "🎲🐉", "<b>x</b>", "x" * 24]
    assert len({s["colour"] for s in view["table"]["seats"]}) == 5


def test_openapi_document_is_valid_and_lists_every_route(client):
    from openapi_spec_validator import validate

    document = client.get("/api/openapi.json").json
    validate(document)
    assert {"/api/tables", "/api/tables/{code}", "/api/tables/{code}/seats", "/api/tables/{code}/actions",
            "/api/tables/{code}/close", "/api/tables/{code}/log", "/api/criteria",
            "/api/rankings/{criterion}"} <= set(document["paths"])


def test_errors_speak_the_callers_language(client):
    refused = client.post("/api/tables", json={"game": "chess"}, headers={"Accept-Language": "fr-FR,fr;q=0.8"})
    assert refused.status_code == 400 and refused.json == {"ok": False, "error": "Jeu inconnu\u00a0: chess."}
    refused = client.post("/api/tables", json={"game": "chess"}, headers={"Accept-Language": "en"})
    assert refused.json["error"] == "Unknown game: chess."


# Bad input: nothing changes ---------------------------------------------------

@pytest.mark.parametrize("name, status", [
    ("", 400), ("   ", 400), ("x" * 25, 400), (None, 400), (42, 400), ("tab\x07bell", 400),
])
def test_bad_names_are_refused(client, tables, name, status):
    code = new_table(client, names=())["code"]
    before = snapshot(tables, code)
    refused = client.post(f"/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY})
    assert refused.status_code == status and refused.json["ok"] is False and refused.json["error"]
    assert snapshot(tables, code) == before


def test_bad_entropy_is_refused(client, tables):
    code = new_table(client, names=())["code"]
    before = snapshot(tables, code)
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Ana", "entropy": "xyz"}).status_code == 400
    assert snapshot(tables, code) == before


def test_unknown_table_code(client):
    for code in ("ZZZZ", "0000", "toolongcode", "AB"):
        assert client.get(f"/api/tables/{code}").status_code == 404
        refused = client.post(f"/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY})
        assert refused.status_code == 404 and "no table" in refused.json["error"]


def test_closed_table_refuses_seats_and_actions(client, tables):
    table = new_table(client)
    code = table["code"]
    client.post(f"/api/tables/{code}/close", headers=bearer(table["host_token"]))
    before = snapshot(tables, code)
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Late", "entropy": ENTROPY}).status_code == 410
    assert roll(client, code, table["seats"]["Ana"]["token"]).status_code == 410
    assert client.post(f"/api/tables/{code}/close", headers=bearer(table["host_token"])).status_code == 410
    assert snapshot(tables, code) == before


@pytest.mark.parametrize("headers, status", [
    ({}, 401),
    ({"Authorization": "Bearer forged-token-123"}, 401),
    ({"Authorization": "Basic dXNlcjpwYXNz"}, 401),
    ({"Authorization": "Bearer "}, 401),
    ({"Authorization": "Bearer " + "x" * 300}, 401),
])
def test_missing_forged_or_malformed_tokens_are_refused(client, tables, headers, status):
    code = new_table(client)["code"]
    before = snapshot(tables, code)
    refused = client.post(f"/api/tables/{code}/actions", json={"type": "roll"}, headers=headers)
    assert refused.status_code == status and refused.json["ok"] is False
    assert snapshot(tables, code) == before


def test_another_tables_token_is_refused(client, tables):
    first, second = new_table(client), new_table(client)
    before = snapshot(tables, second["code"])
    refused = roll(client, second["code"], first["seats"]["Ana"]["token"])
    assert refused.status_code == 401 and "another table" in refused.json["error"]
    refused = client.post(f"/api/tables/{second['code']}/close", headers=bearer(first["host_token"]))
    assert refused.status_code == 401
    assert snapshot(tables, second["code"]) == before


def test_removed_seat_token_has_expired(client, tables):
    table = new_table(client)
    code, bo = table["code"], table["seats"]["Bo"]
    removed = client.post(f"/api/tables/{code}/actions", json={"type": "table.remove", "seat": bo["seat"]},
                          headers=bearer(table["host_token"]))
    assert removed.status_code == 200
    before = snapshot(tables, code)
    refused = roll(client, code, bo["token"])
    assert refused.status_code == 401 and "removed" in refused.json["error"]
    assert snapshot(tables, code) == before
    assert [s["name"] for s in client.get(f"/api/tables/{code}").json["table"]["seats"]] == ["Ana"]


@pytest.mark.parametrize("action, status, complaint", [
    ({"type": "roll", "seat": 2}, 403, "your own seat"),
    ({"type": "teleport"}, 400, "Unknown action"),
    ({"type": "table.launch"}, 400, "Unknown action"),
    ({"type": "table.close"}, 403, "Only the host"),
    ({"type": ""}, 400, "needs a type"),
    ({"type": 7}, 400, "needs a type"),
    ({"kind": "roll"}, 400, "needs a type"),
    ({"type": "roll", "id": "white space"}, 400, "action id"),
    ({"type": "roll", "id": 12}, 400, "action id"),
])
def test_bad_actions_from_a_seat_are_refused(client, tables, action, status, complaint):
    table = new_table(client)
    before = snapshot(tables, table["code"])
    refused = client.post(f"/api/tables/{table['code']}/actions", json=action,
                          headers=bearer(table["seats"]["Ana"]["token"]))
    assert refused.status_code == status and complaint in refused.json["error"]
    assert snapshot(tables, table["code"]) == before


@pytest.mark.parametrize("action, status, complaint", [
    ({"type": "roll"}, 403, "does not play"),
    ({"type": "table.joining"}, 400, "open"),
    ({"type": "table.joining", "open": "no"}, 400, "open"),
    ({"type": "table.rename", "seat": 9, "name": "X"}, 404, "no such seat"),
    ({"type": "table.rename", "seat": "1", "name": "X"}, 404, "no such seat"),
    ({"type": "table.rename", "seat": 1, "name": " "}, 400, "name"),
    ({"type": "table.remove", "seat": 99}, 404, "no such seat"),
    ({"type": "table.start"}, 409, "already started"),
])
def test_bad_host_actions_are_refused(client, tables, action, status, complaint):
    table = new_table(client)
    before = snapshot(tables, table["code"])
    refused = client.post(f"/api/tables/{table['code']}/actions", json=action, headers=bearer(table["host_token"]))
    assert refused.status_code == status and complaint in refused.json["error"]
    assert snapshot(tables, table["code"]) == before


@pytest.mark.parametrize("kwargs, status", [
    ({"data": "{not json", "content_type": "application/json"}, 400),
    ({"data": '["roll"]', "content_type": "application/json"}, 400),
    ({"data": '{"type": "roll"}', "content_type": "text/plain"}, 400),
    ({"json": {"type": "roll", "padding": "x" * 17_000}}, 413),
])
def test_malformed_and_oversized_bodies_are_refused(client, tables, kwargs, status):
    table = new_table(client)
    before = snapshot(tables, table["code"])
    refused = client.post(f"/api/tables/{table['code']}/actions", headers=bearer(table["seats"]["Ana"]["token"]),
                          **kwargs)
    assert refused.status_code == status and refused.json["ok"] is False
    assert snapshot(tables, table["code"]) == before


def test_the_same_action_sent_twice_rolls_once(client, tables):
    table = new_table(client)
    token = table["seats"]["Ana"]["token"]
    first = roll(client, table["code"], token, id="tap-1")
    again = roll(client, table["code"], token, id="tap-1")
    assert again.json["duplicate"] is True and again.json["events"] == first.json["events"]
    assert client.get(f"/api/tables/{table['code']}").json["game"]["rolls"] == 1
    other = roll(client, table["code"], table["seats"]["Bo"]["token"], id="tap-1")  # ids are per seat
    assert "duplicate" not in other.json


def test_a_flood_of_actions_is_rate_limited_with_a_clear_message(client, tables):
    table = new_table(client)
    token = table["seats"]["Ana"]["token"]
    answers = [roll(client, table["code"], token) for _ in range(40)]
    accepted = [a for a in answers if a.status_code == 200]
    limited = [a for a in answers if a.status_code == 429]
    assert len(accepted) + len(limited) == 40
    assert limited and "Too many actions" in limited[0].json["error"]
    assert client.get(f"/api/tables/{table['code']}").json["game"]["rolls"] == len(accepted)
    # Bo is not slowed down by Ana's flood.
    assert roll(client, table["code"], table["seats"]["Bo"]["token"]).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:6666", "null"])
def test_requests_from_other_origins_are_refused(client, tables, origin):
    table = new_table(client)
    before = snapshot(tables, table["code"])
    refused = client.post(f"/api/tables/{table['code']}/actions", json={"type": "roll"},
                          headers={**bearer(table["seats"]["Ana"]["token"]), "Origin": origin})
    assert refused.status_code == 403 and "other sites" in refused.json["error"]
    assert "Access-Control-Allow-Origin" not in refused.headers
    preflight = client.options("/api/tables", headers={"Origin": origin, "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 403 and "Access-Control-Allow-Origin" not in preflight.headers
    assert client.post("/api/tables", json={"game": "dice"}, headers={"Origin": origin}).status_code == 403
    assert snapshot(tables, table["code"]) == before


def test_same_origin_browser_requests_are_accepted(client):
    created = client.post("/api/tables", json={"game": "dice"}, headers={"Origin": "http://localhost"})
    assert created.status_code == 201


def test_host_manages_seats_and_joining(client):
    table = new_table(client)
    code, host = table["code"], bearer(table["host_token"])
    assert client.post(f"/api/tables/{code}/actions", json={"type": "table.rename", "seat": 2, "name": "Bob"},
                       headers=host).status_code == 200
    assert client.post(f"/api/tables/{code}/actions", json={"type": "table.joining", "open": False},
                       headers=host).status_code == 200
    late = client.post(f"/api/tables/{code}/seats", json={"name": "Late", "entropy": ENTROPY})
    assert late.status_code == 403 and "spectator" in late.json["error"]
    view = client.get(f"/api/tables/{code}").json
    assert view["table"]["joining_open"] is False and view["you"]["role"] == "spectator"
    assert [s["name"] for s in view["table"]["seats"]] == ["Ana", "Bob"]
    client.post(f"/api/tables/{code}/actions", json={"type": "table.joining", "open": True}, headers=host)
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Late", "entropy": ENTROPY}).status_code == 201


def test_a_full_table_refuses_more_seats(client):
    code = new_table(client, names=())["code"]
    for number in range(12):
        assert client.post(f"/api/tables/{code}/seats", json={"name": f"P{number}", "entropy": ENTROPY}).status_code == 201
    refused = client.post(f"/api/tables/{code}/seats", json={"name": "Thirteen", "entropy": ENTROPY})
    assert refused.status_code == 403 and "full" in refused.json["error"]


def test_seat_cookie_is_set_for_the_phone(client):
    code = new_table(client, names=())["code"]
    seat = client.post(f"/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY})
    cookie = seat.headers["Set-Cookie"]
    assert f"companion_seat_{code}={seat.json['token']}" in cookie and "HttpOnly" in cookie


def test_a_wrong_method_under_the_api_answers_json(client):
    refused = client.delete("/api/tables")
    assert refused.status_code == 405 and refused.json["ok"] is False and refused.json["error"]
