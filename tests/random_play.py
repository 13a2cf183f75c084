"""One random-play harness over every registered game (as OpenSpiel's
``random_sim_test`` runs over every game it knows).

Each game supplies its configurations below (`CONFIGS`): options, seats, the
action types that advance it (`prefer`) and an invariants hook; the game itself
declares its longest game (`Game.longest_game`). `play` then picks
random legal actions — every seat's and the host screen's — and checks at each
step that

* ``apply`` never mutates its input,
* every action that ``legal_actions`` lists is accepted,
* a refused action (an unknown type, another seat's legal action, a legal
  action after its field is spoiled) leaves no trace,
* the state, the events and every view survive a JSON round trip,
* non-interference: scrambling every other seat's private part and the table's
  secret changes nothing in a seat's view (nor in the spectator's and the host
  screen's, for which every seat is another),
* the draws' numbers follow on without a gap,
* the game's own invariants hold, and its own checks of each step (Chakart's pieces conserved,
  Arkade's tiles turned only by their events, a die's roll counted once),
* the configuration's probes (bare actions) are refused whenever the rules do not list them,

and, for a game that ends, that it ends within the game's own bound. A game may also name what its
games must meet (`COVERAGE`: Chakart's items, effects and promotions): many more walks, on the rules
alone, meet every one. `record` keeps
the same walk as a golden playthrough (see tests/playthroughs/).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import REGISTRY
from companion.games.base import DRAW_KINDS, HOST, Game, IllegalAction, plain_copy

SEED = "5a" * 32
START_TIME = 1_000_000.0  # the server stamps every action with its "at": the harness's clock


def plain_seats(count: int) -> list[dict]:
    return [{"id": number, "name": f"Player {number}", "figures": []} for number in range(1, count + 1)]


@dataclass(frozen=True)
class Config:
    """One way to play a game in the harness."""

    name: str
    options: dict
    seats: int
    # A game that never ends by itself (the shared die, whose `longest_game` is None) is walked this far.
    steps: int = 40
    make_seats: Callable[[int], list[dict]] = plain_seats
    # What the table's services do before setup (the catalogue's values, for Amiiboxe).
    prepare: Callable[[dict, list[dict]], tuple[dict, list[dict]]] = lambda options, seats: (options, seats)
    # The game's own checks after every step: (state, the step's events).
    invariants: Callable[[dict, list[dict]], None] = lambda state, events: None
    # The game's checks of one step: (the state before, the state after, the step's events, its draws).
    transition: Callable[[dict, dict, list[dict], list[dict]], None] = lambda before, after, events, draws: None
    # Bare actions the rules must refuse at every step whenever `probe_listed` says the actor's listed actions
    # do not hold them: what the rules accept is exactly what they list.
    probes: tuple[dict, ...] = ()
    probe_listed: Callable[[dict, list[dict]], bool] = lambda probe, listed: probe in listed
    seconds_per_step: float = 1.0
    # Action types that move the game on (a lock, a roll, an answer): the picker takes one of them
    # `prefer_odds` of the time when any is listed, so that corrections the table may make at any
    # moment (Rayman's "hurt", "position") do not end or stall a walk before its game is played.
    prefer: tuple[str, ...] = ()
    prefer_odds: float = 0.85
    walks: int = 2  # seeds of the picker the suite walks (a walk checks every view at every step: CPU-bound)

    def bound(self, game: Game, options: dict) -> int | None:
        """The most actions a walk may take: the game's longest game, None for one that never ends."""
        return None if game.longest_game is None else game.longest_game(options, self.seats)



def universalis_invariants(state: dict, events: list[dict] = ()) -> None:
    for seat, counters in state["players"].items():
        assert counters["coins"] >= 0 and counters["deck"] >= 0 and 0 <= counters["stars"] <= 3, (seat, counters)
    for card in state["in_play"]:
        if card["kind"] == "character":
            assert 0 < card["pc"] <= card["max_pc"] and card["pf"] >= 0 and card["base_pf"] >= 0, card


def arkade_invariants(state: dict, events: list[dict] = ()) -> None:
    saucers = state["saucers"]
    on_board, eliminated = sum(saucers["on_board"].values()), sum(saucers["eliminated"].values())
    assert on_board + eliminated + sum(saucers["sacrificed"].values()) == 12 + saucers["repairs"] + saucers["corrected"]
    assert all(0 <= saucers["extra_lives"][c] <= saucers["on_board"][c] <= 4 for c in state["colours"]), saucers
    assert 0 <= state["nuggets"] <= 11 and 1 <= state["ship"] <= 6
    assert all(count >= 0 for count in state["on_the_board"].values())
    if state["mode"] == "strategie":
        assert all(count <= state["max_throws"] for count in state["throws"].values())
    for public, kind in zip(state["alien_tiles"], state["secret"]["alien_tiles"]):
        assert public == ({"kind": kind, "turned": True} if public["turned"] else {"turned": False})
    for public, face in zip(state["defender_tiles"], state["secret"]["defender_tiles"]):  # face down: its colour only
        assert public == ({**face, "turned": True} if public["turned"] else {"turned": False, "colour": face["colour"]})
    two_of_each = {colour: 2 for colour in state["colours"]} if state["power_tiles"] else {}
    assert Counter(tile["colour"] for tile in state["defender_tiles"]) == two_of_each
    if state["winner"] == "defender" and state["won_by"] == "saucers":
        assert on_board == 0 and not (state["pending"] and state["pending"]["kind"] == "repair")


