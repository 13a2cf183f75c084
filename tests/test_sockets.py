"""Socket.IO: views per seat, reconnection, take-over, and refusals.

Bad inputs tried here over the socket: a forged token, an unknown table code,
another table's token, a removed seat's token, a spectator acting, payloads
that are not objects (text, list, nothing), an oversized payload, an unknown
action type, an action for another seat, and a repeated action id. Every
client's received messages are recorded to check who was told what.
"""

from __future__ import annotations

import pytest

from companion.games.base import REGISTRY, Game, IllegalAction
from tests.helpers import bearer, new_table


def views(connection) -> list[dict]:
    return [m["args"][0] for m in connection.get_received() if m["name"] == "view"]


def names(connection) -> list[str]:
    """Event names received, also by a client the server has disconnected since."""
    return [m["name"] for m in connection.queue]


@pytest.fixture
def table(client):
    return new_table(client)


@pytest.fixture
def seated(table, socket_client):
    """Ana, Bo, the host screen and a spectator, connected, their welcome messages drained."""
    code = table["code"]
    clients = {"Ana": socket_client(code, table["seats"]["Ana"]["token"]),
               "Bo": socket_client(code, table["seats"]["Bo"]["token"]),
               "host": socket_client(code, table["host_token"]),
               "spectator": socket_client(code)}
    for connection in clients.values():
        assert connection.is_connected()
        connection.get_received()
    return clients


def test_a_roll_reaches_every_screen_with_its_own_view(table, seated):
    ack = seated["Ana"].emit("act", {"type": "roll", "id": "a1"}, callback=True)
    assert ack["ok"] is True
    value = ack["events"][0]["values"]
    received = {who: views(connection) for who, connection in seated.items()}
    for who, got in received.items():
        assert len(got) == 1, who
        assert got[0]["game"]["last"]["values"] == value
        assert got[0]["game"]["last"]["seat"] == 1
        # A view shared by every screen leaves "you" out: each learnt it when connecting.
        assert "you" not in got[0]
    # Seats may roll, the screens that watch may not: two audiences, two messages.
    assert received["Ana"] == received["Bo"] and received["host"] == received["spectator"]
    assert received["Ana"][0]["game"]["legal"] == [{"type": "roll"}] and received["host"][0]["game"]["legal"] == []


def test_each_screen_learns_who_it_is_when_connecting(table, socket_client):
    code = table["code"]
    for token, you in [(table["seats"]["Ana"]["token"], {"role": "seat", "seat": 1}),
                       (table["seats"]["Bo"]["token"], {"role": "seat", "seat": 2}),
                       (table["host_token"], {"role": "host", "seat": None}),
                       (None, {"role": "spectator", "seat": None})]:
        assert views(socket_client(code, token))[0]["you"] == you


def test_connecting_sends_the_current_view_and_presence(table, socket_client):
    ana = socket_client(table["code"], table["seats"]["Ana"]["token"])
    received = ana.get_received()
    first_view = next(m["args"][0] for m in received if m["name"] == "view")
    assert first_view["you"]["seat"] == 1 and first_view["online"] == [1]
    presence = next(m["args"][0] for m in received if m["name"] == "presence")
    # Bo never connected: away (since the server started), with the time the screens count from.
    assert presence["online"] == [1] and list(presence["away_since"]) == ["2"]


@pytest.mark.parametrize("auth", [
    {"token": "forged"},
    {"table": "ZZZZ"},
    {"table": None},
])
def test_bad_credentials_refuse_the_connection(app, table, auth):
    auth = {"table": table["code"], **auth}
    connection = app.extensions["companion.socketio"].test_client(app, auth=auth)
    assert not connection.is_connected()


def test_another_tables_token_refuses_the_connection(app, client, table):
    other = new_table(client)
    connection = app.extensions["companion.socketio"].test_client(
        app, auth={"table": table["code"], "token": other["seats"]["Ana"]["token"]})
    assert not connection.is_connected()


@pytest.mark.parametrize("payload, complaint", [
    ("roll", "JSON object"),
    (["roll"], "JSON object"),
    (None, "JSON object"),
    ({"type": "roll", "padding": "x" * 20_000}, "too large"),
    ({"type": "juggle"}, "Unknown action"),
    ({"type": "roll", "seat": 2}, "your own seat"),
    ({"type": "table.close"}, "Only the host"),
])
def test_bad_actions_get_a_clear_error_and_nobody_is_told_anything(seated, payload, complaint):
    ack = seated["Ana"].emit("act", payload, callback=True)
    assert ack["ok"] is False and complaint in ack["error"]
    for connection in seated.values():
        assert views(connection) == []


def test_a_spectator_cannot_act(seated):
    ack = seated["spectator"].emit("act", {"type": "roll"}, callback=True)
    assert ack["ok"] is False and "token" in ack["error"]
    assert views(seated["host"]) == []


def test_a_repeated_action_id_rolls_once_and_broadcasts_once(seated):
    first = seated["Ana"].emit("act", {"type": "roll", "id": "tap-7"}, callback=True)
    again = seated["Ana"].emit("act", {"type": "roll", "id": "tap-7"}, callback=True)
    assert again["duplicate"] is True and again["events"] == first["events"]
    assert len(views(seated["Bo"])) == 1


