"""The shell around pure games: host game actions (the host screen keeping a
board), and the services that prepare a game from the server's memory and
remember what a game taught, in the action's own transaction."""

from __future__ import annotations

import pytest

from companion.games.base import HOST, REGISTRY, Game, IllegalAction, register
from companion.store import Store
from companion.tables import GameServices, Tables, TableError
from tests.helpers import ENTROPY


def setup(options, seats, rng):
    return {"marks": [], "context": options.get("context"), "seats": [seat["id"] for seat in seats]}


def apply(state, seat, action, rng):
    if action["type"] == "mark" and seat == HOST:
        return {**state, "marks": state["marks"] + [action["text"]]}, [{"type": "marked", "text": action["text"]}]
    if action["type"] == "learn":
        return state, [{"type": "learned", "fact": action["fact"]}]
    raise IllegalAction("Unknown action: %(action)s.", action=action["type"])


SCRIBE = Game(id="test-scribe", title="Scribe", min_seats=1, max_seats=2, options=(), setup=setup, apply=apply,
              view=lambda state, seat: state, host_actions=frozenset({"mark"}))


class Memory(GameServices):
    def __init__(self):
        self.facts: list[str] = []

    def prepare(self, game, options, seats):
        return {**options, "context": {"known": list(self.facts)}}, seats

    def remember(self, game, events, table=""):
        for event in events:
            if event["type"] == "learned":
                if event["fact"] == "nonsense":
                    raise IllegalAction("Nothing can be learned from that.")
                self.facts.append(event["fact"])


@pytest.fixture
def scribe_game():
    register(SCRIBE)
    yield SCRIBE
    del REGISTRY[SCRIBE.id]


@pytest.fixture
def memory():
    return Memory()


@pytest.fixture
def scribe_tables(tmp_path, scribe_game, memory):
    store = Store(str(tmp_path / "services.sqlite3"))
    yield Tables(store, services=memory)
    store.close()


def started(tables: Tables) -> tuple[str, str, str]:
    created = tables.create("test-scribe", {})
    seat = tables.join(created["code"], "Ana", ENTROPY)
    tables.act(created["code"], created["host_token"], {"type": "table.start"})
    return created["code"], created["host_token"], seat["token"]


def test_the_host_screen_takes_the_game_s_host_actions(scribe_tables):
    code, host_token, _ = started(scribe_tables)
    answer = scribe_tables.act(code, host_token, {"type": "mark", "text": "Link on B2"})
    assert answer["events"] == [{"type": "marked", "text": "Link on B2"}]


def test_a_seat_sending_a_host_action_is_refused_by_the_game_and_nothing_changes(scribe_tables):
    code, _, seat_token = started(scribe_tables)
    with scribe_tables.store.reading() as tx:
        before = tx.table(code)
    with pytest.raises(TableError) as refused:
        scribe_tables.act(code, seat_token, {"type": "mark", "text": "cheat"})
    assert refused.value.status == 400 and str(refused.value) == "Unknown action: mark."
    with scribe_tables.store.reading() as tx:
        assert tx.table(code) == before


def test_the_host_screen_still_cannot_play_a_seat_s_action(scribe_tables):
    code, host_token, _ = started(scribe_tables)
    with pytest.raises(TableError) as refused:
        scribe_tables.act(code, host_token, {"type": "learn", "fact": "x"})
    assert refused.value.status == 403


def test_services_prepare_the_game_and_remember_what_it_taught(scribe_tables, memory):
    memory.facts.append("Mario is short")
    code, _, seat_token = started(scribe_tables)
    scribe_tables.act(code, seat_token, {"type": "learn", "fact": "Bowser is heavy"})
    assert memory.facts == ["Mario is short", "Bowser is heavy"]
    with scribe_tables.store.reading() as tx:
        assert tx.table(code)["state"]["context"] == {"known": ["Mario is short"]}


def test_a_refusal_while_remembering_cancels_the_whole_action(scribe_tables, memory):
    code, _, seat_token = started(scribe_tables)
    with scribe_tables.store.reading() as tx:
        before = tx.table(code), tx.log(code)
    with pytest.raises(TableError) as refused:
        scribe_tables.act(code, seat_token, {"type": "learn", "fact": "nonsense"})
    assert refused.value.status == 400
    with scribe_tables.store.reading() as tx:
        assert (tx.table(code), tx.log(code)) == before
