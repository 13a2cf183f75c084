"""Amiiboxe's criteria: kinds, directions, values from the catalogue and the
fact tables, ties and unknown values, references, French wordings; the fact
tables checked against every Super Smash Bros. figure of the AmiiboAPI."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.amiibo import facts
from companion.amiibo.catalog import Catalog
from companion.amiibo.criteria import (COMPUTED, CRITERIA, FACTS, JUDGEMENT, KINDS, MAX, MIN, REFERENCES,
                                       SITUATIONAL, check_faces, compare, describe_criterion, describe_faces,
                                       describe_reference, figure_value, figure_values, first_release,
                                       get_criterion, letter_count, rank)
from companion.amiibo.ids import decode
from companion.amiibo.locale import translate, translate_error
from companion.games.base import IllegalAction
from companion.store import Store
from tests.test_amiibo_ids import load_amiiboapi

MARIO, DR_MARIO, PIKACHU = "0x0000000000000002", "0x0000010000190002", "0x1919000000090002"
BOWSER, PICHU = "0x0005000000140002", "0x19ac000003850002"
YOUNG_LINK, MII_GUNNER = "0x01000000037c0002", "0x07c0020000230002"
TRAINER, MARIO_SOCCER_CARD = "0x1d40000003870002", "0x09c0010102690e02"
GOLDIE_CARD = "0x02ea000101800502"  # an Animal Crossing villager: no facts
UNKNOWN_CHARACTER = "0xffc0000001007f02"
GRENINJA, ROSALINA, KIRBY = "0x1b92000000000002", "0x0004000000000002", "0x1f00000000000002"
SHOVEL_KNIGHT = "0x35c0000000000002"
SMASH_SERIES = "0x00"


def release(au=None, eu=None, jp=None, na=None) -> dict:
    return {"au": au, "eu": eu, "jp": jp, "na": na}


def figure(amiibo_id=MARIO, name="Mario", **fields) -> dict:
    """A figure as `Catalog.describe` shows it (the fields the criteria read)."""
    parsed = decode(amiibo_id)
    return {"id": amiibo_id, "name": name, "label": name or f"Unknown figure #{amiibo_id}",
            "character": {"key": parsed.character_key, "name": name},
            "release": release("2014-11-29", "2014-11-28", "2014-12-06", "2014-11-21"), **fields}


def refusal(call, *args) -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        call(*args)
    return error.value


# The criteria and references -------------------------------------------------

def test_there_are_enough_criteria_of_every_kind_with_the_ids_the_issue_names():
    assert len(CRITERIA) >= 16
    for wanted in ("shortest_name", "oldest_figure", "lightest", "heaviest", "oldest_character", "tallest",
                   "smallest", "most_supports", "farthest_from_start", "least_clothed"):
        assert wanted in CRITERIA
    assert {criterion.kind for criterion in CRITERIA.values()} == set(KINDS)
    for criterion_id, criterion in CRITERIA.items():
        assert criterion.id == criterion_id
        assert criterion.direction in (MIN, MAX)
    kinds = {criterion_id: CRITERIA[criterion_id].kind for criterion_id in
             ("shortest_name", "oldest_figure", "lightest", "tallest", "most_supports", "least_clothed")}
    assert kinds == {"shortest_name": COMPUTED, "oldest_figure": COMPUTED, "lightest": FACTS, "tallest": FACTS,
                     "most_supports": SITUATIONAL, "least_clothed": JUDGEMENT}
    assert (CRITERIA["lightest"].direction, CRITERIA["heaviest"].direction) == (MIN, MAX)
    assert (CRITERIA["tallest"].unit, CRITERIA["lightest"].unit, CRITERIA["oldest_character"].unit) == ("m", None,
                                                                                                        "year")


def test_the_book_reference_reads_as_in_the_book_in_french():
    assert REFERENCES["book"].faces == ("most_supports", "tallest", "shortest_name", "least_clothed", "lightest",
                                        "farthest_from_start")
    assert [face["wording"] for face in describe_reference("book", "fr")["faces"]] == [
        "Celui qui a le plus de soutiens", "Le plus grand", "Le nom le plus court", "Le moins vêtu",
        "Le plus léger", "Le plus loin de sa ligne de départ"]
    assert describe_reference("book", "en")["faces"][4] == {"face": 5, "id": "lightest", "wording": "The lightest",
                                                            "direction": "min", "kind": "facts", "unit": None}


def test_every_reference_is_six_different_known_criteria():
    assert len(REFERENCES) >= 4
    for reference_id, reference in REFERENCES.items():
        assert reference.id == reference_id
        assert check_faces(reference.faces) == reference.faces
        assert len(set(reference.faces)) == 6


def test_every_wording_and_title_has_its_own_french():
    french = [translate("fr", criterion.wording) for criterion in CRITERIA.values()]
    assert all(text != criterion.wording for text, criterion in zip(french, CRITERIA.values()))
    assert len(set(french)) == len(french)
    assert all(translate("fr", reference.title) != reference.title for reference in REFERENCES.values())
    assert describe_criterion("lightest", "fr-FR")["wording"] == "Le plus léger"
    assert describe_reference("numbers", "fr")["title"] == "Les chiffres"


def test_a_custom_reference_is_checked():
    faces = ["cutest", "heaviest", "longest_name", "newest_figure", "fewest_supports", "most_famous"]
    assert check_faces(faces) == tuple(faces)
    assert [face["face"] for face in describe_faces(faces, "en")] == [1, 2, 3, 4, 5, 6]
    short = refusal(check_faces, faces[:5])
    assert str(short) == "A reference has 6 criteria, one per face of the die."
    assert translate_error(short, "fr") == "Une référence compte 6 critères, un par face du dé."
    unknown = refusal(check_faces, [*faces[:5], "bravest"])
    assert translate_error(unknown, "fr") == "Critère inconnu\u00a0: bravest."
    twice = refusal(check_faces, [*faces[:5], "heaviest"])
    assert str(twice) == "Faces 2 and 6 have the same criterion: a reference has 6 different criteria."
    assert "Les faces 2 et 6 ont le même critère" in translate_error(twice, "fr")
    assert str(refusal(check_faces, "cutest")).startswith("A reference has 6 criteria")
    assert "Critère inconnu" in translate_error(refusal(check_faces, [*faces[:5], 7]), "fr")


def test_unknown_criteria_and_references_are_refused():
    for call in (lambda: get_criterion("bravest"), lambda: figure_value("bravest", figure(), "en"),
                 lambda: compare("bravest", 1, 2), lambda: rank("bravest", []), lambda: get_criterion(None)):
        with pytest.raises(IllegalAction, match="Unknown criterion"):
            call()
    assert translate_error(refusal(describe_reference, "nope", "fr"), "fr") == "Référence inconnue\u00a0: nope."


# Computed values -------------------------------------------------------------

def test_names_count_letters_only():
    assert letter_count("R.O.B.") == 3
    assert letter_count("Mr. Game & Watch") == 11
    assert letter_count("8-Bit Mario Classic Color") == 20
    assert letter_count("Étoile") == 6
    assert letter_count("Kapp'n") == 5
    assert letter_count("ピカチュウ") == 5


def test_shortest_name_counts_the_characters_name_in_the_tables_language_without_the_variant():
    value = figure_value("shortest_name", figure(PIKACHU, name="Pikachu"), "en")
    assert value == {"value": 7, "source": "computed", "display": "7 letters", "name": "Pikachu",
                     "name_source": "fact"}
    assert figure_value("shortest_name", figure(PIKACHU, name="Pikachu"), "fr")["display"] == "7 lettres"
    gold = figure(MARIO, name="Mario - Gold Edition", names={"en": "Mario - Gold Edition", "fr": "Mario - Or"})
    assert figure_value("shortest_name", gold, "fr")["value"] == 5 and figure_value("shortest_name", gold, "fr")[
        "name"] == "Mario"
    # French names are facts: Greninja is Amphinobi, Rosalina & Luma is Harmonie & Luma.
    greninja, rosalina = figure(GRENINJA, name="Greninja"), figure(ROSALINA, name="Rosalina & Luma")
    assert figure_value("shortest_name", greninja, "en")["value"] == 8
    assert figure_value("shortest_name", greninja, "fr")["value"] == 9
    assert figure_value("shortest_name", rosalina, "fr")["name"] == "Harmonie & Luma"
    # A character without a French name keeps its English one, and says so.
    shovel = figure_value("shortest_name", figure(SHOVEL_KNIGHT, name="Shovel Knight"), "fr")
    assert (shovel["name"], shovel["name_source"]) == ("Shovel Knight", "english")
    # A figure without facts counts its own name in the table's language, cut at its variant.
    unknown = figure(UNKNOWN_CHARACTER, name="Somebody", names={"en": "Somebody (Gold)", "fr": "Quelqu'un - Or"})
    assert figure_value("shortest_name", unknown, "fr")["name"] == "Quelqu'un"
    assert figure_value("shortest_name", unknown, "fr")["name_source"] == "catalogue"
    assert figure_value("shortest_name", figure(UNKNOWN_CHARACTER, name="X"), "fr")["display"] == "1 lettre"
    assert figure_value("shortest_name", figure(UNKNOWN_CHARACTER, name=None), "en") is None
    assert compare("shortest_name", figure_value("shortest_name", figure(KIRBY, name="Kirby"), "en"),
                   figure_value("shortest_name", figure(PIKACHU, name="Pikachu"), "en")) == 1


def test_every_smash_fighter_and_every_mario_zelda_animal_crossing_and_splatoon_character_has_a_french_name():
    from companion.amiibo.locale import FRENCH_NAMES, character_name
    fighters = [line.name for line in [*facts.CHARACTERS, *facts.FORMS.values()] if line.weight is not None]
    # Mario 0x0000-0x00ff and 0x09c0-0x09ff, Zelda 0x0100-0x017f, Animal Crossing 0x0180-0x01ff, Splatoon 0x08xx.
    ranges = ((0x0000, 0x01ff), (0x0800, 0x08ff), (0x09c0, 0x09ff))
    series = [line.name for line in facts.CHARACTERS if line.weight is None
              and any(low <= int(line.keys[0], 16) <= high for low, high in ranges)]
    assert {"Toad", "Midna", "K.K. Slider", "Callie", "Birdo"} <= set(series)
    missing = [name for name in fighters + series if name not in FRENCH_NAMES]
    assert missing == [] and len(fighters) == 91
    assert character_name("Isabelle", "fr") == ("Marie", "fact")
    assert character_name("K.K. Slider", "fr") == ("Kéké Laglisse", "fact")
    assert character_name("Callie", "fr") == ("Ayo", "fact")
    assert character_name("Callie", "en") == ("Callie", "fact")


def test_a_figure_is_as_old_as_its_first_release_anywhere():
    mario = figure()
    assert first_release(mario).isoformat() == "2014-11-21"
    value = figure_value("oldest_figure", mario, "fr")
    assert value["display"] == "2014-11-21" and value["source"] == "computed"
    later = figure(release=release(jp="2015-01-22", eu="not a date"))
    assert compare("oldest_figure", value, figure_value("oldest_figure", later, "en")) == 1
    assert compare("newest_figure", figure_value("newest_figure", mario, "en"),
                   figure_value("newest_figure", later, "en")) == -1
    assert figure_value("oldest_figure", figure(release=release()), "en") is None
    assert figure_value("oldest_figure", figure(release=None), "en") is None


# Fact values -------------------------------------------------------------------

def test_facts_come_from_the_character_with_their_source():
    mario, pikachu = figure(MARIO), figure(PIKACHU, "Pikachu")
    assert figure_value("lightest", mario, "en") == {"value": 98, "source": "fact", "display": "98"}
    assert figure_value("tallest", pikachu, "en") == {"value": 0.4, "source": "fact", "display": "0.4 m"}
    assert figure_value("tallest", mario, "fr") == {"value": 1.55, "source": "estimate", "display": "1,55 m"}
    assert figure_value("oldest_character", mario, "fr") == {"value": 1981, "source": "fact", "display": "1981"}
    assert compare("tallest", figure_value("tallest", mario, "en"), figure_value("tallest", pikachu, "en")) == 1
    assert compare("smallest", figure_value("smallest", mario, "en"), figure_value("smallest", pikachu, "en")) == -1
    assert compare("lightest", figure_value("lightest", figure(PICHU), "en"),
                   figure_value("lightest", figure(BOWSER), "en")) == 1
    assert compare("heaviest", figure_value("heaviest", figure(PICHU), "en"),
                   figure_value("heaviest", figure(BOWSER), "en")) == -1
    assert compare("newest_character", figure_value("newest_character", mario, "en"),
                   figure_value("newest_character", pikachu, "en")) == -1


def test_forms_and_other_series_find_their_own_fighter():
    assert figure_value("lightest", figure(DR_MARIO), "en")["value"] == 98
    assert figure_value("oldest_character", figure(DR_MARIO), "en")["value"] == 1990
    assert figure_value("lightest", figure(YOUNG_LINK), "en")["value"] == 88
    assert figure_value("heaviest", figure(MII_GUNNER), "en")["value"] == 104
    assert figure_value("lightest", figure(TRAINER), "en") == {"value": 95, "source": "estimate", "display": "95"}
    # Mario Sports Superstars cards give Mario another character key.
    assert figure_value("lightest", figure(MARIO_SOCCER_CARD), "en")["value"] == 98


def test_a_character_without_facts_has_no_value():
    nobody = figure(UNKNOWN_CHARACTER, None)
    for criterion_id in ("lightest", "heaviest", "tallest", "smallest", "oldest_character", "newest_character"):
        assert figure_value(criterion_id, nobody, "en") is None
    toad = figure("0x000a000000380102", "Toad")  # a figure, but not a Smash fighter: no weight
    assert figure_value("lightest", toad, "en") is None
    assert figure_value("tallest", toad, "en")["source"] == "estimate"
    assert figure_value("lightest", {"id": None, "name": "?"}, "en") is None


def test_situational_and_judgement_criteria_have_no_catalogue_value():
    for criterion_id, criterion in CRITERIA.items():
        if criterion.kind in (SITUATIONAL, JUDGEMENT):
            assert figure_value(criterion_id, figure(), "en") is None
    values = figure_values(figure(), "fr")
    assert set(values) == {criterion_id for criterion_id, criterion in CRITERIA.items()
                           if criterion.kind in (COMPUTED, FACTS)}
    assert set(figure_values(figure(UNKNOWN_CHARACTER, None, release=release()), "en")) == set()


# Comparing and ranking ---------------------------------------------------------

def test_compare_follows_the_direction_and_calls_equal_values_a_tie():
    assert compare("most_supports", 2, 1) == 1
    assert compare("fewest_supports", 2, 1) == -1
    assert compare("farthest_from_start", 3, 3) == 0
    assert compare("closest_to_start", 0, 4) == 1
    assert compare("tallest", {"value": 1.7}, {"value": 1.7}) == 0
    assert compare("lightest", None, {"value": 62}) == 0  # unknown decides nothing
    assert compare("lightest", {"value": None}, 62) == 0


def test_rank_puts_ties_together_and_unknown_values_last():
    entries = [("a", {"value": 98}), ("b", None), ("c", {"value": 62}), ("d", {"value": 98}), ("e", 135),
               ("a", {"value": 1}), ("f", {"value": None})]
    assert rank("lightest", entries) == [["c"], ["a", "d"], ["e"], ["b", "f"]]
    assert rank("heaviest", entries) == [["e"], ["a", "d"], ["c"], ["b", "f"]]
    assert rank("heaviest", []) == []
    assert rank("tallest", [("x", None)]) == [["x"]]


values = st.one_of(st.none(), st.integers(min_value=0, max_value=5))


@settings(max_examples=150, deadline=None)
@given(st.lists(values, max_size=12), st.sampled_from(["lightest", "heaviest", "most_supports"]))
def test_ranking_is_a_partition_ordered_by_value(numbers, criterion_id):
    entries = [(f"f{index}", number) for index, number in enumerate(numbers)]
    tiers = rank(criterion_id, entries)
    assert sorted(figure_id for tier in tiers for figure_id in tier) == sorted(figure_id for figure_id, _ in entries)
    value = dict(entries)
    known = [tier for tier in tiers if value[tier[0]] is not None]
    assert [tier for tier in tiers if value[tier[0]] is None] in ([], tiers[-1:])
    for tier in known:
        assert len({value[figure_id] for figure_id in tier}) == 1
    for better, worse in zip(known, known[1:]):
        assert compare(criterion_id, value[better[0]], value[worse[0]]) == 1
    for (a, first), (b, second) in zip(entries, entries[1:]):
        same_tier = any(a in tier and b in tier for tier in tiers)
        if first is not None and second is not None:
            assert same_tier == (compare(criterion_id, first, second) == 0)


# The fact tables against the AmiiboAPI -------------------------------------------

@pytest.fixture(scope="module")
def amiiboapi() -> dict:
    return load_amiiboapi()


def test_every_super_smash_bros_figure_has_weight_debut_and_height(amiiboapi):
    assert amiiboapi["amiibo_series"][SMASH_SERIES] == "Super Smash Bros."
    smash = [amiibo_id for amiibo_id in amiiboapi["amiibos"] if decode(amiibo_id).amiibo_series_key == SMASH_SERIES]
    assert len(smash) >= 90
    missing = [(amiibo_id, amiiboapi["amiibos"][amiibo_id]["name"]) for amiibo_id in smash
               if not all(figure_value(criterion_id, figure(amiibo_id), "en")
                          for criterion_id in ("lightest", "oldest_character", "tallest"))]
    assert missing == []


def test_facts_checked_against_public_sources_with_their_source_kind():
    # Roy first appeared in Super Smash Bros. Melee (Japan, November 2001), before his own game (2002).
    roy = figure_value("oldest_character", figure("0x2104000000000002", name="Roy"), "en")
    assert roy["value"] == 2001 and roy["source"] == "fact"
    assert figure_value("tallest", figure(PIKACHU, name="Pikachu"), "en")["source"] == "fact"  # the Pokédex's 0.4 m
    assert figure_value("tallest", figure(MARIO), "en")["source"] == "estimate"  # Nintendo gives none
    assert figure_value("lightest", figure(TRAINER, name="Pokémon Trainer"), "en")["source"] == "estimate"
    for line in [*facts.CHARACTERS, *facts.FORMS.values()]:  # every value says where it comes from
        for field in ("weight", "debut", "height"):
            found = line.get(field)
            assert found is None or found[1] in ("fact", "estimate"), line


def test_every_fact_is_plausible_and_keyed_by_a_real_character(amiiboapi):
    lines = [*facts.CHARACTERS, *facts.FORMS.values()]
    for line in lines:
        weight, debut, height = line.get("weight"), line.get("debut"), line.get("height")
        assert weight is None or 62 <= weight[0] <= 135, line
        assert 1972 <= debut[0] <= 2025 and debut[1] == "fact", line
        assert height is not None and height[0] > 0, line
    keys = [key for line in facts.CHARACTERS for key in line.keys]
    assert len(keys) == len(set(keys))
    assert sorted(key for key in keys if key not in amiiboapi["characters"]) == []
    for key in facts.FORMS:  # each form names at least one real figure
        assert any(amiibo_id.startswith(key) for amiibo_id in amiiboapi["amiibos"]), key


def test_values_from_the_real_catalogue(amiiboapi, tmp_path):
    store = Store(str(tmp_path / "catalog.sqlite3"))
    try:
        catalog = Catalog(store)
        catalog.import_document(amiiboapi)
        mario, pikachu = catalog.describe(MARIO, "fr"), catalog.describe(PIKACHU, "fr")
        assert figure_value("shortest_name", mario, "fr")["display"] == "5 lettres"
        assert figure_value("oldest_figure", mario, "en")["display"] == "2014-11-21"
        assert compare("tallest", figure_value("tallest", mario, "fr"), figure_value("tallest", pikachu, "fr")) == 1
        villager_card = catalog.describe(GOLDIE_CARD, "en")
        assert villager_card["known"] and figure_value("lightest", villager_card, "en") is None
        assert figure_value("shortest_name", catalog.describe(UNKNOWN_CHARACTER, "en"), "en") is None
    finally:
        store.close()