def arkade_transition(before: dict, after: dict, events: list[dict], draws: list[dict] = ()) -> None:
    """The tiles drawn at setup never change; a tile is turned up by its event, once, from the six drawn."""
    assert after["secret"] == before["secret"], "the drawn tiles changed"
    for kind in ("alien", "defender"):
        turned = {number for number, (old, new) in enumerate(zip(before[f"{kind}_tiles"], after[f"{kind}_tiles"]))
                  if new["turned"] and not old["turned"]}
        told = [event["tile"] for event in events if event["type"] == f"{kind}_tile"]
        assert sorted(told) == sorted(turned) and all(number < 6 for number in told), (kind, told, turned)


# Bare actions Arkade must refuse whenever they are not listed (the old Arkade walk's probes).
ARKADE_PROBES = ({"type": "throw"}, {"type": "end_turn"}, {"type": "move"}, {"type": "claim"}, {"type": "nugget", "to": 3},
                 {"type": "gps", "to": 4}, {"type": "bonus", "colour": "pink"}, {"type": "hit", "colour": "blue"},
                 {"type": "confirm", "accept": True})


def arkade_probe_listed(probe: dict, listed: list[dict]) -> bool:
    """Listed as it is, or as a hit without its fields: one on a saucer with no extra life and no munitions."""
    return probe in listed or any(probe.items() <= action.items() and action.get("extra_life") is False
                                  and "munitions" not in action for action in listed)


def arkade(name: str, options: dict) -> Config:
    return Config(name, options, seats=2, invariants=arkade_invariants, transition=arkade_transition,
                  probes=ARKADE_PROBES, probe_listed=arkade_probe_listed)


def dice_invariants(state: dict, events: list[dict] = ()) -> None:
    from companion.games.dice import HISTORY_KEPT
    assert len(state["history"]) == min(state["rolls"], HISTORY_KEPT), "the history keeps the last rolls"
    for event in events:
        assert event["number"] == state["rolls"] and len(event["values"]) == state["count"], event
        assert all(face in state["faces"] for face in event["faces"]), event


def dice_transition(before: dict, after: dict, events: list[dict], draws: list[dict]) -> None:
    """A roll is counted once and draws once per die."""
    assert after["rolls"] == before["rolls"] + len(events) and len(draws) == len(events) * after["count"]


def dice(name: str, options: dict, seats: int, steps: int = 40) -> Config:
    return Config(name, options, seats=seats, steps=steps, invariants=dice_invariants, transition=dice_transition)


def chakart_invariants(state: dict, events: list[dict] = ()) -> None:
    assert not set(state["pieces"]) & set(state["items"]), "a square holds a piece and an item"
    hidden = {colour: data["stealth"] for colour, seat in state["seats"].items()
              if "stealth" in (data := (state.get("private") or {}).get(str(seat), {}))}
    assert not set(hidden.values()) & set(state["pieces"]), "a hidden queen shares a square with a piece"
    assert sorted(state["queen_hidden"]) == sorted(hidden)
    for where, held in state["immobile"].items():  # Bowser holds a piece, wherever it goes
        assert where in state["pieces"], f"Bowser holds {where}, where no piece stands"
        assert ("w" if state["pieces"][where].isupper() else "b") == held["colour"], f"Bowser's hold on {where}"


def chakart_material(state: dict) -> int:
    """Every piece: on the board, captured, or hidden by its owner (the stealth queen)."""
    hidden = sum(1 for data in (state.get("private") or {}).values() if "stealth" in data)
    return len(state["pieces"]) + len(state["captured"]["w"]) + len(state["captured"]["b"]) + hidden


def chakart_transition(before: dict, after: dict, events: list[dict], draws: list[dict] = ()) -> None:
    assert chakart_material(after) == chakart_material(before), f"a piece vanished or appeared: {events}"


def chakart(name: str, options: dict) -> Config:
    return Config(name, options, seats=2, invariants=chakart_invariants, transition=chakart_transition)


