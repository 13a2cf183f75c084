"""The create form's checks and the lobby's requirements: each option is checked as it is set
by the same rules as creating a table (an impossible one is refused, with the reason, and the
field to show it next to), option values have labels in both languages, and every screen of a
table in its lobby learns what it still needs to start, with counts.

Bad inputs tried here: an unknown game, a body that is not an object, options that are not an
object, an unknown option, a number out of range, a list item too long, a combination that the
game refuses, a forged ``changed`` that names no option."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po

from companion.games.base import REGISTRY
from companion.option_texts import item_labels
from scripts.translations import po_path
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


@pytest.mark.parametrize("reference, complaint", [
    (["bok"], "Unknown reference: bok."),
    (["lightest", "tallest", "heaviest", "shortest_name", "oldest_figure", "prettiest"],
     "Unknown criterion: prettiest."),
])
def test_an_amiiboxe_reference_start_would_refuse_is_refused_as_it_is_typed(client, reference, complaint):
    """A typo in the reference used to pass the check and fail at Start, once every figure was registered."""
    answer = check(client, "amiiboxe", {"reference": reference}, "reference").json
    assert answer == {"ok": False, "option": "reference", "error": complaint}
    french = check(client, "amiiboxe", {"reference": reference}, "reference", FRENCH).json
    assert not french["ok"] and french["error"] != complaint
    created = client.post("/api/tables", json={"game": "amiiboxe", "options": {"reference": reference}})
    assert created.status_code == 400 and created.json["error"] == complaint
    assert check(client, "amiiboxe", {"reference": ["random"]}, "reference").json["ok"]


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


# --- option values by name, never as stored ids --------------------------------------------------

NOTATION = re.compile(r"^\d*d\d+$|^\d+$")  # "d6", "3": the same in every language
# Rayman's boards, projectiles and Bosses keep the names printed in the box (French in both languages).
PROPER_NAMES = {"Jungle", "Forêt", "Fiesta de los Muertos", "Enfer", "Missile", "Fourchette", "Feu d'artifice",
                "Fantôme Rouge", "Bombe Volante", "Crapaud blindé", "Ptizêtre maléfique", "Seabreather", "Grundermord"}


def french_catalogue():
    with open(po_path("messages"), "rb") as handle:
        return {message.id: message.string for message in read_po(handle, locale="fr") if message.id}


def shown_msgids(game, option):
    """Every value the form or the lobby may show for an option, as the msgid it is shown by."""
    if option.kind == "choice":
        return [label for _, label in option.labelled_choices()]
    if option.kind == "list":
        labels = item_labels(game, option)
        words = [word for item in option.default for word in (item.split() if option.item_words else [item])]
        unknown = [word for word in words if word not in labels and not NOTATION.match(word)]
        assert unknown == [], f"{game.id}.{option.name} shows {unknown} as stored"
        return list(labels.values())
    return []


def test_every_value_every_game_may_show_has_a_french_translation():
    french = french_catalogue()
    shown = [(game.id, option.name, msgid) for game in REGISTRY.values() for option in game.options
             for msgid in shown_msgids(game, option)]
    assert len(shown) > 100
    missing = [entry for entry in shown
               if not NOTATION.match(entry[2]) and entry[2] not in PROPER_NAMES and not french.get(entry[2])]
    assert missing == []


def form_values(client, language):
    page = client.get(f"/?lang={language}").get_data(as_text=True)
    return {name: html.unescape(value) for name, value
            in re.findall(r'data-option="(\w+)" data-kind="list" value="([^"]*)"', page)}


def test_the_french_create_form_shows_list_values_by_their_french_names(client):
    french, english = form_values(client, "fr"), form_values(client, "en")
    assert french["saucer_colours"] == "bleu, vert, rose" and english["saucer_colours"] == "blue, green, pink"
    assert french["shooting_die"] == "bleu, vert, rose, bleu, vert, rose"
    assert french["alien_die"] == "bleu, vert, rose, orange, bleu, vert"
    assert french["alien_tiles"].startswith("Vie supplémentaire, Vie supplémentaire")
    assert "2 Champ magnétique" in french["defender_tiles"] and "2 Magnetic field" in english["defender_tiles"]
    assert french["reference"] == "L’exemple du livret"
    ids = {item_id for game in REGISTRY.values() for option in game.options
           for item_id, _ in item_labels(game, option).items() if "_" in item_id or item_id in ("blue", "pink")}
    shown = " ".join(french.values())
    assert [item_id for item_id in ids if re.search(rf"\b{item_id}\b", shown)] == []


def create(client, game, options, headers=None):
    answer = client.post("/api/tables", json={"game": game, "options": options}, headers=headers or {})
    assert answer.status_code == 201, answer.json
    return answer.json


def table_view(client, table, headers=None):
    return client.get(f"/api/tables/{table['code']}", headers={**bearer(table["host_token"]), **(headers or {})}).json


def test_values_typed_by_name_in_either_language_are_stored_as_ids(client):
    typed = {"saucer_colours": ["Bleu", "vert", "rouge"], "shooting_die": ["bleu", "VERT", "red"],
             "alien_die": ["blue", "green", "orange"],
             "alien_tiles": ["Vie supplémentaire"] * 4 + ["Engines", "Moteurs améliorés", "rift", "rift"],
             "defender_tiles": ["1 Super munitions", "1 astéroïde", "2 Mine de pépites 1", "2 nugget mine 2",
                                "3 Champ magnétique", "3 mini-tour"]}
    table = create(client, "arkade", typed, FRENCH)
    options = table_view(client, table)["table"]["options"]
    assert options["saucer_colours"] == ["blue", "green", "red"] and options["shooting_die"] == ["blue", "green", "red"]
    assert options["alien_tiles"] == ["extra_life"] * 4 + ["engines"] * 2 + ["rift"] * 2
    assert options["defender_tiles"] == ["1 munitions", "1 asteroid", "2 mine 1", "2 mine 2", "3 magnetic_field",
                                         "3 tower"]
    own_box = {"saucer_colours": ["bleu", "vert", "turquoise"], "shooting_die": ["turquoise", "Vert"]}
    checked = check(client, "arkade", own_box, "saucer_colours", FRENCH).json
    assert checked["options"]["saucer_colours"] == ["blue", "green", "turquoise"]  # a colour of one's own box
    assert checked["options"]["shooting_die"] == ["turquoise", "green"]
    reference = create(client, "amiiboxe", {"reference": ["au hasard"]}, FRENCH)
    assert table_view(client, reference)["table"]["options"]["reference"] == ["random"]


@pytest.mark.parametrize("options", [
    {"saucer_colours": [1, 2, 3]},  # not text: refused as before, not turned into anything
    {"saucer_colours": "bleu, vert, rose"},  # not a list
    {"defender_tiles": ["4 Champ magnétique"]},  # a colour number that does not exist
])
def test_values_that_are_not_names_of_anything_are_refused_by_the_games_own_checks(client, options):
    answer = client.post("/api/tables", json={"game": "arkade", "options": options}, headers=FRENCH)
    assert answer.status_code == 400 and answer.json["error"]


def french_list(french, game, option):
    """A list option's default as the French lobby must show it, from the catalogue itself."""
    labels = item_labels(game, option)

    def name(word):
        return french[labels[word]] if word in labels else word
    items = [" ".join(map(name, item.split())) if option.item_words else name(item) for item in option.default]
    return ", ".join(items) or french["none"]


