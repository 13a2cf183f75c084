"""What Amiiboxe gets from the server's memory when it starts (criterion values,
home locations, the house rankings) and what it teaches it (agreements, named
locations), on a real SQLite store."""

from __future__ import annotations

import pytest

from companion.amiibo.ids import AmiiboError
from companion.amiibo.locations import FigureLocations
from companion.games.base import Game
from companion.services import CompanionServices
from tests.test_rankings_api import BOWSER, MARIO, PIKACHU, catalog  # noqa: F401  (the catalogue fixture)

AMIIBOXE_SHAPED = Game(id="amiiboxe", title="Amiiboxe", min_seats=2, max_seats=4, options=(),
                       setup=lambda options, seats, rng: {}, apply=lambda *args: ({}, []),
                       view=lambda state, seat: state)
OTHER = Game(id="other", title="Other", min_seats=1, max_seats=2, options=(), setup=lambda *args: {},
             apply=lambda *args: ({}, []), view=lambda state, seat: state)


def seat(seat_id, *amiibo_ids):
    return {"id": seat_id, "name": f"P{seat_id}", "figures": [
        {"id": n, "amiibo_id": amiibo_id, "seat": seat_id, "name": {"en": "?", "fr": "?"}, "uid": None, "known": True}
        for n, amiibo_id in enumerate(amiibo_ids)]}


@pytest.fixture
def services(app, catalog):  # noqa: F811
    return CompanionServices(catalog, app.extensions["companion.house"], FigureLocations(catalog.store),
                             language=lambda: "fr")


def test_other_games_are_left_alone(services):
    options, seats = services.prepare(OTHER, {"a": 1}, [seat(1, MARIO)])
    assert options == {"a": 1} and seats == [seat(1, MARIO)]


def test_a_game_starts_with_values_locations_and_the_house_rankings(services):
    learned = {"type": "house_learned", "criterion": "most_villainous", "winner": BOWSER, "loser": MARIO}
    services.remember(AMIIBOXE_SHAPED, [{"type": "location_named", "amiibo_id": MARIO, "name": " Château de Peach "},
                                        learned], "AAAA")
    services.remember(AMIIBOXE_SHAPED, [learned], "BBBB")  # a second table agrees: the house ranking takes it
    options, seats = services.prepare(AMIIBOXE_SHAPED, {"pro": "off"}, [seat(1, MARIO), seat(2, BOWSER, PIKACHU)])
    mario, bowser, pikachu = seats[0]["figures"][0], seats[1]["figures"][0], seats[1]["figures"][1]
    assert mario["values"]["lightest"] == 98 and bowser["values"]["heaviest"] == 135
    assert pikachu["displays"]["tallest"] == "0,4 m"  # the table's language (French) writes the values
    assert mario["values"]["shortest_name"] == 5
    assert mario["location"] == "Château de Peach"  # remembered
    assert bowser["location"] == "Château de Bowser" and pikachu["location"] == "Bourg Palette"  # suggested
    context = options["context"]
    assert options["pro"] == "off" and context["lang"] == "fr"
    assert context["criteria"]["lightest"] == {"kind": "facts", "direction": "min"}
    assert context["references"]["book"][0] == "most_supports"
    assert context["house"]["most_villainous"] == [[BOWSER, MARIO]] and context["house"]["cutest"] == []
    # The project's default ranking, tier by tier, and each figure's suggested home card.
    assert context["defaults"]["most_villainous"] == [[BOWSER], [MARIO, PIKACHU]]
    assert context["cards"] == ["Bourg Palette", "Château de Bowser", "Royaume Champignon"]


def test_a_contradicted_agreement_keeps_the_house_ranking_as_edited(services, app):
    house = app.extensions["companion.house"]
    house.learn("strongest", BOWSER, MARIO)
    services.remember(AMIIBOXE_SHAPED, [{"type": "house_learned", "criterion": "strongest", "winner": MARIO,
                                        "loser": BOWSER}], "AAAA")
    assert house.get("strongest").decides(BOWSER, MARIO) == 1  # one table's word: the house ranking waits


def test_what_one_table_agrees_at_a_fight_reaches_the_house_ranking_only_once_another_table_agrees(services, app):
    house = app.extensions["companion.house"]
    agreed = {"type": "house_learned", "criterion": "cutest", "winner": PIKACHU, "loser": MARIO}
    services.remember(AMIIBOXE_SHAPED, [agreed], "AAAA")
    services.remember(AMIIBOXE_SHAPED, [agreed], "AAAA")  # the same table again counts once
    assert house.get("cutest").decides(PIKACHU, MARIO) is None
    services.remember(AMIIBOXE_SHAPED, [agreed], "BBBB")
    assert house.get("cutest").decides(PIKACHU, MARIO) == 1


def test_a_bad_location_name_is_refused(services):
    with pytest.raises(AmiiboError, match="A location is a name of 1 to 40 characters."):
        services.remember(AMIIBOXE_SHAPED, [{"type": "location_named", "amiibo_id": MARIO, "name": "x" * 41}])