def rayman_invariants(state: dict, events: list[dict] = ()) -> None:
    """Cards, tokens and projectiles are conserved (the old Rayman harness's checks)."""
    from companion.games.rayman.constants import LAST_COLUMN, LEVELS, MAX_BONUS, PROJECTILE_END
    extras = []
    for player in state["players"]:
        seat = player["seat"]
        mine = state["private"][str(seat)]  # a seat's cards live in its private part
        ids = sorted(card["id"] for card in mine["cards"])
        assert sorted(mine["hand"] + mine["discard"] + mine["played"]) == ids, f"seat {seat}'s cards"
        assert set(mine["random_discards"]) <= set(mine["discard"]), f"seat {seat}'s random discards"
        extras += [card["extra"] for card in mine["cards"] if card["extra"]]
        assert isinstance(player["heart"], bool) and 0 <= player["bonus"] <= MAX_BONUS, player
        assert player["bonus_pending"] is False or player["bonus"] == MAX_BONUS, player
        assert len(set(player["ptizetres"])) == len(player["ptizetres"]), player["ptizetres"]
        assert all(1 <= number <= state["config"]["captives"] for number in player["ptizetres"])
        if player["position"] is not None:
            level, column = player["position"]["level"], player["position"]["column"]
            assert 1 <= level <= LEVELS and column >= 0, player["position"]
            assert (column > LAST_COLUMN) == player["crossed"], "past the line is finished, and only that"
    assert len(extras) == len(set(extras)), "an extra card belongs to one player at most"
    ids = [projectile["id"] for projectile in state["projectiles"]]
    gone = {event["id"] for event in events if event["type"] in ("projectile_removed", "projectile_hit")}
    assert len(ids) == len(set(ids)) and not gone & set(ids), f"projectiles {ids}, gone {gone}"
    assert all(number < state["next_projectile"] for number in ids), "a projectile id given twice"
    for projectile in state["projectiles"]:
        assert PROJECTILE_END[projectile["origin"]] <= projectile["column"] <= projectile["origin"], projectile
        assert 1 <= projectile["level"] <= LEVELS, projectile
    reveals = (state.get("secret") or {}).get("reveals", {})
    # a seat's new phone picks again (repick: back to choosing) before any reveal; after one its choice is drawn
    assert not reveals or state["phase"] in ("choosing", "revealing"), f"reveals held outside the reveal ({state['phase']})"
    assert state["phase"] != "choosing" or state["round"]["revealed"] == []


AMIIBOXE_FIGURES = (("0x0000000000000002", "Mario"), ("0x0100000000040002", "Link"), ("0x0002000000010002", "Peach"),
                    ("0x0005000000140002", "Bowser"), ("0x1919000000090002", "Pikachu"),
                    ("0x1f000000000a0002", "Kirby"), ("0x05c0000000000002", "Samus"), ("0x0580000000000002", "Fox"),
                    ("0x2100000000000002", "Marth"))


def amiiboxe_seats(count: int) -> list[dict]:
    """Three figures a player (the book's minimum), each with its facts' values and suggested home card."""
    from companion.amiibo.criteria import figure_values
    from companion.amiibo.locations import suggested_home
    seats = plain_seats(count)
    for number, seat in enumerate(seats):
        seat["figures"] = [{"id": 3 * number + k + 1, "amiibo_id": amiibo_id, "name": {"en": name, "fr": name},
                            "uid": None, "known": True, "location": suggested_home(amiibo_id),
                            "values": {c: v["value"] for c, v in figure_values({"id": amiibo_id, "name": name}, "en")
                                       .items()}}
                           for k, (amiibo_id, name) in enumerate(AMIIBOXE_FIGURES[3 * number:3 * number + 3])]
    return seats


def amiiboxe_prepare(options: dict, seats: list[dict]) -> tuple[dict, list[dict]]:
    """What the table's services add: the criteria, references, default rankings and cards."""
    from companion.amiibo.criteria import CRITERIA, REFERENCES
    from companion.amiibo.judgements import default_tiers
    ids = [figure["amiibo_id"] for seat in seats for figure in seat["figures"]]
    context = {"criteria": {cid: {"kind": c.kind, "direction": c.direction} for cid, c in CRITERIA.items()},
               "references": {rid: list(reference.faces) for rid, reference in REFERENCES.items()},
               "house": {}, "defaults": {cid: default_tiers(cid, ids) for cid, c in CRITERIA.items()
                                         if c.kind == "judgement"}}
    return {**options, "context": context}, seats


def amiiboxe_invariants(state: dict, events: list[dict] = ()) -> None:
    carried = [captive for figure in state["figures"] for captive in figure["carries"]]
    assert len(carried) == len(set(carried)), "a figure carried twice"
    places = [tuple(f["at"]) for f in state["figures"] if f["status"] == "in_play" and f["at"] is not None]
    assert len(places) == len(set(places)), "two figures on one place"
    for seat in state["seats"]:
        assert seat["points"] == sum(r["points"] for r in state["retires"] if r["seat"] == seat["id"])
    assert state["phase"] != "over" or not any(f["status"] == "in_play" for f in state["figures"])


