"""The create form's checks and the lobby's requirements: each option is checked as it is set
by the same rules as creating a table (an impossible one is refused, with the reason, and the
field to show it next to), option values have labels in both languages, and every screen of a
table in its lobby learns what it still needs to start, with counts.

Bad inputs tried here: an unknown game, a body that is not an object, options that are not an
object, an unknown option, a number out of range, a list item too long, a combination that the
game refuses, a forged ``changed`` that names no option."""

from __future__ import annotations

import pytest

from companion.games.base import REGISTRY
from tests.helpers import bearer, new_table, ENTROPY

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


def check(client, game, options, changed=None, headers=None):
    body = {"game": game, "options": options}
    if changed is not None:
        body["changed"] = changed
    return client.post("/api/options/check", json=body, headers=headers or {})


def test_valid_options_come_back_normalized(client):
    answer = check(client, "amiiboxe", {"figures_per_player": 4}, "figures_per_player")
    assert answer.status_code == 200
    assert answer.json["ok"] and answer.json["options"]["figures_per_player"] == 4
    assert answer.json["options"]["reference"] == REGISTRY["amiiboxe"].normalize_options({})["reference"]


def test_a_number_out_of_range_is_refused_with_the_fields_label_in_the_pages_language(client):
    english = check(client, "amiiboxe", {"figures_per_player": 9}, "figures_per_player").json
    assert english == {"ok": False, "option": "figures_per_player",
                       "error": "Option Figures per player must be a whole number from 1 to 6."}
    french = check(client, "amiiboxe", {"figures_per_player": 9}, "figures_per_player", FRENCH).json
    assert french["option"] == "figures_per_player"
    assert "par joueur doit être un nombre entier de 1 à 6" in french["error"]
    assert "figures_per_player" not in french["error"]


def test_a_combination_the_game_refuses_blames_the_option_just_changed(client):
    options = {"mode": "competitive", "tournament": "on", "projectile_card": "on", "projectile": "none"}
    answer = check(client, "rayman", options, "projectile").json
    assert answer == {"ok": False, "option": "projectile", "error": "A projectile card needs projectiles."}
    forged = check(client, "rayman", options, "not_an_option").json
    assert not forged["ok"] and forged["option"] is None


def test_the_check_is_the_one_a_new_table_applies(client):
    options = {"mode": "solo", "boss": "none"}
    checked = check(client, "rayman", options, "boss").json
    created = client.post("/api/tables", json={"game": "rayman", "options": options})
    assert created.status_code == 400 and created.json["error"] == checked["error"]


@pytest.mark.parametrize("body, status", [
    ({"game": "chess", "options": {}}, 400),
    (["not", "an", "object"], 400),
])
def test_an_unknown_game_or_a_malformed_body_is_a_bad_request(client, body, status):
    answer = client.post("/api/options/check", json=body)
    assert answer.status_code == status and answer.json["ok"] is False and answer.json["error"]


@pytest.mark.parametrize("options, blamed", [
    ("nope", None),
    ({"colour": "red"}, None),
    ({"saucer_colours": ["x" * 40]}, "saucer_colours"),
])
def test_malformed_options_are_refused_and_name_their_field_when_they_can(client, options, blamed):
    answer = check(client, "arkade", options).json
    assert answer["ok"] is False and answer["option"] == blamed and answer["error"]


def test_every_choice_of_every_game_has_a_label_and_the_form_shows_no_raw_id(client):
    unlabelled = [(game.id, option.name) for game in REGISTRY.values() if game.id != "dice"
                  for option in game.options if option.kind == "choice"
                  and len(option.choice_labels) != len(option.choices)]
    assert unlabelled == []  # the dice's form is written by hand (d4…d20, "Custom faces")
    page = client.get("/?lang=fr").get_data(as_text=True)
    assert ">crapaud_blinde<" not in page and ">Crapaud blindé<" in page
    assert ">auto<" not in page and ">off<" not in page and ">Non<" in page


def lobby_needs(client, table, who="host"):
    token = table["host_token"] if who == "host" else table["seats"][who]["token"]
    return client.get(f"/api/tables/{table['code']}", headers=bearer(token)).json["table"]["requirements"]


def scan(client, table, uid, amiibo_id):
    answer = client.post(f"/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                         json={"type": "table.scan", "uid": uid, "amiibo_id": amiibo_id})
    assert answer.status_code == 200, answer.json


def test_every_screen_sees_what_the_lobby_still_needs_with_counts(client):
    table = new_table(client, "amiiboxe", {"figures_per_player": 3}, names=("Ana",))
    assert lobby_needs(client, table) == [
        {"kind": "players", "have": 1, "need": 2, "max": 4, "met": False},
        {"kind": "figures", "seat": 1, "have": 0, "need": 3, "met": False}]
    seat = client.post(f"/api/tables/{table['code']}/seats", json={"name": "Bo", "entropy": ENTROPY}).json
    table["seats"]["Bo"] = seat
    adding = client.post(f"/api/tables/{table['code']}/actions", headers=bearer(table["seats"]["Ana"]["token"]),
                         json={"type": "figure.adding", "on": True})
    assert adding.status_code == 200
    scan(client, table, "04a1b2c3d4e5f6", "0x0000000000000002")
    needs = lobby_needs(client, table, "Bo")  # a phone sees the same as the host screen
    assert needs == lobby_needs(client, table)
    assert needs[0]["met"] and needs[1:] == [
        {"kind": "figures", "seat": 1, "have": 1, "need": 3, "met": False},
        {"kind": "figures", "seat": 2, "have": 0, "need": 3, "met": False}]


def test_the_players_needed_follow_the_chosen_mode(client):
    solo = new_table(client, "rayman", {"mode": "solo"}, names=("Ana", "Bo"))
    assert lobby_needs(client, solo) == [{"kind": "players", "have": 2, "need": 1, "max": 1, "met": False}]
    race = new_table(client, "rayman", {"mode": "competitive"}, names=("Ana",))
    assert lobby_needs(client, race) == [{"kind": "players", "have": 1, "need": 2, "max": 4, "met": False}]
    started = client.post(f"/api/tables/{race['code']}/actions", headers=bearer(race["host_token"]),
                          json={"type": "table.start"})
    assert started.status_code == 409  # what the lobby said, the start says
    assert started.json["error"] == "This game needs 2 to 4 players."
    assert lobby_needs(client, race)[0]["met"] is False


def test_a_game_without_figures_needs_only_players_and_a_started_game_needs_nothing(client):
    table = new_table(client, "arkade", names=("Ana", "Bo"))
    assert lobby_needs(client, table) == [{"kind": "players", "have": 2, "need": 2, "max": 2, "met": True}]
    started = client.post(f"/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                          json={"type": "table.start"})
    assert started.status_code == 200, started.json
    assert lobby_needs(client, table) == []
