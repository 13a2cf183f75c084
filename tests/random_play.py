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
* the game's own invariants hold,

and, for a game that ends, that it ends within the game's own bound. `record` keeps
the same walk as a golden playthrough (see tests/playthroughs/).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import REGISTRY
from companion.games.base import DRAW_KINDS, HOST, Game, IllegalAction

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
    if state["winner"] == "defender" and state["won_by"] == "saucers":
        assert on_board == 0 and not (state["pending"] and state["pending"]["kind"] == "repair")


def chakart_invariants(state: dict, events: list[dict] = ()) -> None:
    assert not set(state["pieces"]) & set(state["items"]), "a square holds a piece and an item"
    hidden = {colour: data["stealth"] for colour, seat in state["seats"].items()
              if "stealth" in (data := (state.get("private") or {}).get(str(seat), {}))}
    assert not set(hidden.values()) & set(state["pieces"]), "a hidden queen shares a square with a piece"
    assert sorted(state["queen_hidden"]) == sorted(hidden)
    for where, held in state["immobile"].items():  # Bowser holds a piece, wherever it goes
        assert where in state["pieces"], f"Bowser holds {where}, where no piece stands"
        assert ("w" if state["pieces"][where].isupper() else "b") == held["colour"], f"Bowser's hold on {where}"


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
    "arkade": [Config("strategie-tiles", {"alien": "first"}, seats=2, invariants=arkade_invariants),
               Config("arcade-tiles", {"mode": "arcade", "power_tiles": "on", "countdown": 1}, seats=2,
                      invariants=arkade_invariants)],
    "dice": [Config("d6", {}, seats=3, steps=60),
             Config("custom-3x", {"die": "custom", "faces": ["Pile", "Face"], "count": 3}, seats=2, steps=40)],
    "chakart": [Config("standard", {}, seats=2, invariants=chakart_invariants),
                Config("random-applicable", {"start": "random", "eggs": "applicable"}, seats=2,
                       invariants=chakart_invariants),
                # every other option's other value: the caption's redirect, the author's site elsewhere
                Config("mirrored-caption", {"start": "mirrored", "redirect": "free", "leftovers": "none",
                                            "no_move": "lose"}, seats=2, invariants=chakart_invariants)],
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


def act(walk: Walk, seat: Any, action: dict) -> Step:
    """Applies an action the rules listed, checking what every step must keep."""
    stamped = {**action, "at": walk.clock}
    before, made = copy.deepcopy(walk.state), len(walk.rng.draws)
    state, events = walk.game.apply(walk.state, seat, stamped, walk.rng)
    assert walk.state == before, f"apply mutated its input on {action}"
    assert round_trips(state) and round_trips(events), f"not JSON after {action}"
    if walk.game.wants_fresh_draw and walk.game.wants_fresh_draw(state) is not None:
        # The table's draw the game asked for (a Rayman choice lost after a reveal), made as the table makes
        # it once its round is sealed (the harness draws for the table).
        state, drawn = walk.game.fresh_draw(state, walk.rng)
        events = events + drawn
    check_draw_kinds(walk.game, walk.rng.draws[made:])
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


def check_refusals_leave_no_trace(walk: Walk, listed: list, picker: random.Random) -> None:
    for seat, action in refusal_probes(walk, listed, picker):
        before = copy.deepcopy(walk.state)
        probe_rng = TableRng(seed=walk.rng.seed, pool=walk.rng.pool, next_n=walk.rng.next_n)
        try:
            walk.game.apply(walk.state, seat, {**action, "at": walk.clock}, probe_rng)
        except IllegalAction:
            pass
        assert walk.state == before, f"a refused or probed action changed the state: {seat} {action}"


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


def scrambled_for(state: dict, viewer: Any) -> dict:
    """The state with what ``viewer`` may not see scrambled: the secret and every other seat's
    private part."""
    other = copy.deepcopy(state)
    if "secret" in other:
        other["secret"] = scrambled(other["secret"])
    for owner, data in (other.get("private") or {}).items():
        if owner != str(viewer):
            other["private"][owner] = scrambled(data)
    return other


def check_non_interference(game: Game, state: dict, viewers: list) -> None:
    """A seat's view (and a spectator's, and the host screen's) is byte for byte the same whatever
    the others' private parts and the secret hold: nothing of them reaches it, not even a short id."""
    for viewer in viewers:
        seen = json.dumps(game.view(state, viewer), sort_keys=True)
        try:
            blind = json.dumps(game.view(scrambled_for(state, viewer), viewer), sort_keys=True)
        except Exception as error:  # the view read what it may not see, and choked on it
            raise AssertionError(f"the view of {viewer} reads another's secret: {error!r}") from error
        assert seen == blind, f"the view of {viewer} changes with another's private part or the secret"


def check_views(walk: Walk) -> None:
    """Every view is JSON, does not depend on what its viewer may not see, and leaves the state as
    it was: a view shares the state's data (`kernel.strip_secrets`)."""
    before = copy.deepcopy(walk.state)
    views = {viewer: walk.game.view(walk.state, viewer) for viewer in walk.viewers}
    assert walk.state == before, "a view changed the state it shows"
    for viewer, seen in views.items():
        assert round_trips(seen), f"the view of {viewer} is not JSON"
    check_non_interference(walk.game, walk.state, walk.viewers)


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
        check_views(walk)
        config.invariants(walk.state, events)
        if game.outcome(walk.state) is not None:
            break
        listed = choices(walk)
        assert listed, f"nobody can act and the game is not over (phase {walk.state.get('phase')})"
        check_refusals_leave_no_trace(walk, listed, picker)
        seat, action = pick(listed, picker, config.prefer, config.prefer_odds)
        events = act(walk, seat, action).events
    else:
        assert bound is None, f"{game.id} {config.name} did not end within its longest game, {bound} actions"
    return walk