# What moves a Rayman race on: the board keeping (hurt, position, step...) is open at every moment, and
# picked as often as the rest it ends a co-op or solo race in a few steps (every player hurt at once).
RAYMAN_PROGRESS = ("end_turn", "lock", "reveal", "roll", "free_move", "no_hit", "answer", "next_race", "distance",
                   "pick", "initiative", "character", "pick_legendary", "exchange", "crossed", "ptizetre_colour")


def rayman(name: str, options: dict, seats: int) -> Config:
    """One walk a mode: a race takes hundreds of actions. A competitive race is won by moving the figures
    (board keeping), so its picker leans less on the rest; a co-op or solo race is lost by being hurt."""
    competitive = options.get("mode", "competitive") == "competitive"
    return Config(name, options, seats=seats, invariants=rayman_invariants, prefer=RAYMAN_PROGRESS,
                  prefer_odds=0.35 if competitive else 0.85, walks=1)


CONFIGS: dict[str, list[Config]] = {
    "amiiboxe": [Config("free-2p", {}, seats=2, make_seats=amiiboxe_seats,
                        prepare=amiiboxe_prepare, invariants=amiiboxe_invariants),
                 Config("pro-3p-tie", {"pro": "on", "disagreement": "tie"}, seats=3,
                        make_seats=amiiboxe_seats, prepare=amiiboxe_prepare, invariants=amiiboxe_invariants)],
    # Every mode, hand entry and most modifiers (companion/games/rayman/options.py): the old harness's 11.
    # (tests/test_replay.py walks a game's first configuration, and the novice race by its index)
    "rayman": [rayman("coop", {"mode": "coop", "boss_move": 5}, 2),
               rayman("novice-2p", {}, 2),  # no card known: each card's initiative is asked when first played
               rayman("intermediate-3p", {"difficulty": "intermediate"}, 3),
               rayman("hero-slaps-4p", {"difficulty": "hero", "unlimited_slaps": "on"}, 4),
               rayman("legend-fast", {"difficulty": "legend", "limited_legendary": "on", "projectile_speed": 9}, 2),
               rayman("quick-5p", {"difficulty": "intermediate", "hand_entry": "quick", "players_5_6": "on"}, 5),
               rayman("coop-legend-missile", {"mode": "coop", "difficulty": "legend", "projectile": "missile",
                                              "extra_cards": "on", "boss_move": 7}, 3),
               rayman("coop-harsh", {"mode": "coop", "boss_move": 8, "harsh_coop": "on", "hand_entry": "quick"}, 2),
               rayman("solo", {"mode": "solo", "extra_cards": "on", "boss_move": 4}, 1),
               rayman("custom-boss", {"difficulty": "custom", "boss": "seabreather", "boss_move": 6,
                                      "captive_ptizetres": 3, "damage_push": 3}, 3),
               rayman("tournament", {"tournament": "on", "difficulty": "intermediate", "card_exchange": "on"}, 2)],
    # Both modes, with and without power tiles, two and three throws a turn.
    "arkade": [arkade("strategie-tiles", {"alien": "first"}),
               arkade("arcade-tiles", {"mode": "arcade", "power_tiles": "on", "countdown": 1}),
               arkade("strategie-two-throws-no-tiles", {"alien": "first", "throws": 2, "power_tiles": "off"})],
    "dice": [dice("d6", {}, seats=3, steps=60),
             dice("custom-3x", {"die": "custom", "faces": ["Pile", "Face"], "count": 3}, seats=2),
             dice("d20-6x-12p", {"die": "d20", "count": 6}, seats=12)],
    "chakart": [chakart("standard", {}), chakart("random-applicable", {"start": "random", "eggs": "applicable"}),
                # every other option's other value: the caption's redirect, the author's site elsewhere
                chakart("mirrored-caption", {"start": "mirrored", "redirect": "free", "leftovers": "none",
                                             "no_move": "lose"})],
    "universalis": [Config("short-decks", {"deck_size": 30, "hand_size": 5}, seats=2,
                           invariants=universalis_invariants),
                    Config("rich-each", {"deck_size": 120, "hand_size": 5, "starting_coins": 60, "sharing": "each"},
                           seats=2, invariants=universalis_invariants),
                    # one phone for the table: the seat plays for both players
                    Config("one-phone", {"deck_size": 30, "opponent": ["Bo"]}, seats=1,
                           invariants=universalis_invariants),
                    # nobody has a phone: the host screen plays for both players
                    Config("host-plays", {"deck_size": 30, "opponent": ["Ana", "Bo"]}, seats=0,
                           invariants=universalis_invariants)],
}


@dataclass
class Step:
    """One action of a walk, with what it did."""

    seat: Any
    action: dict
    events: list[dict]
    state: dict