def test_the_lobby_shows_every_option_by_name_on_every_screen(client):
    french = french_catalogue()
    for game in REGISTRY.values():
        if game.starts_at_once:  # the shared die has no lobby: it is played from the start
            continue
        table = new_table(client, game.id, names=("Ana",))
        for who in (bearer(table["host_token"]), bearer(table["seats"]["Ana"]["token"])):
            shown = client.get(f"/api/tables/{table['code']}", headers=who).json["table"]["options_shown"]
            assert [entry["name"] for entry in shown] == [option.name for option in game.options]
            for entry, option in zip(shown, game.options):
                assert entry["label"]["fr"] and entry["label"]["fr"] != option.name
                assert entry["value"]["fr"], (game.id, option.name)
                if option.kind == "list":
                    assert entry["value"]["fr"] == french_list(french, game, option), (game.id, option.name)
                    assert "_" not in entry["value"]["fr"]
    arkade = new_table(client, "arkade", names=("Ana", "Bo"))
    shown = {entry["name"]: entry["value"] for entry in table_view(client, arkade)["table"]["options_shown"]}
    assert shown["saucer_colours"] == {"en": "blue, green, pink", "fr": "bleu, vert, rose"}
    assert shown["mode"]["fr"] == "Stratégie (chacun son tour)"
    started = client.post(f"/api/tables/{arkade['code']}/actions", headers=bearer(arkade["host_token"]),
                          json={"type": "table.start"})
    assert started.status_code == 200
    assert "options_shown" not in table_view(client, arkade)["table"]  # the game has the screen now


def test_a_refused_tile_list_names_the_tiles_as_the_form_does_in_the_pages_language(client):
    typed = {"defender_tiles": ["4 Champ magnétique"]}
    french = check(client, "arkade", typed, "defender_tiles", FRENCH).json
    assert french["option"] == "defender_tiles"
    assert french["error"].startswith("Tuile Défenseur 4 Champ magnétique\u00a0: écrivez le numéro de la couleur")
    assert "Mine de pépites" in french["error"] and "magnetic_field" not in french["error"]
    english = check(client, "arkade", {"alien_tiles": ["Extra life"]}, "alien_tiles").json
    assert english["error"] == ("The Alien tiles: at least 6, each one of Extra life, Engines, Rift in the galaxy, "
                                "Turret hit, Repaired saucer, Reactor damage.")