def test_errors_follow_the_phones_language(app, table):
    connection = app.extensions["companion.socketio"].test_client(
        app, auth={"table": table["code"], "token": table["seats"]["Ana"]["token"]},
        headers={"Accept-Language": "fr"})
    ack = connection.emit("act", {"type": "juggle"}, callback=True)
    assert ack["error"] == "Action inconnue\u00a0: juggle."


def test_reconnecting_with_the_token_restores_the_seat(table, socket_client):
    token = table["seats"]["Bo"]["token"]
    first = socket_client(table["code"], token)
    first.disconnect()
    again = socket_client(table["code"], token)
    assert again.is_connected()
    assert views(again)[0]["you"] == {"role": "seat", "seat": 2}


def test_a_second_phone_with_the_same_token_takes_the_seat_over(table, seated, socket_client):
    newer = socket_client(table["code"], table["seats"]["Ana"]["token"])
    assert newer.is_connected()
    assert "replaced" in names(seated["Ana"])
    assert not seated["Ana"].is_connected()
    assert newer.emit("act", {"type": "roll"}, callback=True)["ok"] is True


def test_a_removed_seat_is_disconnected_and_cannot_come_back(client, app, table, seated):
    removed = client.post(f"/api/tables/{table['code']}/actions", json={"type": "table.remove", "seat": 2},
                          headers=bearer(table["host_token"]))
    assert removed.status_code == 200
    assert "removed" in names(seated["Bo"]) and not seated["Bo"].is_connected()
    assert [s["id"] for s in views(seated["host"])[-1]["table"]["seats"]] == [1]
    comeback = app.extensions["companion.socketio"].test_client(
        app, auth={"table": table["code"], "token": table["seats"]["Bo"]["token"]})
    assert not comeback.is_connected()


def test_actions_over_http_reach_the_sockets_too(client, table, seated):
    rolled = client.post(f"/api/tables/{table['code']}/actions", json={"type": "roll"},
                         headers=bearer(table["seats"]["Bo"]["token"]))
    assert rolled.status_code == 200
    assert views(seated["Ana"])[-1]["game"]["last"]["seat"] == 2


# Hidden information -----------------------------------------------------------

def _secret_setup(options, seats, rng):
    return {"picks": {}, "seats": [s["id"] for s in seats], "revealed": False}


def _secret_apply(state, seat, action, rng):
    if action.get("type") != "pick" or type(action.get("number")) is not int:
        raise IllegalAction("Unknown action: %(action)s.", action=str(action.get("type")))
    picks = {**state["picks"], str(seat): action["number"]}
    revealed = len(picks) == len(state["seats"])
    return {**state, "picks": picks, "revealed": revealed}, [{"type": "locked", "seat": seat}]


def _secret_view(state, seat):
    if state["revealed"]:
        return {"picks": state["picks"], "locked": sorted(state["picks"])}
    mine = {str(seat): state["picks"][str(seat)]} if str(seat) in state["picks"] else {}
    return {"picks": mine, "locked": sorted(state["picks"])}


@pytest.fixture
def secret_game():
    """A tiny game with secret simultaneous picks, to test the shell's per-seat routing."""
    REGISTRY["secret"] = Game(id="secret", title="Secret", min_seats=2, max_seats=4, options=(),
                              setup=_secret_setup, apply=_secret_apply, view=_secret_view)
    yield
    del REGISTRY["secret"]


def test_secret_picks_reach_only_their_owner_until_the_reveal(client, secret_game, socket_client):
    table = new_table(client, game="secret")
    code = table["code"]
    phones = {name: socket_client(code, seat["token"]) for name, seat in table["seats"].items()}
    host, spectator = socket_client(code, table["host_token"]), socket_client(code)
    started = client.post(f"/api/tables/{code}/actions", json={"type": "table.start"},
                          headers=bearer(table["host_token"]))
    assert started.status_code == 200
    for connection in (*phones.values(), host, spectator):
        connection.get_received()

    assert phones["Ana"].emit("act", {"type": "pick", "number": 424242}, callback=True)["ok"]
    before_reveal = {"Bo": phones["Bo"].get_received(), "host": host.get_received(),
                     "spectator": spectator.get_received(), "Ana": phones["Ana"].get_received()}
    for who in ("Bo", "host", "spectator"):
        assert before_reveal[who], who
        assert "424242" not in repr(before_reveal[who]), who
    assert "424242" in repr(before_reveal["Ana"])
    assert "424242" not in repr(client.get(f"/api/tables/{code}/log").json)
    assert "424242" not in repr(client.get(f"/api/tables/{code}").json)

    assert phones["Bo"].emit("act", {"type": "pick", "number": 777}, callback=True)["ok"]
    assert "424242" in repr(spectator.get_received())
    assert "424242" in repr(host.get_received())


def test_a_lobby_game_starts_only_with_enough_players(client, secret_game):
    table = new_table(client, game="secret", names=("Solo",))
    host = bearer(table["host_token"])
    refused = client.post(f"/api/tables/{table['code']}/actions", json={"type": "table.start"}, headers=host)
    assert refused.status_code == 409 and "2 to 4" in refused.json["error"]
    early = client.post(f"/api/tables/{table['code']}/actions", json={"type": "pick", "number": 1},
                        headers=bearer(table["seats"]["Solo"]["token"]))
    assert early.status_code == 409 and "not started" in early.json["error"]