@dataclass
class Walk:
    game: Game
    config: Config
    seats: list[dict]
    state: dict
    rng: TableRng
    options: dict = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    @property
    def viewers(self) -> list:
        return [None, HOST] + [seat["id"] for seat in self.seats]

    @property
    def clock(self) -> float:
        return round(START_TIME + len(self.steps) * self.config.seconds_per_step, 3)


def start(game: Game, config: Config, seed: str = SEED) -> Walk:
    rng = TableRng(seed=seed, pool=EMPTY_POOL, next_n=0)
    options = game.normalize_options(copy.deepcopy(config.options))
    options, seats = config.prepare(options, config.make_seats(config.seats))
    state = game.setup(options, seats, rng)
    check_draw_kinds(game, rng.draws)
    return Walk(game, config, seats, state, rng, options)


def choices(walk: Walk) -> list[tuple[Any, dict]]:
    """Every (actor, action) pair the rules list now: the seats' and the host screen's."""
    actors = [HOST] + [seat["id"] for seat in walk.seats]
    return [(actor, action) for actor in actors for action in walk.game.legal_actions(walk.state, actor)]


def act(walk: Walk, seat: Any, action: dict, before: dict | None = None) -> Step:
    """Applies an action the rules listed, checking what every step must keep (``before``: a copy of the
    state as it is, when the caller has one)."""
    stamped = {**action, "at": walk.clock}
    before = plain_copy(walk.state) if before is None else before
    made = len(walk.rng.draws)
    state, events = walk.game.apply(walk.state, seat, stamped, walk.rng)
    assert walk.state == before, f"apply mutated its input on {action}"
    assert round_trips(state) and round_trips(events), f"not JSON after {action}"
    if walk.game.wants_fresh_draw and walk.game.wants_fresh_draw(state) is not None:
        # The table's draw the game asked for (a Rayman choice lost after a reveal), made as the table makes
        # it once its round is sealed (the harness draws for the table).
        state, drawn = walk.game.fresh_draw(state, walk.rng)
        events = events + drawn
    draws = walk.rng.draws[made:]
    assert [draw["n"] for draw in draws] == list(range(made, len(walk.rng.draws))), "the draws' numbers skip"
    check_draw_kinds(walk.game, draws)
    walk.config.transition(before, state, events, draws)
    step = Step(seat, stamped, events, state)
    walk.steps.append(step)
    walk.state = state
    return step


def check_draw_kinds(game: Game, draws: list[dict]) -> None:
    """Every draw names a kind its game declared, with exactly its declared fields (`Draw`)."""
    for draw in draws:
        purpose = draw["purpose"]
        declared = DRAW_KINDS.get(purpose.get("kind")) if isinstance(purpose, dict) else None
        assert declared is not None and declared.game == game.id, f"{game.id} draws {purpose!r}, not a kind it declared"
        assert sorted(set(purpose) - {"kind"}) == sorted(declared.fields), f"{purpose!r}: fields {declared.fields}"


def refusal_probes(walk: Walk, listed: list[tuple[Any, dict]], picker: random.Random) -> Iterator[tuple[Any, dict]]:
    """Actions the rules should refuse: unknown, another seat's, spoiled."""
    yield picker.choice([HOST] + [s["id"] for s in walk.seats]), {"type": "no-such-action"}
    if listed:
        seat, action = picker.choice(listed)
        others = [s["id"] for s in walk.seats if s["id"] != seat and (s["id"], action) not in listed]
        if others:
            yield picker.choice(others), action
        spoilable = [name for name, value in action.items() if name != "type"]
        if spoilable:
            yield seat, {**action, picker.choice(spoilable): {"spoiled": [None]}}


def check_refusals_leave_no_trace(walk: Walk, listed: list, picker: random.Random, before: dict) -> None:
    """``before``: the state as the step found it (a copy)."""
    for seat, action in refusal_probes(walk, listed, picker):
        probe_rng = TableRng(seed=walk.rng.seed, pool=walk.rng.pool, next_n=walk.rng.next_n)
        try:
            walk.game.apply(walk.state, seat, {**action, "at": walk.clock}, probe_rng)
        except IllegalAction:
            pass
        assert walk.state == before, f"a refused or probed action changed the state: {seat} {action}"


def check_probes_refused(walk: Walk, before: dict) -> None:
    """The configuration's probes that the rules do not list for an actor are refused, without a trace
    (``before``: the state as the step found it, a copy)."""
    if not walk.config.probes:  # nothing to probe: the actors' listed actions are not needed
        return
    for actor in [HOST] + [seat["id"] for seat in walk.seats]:
        listed = walk.game.legal_actions(walk.state, actor)
        for probe in walk.config.probes:
            if walk.config.probe_listed(probe, listed):
                continue
            probe_rng = TableRng(seed=walk.rng.seed, pool=walk.rng.pool, next_n=walk.rng.next_n)
            try:
                walk.game.apply(walk.state, actor, {**probe, "at": walk.clock}, probe_rng)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{actor} may send {probe}, which the rules do not list")
            assert walk.state == before, f"a refused probe changed the state: {actor} {probe}"


