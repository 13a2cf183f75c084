"""The house ranking: transitive wins and ties, learning, contradictions,
drag-and-drop reorders, persistence in a real SQLite store, and the rankings
page's JSON for every kind of criterion."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.amiibo.house import HouseRanking, HouseRankings, rankings
from companion.amiibo.locale import translate_error
from companion.games.base import IllegalAction
from companion.store import Store

MARIO, LINK, PEACH = "0x0000000000000002", "0x0100000000040002", "0x0002000000010002"
KIRBY, PIKACHU, BOWSER = "0x1f000000000a0002", "0x1919000000090002", "0x0005000000140002"
FIGURES = (MARIO, LINK, PEACH, KIRBY, PIKACHU, BOWSER)


def house(*wins: tuple[str, str], ties: tuple[tuple[str, str], ...] = ()) -> HouseRanking:
    ranking = HouseRanking()
    for winner, loser in wins:
        ranking.learn(winner, loser)
    for a, b in ties:
        ranking.tie(a, b)
    return ranking


def refused(call, *args) -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        call(*args)
    return error.value


# Deciding ---------------------------------------------------------------------

def test_an_empty_house_ranking_orders_nothing_but_a_figure_ties_itself():
    ranking = HouseRanking()
    assert ranking.decides(MARIO, LINK) is None
    assert ranking.decides(MARIO, MARIO) == 0
    assert ranking.edges_among(FIGURES) == []


def test_wins_are_transitive():
    ranking = house((MARIO, LINK), (LINK, PEACH), (KIRBY, PIKACHU))
    assert ranking.decides(MARIO, PEACH) == 1
    assert ranking.decides(PEACH, MARIO) == -1
    assert ranking.decides(MARIO, KIRBY) is None
    assert ranking.edges_among([PEACH, MARIO, LINK, KIRBY]) == [(MARIO, PEACH), (MARIO, LINK), (LINK, PEACH)]
    assert ranking.decides(MARIO.upper().replace("0X", "0x"), " " + PEACH) == 1  # ids are normalised


def test_tied_figures_share_every_win_and_defeat():
    ranking = house((MARIO, LINK), (PEACH, KIRBY), ties=((LINK, PEACH),))
    assert ranking.decides(LINK, PEACH) == 0
    assert ranking.decides(MARIO, PEACH) == 1
    assert ranking.decides(LINK, KIRBY) == 1
    assert ranking.decides(MARIO, KIRBY) == 1
    assert ranking.ties_among([PEACH, MARIO, LINK]) == [(PEACH, LINK)]
    assert (MARIO, KIRBY) in ranking.edges_among(FIGURES)


def test_learning_refuses_contradictions_and_changes_nothing_then():
    ranking = house((MARIO, LINK), (LINK, PEACH), ties=((KIRBY, PIKACHU),))
    before = copy.deepcopy(ranking.to_json())
    backwards = refused(ranking.learn, PEACH, MARIO)
    assert "other way round" in str(backwards)
    assert translate_error(backwards, "fr").startswith("Cela contredit le classement maison")
    assert "already ties" in str(refused(ranking.learn, KIRBY, PIKACHU))
    assert "already beats" in str(refused(ranking.tie, PEACH, MARIO))
    assert translate_error(refused(ranking.learn, MARIO, MARIO), "fr") == \
        "Une figurine ne peut pas l’emporter sur elle-même."
    assert "hexadecimal" in str(refused(ranking.learn, "0x12", MARIO))
    assert ranking.to_json() == before


def test_learning_what_is_known_is_harmless():
    ranking = house((MARIO, LINK), (LINK, PEACH))
    ranking.learn(MARIO, LINK)
    ranking.learn(MARIO, PEACH)  # implied already: remembered as said
    ranking.tie(MARIO, MARIO)
    assert ranking.wins == ((MARIO, LINK), (LINK, PEACH), (MARIO, PEACH))
    assert ranking.ties == ()


# Reordering -------------------------------------------------------------------

def test_a_reorder_replaces_what_is_known_among_the_listed_figures():
    ranking = house((MARIO, LINK), (LINK, PEACH))
    ranking.reorder([[PEACH], [LINK, MARIO]])
    assert ranking.decides(PEACH, MARIO) == 1
    assert ranking.decides(PEACH, LINK) == 1
    assert ranking.decides(LINK, MARIO) == 0  # an explicit tie
    assert ranking.tiers([MARIO, LINK, PEACH]) == [[PEACH], [MARIO, LINK]]


def test_a_reorder_keeps_knowledge_about_other_figures_when_it_agrees():
    ranking = house((MARIO, KIRBY), (KIRBY, LINK), (BOWSER, PIKACHU), (PEACH, BOWSER))
    ranking.reorder([[LINK], [MARIO], [PEACH]])
    assert ranking.decides(LINK, MARIO) == 1
    assert ranking.decides(BOWSER, PIKACHU) == 1  # nothing to do with the edit: kept
    assert ranking.decides(PEACH, BOWSER) == 1  # Peach is listed, Bowser is not, no conflict: kept
    # Mario > Kirby > Link would contradict Link > Mario: Kirby > Link, the first that does, is forgotten.
    assert ranking.decides(MARIO, LINK) == -1
    assert ranking.decides(MARIO, KIRBY) == 1
    assert (KIRBY, LINK) not in ranking.wins and ranking.decides(LINK, KIRBY) == 1


def test_a_reorder_is_checked_before_anything_changes():
    ranking = house((MARIO, LINK))
    before = ranking.to_json()
    assert translate_error(refused(ranking.reorder, [[MARIO], [MARIO]]), "fr") == \
        "Une figurine ne peut apparaître qu’une fois dans un ordre."
    assert "list of tiers" in str(refused(ranking.reorder, [MARIO, LINK]))
    assert "list of tiers" in str(refused(ranking.reorder, {"tiers": []}))
    assert "amiibo id" in str(refused(ranking.reorder, [[MARIO], ["Link"]]))
    assert ranking.to_json() == before
    ranking.reorder([[], [LINK], []])  # empty tiers are dropped; one figure alone changes nothing
    assert ranking.to_json() == before


def test_tiers_show_ties_orders_and_the_unranked_last():
    ranking = house((MARIO, LINK), (PEACH, KIRBY), ties=((LINK, PIKACHU),))
    assert ranking.tiers([LINK, BOWSER, PIKACHU, MARIO]) == [[MARIO], [LINK, PIKACHU], [BOWSER]]
    assert ranking.unranked([LINK, BOWSER, PIKACHU, MARIO]) == [BOWSER]
    # Unordered groups come one after the other, in the order asked.
    assert ranking.tiers([KIRBY, LINK, PEACH, MARIO]) == [[PEACH], [KIRBY], [MARIO], [LINK]]
    assert ranking.tiers([BOWSER, BOWSER]) == [[BOWSER]]
    assert ranking.tiers([]) == []


def test_json_round_trip():
    ranking = house((MARIO, LINK), (LINK, PEACH), ties=((KIRBY, PIKACHU),))
    data = ranking.to_json()
    assert data == {"wins": [[MARIO, LINK], [LINK, PEACH]], "ties": [[PIKACHU, KIRBY]]}
    assert HouseRanking.from_json(data) == ranking
    for broken in (None, {"wins": []}, {"wins": [[MARIO]], "ties": []}, {"wins": "x", "ties": []}):
        assert "list of wins" in str(refused(HouseRanking.from_json, broken))
    assert "other way round" in str(refused(HouseRanking.from_json, {"wins": [[MARIO, LINK], [LINK, MARIO]],
                                                                      "ties": []}))


# Random learning, tying and reordering -------------------------------------------

figures = st.sampled_from(FIGURES)
operations = st.one_of(
    st.tuples(st.just("learn"), figures, figures),
    st.tuples(st.just("tie"), figures, figures),
    st.tuples(st.just("reorder"), st.lists(st.lists(figures, min_size=1, max_size=2), max_size=3)),
)


def apply(ranking: HouseRanking, operation: tuple) -> bool:
    """Applies one random operation; False when it was (rightly) refused."""
    try:
        if operation[0] == "reorder":
            ranking.reorder(operation[1])
        elif operation[0] == "learn":
            ranking.learn(operation[1], operation[2])
        else:
            ranking.tie(operation[1], operation[2])
    except IllegalAction:
        return False
    return True


def flat(order: list[list[str]]) -> list[str]:
    return [figure for tier in order for figure in tier]


@settings(max_examples=120, deadline=None)
@given(st.lists(operations, max_size=15))
def test_random_knowledge_stays_a_consistent_transitive_order(steps):
    ranking = HouseRanking()
    for operation in steps:
        before = ranking.to_json()
        accepted = apply(ranking, operation)
        if not accepted:
            assert ranking.to_json() == before  # a refusal changes nothing
            continue
        kind = operation[0]
        if kind == "learn":
            assert ranking.decides(operation[1], operation[2]) == 1
        elif kind == "tie":
            assert ranking.decides(operation[1], operation[2]) == 0
        elif len(set(flat(operation[1]))) == len(flat(operation[1])):
            tiers = [tier for tier in operation[1] if tier]
            for rank_a, tier_a in enumerate(tiers):
                for rank_b, tier_b in enumerate(tiers):
                    for a in tier_a:
                        for b in tier_b:
                            expected = (rank_a < rank_b) - (rank_a > rank_b)
                            assert ranking.decides(a, b) == expected
    for a in FIGURES:
        for b in FIGURES:
            verdict = ranking.decides(a, b)
            assert verdict == (None if ranking.decides(b, a) is None else -ranking.decides(b, a))
            for c in FIGURES:
                if verdict == 1 and ranking.decides(b, c) == 1:
                    assert ranking.decides(a, c) == 1
                if verdict == 0 and ranking.decides(b, c) == 0:
                    assert ranking.decides(a, c) == 0
    assert HouseRanking.from_json(ranking.to_json()) == ranking
    tiers = ranking.tiers(FIGURES)
    assert sorted(flat(tiers)) == sorted(FIGURES)
    unranked = set(ranking.unranked(FIGURES))
    ranked_tiers = [tier for tier in tiers if not set(tier) & unranked]
    for index, tier in enumerate(ranked_tiers):
        assert all(ranking.decides(tier[0], other) == 0 for other in tier)
        for later in ranked_tiers[index + 1:]:
            assert all(ranking.decides(a, b) in (1, None) for a in tier for b in later)


# The store -----------------------------------------------------------------------

@pytest.fixture
def database(tmp_path):
    return str(tmp_path / "house.sqlite3")


@pytest.fixture
def houses(database):
    store = Store(database)
    yield HouseRankings(store)
    store.close()


def test_house_rankings_survive_a_restart(database):
    store = Store(database)
    rankings_ = HouseRankings(store)
    rankings_.learn("least_clothed", MARIO, LINK)
    rankings_.learn("least_clothed", LINK, PEACH)
    rankings_.reorder("cutest", [[KIRBY, PIKACHU], [BOWSER]])
    store.close()

    store = Store(database)
    try:
        again = HouseRankings(store)
        assert again.get("least_clothed").decides(MARIO, PEACH) == 1
        assert again.get("cutest").decides(KIRBY, PIKACHU) == 0
        assert again.get("cutest").decides(PIKACHU, BOWSER) == 1
        assert again.get("most_villainous") == HouseRanking()  # each criterion its own
        assert again.get("least_clothed").decides(KIRBY, BOWSER) is None
    finally:
        store.close()


def test_a_refused_change_leaves_the_store_as_it_was(houses):
    houses.learn("strongest", BOWSER, MARIO)
    houses.learn("strongest", MARIO, KIRBY)
    with pytest.raises(IllegalAction):
        houses.learn("strongest", KIRBY, BOWSER)
    with pytest.raises(IllegalAction):
        houses.reorder("strongest", [[MARIO], [MARIO]])
    assert houses.get("strongest").to_json() == {"wins": [[BOWSER, MARIO], [MARIO, KIRBY]], "ties": []}
    reordered = houses.reorder("strongest", [[KIRBY], [MARIO]])
    assert reordered.decides(KIRBY, MARIO) == 1
    assert houses.get("strongest") == reordered
    assert houses.tie("strongest", PEACH, KIRBY).decides(PEACH, MARIO) == 1


def test_unknown_criteria_have_no_house_ranking(houses):
    for call in (lambda: houses.get("bravest"), lambda: houses.learn("bravest", MARIO, LINK),
                 lambda: houses.reorder("bravest", [[MARIO]])):
        with pytest.raises(IllegalAction, match="Unknown criterion"):
            call()
    houses.learn("tallest", MARIO, LINK)  # any known criterion may have one
    assert houses.get("tallest").decides(MARIO, LINK) == 1


# The rankings page ------------------------------------------------------------------

def figure(amiibo_id: str, name: str | None, released: str | None = "2014-11-21") -> dict:
    return {"id": amiibo_id, "name": name, "label": name or f"Unknown figure #{amiibo_id}",
            "release": {"au": None, "eu": None, "jp": None, "na": released}}


NOBODY = "0xffc0000001007f02"
TABLE = [figure(MARIO, "Mario"), figure(PIKACHU, "Pikachu"), figure(NOBODY, None), figure(BOWSER, "Bowser"),
         figure(MARIO, "Mario")]


def ids(result: dict) -> list[list[str]]:
    return [[entry["id"] for entry in tier] for tier in result["tiers"]]


def test_rankings_of_a_facts_criterion_show_values_sources_and_the_unknown_last():
    result = rankings("tallest", TABLE, "fr")
    assert result["criterion"] == {"id": "tallest", "wording": "Le plus grand", "direction": "max",
                                   "kind": "facts", "unit": "m"}
    assert ids(result) == [[BOWSER], [MARIO], [PIKACHU], [NOBODY]]
    assert result["tiers"][2] == [{"id": PIKACHU, "label": "Pikachu", "value": 0.4, "display": "0,4 m",
                                   "source": "fact"}]
    assert result["tiers"][0][0]["source"] == "estimate"
    assert result["tiers"][3][0] == {"id": NOBODY, "label": f"Unknown figure #{NOBODY}", "value": None,
                                     "display": None, "source": None}


def test_rankings_of_a_computed_criterion_share_tiers_on_ties():
    result = rankings("shortest_name", [*TABLE, figure(KIRBY, "Kirby")], "en")
    assert ids(result) == [[MARIO, KIRBY], [BOWSER], [PIKACHU], [NOBODY]]
    assert result["tiers"][0][1]["display"] == "5 letters"
    assert ids(rankings("oldest_figure", [figure(MARIO, "Mario", "2014-11-21"), figure(LINK, "Link", None),
                                          figure(KIRBY, "Kirby", "2015-01-01")], "en")) == [[MARIO], [KIRBY], [LINK]]


def test_rankings_of_a_judgement_criterion_follow_the_house():
    ranking = house((BOWSER, MARIO), ties=((MARIO, PIKACHU),))
    result = rankings("most_villainous", TABLE, "en", ranking)
    assert result["criterion"]["kind"] == "judgement"
    assert ids(result) == [[BOWSER], [MARIO, PIKACHU], [NOBODY]]
    assert [entry["source"] for tier in result["tiers"] for entry in tier] == ["house", "house", "house", None]
    assert ids(rankings("most_villainous", TABLE, "en")) == [[MARIO, PIKACHU, NOBODY, BOWSER]]
    assert rankings("cutest", [], "en")["tiers"] == []


def test_rankings_of_a_situational_criterion_say_the_board_decides():
    result = rankings("most_supports", TABLE, "fr")
    assert ids(result) == [[MARIO, PIKACHU, NOBODY, BOWSER]]
    assert result["note"] == "L’aire de jeu décide au moment du combat."
    assert rankings("farthest_from_start", TABLE, "en")["note"] == "The board decides at the moment of the fight."
    with pytest.raises(IllegalAction, match="Unknown criterion"):
        rankings("bravest", TABLE, "en")


def test_a_pair_reaches_the_house_ranking_only_when_two_tables_agree_on_it(houses):
    """A table's word is one table's: a lone table, however often it says it, changes nothing; a
    table's newer word replaces its older one; the latest order two tables agree on wins."""
    said = houses.endorse("cutest", [[KIRBY], [PIKACHU, BOWSER]], "AAAA")
    assert said == {"changed": [], "waiting": [("ties", *sorted((PIKACHU, BOWSER))), ("beats", KIRBY, PIKACHU),
                                               ("beats", KIRBY, BOWSER)]}
    houses.endorse("cutest", [[KIRBY], [PIKACHU, BOWSER]], "AAAA")
    assert houses.get("cutest") == HouseRanking()
    assert houses.endorse("cutest", [[KIRBY], [PIKACHU]], "BBBB")["changed"] == [("beats", KIRBY, PIKACHU)]
    assert houses.get("cutest").decides(KIRBY, PIKACHU) == 1 and houses.get("cutest").decides(KIRBY, BOWSER) is None
    # Table A changes its mind: its older word on the pair no longer counts with B's.
    houses.endorse("cutest", [[PIKACHU], [KIRBY]], "AAAA")
    houses.endorse("cutest", [[KIRBY], [PIKACHU]], "CCCC")  # B and C still agree: the house ranking keeps it
    assert houses.get("cutest").decides(KIRBY, PIKACHU) == 1
    houses.endorse("cutest", [[PIKACHU], [KIRBY]], "DDDD")  # A and D agree the other way: the latest wins
    assert houses.get("cutest").decides(KIRBY, PIKACHU) == -1