def round_trips(value: Any) -> bool:
    return json.loads(json.dumps(value)) == value


SCRAMBLED = "\u2042"  # appended to every scrambled string: no game writes it


def scrambled(tree: Any) -> Any:
    """Every value of ``tree`` changed, its shape kept (the same keys, the same lengths, the same
    types): what a seat's view may not depend on. None stays None."""
    if isinstance(tree, bool):
        return not tree
    if isinstance(tree, int):
        return tree + 7919
    if isinstance(tree, float):
        return tree + 0.5
    if isinstance(tree, str):
        return tree[::-1] + SCRAMBLED
    if isinstance(tree, list):
        return [scrambled(item) for item in reversed(tree)]
    if isinstance(tree, dict):
        return {key: scrambled(value) for key, value in tree.items()}
    return tree


def blinded(state: dict, viewers: list) -> dict:
    """For each viewer, the state with what it may not see scrambled: the secret and every other seat's
    private part. Each part is scrambled once for all the viewers, and the rest is the state's own: the views
    only read what they are given (`check_views` checks that the state is left as it was)."""
    private = state.get("private") or {}
    hidden = {owner: scrambled(data) for owner, data in private.items()}
    secret = {"secret": scrambled(state["secret"])} if "secret" in state else {}
    return {viewer: {**state, **secret, **({"private": {owner: data if owner == str(viewer) else hidden[owner]
                                                        for owner, data in private.items()}} if private else {})}
            for viewer in viewers}


def check_non_interference(game: Game, state: dict, viewers: list, views: dict | None = None,
                           encoded: dict | None = None) -> None:
    """A seat's view (and a spectator's, and the host screen's) is byte for byte the same whatever
    the others' private parts and the secret hold: nothing of them reaches it, not even a short id.
    ``views``: the views of ``state`` already rendered, by viewer; ``encoded``: their JSON."""
    for viewer, blind_state in blinded(state, viewers).items():
        seen = views[viewer] if views is not None else game.view(state, viewer)
        try:
            blind = game.view(blind_state, viewer)
        except Exception as error:  # the view read what it may not see, and choked on it
            raise AssertionError(f"the view of {viewer} reads another's secret: {error!r}") from error
        seen_json = encoded[viewer] if encoded is not None else json.dumps(seen)
        assert same_json(seen, seen_json, blind), \
            f"the view of {viewer} changes with another's private part or the secret"


def same_json(seen: Any, seen_json: str, blind: Any) -> bool:
    """Whether two views are the same JSON, their keys in any order: the plain encodings first (the same
    unless the keys come in another order), else the encodings with the keys sorted."""
    return json.dumps(blind) == seen_json or json.dumps(blind, sort_keys=True) == json.dumps(seen, sort_keys=True)


def check_views(walk: Walk, before: dict) -> None:
    """Every view is JSON, does not depend on what its viewer may not see, and leaves the state as
    it was (``before``, a copy): a view shares the state's data (`kernel.strip_secrets`)."""
    views = {viewer: walk.game.view(walk.state, viewer) for viewer in walk.viewers}
    assert walk.state == before, "a view changed the state it shows"
    encoded = {viewer: json.dumps(seen) for viewer, seen in views.items()}  # one encoding for both checks
    for viewer, seen in views.items():
        assert json.loads(encoded[viewer]) == seen, f"the view of {viewer} is not JSON"
    check_non_interference(walk.game, walk.state, walk.viewers, views, encoded)
    assert walk.state == before, "a view changed the state it shows"  # the blinded states share its parts


def pick(listed: list[tuple[Any, dict]], picker: random.Random, prefer: tuple[str, ...] = (),
         odds: float = 0.0) -> tuple[Any, dict]:
    """An action type first, then one of its actions: a move with many parameter
    sets (every target of every card) does not drown the others. The preferred
    types (those that advance the game) most of the time, when any is listed."""
    kinds = sorted({action["type"] for _, action in listed})
    advancing = [kind for kind in kinds if kind in prefer]
    if advancing and picker.random() < odds:
        kinds = advancing
    kind = picker.choice(kinds)
    return picker.choice([(seat, action) for seat, action in listed if action["type"] == kind])


def play(game: Game, config: Config, picks: int, seed: str = SEED) -> Walk:
    """A random walk of legal actions, checked at every step."""
    picker = random.Random(picks)
    walk = start(game, config, seed)
    assert round_trips(walk.state), "the state after setup is not JSON"
    bound = config.bound(game, walk.options)
    events: list[dict] = []
    for _ in range(config.steps if bound is None else bound):
        # One copy of the state a step: every check of the step compares the state with it (plain_copy,
        # not copy.deepcopy, which took half the time of a Rayman walk).
        before = plain_copy(walk.state)
        check_views(walk, before)
        config.invariants(walk.state, events)
        if game.outcome(walk.state) is not None:
            break
        listed = choices(walk)
        assert listed, f"nobody can act and the game is not over (phase {walk.state.get('phase')})"
        check_refusals_leave_no_trace(walk, listed, picker, before)
        check_probes_refused(walk, before)
        seat, action = pick(listed, picker, config.prefer, config.prefer_odds)
        events = act(walk, seat, action, before).events  # the state is still as `before` holds it
    else:
        assert bound is None, f"{game.id} {config.name} did not end within its longest game, {bound} actions"
    return walk



# --- Coverage: many walks on the rules alone, until every effect a game names is met -----------------------

@dataclass(frozen=True)
class Coverage:
    """Whole games of one game played on its rules alone (its invariants and step checks, not the views, the
    refusals and the secrets that `play` checks at every step of its few walks): cheap enough to play the
    games it takes to meet every item, effect and path the game names (`wanted`)."""

    games: int
    configs: tuple[Config, ...]  # walk number n plays configs[n % len(configs)]
    wanted: tuple[str, ...]
    # The game's picker: the rare cases first (state, listed, picker) -> (seat, action).
    pick: Callable[[dict, list[tuple[Any, dict]], random.Random], tuple[Any, dict]]
    # What a step reached, counted by name in ``reached``: (reached, before, action, events).
    count: Callable[[Counter, dict, dict, list[dict]], None]
    max_actions: int = 2500


@dataclass
class Reached:
    games: int = 0
    actions: int = 0
    reached: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)

    def missing(self, coverage: Coverage) -> list[str]:
        return [name for name in coverage.wanted if not self.reached[name]]


def play_rules(game: Game, coverage: Coverage, number: int, tally: Reached) -> list[dict]:
    """Walk ``number`` of the coverage, to the game's end; the actions it took."""
    config = coverage.configs[number % len(coverage.configs)]
    walk = start(game, config, seed=f"{number:064x}")
    picker, taken = random.Random(number), []
    for _ in range(coverage.max_actions):
        outcome = game.outcome(walk.state)
        if outcome is not None:
            tally.endings[outcome.get("reason")] += 1
            break
        seat, action = coverage.pick(walk.state, choices(walk), picker)
        before, drawn = walk.state, len(walk.rng.draws)
        walk.state, events = game.apply(before, seat, action, walk.rng)
        config.invariants(walk.state, events)
        config.transition(before, walk.state, events, walk.rng.draws[drawn:])
        coverage.count(tally.reached, before, action, events)
        taken.append(action)
    else:
        tally.endings["unfinished"] += 1
    tally.games += 1
    tally.actions += len(taken)
    return taken


def reach(game: Game, coverage: Coverage, games: int | None = None) -> Reached:
    tally = Reached()
    for number in range(coverage.games if games is None else games):
        play_rules(game, coverage, number, tally)
    return tally


# Chakart: pawns one step from a last rank of eggs (promotions on an egg, Daisy's among them, in a few moves);
# two queens on an open board (a stealth move, then the other side's onto her hidden square); eggs everywhere
# (Bowser and King Boo in the same few turns).
EGG_RALLY = "eeeeeeee/PPPPPPPP/8/3k4/8/4K3/pppppppp/eeeeeeee"
QUEENS = "r2qk2r/8/8/8/8/8/8/R2QK2R"
EGG_FIELD = "rn2k1nr/pppppppp/eeeeeeee/eeeeeeee/eeeeeeee/eeeeeeee/PPPPPPPP/RN2K1NR"
CHAKART_ITEMS = {"m": "mushroom", "e": "egg", "d": "banana", "w": "bomb"}
CHAKART_EFFECTS = ("banana redirect", "bomb redirect", "redirect capture", "mushroom step", "mushroom jump",
                   "mushroom jump capture", "hidden queen captured", "stealth", "stealth onto the hidden queen",
                   "shell", "no item left", "King Boo moves a piece Bowser holds")
PROMOTION_PATHS = ("by a step", "carried by an item", "then Daisy's move")


def chakart_hidden(state: dict) -> list[str]:
    return [data["stealth"] for data in (state.get("private") or {}).values() if "stealth" in data]


def chakart_pick(state: dict, listed: list[tuple[Any, dict]], picker: random.Random) -> tuple[Any, dict]:
    """As `pick`, but the rare cases first: a stealth move onto the other side's hidden queen (the walker
    may know what a player cannot: it looks for the rule), else half the time an open move onto her; King
    Boo's swap with a piece Bowser holds; a stealth move one time in five; a pawn move half the time, so
    that pawns reach the last rank in a short game."""
    from companion.games.chakart.board import kind
    hidden = chakart_hidden(state)
    onto_her = [(seat, a) for seat, a in listed if a["type"] in ("move", "stealth") and a["to"] in hidden]
    secretly = [(seat, a) for seat, a in onto_her if a["type"] == "stealth"]
    if secretly or (onto_her and picker.random() < 0.5):
        return picker.choice(secretly or onto_her)
    held = [(seat, a) for seat, a in listed if a["type"] == "swap" and a["with"] in state["immobile"]]
    if held:
        return picker.choice(held)
    stealthy = [(seat, a) for seat, a in listed if a["type"] == "stealth"]
    if stealthy and picker.random() < 0.2:
        return picker.choice(stealthy)
    pawn_moves = [(seat, a) for seat, a in listed if a["type"] == "move" and kind(state["pieces"][a["from"]]) == "p"]
    if pawn_moves and picker.random() < 0.5:
        return picker.choice(pawn_moves)
    return pick(listed, picker)


def chakart_count(reached: Counter, before: dict, action: dict, events: list[dict]) -> None:
    for event in events:
        previous = None
        for step in event.get("steps") or []:
            chakart_count_step(reached, step, previous)
            previous = step
        if event["type"] == "stealth":
            reached["stealth"] += 1
    if action["type"] == "stealth" and action["to"] in chakart_hidden(before):
        reached["stealth onto the hidden queen"] += 1
    if action["type"] == "swap" and action["with"] in before["immobile"]:
        reached["King Boo moves a piece Bowser holds"] += 1
    if action["type"] == "promote":
        reached[f"promotion to {action['piece']}"] += 1
        if before["pending"].get("then") == "again":
            reached["promotion then Daisy's move"] += 1
        carried = any(step["kind"] in ("redirect", "mushroom") and step.get("to") for step in before["report"]["steps"])
        reached["promotion carried by an item" if carried else "promotion by a step"] += 1


def chakart_count_step(reached: Counter, step: dict, previous: dict | None) -> None:
    what = step["kind"]
    if what == "item":
        reached[f"item {CHAKART_ITEMS[step['item']]}"] += 1
    elif what == "redirect" and step["to"]:
        reached[f"{step['item']} redirect"] += 1
    elif what == "mushroom" and step["to"]:
        reached["mushroom jump" if step.get("over") else "mushroom step"] += 1
    elif what == "egg" and step["applies"]:
        reached[f"egg {step['effect']}"] += 1
    elif what == "capture":
        if step.get("hidden"):
            reached["hidden queen captured"] += 1
        # right after a redirect or a mushroom jump that ended on the square: the item carried the piece there
        if previous and previous.get("to") == step["square"] and previous["kind"] == "redirect":
            reached["redirect capture"] += 1
        elif previous and previous.get("to") == step["square"] and previous["kind"] == "mushroom" and previous.get("over"):
            reached["mushroom jump capture"] += 1
    elif what in ("shell", "no_drop"):
        reached["shell" if what == "shell" else "no item left"] += 1


def chakart_wanted() -> tuple[str, ...]:
    from companion.games.chakart.effects import EGG_EFFECTS
    from companion.games.chakart.turn import PROMOTIONS
    return (tuple(f"item {name}" for name in CHAKART_ITEMS.values()) + CHAKART_EFFECTS
            + tuple(f"egg {name}" for name in EGG_EFFECTS) + tuple(f"promotion to {piece}" for piece in PROMOTIONS)
            + tuple(f"promotion {path}" for path in PROMOTION_PATHS))


COVERAGE: dict[str, Coverage] = {
    # 32 games under a mix of the table's options: every effect met at least once (about 9 s on 2 cores).
    "chakart": Coverage(32, tuple(chakart(f"mix-{n}", {**options, "colours": "first"}) for n, options in enumerate((
        {"start": "standard"}, {"start": "random", "eggs": "applicable"},
        {"start": "mirrored", "redirect": "free", "leftovers": "none"},
        {"start": "random", "no_move": "lose", "redirect": "free"}, {"position": [EGG_RALLY]},
        {"position": [QUEENS], "no_move": "lose"}, {"position": [QUEENS], "redirect": "free", "leftovers": "none"},
        {"position": [EGG_FIELD], "eggs": "applicable"}))), chakart_wanted(), chakart_pick, chakart_count),
}


if __name__ == "__main__":  # python -m tests.random_play chakart [games]: what a game's coverage walks reached
    import sys

    coverage = COVERAGE[sys.argv[1]]
    tally = reach(REGISTRY[sys.argv[1]], coverage, int(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(f"{tally.games} games, {tally.actions} actions; endings: {dict(tally.endings)}")
    print("reached:", {name: tally.reached[name] for name in coverage.wanted})
    print("missing:", tally.missing(coverage))
