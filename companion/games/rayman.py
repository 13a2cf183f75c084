"""Rayman, le jeu de société (Flyos Games, 2024): the companion as a trusted referee.

The board, the figures, the action cards and the tokens stay on the table. The
companion does what a table cannot do fairly by itself: secret simultaneous
choices (commit-reveal), honest dice and shuffles, the order of play, and the
bookkeeping of hearts, bonus tokens, Ptizêtres, projectiles and Bosses. It
tells every player, on their own phone, what to do next.

Phases (``state["phase"]``)
* Setup: ``characters`` (each player names a character), ``legendary`` (a
  legendary player card, Legend mode or when chosen), ``draft`` (the extra
  action cards, Intermediate and up), ``exchange`` (tournament card-exchange
  variant, from the second race), ``hands`` (each player enters the initiative
  of each of their cards, unless the option ``hand_entry`` is ``quick``).
* Each round: ``round_start`` (the projectile and Boss dice), ``choosing``
  (secret choice of two cards or a Bubble), ``turns`` (in initiative order),
  ``round_end`` (projectiles, projectile card, Boss, free move of the last
  player, discards).
* The end: ``finish`` (distances past the line and the ranking), ``race_over``
  (tournament: between two races) and ``game_over``.

Secret choices are committed: at lock-in the public state and the events
carry only ``locked`` and ``commitment(choice, salt)`` (SHA-256 of the
canonical JSON of the choice followed by a 128-bit salt, a nonce of the
table's randomness that its seed cannot recompute). Nothing else about a choice leaves the chooser's own
view until the last player locks in; then every choice and salt is public.

Positions are optional, per player: a player who keeps their column and level
on their phone (``position``/``step``) lets the companion decide who is last,
who is farthest from the finish, where projectiles spawn and whom they or the
Boss hit. When a needed position is unknown, the companion asks the table
(``question`` in the view; the host answers with ``answer``).

Actions (``type`` and fields; ``legal_actions(state, seat)`` lists them)
* Setup: ``character`` (``name``), ``pick_legendary`` (``card``), ``pick``
  (``card``: an extra card's number), ``exchange`` (``drop``: card ids),
  ``hand`` (``initiatives``: card id -> 0..99).
* Rounds: ``roll``; ``choose`` (``left``, ``second``: card ids, or
  initiatives with quick entry; or ``bubble: true``); ``lock``; on one's turn
  ``end_turn``, ``heart`` (``to``: co-op gift), ``spend_heart`` (Filou),
  ``slap`` (``target``, ``direction`` when both figures share a column),
  ``free`` (``ptizetre``), ``bonus``, ``use_bonus``, ``use_legendary``; any
  time ``hurt`` (``cause``, ``projectile``), ``discard_bonus`` (a fifth
  token), ``give_bonus`` (``to``, co-op), ``crossed``, ``position``
  (``column``, ``level``), ``step`` (``direction``), ``forget_position``;
  after the race ``distance`` (``spaces`` past the line).
* Host (``seat == HOST``): ``answer`` (``question``: the asked key,
  ``value``), ``roll`` (for the player who should), ``next_race``.

A view carries, besides the state a seat may see, ``actions`` (that viewer's
legal actions, for the buttons of its screen; none for the public) and
``history`` (the last public events, ``history_count`` of them in all), so that
every screen can tell what just happened, such as the end of a round.

Board geometry: players start on the start line (column 0) and race through
columns 1 to 43 (tile 1: 1-21, tile 2: 22-43); the finish line follows column
43, so column 44 is one space past it. Levels are 1 (ground) to 3.

Where the book is silent, we chose:
* Hands are private: another player sees how many cards a player holds and has
  discarded, never which (played cards are public once revealed). The co-op
  random discards are shown to their owner only.
* The youngest player (first to pick in the draft) is named by the host;
  clockwise is the order of the table's seats.
* Co-op and solo: a player whose hand is empty at the end of a round takes back
  all their cards and discards 2 at random (after every third round with 8
  cards, every fourth with 10). With ``quick`` hand entry the random discards
  are shown as ranks: "your 2nd and 5th card, counting from the highest
  initiative".
* A Bubble action takes back every discarded card, the co-op random discards
  included. Solo has no Bubble at all (neither the action nor the mode). In
  co-op only damage from the Boss puts a player in Bubble mode (the issue's
  reading); a player in Bubble mode cannot declare a Bubble action.
* Damage: the companion moves a kept position back 2 (or 3) columns on the
  same level; the player corrects the level or an occupied space with the
  stepper. A Boss hit with a heart puts the player just behind the Boss.
* In a race's first round a position nobody keeps is the start line: the
  table is not asked where the projectile spawns nor whom it hits.
* Projectiles hit the first player on their path (their own space included);
  an immune or Bubble player removes the projectile without harm. Projectiles
  from column 21 leave the board after column 1, those from 43 after column 22.
* The Boss enters at column 0 on the level of its first die and moves along
  the columns; only the space where it ends its move hits a player. A Boss
  past column 43 has finished: in co-op and solo the table loses unless every
  player had finished; in a competitive race with a Boss it takes the first
  place when it finishes before the final round.
* The Boss's movement value is on its card and not in the book: option
  ``boss_move``, or 0 to have the host enter it at the first round.
* Solo has no free move (there is no last place when racing alone).
* Crossing the finish line needs 3 freed Ptizêtres; a crossed player no longer
  slaps and is no longer slapped, hit or counted as last. In co-op a player who
  has finished no longer chooses cards.
* Ranking: past the line, farther first, then the higher left-card initiative
  of the final round, then shared; everybody else by column then level (the
  lower level is behind). Tournament points: 5, 3, 2 for the first three
  places, 1 for every other place; tied players share the better place.
* Tournament with extra cards: each race drafts two new extra cards. Without
  the exchange variant they replace the previous ones; with it, each player
  keeps their ten cards and drops two of the twelve.
* Ptizêtres are numbered 1 to 4 in the order they sit along the course (the
  book gives each a colour but not which).
* Whoever must roll (a random player in round 1, then the player farthest from
  the finish) taps ``roll`` on their phone; the host may roll for them. With
  only a Boss to roll for, any player may roll.
* The Boss hits only where its end-of-round move ends, not during its vertical
  move at the start of a round.
* A fifth bonus token waits (``bonus_pending``) until the player uses or
  discards one: the count never exceeds four.
* A hit may be reported from the start of a round to its end (the free move
  of the last player can land on an enemy after the turns).
* Tournament exchange variant: cards kept by players stay out of the next
  draft; when the deck runs short, players pick while cards remain and give
  back as many cards as they drafted.
"""

from __future__ import annotations

import copy
import hashlib
import json
from itertools import combinations, groupby, permutations

from companion.games.base import HOST, N_, Game, IllegalAction, Option, register, require_fields

HOST_ACTIONS = frozenset({"answer", "next_race", "roll"})
HOST_ONLY = frozenset({"answer", "next_race"})

MODES = ("competitive", "coop", "solo")
DIFFICULTIES = ("novice", "intermediate", "hero", "legend", "custom")
BOARDS = ("jungle", "foret", "fiesta", "enfer")  # also the tournament's order
PROJECTILES = ("missile", "fourchette", "feu_artifice", "fantome_rouge", "bombe_volante")
BOSSES = ("crapaud_blinde", "ptizetre_malefique", "seabreather", "grundermord")
CHARACTERS = ("Rayman", "Globox", "Barbara", "Grand Minimus")
LEGENDARY_CARDS = ("esquiveur", "vagabond", "fracasseur", "sprinteur", "filou", "grimpeur")
AUTO_ON_OFF = ("auto", "on", "off")
ON_OFF = ("off", "on")

PRESETS = {
    "novice": {"board": "jungle", "projectile": None, "card": False, "extras": False, "legendary": False,
               "boss": "crapaud_blinde"},
    "intermediate": {"board": "foret", "projectile": "missile", "card": False, "extras": True,
                     "legendary": False, "boss": "ptizetre_malefique"},
    "hero": {"board": "fiesta", "projectile": "fourchette", "card": True, "extras": True, "legendary": False,
             "boss": "seabreather"},
    "legend": {"board": "enfer", "projectile": "fantome_rouge", "card": True, "extras": True, "legendary": True,
               "boss": "grundermord"},
    "custom": {"board": "jungle", "projectile": None, "card": True, "extras": False, "legendary": False,
               "boss": "crapaud_blinde"},
}

BASE_CARDS = 8
EXTRA_CARDS = 22
DRAFT_ROUNDS = 2
SOLO_DRAFT = 3
MAX_INITIATIVE = 99
START_COLUMN = 0
LAST_COLUMN = 43
SECOND_TILE = 22
SPAWN_COLUMNS = (21, 43)
PROJECTILE_END = {21: 1, 43: 22}  # the last column a projectile from each spawn crosses
MAX_COLUMN = LAST_COLUMN + 40  # room enough past the finish line
LEVELS = 3
MAX_BONUS = 4
PTIZETRES_TO_FINISH = 3
BUBBLE_MODE_ADVANCE = 4
BOSS_DECK = 3
MAX_BOSS_MOVE = 20
SALT_BITS = 128
HISTORY_KEPT = 40  # events kept in the state for the screens (the table's log keeps them all)
RANDOM_DISCARDS = 2
PLACE_POINTS = (5, 3, 2)
OTHER_PLACE_POINTS = 1
HURT_CAUSES = ("enemy", "obstacle", "wall", "projectile", "boss")
DIRECTIONS = {"forward": (1, 0), "back": (-1, 0), "up": (0, 1), "down": (0, -1)}
SETUP_PHASES = ("characters", "legendary", "draft", "exchange", "hands")
RACE_PHASES = ("round_start", "choosing", "turns", "round_end", "finish")
HIT_PHASES = RACE_PHASES[:-1]  # a hit can happen in a turn, or by the free move at the end of a round


# --- commit-reveal -------------------------------------------------------

def canonical_json(value) -> str:
    """Keys sorted, no spaces: the bytes a phone hashes to check a reveal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def commitment(choice: dict, salt: str) -> str:
    return hashlib.sha256((canonical_json(choice) + salt).encode()).hexdigest()


# --- options ---------------------------------------------------------------

def resolve(options: dict) -> dict:
    """The race's configuration: the difficulty's preset, then what the host chose."""
    mode, preset = options["mode"], PRESETS[options["difficulty"]]
    racing_alone = mode != "competitive"

    def chosen(name: str, auto):
        value = options[name]
        return auto if value == "auto" else None if value == "none" else value

    projectile = chosen("projectile", None if racing_alone else preset["projectile"])
    return {
        "mode": mode, "difficulty": options["difficulty"],
        "board": chosen("board", preset["board"]),
        "projectile": projectile,
        "projectile_card": bool(projectile) and on(options["projectile_card"], preset["card"]),
        "extra_cards": on(options["extra_cards"], preset["extras"] and not racing_alone),
        "legendary": on(options["legendary"], preset["legendary"] and not racing_alone),
        "boss": chosen("boss", preset["boss"] if racing_alone else None),
        "boss_move": options["boss_move"] or None,
        "quick": options["hand_entry"] == "quick",
        "extension": options["players_5_6"] == "on",
        "captives": options["captive_ptizetres"],
        "damage_push": options["damage_push"],
        "projectile_speed": options["projectile_speed"],
        "limited_legendary": options["limited_legendary"] == "on",
        "unlimited_slaps": options["unlimited_slaps"] == "on",
        "harsh_coop": options["harsh_coop"] == "on",
        "tournament": options["tournament"] == "on",
        "card_exchange": options["card_exchange"] == "on",
        "keep_legendary": options["tournament_legendary"] == "keep",
    }


def on(value: str, auto: bool) -> bool:
    return auto if value == "auto" else value == "on"


def check_options(options: dict) -> None:
    config = resolve(options)
    if config["mode"] != "competitive" and not config["boss"]:
        raise IllegalAction(N_("A co-op or solo race is played against a Boss."))
    if options["projectile_card"] == "on" and not config["projectile"]:
        raise IllegalAction(N_("A projectile card needs projectiles."))
    if config["tournament"] and config["mode"] != "competitive":
        raise IllegalAction(N_("A tournament is a competitive game."))
    if config["card_exchange"] and not (config["tournament"] and config["extra_cards"]):
        raise IllegalAction(N_("The card exchange is a tournament variant with extra action cards."))
    if config["harsh_coop"] and config["mode"] != "coop":
        raise IllegalAction(N_("That modifier is for co-op races."))


def seat_range(config: dict) -> tuple[int, int]:
    if config["mode"] == "solo":
        return 1, 1
    if config["mode"] == "coop":
        return 2, 4
    return 2, 6 if config["extension"] else 4


# --- setup -----------------------------------------------------------------

def setup(options: dict, seats: list[dict], rng) -> dict:
    config = resolve(options)
    low, high = seat_range(config)
    if not low <= len(seats) <= high:
        raise IllegalAction(N_("This mode is for %(low)s to %(high)s players."), low=low, high=high)
    return {
        "config": config,
        "phase": "characters",
        "players": [new_player(seat, config) for seat in seats],
        "race": new_race(config, 1),
        "round": None,
        "projectiles": [],
        "next_projectile": 1,
        "second_tile": False,
        "boss": new_boss(config),
        "draft": None,
        "youngest": None,
        "tournament": {"races": [], "standings": [{"seat": seat["id"], "points": 0} for seat in seats]}
        if config["tournament"] else None,
        "result": None,
        "history": [], "history_count": 0,
    }


def new_player(seat: dict, config: dict) -> dict:
    cards = [{"id": f"b{number}", "initiative": None, "extra": None} for number in range(1, BASE_CARDS + 1)]
    player = {"seat": seat["id"], "name": seat["name"], "character": None, "legendary": None,
              "cards": cards, "position": None}
    reset_for_race(player)
    return player


def reset_for_race(player: dict) -> None:
    """Tokens, hand and progress as the race starts (cards and character stay)."""
    player.update({
        "hand": [card["id"] for card in player["cards"]], "discard": [], "played": [], "random_discards": [],
        "random_ranks": [], "heart": False, "bonus": 0, "bonus_pending": False, "ptizetres": [],
        "immune": False, "bubble": False, "bubble_mode": False, "slapped": False, "crossed": False,
        "distance": None, "legendary_uses": 0, "locked": False, "commitment": None, "secret": None,
    })
    if player["position"] is not None:
        player["position"] = {"column": START_COLUMN, "level": 1}


def new_race(config: dict, number: int) -> dict:
    board = BOARDS[number - 1] if config["tournament"] else config["board"]
    return {"number": number, "board": board, "final_round": False, "boss_finished": False}


def new_boss(config: dict) -> dict | None:
    if not config["boss"]:
        return None
    return {"name": config["boss"], "move": config["boss_move"], "column": None, "level": None,
            "deck": [], "card": None, "used": []}


# --- helpers ---------------------------------------------------------------

def player_of(state: dict, seat) -> dict:
    for player in state["players"]:
        if player["seat"] == seat:
            return player
    raise IllegalAction(N_("Only the players of this race can do that."))


def name_of(state: dict, seat) -> str:
    player = player_of(state, seat)
    return player["character"] or player["name"]


def names(state: dict, seats) -> str:
    return " and ".join(name_of(state, seat) for seat in seats)


def require_phase(state: dict, *phases: str) -> None:
    if state["phase"] not in phases:
        raise IllegalAction(N_("That is not possible now."))


def card_of(player: dict, card_id):
    return next((card for card in player["cards"] if card["id"] == card_id), None)


def racers(state: dict) -> list[dict]:
    """Players still on the course (not past the finish line)."""
    return [player for player in state["players"] if not player["crossed"]]


def positions_known(state: dict) -> bool:
    return all(player["position"] is not None for player in racers(state))


def is_coop(state: dict) -> bool:
    return state["config"]["mode"] == "coop"


def is_solo(state: dict) -> bool:
    return state["config"]["mode"] == "solo"


def active_seat(state: dict):
    if state["phase"] != "turns":
        return None
    round_ = state["round"]
    return round_["order"][round_["turn"]]


def require_turn(state: dict, seat) -> dict:
    require_phase(state, "turns")
    active = active_seat(state)
    if seat != active:
        raise IllegalAction(N_("It is %(name)s's turn."), name=name_of(state, active))
    return player_of(state, seat)


def require_own_seat(state: dict, seat) -> dict:
    if seat == HOST:
        raise IllegalAction(N_("The host screen does not play: act from a seat."))
    return player_of(state, seat)


def require_seat_field(state: dict, action: dict, field: str) -> dict:
    require_fields(action, **{field: int})
    return player_of(state, action[field])


def die_level(value: int) -> int:
    return (value + 1) // 2  # 1-2: first level, 3-4: second, 5-6: third


# --- apply -----------------------------------------------------------------

def apply(state: dict, seat, action: dict, rng) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(action))
    kind = action.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(kind))
    if state["phase"] == "game_over":
        raise IllegalAction(N_("The game is over."))
    if seat == HOST and kind not in HOST_ACTIONS:
        raise IllegalAction(N_("The host screen does not play: act from a seat."))
    if seat != HOST and kind in HOST_ONLY:
        raise IllegalAction(N_("Only the host can do that."))
    if seat != HOST:
        player_of(state, seat)
    new_state = copy.deepcopy(state)  # apply never mutates its input
    events = handler(new_state, seat, action, rng)
    advance(new_state, rng, events)
    remember(new_state, events)
    return new_state, events


def remember(state: dict, events: list[dict]) -> None:
    """The last public events, for the screens to tell what just happened (an event never holds a secret)."""
    if events:
        state["history"] = (state.get("history", []) + events)[-HISTORY_KEPT:]
        state["history_count"] = state.get("history_count", 0) + len(events)


def advance(state: dict, rng, events: list[dict]) -> None:
    """Runs what happens by itself (reveals, rolls for ties, round ends) until someone must act."""
    while True:
        step = AUTOMATIC.get(state["phase"])
        if step is None or not step(state, rng, events):
            return


# --- setup phases ----------------------------------------------------------

def do_character(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "characters")
    player = require_own_seat(state, seat)
    require_fields(action, name=str)
    name = " ".join(action["name"].split())
    if not 0 < len(name) <= 24:
        raise IllegalAction(N_("A character's name has 1 to 24 characters."))
    name = next((known for known in CHARACTERS if known.lower() == name.lower()), name)
    taken = [other for other in state["players"] if other is not player and other["character"]
             and other["character"].lower() == name.lower()]
    if taken:
        raise IllegalAction(N_("%(name)s is already in the race."), name=name)
    player["character"] = name
    return [{"type": "character_chosen", "seat": seat, "character": name}]


def do_pick_legendary(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "legendary")
    player = require_own_seat(state, seat)
    require_fields(action, card=str)
    card = action["card"]
    if card not in LEGENDARY_CARDS:
        raise IllegalAction(N_("The legendary cards are %(choices)s."), choices=", ".join(LEGENDARY_CARDS))
    if any(other is not player and other["legendary"] == card for other in state["players"]):
        raise IllegalAction(N_("Another player already holds that legendary card."))
    player["legendary"] = card
    return [{"type": "legendary_chosen", "seat": seat, "card": card}]


def setup_done(state: dict, phase: str) -> bool:
    players = state["players"]
    if phase == "characters":
        return all(player["character"] for player in players)
    if phase == "legendary":
        return all(player["legendary"] for player in players)
    if phase == "exchange":
        return all(len(player["cards"]) <= BASE_CARDS + DRAFT_ROUNDS for player in players)
    if phase == "hands":
        return all(card["initiative"] is not None for player in players for card in player["cards"])
    return False


def phase_needed(state: dict, phase: str) -> bool:
    config, race = state["config"], state["race"]["number"]
    if phase == "legendary":
        return config["legendary"] and (race == 1 or not config["keep_legendary"])
    if phase == "draft":
        return config["extra_cards"]
    if phase == "exchange":
        return config["card_exchange"] and race > 1
    if phase == "hands":
        return not config["quick"]
    return False


def enter_setup_after(state: dict, phase: str, rng, events: list[dict]) -> None:
    for following in SETUP_PHASES[SETUP_PHASES.index(phase) + 1:]:
        if phase_needed(state, following):
            state["phase"] = following
            if following == "draft":
                start_draft(state, rng)
            return
    start_race(state, rng, events)


def advance_setup(state: dict, rng, events: list[dict]) -> bool:
    phase = state["phase"]
    if not setup_done(state, phase):
        return False
    enter_setup_after(state, phase, rng, events)
    return True


# --- the draft of extra action cards -----------------------------------------

def start_draft(state: dict, rng) -> None:
    held = {card["extra"] for player in state["players"] for card in player["cards"]}
    free = [number for number in range(1, EXTRA_CARDS + 1) if number not in held]
    deck = rng.shuffle(free, f"shuffle of the {len(free)} extra action cards", secret=True)
    state["draft"] = {"deck": deck, "table": [], "discarded": [], "round": 0, "order": [], "turn": 0,
                      "last": None}


def draft_size(state: dict) -> int:
    return SOLO_DRAFT if is_solo(state) else len(state["players"]) + 2


def clockwise_from(state: dict, seat) -> list:
    seats = [player["seat"] for player in state["players"]]
    start = seats.index(seat)
    return seats[start:] + seats[:start]


def advance_draft(state: dict, rng, events: list[dict]) -> bool:
    draft = state["draft"]
    if draft["table"] and draft["turn"] < len(draft["order"]):
        return False  # someone is picking
    if draft["table"]:
        draft["discarded"] += draft["table"]
        events.append({"type": "draft_discarded", "cards": draft["table"]})
        draft["table"] = []
    if draft["round"] == DRAFT_ROUNDS:
        enter_setup_after(state, "draft", rng, events)
        return True
    if len(state["players"]) > 1 and state["youngest"] is None:
        return False  # the host names the youngest player
    reveal_draft_round(state, events)
    return True


def reveal_draft_round(state: dict, events: list[dict]) -> None:
    draft = state["draft"]
    size = draft_size(state)
    draft["table"], draft["deck"] = draft["deck"][:size], draft["deck"][size:]
    draft["round"] += 1
    if is_solo(state):
        draft["order"] = [state["players"][0]["seat"]]
    elif draft["round"] == 1:
        draft["order"] = clockwise_from(state, state["youngest"])
    else:  # back the other way, starting with the last to pick
        counterclockwise = list(reversed(clockwise_from(state, state["youngest"])))
        start = counterclockwise.index(draft["last"])
        draft["order"] = counterclockwise[start:] + counterclockwise[:start]
    draft["turn"] = 0
    events.append({"type": "draft_revealed", "round": draft["round"], "cards": draft["table"],
                   "order": draft["order"]})


def do_pick(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "draft")
    player = require_own_seat(state, seat)
    draft = state["draft"]
    if not draft["table"] or draft["turn"] >= len(draft["order"]):
        raise IllegalAction(N_("That is not possible now."))
    picker = draft["order"][draft["turn"]]
    if seat != picker:
        raise IllegalAction(N_("It is %(name)s's turn to pick."), name=name_of(state, picker))
    require_fields(action, card=int)
    if action["card"] not in draft["table"]:
        raise IllegalAction(N_("That card is not on the table."))
    draft["table"].remove(action["card"])
    card_id = f"x{action['card']}"
    player["cards"].append({"id": card_id, "initiative": None, "extra": action["card"]})
    player["hand"].append(card_id)
    draft["turn"] += 1  # solo: one pick, the other two cards are discarded
    draft["last"] = seat
    return [{"type": "picked", "seat": seat, "card": action["card"]}]


def cards_to_give_back(player: dict) -> int:
    return max(0, len(player["cards"]) - (BASE_CARDS + DRAFT_ROUNDS))


def do_exchange(state: dict, seat, action: dict, rng) -> list[dict]:
    """Tournament variant: as many cards go back to the box as were drafted (two, unless the deck ran short)."""
    require_phase(state, "exchange")
    player = require_own_seat(state, seat)
    count = cards_to_give_back(player)
    if count == 0:
        raise IllegalAction(N_("You have already exchanged your cards."))
    require_fields(action, drop=list)
    drop = action["drop"]
    ids = [card["id"] for card in player["cards"]]
    if len(drop) != count or len(set(map(str, drop))) != count or not all(card in ids for card in drop):
        raise IllegalAction(N_("Choose %(count)s of your cards to give back."), count=count)
    player["cards"] = [card for card in player["cards"] if card["id"] not in drop]
    player["hand"] = [card["id"] for card in player["cards"]]
    return [{"type": "exchanged", "seat": seat, "dropped": sorted(drop)}]


def do_hand(state: dict, seat, action: dict, rng) -> list[dict]:
    """The initiative printed on each card, entered once; the companion then tracks the hand."""
    require_phase(state, "hands")
    player = require_own_seat(state, seat)
    require_fields(action, initiatives=dict)
    entries = action["initiatives"]
    for card_id, value in entries.items():
        if card_of(player, card_id) is None:
            raise IllegalAction(N_("You have no card %(card)s."), card=str(card_id)[:8])
        if type(value) is not int or not 0 <= value <= MAX_INITIATIVE:
            raise IllegalAction(N_("An initiative is a whole number from 0 to %(high)s."), high=MAX_INITIATIVE)
    for card_id, value in entries.items():
        card_of(player, card_id)["initiative"] = value
    missing = sum(card["initiative"] is None for card in player["cards"])
    return [{"type": "hand_entered", "seat": seat, "complete": missing == 0}]


# --- the race --------------------------------------------------------------

def start_race(state: dict, rng, events: list[dict]) -> None:
    events.append({"type": "race_started", "race": state["race"]["number"], "board": state["race"]["board"]})
    if state["config"]["mode"] != "competitive":
        for player in state["players"]:
            random_discards(state, player, rng, 1, events)
    new_round(state, 1, rng, events)


def random_discards(state: dict, player: dict, rng, round_number: int, events: list[dict]) -> None:
    """Co-op and solo: two cards leave the hand at random, shown to their owner only."""
    order = rng.permutation(len(player["hand"]),
                            f"random discard of 2 cards for {name_of(state, player['seat'])}, round {round_number}",
                            secret=True)
    positions = sorted(order[:RANDOM_DISCARDS])
    chosen = [player["hand"][position] for position in positions]
    player["hand"] = [card for card in player["hand"] if card not in chosen]
    player["discard"] += chosen
    player["random_discards"] = chosen
    player["random_ranks"] = [position + 1 for position in positions]
    events.append({"type": "random_discards", "seat": player["seat"], "count": len(chosen)})


def new_round(state: dict, number: int, rng, events: list[dict]) -> None:
    state["round"] = {"number": number, "rolled": False, "roller": None, "die": None, "card_line": None,
                      "boss_die": None, "spawn": None, "answers": {}, "order": [], "turn": 0, "tie_rolls": [],
                      "revealed": [], "end": None, "free_move": []}
    state["phase"] = "round_start"
    if state["config"]["projectile"] and number == 1:
        seats = [player["seat"] for player in state["players"]]
        state["round"]["roller"] = rng.choice(seats, "random player to roll the first projectile die")
    events.append({"type": "round_started", "round": number})


def needs_roll(state: dict) -> bool:
    return bool(state["config"]["projectile"] or state["boss"])


def farthest_from_finish(state: dict):
    """The player nearest the start: lowest column, then lowest level."""
    behind = sorted(racers(state), key=lambda p: (p["position"]["column"], p["position"]["level"]))
    return behind[0]["seat"] if behind else None


def current_roller(state: dict):
    """Who rolls the projectile die; None when anyone may (or the table must say)."""
    round_ = state["round"]
    if not state["config"]["projectile"]:
        return None
    if round_["number"] == 1:
        return round_["roller"]
    if "farthest" in round_["answers"]:
        return round_["answers"]["farthest"]
    return farthest_from_finish(state) if positions_known(state) else None


def advance_round_start(state: dict, rng, events: list[dict]) -> bool:
    round_ = state["round"]
    if needs_roll(state) and not round_["rolled"]:
        return False
    spawn = round_["spawn"]
    if spawn and not spawn["done"]:
        column = spawn_column(state)
        hit = spawn_hit(state, column) if column else (False, None)
        if not hit[0]:
            return False
        spawn["done"] = True
        place_projectile(state, column, spawn["level"], hit[1], events)
        if state["phase"] != "round_start":
            return True  # the hit ended the game
    enter_choosing(state, events)
    return True


def do_roll(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "round_start")
    round_ = state["round"]
    if not needs_roll(state) or round_["rolled"]:
        raise IllegalAction(N_("That is not possible now."))
    if question(state):
        raise IllegalAction(N_("The table must answer a question first."))
    roller = current_roller(state)
    if seat != HOST:
        player = player_of(state, seat)
        if roller is not None and seat != roller:
            raise IllegalAction(N_("%(name)s rolls this die."), name=name_of(state, roller))
        if player["crossed"]:
            raise IllegalAction(N_("That is not possible now."))
    round_["rolled"] = True
    events = []
    if state["config"]["projectile"]:
        events += roll_projectile(state, roller, rng)
    if state["boss"]:
        events += roll_boss(state, rng)
    return events


def roll_projectile(state: dict, roller, rng) -> list[dict]:
    round_ = state["round"]
    who = name_of(state, roller) if roller is not None else "the table"
    die = rng.randint(1, 6, f"projectile level, round {round_['number']}, rolled for {who}")
    round_["die"] = die
    round_["spawn"] = {"level": die_level(die), "done": False}
    if state["config"]["projectile_card"]:
        round_["card_line"] = die  # the die sits on this line of the card until the end of the round
    return [{"type": "projectile_roll", "seat": roller, "die": die, "level": die_level(die),
             "card": state["config"]["projectile"] if state["config"]["projectile_card"] else None,
             "line": round_["card_line"]}]


def roll_boss(state: dict, rng) -> list[dict]:
    boss, round_ = state["boss"], state["round"]
    die = rng.randint(1, 6, f"Boss level, round {round_['number']}")
    round_["boss_die"] = die
    entering = boss["column"] is None
    if entering:
        boss["column"] = START_COLUMN
    boss["level"] = die_level(die)
    events = [{"type": "boss_roll", "die": die, "level": boss["level"], "entering": entering}]
    if boss["card"] is not None:
        boss["used"].append(boss["card"])  # the previous attack card is discarded
    if not boss["deck"]:  # all three used: the deck is shuffled again
        boss["deck"] = rng.shuffle(list(range(1, BOSS_DECK + 1)), "shuffle of the Boss's 3 attack cards",
                                   secret=True)
        boss["used"] = []
    boss["card"] = boss["deck"].pop(0)
    events.append({"type": "boss_card", "card": boss["card"]})
    return events


def at_the_start_line(state: dict) -> bool:
    """In a race's first round nobody has played yet: a position not kept is on the start line."""
    return state["round"]["number"] == 1


def spawn_column(state: dict):
    if state["second_tile"]:
        return SPAWN_COLUMNS[1]
    if at_the_start_line(state):
        return SPAWN_COLUMNS[0]
    answers = state["round"]["answers"]
    if positions_known(state) or "second_tile" in answers:
        return SPAWN_COLUMNS[1 if answers.get("second_tile") else 0]
    return None


def player_at(state: dict, column: int, level: int):
    for player in racers(state):
        position = player["position"]
        if position and position["column"] == column and position["level"] == level:
            return player["seat"]
    return None


def spawn_hit(state: dict, column: int) -> tuple[bool, object]:
    answers = state["round"]["answers"]
    if "spawn_hit" in answers:
        return True, answers["spawn_hit"]
    if positions_known(state) or at_the_start_line(state):
        return True, player_at(state, column, state["round"]["spawn"]["level"])
    return False, None


def place_projectile(state: dict, column: int, level: int, hit, events: list[dict]) -> None:
    projectile = {"id": state["next_projectile"], "column": column, "level": level, "origin": column}
    state["next_projectile"] += 1
    if hit is None:
        state["projectiles"].append(projectile)
        events.append({"type": "projectile_spawned", **projectile})
        return
    events.append({"type": "projectile_spawn_hit", **projectile, "seat": hit})
    take_hit(state, player_of(state, hit), "projectile", events)


# --- secret choices --------------------------------------------------------

def choosers(state: dict) -> list[dict]:
    return racers(state)


def enter_choosing(state: dict, events: list[dict]) -> None:
    state["phase"] = "choosing"
    for player in state["players"]:
        player.update({"locked": False, "commitment": None, "secret": None})
    events.append({"type": "choosing", "round": state["round"]["number"]})


def hand_size(player: dict) -> int:
    return len(player["hand"])


def may_bubble(state: dict, player: dict) -> bool:
    return not is_solo(state) and not player["bubble_mode"]


def must_bubble(player: dict) -> bool:
    return hand_size(player) < 2


def normalized_choice(state: dict, player: dict, action: dict) -> dict:
    """The choice as committed: ``{"bubble", "left", "second"}``, nothing else."""
    if action.get("bubble") is True:
        if not (may_bubble(state, player) or must_bubble(player)):
            raise IllegalAction(N_("You cannot declare a Bubble in this race."))
        return {"bubble": True, "left": None, "second": None}
    if must_bubble(player):
        raise IllegalAction(N_("Your hand is empty: you must declare a Bubble."))
    if state["config"]["quick"]:
        return quick_choice(action)
    require_fields(action, left=str, second=str)
    left, second = action["left"], action["second"]
    if left == second or left not in player["hand"] or second not in player["hand"]:
        raise IllegalAction(N_("Choose two different cards from your hand."))
    return {"bubble": False, "left": left, "second": second}


def quick_choice(action: dict) -> dict:
    require_fields(action, left=int, second=int)
    if not all(0 <= action[side] <= MAX_INITIATIVE for side in ("left", "second")):
        raise IllegalAction(N_("An initiative is a whole number from 0 to %(high)s."), high=MAX_INITIATIVE)
    return {"bubble": False, "left": action["left"], "second": action["second"]}


def do_choose(state: dict, seat, action: dict, rng) -> list[dict]:
    """A tentative choice: only its owner sees it, and no event tells that it changed."""
    require_phase(state, "choosing")
    player = require_chooser(state, seat)
    if player["locked"]:
        raise IllegalAction(N_("You have locked in your choice."))
    player["secret"] = {"choice": normalized_choice(state, player, action), "salt": None}
    return []


def require_chooser(state: dict, seat) -> dict:
    player = require_own_seat(state, seat)
    if player not in choosers(state):
        raise IllegalAction(N_("You have finished the race."))
    return player


def do_lock(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "choosing")
    player = require_chooser(state, seat)
    if player["locked"]:
        raise IllegalAction(N_("You have locked in your choice."))
    if not player["secret"]:
        raise IllegalAction(N_("Choose your two cards or a Bubble first."))
    salt = rng.nonce(SALT_BITS)  # not from the seed: closing the table must not reveal a locked choice
    player["secret"]["salt"] = salt
    player["locked"] = True
    player["commitment"] = commitment(player["secret"]["choice"], salt)
    return [{"type": "locked", "seat": seat, "commitment": player["commitment"]}]


def advance_choosing(state: dict, rng, events: list[dict]) -> bool:
    if not all(player["locked"] for player in choosers(state)):
        return False
    reveal(state, rng, events)
    return True


def initiatives_of(state: dict, player: dict, choice: dict) -> tuple:
    if choice["bubble"]:
        return None, None
    if state["config"]["quick"]:
        return choice["left"], choice["second"]
    return card_of(player, choice["left"])["initiative"], card_of(player, choice["second"])["initiative"]


def reveal(state: dict, rng, events: list[dict]) -> None:
    round_ = state["round"]
    revealed = []
    for player in choosers(state):
        choice, salt = player["secret"]["choice"], player["secret"]["salt"]
        left, second = initiatives_of(state, player, choice)
        revealed.append({"seat": player["seat"], "choice": choice, "salt": salt, "commitment": player["commitment"],
                         "left_initiative": left, "second_initiative": second})
        player["secret"] = None
    round_["revealed"] = revealed
    playing = [entry for entry in revealed if not entry["choice"]["bubble"]]
    round_["order"] = order_of_play(state, playing, rng)
    events.append({"type": "revealed", "round": round_["number"], "choices": revealed,
                   "order": round_["order"], "tie_rolls": round_["tie_rolls"]})
    for entry in revealed:
        player = player_of(state, entry["seat"])
        if entry["choice"]["bubble"]:
            enter_bubble(player, events)
        else:
            play_cards(state, player, entry["choice"])
    enter_turns(state, events)


def play_cards(state: dict, player: dict, choice: dict) -> None:
    if state["config"]["quick"]:
        played = player["hand"][:2]  # the cards are not named: any two of the hand
    else:
        played = [choice["left"], choice["second"]]
    player["hand"] = [card for card in player["hand"] if card not in played]
    player["played"] = played


def enter_bubble(player: dict, events: list[dict]) -> None:
    """Immune until the end of the round, every discarded card back in hand, no heart."""
    player["bubble"] = True
    player["hand"] += player["discard"]
    player["discard"], player["random_discards"], player["random_ranks"] = [], [], []
    lost_heart = player["heart"]
    player["heart"] = False
    events.append({"type": "bubble", "seat": player["seat"], "lost_heart": lost_heart})


def order_of_play(state: dict, playing: list[dict], rng) -> list:
    """Left initiative, then second initiative, then dice for whoever is still tied."""
    def key(entry):
        return -entry["left_initiative"], -entry["second_initiative"]

    order = []
    for _, group in groupby(sorted(playing, key=key), key=key):
        order += break_tie([entry["seat"] for entry in group], state, rng, 1)
    return order


def break_tie(seats: list, state: dict, rng, attempt: int) -> list:
    if len(seats) == 1:
        return seats
    round_ = state["round"]
    again = "re-roll" if attempt > 1 else "roll"
    rolls = {seat: rng.randint(1, 6, f"tie-break {again} for {names(state, seats)}, round {round_['number']}")
             for seat in seats}
    round_["tie_rolls"].append({"seats": seats, "rolls": [rolls[seat] for seat in seats]})
    order = []
    for value in sorted(set(rolls.values()), reverse=True):
        order += break_tie([seat for seat in seats if rolls[seat] == value], state, rng, attempt + 1)
    return order


# --- turns -----------------------------------------------------------------

def enter_turns(state: dict, events: list[dict]) -> None:
    state["phase"] = "turns"
    state["round"]["turn"] = 0
    if state["round"]["order"]:
        start_turn(state, events)


def start_turn(state: dict, events: list[dict]) -> None:
    player = player_of(state, active_seat(state))
    player["immune"] = False  # damage immunity lasts until the start of the player's next turn
    events.append({"type": "turn_started", "seat": player["seat"], "bubble_mode": player["bubble_mode"]})


def advance_turns(state: dict, rng, events: list[dict]) -> bool:
    round_ = state["round"]
    if round_["turn"] < len(round_["order"]):
        return False
    state["phase"] = "round_end"
    round_["end"] = {"step": 0, "projectiles": None, "boss_moved": False}
    return True


def do_end_turn(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_turn(state, seat)
    if player["bonus_pending"]:
        raise IllegalAction(N_("Use or discard a bonus token first: you may keep only 4."))
    events = [{"type": "turn_ended", "seat": seat}]
    if player["bubble_mode"] and player["position"] is not None:
        move_to(state, player, player["position"]["column"] + BUBBLE_MODE_ADVANCE, player["position"]["level"],
                events)
        if state["phase"] != "turns":
            return events  # the last player in co-op has finished
    state["round"]["turn"] += 1
    if state["round"]["turn"] < len(state["round"]["order"]):
        start_turn(state, events)
    return events


def require_acting(state: dict, seat) -> dict:
    """The player whose turn it is, able to use their cards."""
    player = require_turn(state, seat)
    if player["bubble_mode"]:
        raise IllegalAction(N_("In Bubble mode you cannot use your cards: wait for a slap."))
    if player["bonus_pending"]:
        raise IllegalAction(N_("Use or discard a bonus token first: you may keep only 4."))
    return player


def do_heart(state: dict, seat, action: dict, rng) -> list[dict]:
    """A heart action: take a heart, or in co-op give one when you already hold one."""
    player = require_acting(state, seat)
    if "to" in action and action["to"] != seat:
        return [give_heart(state, player, action)]
    if player["heart"]:
        return [{"type": "heart", "seat": seat, "gained": False}]
    player["heart"] = True
    return [{"type": "heart", "seat": seat, "gained": True}]


def give_heart(state: dict, player: dict, action: dict) -> dict:
    if not is_coop(state):
        raise IllegalAction(N_("Hearts are given only in co-op."))
    if not player["heart"]:
        raise IllegalAction(N_("Take a heart for yourself first."))
    other = require_seat_field(state, action, "to")
    if other["heart"]:
        raise IllegalAction(N_("%(name)s already has a heart."), name=name_of(state, other["seat"]))
    other["heart"] = True
    return {"type": "heart_given", "seat": player["seat"], "to": other["seat"]}


def do_spend_heart(state: dict, seat, action: dict, rng) -> list[dict]:
    """The Filou turns their heart into a crouch icon."""
    player = require_acting(state, seat)
    if player["legendary"] != "filou":
        raise IllegalAction(N_("Only the Filou can turn a heart into an action."))
    if not player["heart"]:
        raise IllegalAction(N_("You have no heart."))
    player["heart"] = False
    return [{"type": "heart_spent", "seat": seat}]


def do_hurt(state: dict, seat, action: dict, rng) -> list[dict]:
    """The player reports a hit: an enemy not slapped, an obstacle, a wall, a projectile, the Boss."""
    require_phase(state, *HIT_PHASES)
    player = require_own_seat(state, seat)
    require_fields(action, cause=str)
    cause = action["cause"]
    if cause not in HURT_CAUSES:
        raise IllegalAction(N_("A hit comes from %(choices)s."), choices=", ".join(HURT_CAUSES))
    if player["crossed"]:
        raise IllegalAction(N_("You have finished the race."))
    if cause == "boss" and not state["boss"]:
        raise IllegalAction(N_("There is no Boss in this race."))
    events = []
    if cause == "projectile":
        projectile = require_projectile(state, action)
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_hit", "id": projectile["id"], "seat": seat})
    take_hit(state, player, cause, events)
    return events


def require_projectile(state: dict, action: dict) -> dict:
    require_fields(action, projectile=int)
    for projectile in state["projectiles"]:
        if projectile["id"] == action["projectile"]:
            return projectile
    raise IllegalAction(N_("That projectile is not on the board."))


def take_hit(state: dict, player: dict, cause: str, events: list[dict]) -> None:
    """A heart saves the player; otherwise damage, unless they are immune."""
    seat = player["seat"]
    if player["bubble"] or player["bubble_mode"] or player["immune"]:
        events.append({"type": "immune", "seat": seat, "cause": cause})
        return
    if player["heart"]:
        player["heart"] = False
        events.append({"type": "heart_lost", "seat": seat, "cause": cause})
        return
    player["immune"] = True
    events.append({"type": "damaged", "seat": seat, "cause": cause, "back": state["config"]["damage_push"]})
    if player["position"] is not None:
        position = player["position"]
        move_to(state, player, position["column"] - state["config"]["damage_push"], position["level"], events)
    damage_consequences(state, player, cause, events)


def damage_consequences(state: dict, player: dict, cause: str, events: list[dict]) -> None:
    if is_solo(state):
        end_coop(state, False, "defeated", events)
    elif is_coop(state) and state["config"]["harsh_coop"]:
        end_coop(state, False, "defeated", events)
    elif is_coop(state) and cause == "boss":
        player["bubble_mode"] = True
        events.append({"type": "bubble_mode", "seat": player["seat"], "on": True})
        if all(other["bubble_mode"] for other in racers(state)):
            end_coop(state, False, "all_in_bubbles", events)


def do_slap(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_acting(state, seat)
    if player["crossed"]:
        raise IllegalAction(N_("Past the finish line you can no longer slap."))
    target = require_seat_field(state, action, "target")
    who = name_of(state, target["seat"])
    if target is player:
        raise IllegalAction(N_("You cannot slap yourself."))
    if target["crossed"]:
        raise IllegalAction(N_("%(name)s has finished the race."), name=who)
    if target["bubble"]:
        raise IllegalAction(N_("%(name)s is in a Bubble: no slap this round."), name=who)
    if target["slapped"] and not state["config"]["unlimited_slaps"]:
        raise IllegalAction(N_("%(name)s has already been slapped this round."), name=who)
    target["slapped"] = True
    if target["bubble_mode"]:
        target["bubble_mode"] = False  # freed from the Bubble, the figure does not move
        return [{"type": "slapped", "seat": seat, "target": target["seat"]},
                {"type": "bubble_mode", "seat": target["seat"], "on": False}]
    events = [{"type": "slapped", "seat": seat, "target": target["seat"]}]
    push_slapped(state, player, target, action, events)
    return events


def push_slapped(state: dict, player: dict, target: dict, action: dict, events: list[dict]) -> None:
    """From behind the target moves forward, from the front back; from above or below, the slapper says."""
    if player["position"] is None or target["position"] is None:
        return
    mine, theirs = player["position"]["column"], target["position"]["column"]
    if mine == theirs:
        direction = action.get("direction")
        if direction not in ("forward", "back"):
            raise IllegalAction(N_("Say whether %(name)s goes forward or back."), name=name_of(state, target["seat"]))
    else:
        direction = "forward" if mine < theirs else "back"
    step = 1 if direction == "forward" else -1
    move_to(state, target, theirs + step, target["position"]["level"], events)


def do_free(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_acting(state, seat)
    require_fields(action, ptizetre=int)
    number = action["ptizetre"]
    if not 1 <= number <= state["config"]["captives"]:
        raise IllegalAction(N_("The captive Ptizêtres are numbered 1 to %(high)s."), high=state["config"]["captives"])
    if number in player["ptizetres"]:
        raise IllegalAction(N_("You have already freed that Ptizêtre."))
    player["ptizetres"] = sorted(player["ptizetres"] + [number])
    return [{"type": "ptizetre_freed", "seat": seat, "ptizetre": number, "count": len(player["ptizetres"])}]


def do_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    """An enemy defeated: one bonus token; a fifth must be used or discarded at once."""
    player = require_acting(state, seat)
    if player["bonus"] < MAX_BONUS:
        player["bonus"] += 1
        return [{"type": "bonus_gained", "seat": seat, "count": player["bonus"]}]
    player["bonus_pending"] = True
    return [{"type": "bonus_gained", "seat": seat, "count": MAX_BONUS, "fifth": True}]


def do_use_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_turn(state, seat)
    if player["bonus_pending"]:
        player["bonus_pending"] = False  # one of the five is used: four remain
        return [{"type": "bonus_used", "seat": seat, "count": player["bonus"]}]
    if player["bubble_mode"]:
        raise IllegalAction(N_("In Bubble mode you cannot use your cards: wait for a slap."))
    if player["bonus"] == 0:
        raise IllegalAction(N_("You have no bonus token."))
    player["bonus"] -= 1
    return [{"type": "bonus_used", "seat": seat, "count": player["bonus"]}]


def do_discard_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_own_seat(state, seat)
    if not player["bonus_pending"]:
        raise IllegalAction(N_("You may keep your bonus tokens."))
    player["bonus_pending"] = False
    return [{"type": "bonus_discarded", "seat": seat, "count": player["bonus"]}]


def do_give_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    """Co-op: a free exchange of bonus tokens, on the giver's or the receiver's turn."""
    require_phase(state, "turns")
    player = require_own_seat(state, seat)
    if not is_coop(state):
        raise IllegalAction(N_("Bonus tokens are exchanged only in co-op."))
    other = require_seat_field(state, action, "to")
    if other is player:
        raise IllegalAction(N_("That is not possible now."))
    if active_seat(state) not in (seat, other["seat"]):
        raise IllegalAction(N_("Exchange on your turn or on the other player's turn."))
    if player["bonus"] == 0:
        raise IllegalAction(N_("You have no bonus token."))
    if other["bonus"] >= MAX_BONUS:
        raise IllegalAction(N_("%(name)s already has 4 bonus tokens."), name=name_of(state, other["seat"]))
    player["bonus"] -= 1
    other["bonus"] += 1
    return [{"type": "bonus_given", "seat": seat, "to": other["seat"]}]


def do_use_legendary(state: dict, seat, action: dict, rng) -> list[dict]:
    player = require_acting(state, seat)
    if not player["legendary"]:
        raise IllegalAction(N_("You have no legendary card."))
    if state["config"]["limited_legendary"] and player["legendary_uses"] >= 1:
        raise IllegalAction(N_("Your legendary ability is used once per race."))
    player["legendary_uses"] += 1
    return [{"type": "legendary_used", "seat": seat, "card": player["legendary"]}]


def do_crossed(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "turns", "round_end")
    player = require_own_seat(state, seat)
    if player["crossed"]:
        raise IllegalAction(N_("You have finished the race."))
    check_may_cross(player)
    events = []
    if player["position"] is not None and player["position"]["column"] <= LAST_COLUMN:
        player["position"]["column"] = LAST_COLUMN + 1
    cross(state, player, events)
    return events


def check_may_cross(player: dict) -> None:
    if len(player["ptizetres"]) < PTIZETRES_TO_FINISH:
        raise IllegalAction(N_("You need 3 Ptizêtres to cross the finish line."))


def cross(state: dict, player: dict, events: list[dict]) -> None:
    player["crossed"] = True
    state["second_tile"] = True  # past the line, they went through the second tile
    events.append({"type": "crossed", "seat": player["seat"]})
    if state["config"]["mode"] == "competitive":
        if not state["race"]["final_round"]:
            state["race"]["final_round"] = True
            events.append({"type": "final_round", "round": state["round"]["number"]})
    elif not racers(state):
        end_coop(state, True, "all_finished", events)


# --- positions (optional, per player) ----------------------------------------

def do_position(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, *RACE_PHASES)
    player = require_own_seat(state, seat)
    require_fields(action, column=int, level=int)
    if not START_COLUMN <= action["column"] <= MAX_COLUMN or not 1 <= action["level"] <= LEVELS:
        raise IllegalAction(N_("A position is a column from 0 to %(high)s and a level from 1 to 3."), high=MAX_COLUMN)
    check_position_change(state, player, action["column"])
    events = []
    if player["position"] is None:
        player["position"] = {"column": START_COLUMN, "level": 1}
    move_to(state, player, action["column"], action["level"], events)
    return events


def do_step(state: dict, seat, action: dict, rng) -> list[dict]:
    """One tap of the stepper: one space forward, back, up or down."""
    require_phase(state, *RACE_PHASES)
    player = require_own_seat(state, seat)
    require_fields(action, direction=str)
    if action["direction"] not in DIRECTIONS:
        raise IllegalAction(N_("A step goes %(choices)s."), choices=", ".join(DIRECTIONS))
    if player["position"] is None:
        raise IllegalAction(N_("Enter your position first."))
    columns, levels = DIRECTIONS[action["direction"]]
    column, level = player["position"]["column"] + columns, player["position"]["level"] + levels
    if not START_COLUMN <= column <= MAX_COLUMN or not 1 <= level <= LEVELS:
        raise IllegalAction(N_("That space is off the board."))
    check_position_change(state, player, column)
    events = []
    move_to(state, player, column, level, events)
    return events


def check_position_change(state: dict, player: dict, column: int) -> None:
    if player["crossed"] and column <= LAST_COLUMN:
        raise IllegalAction(N_("You have finished the race."))
    if column > LAST_COLUMN and not player["crossed"]:
        check_may_cross(player)
        if state["phase"] not in ("turns", "round_end"):
            raise IllegalAction(N_("That is not possible now."))


def move_to(state: dict, player: dict, column: int, level: int, events: list[dict]) -> None:
    """Moves a kept position (clamped to the course); crossing the line counts as finishing."""
    limit = MAX_COLUMN if player["crossed"] or len(player["ptizetres"]) >= PTIZETRES_TO_FINISH else LAST_COLUMN
    column = max(START_COLUMN, min(column, limit))
    player["position"] = {"column": column, "level": level}
    if column >= SECOND_TILE:
        state["second_tile"] = True
    events.append({"type": "moved", "seat": player["seat"], "column": column, "level": level})
    if column > LAST_COLUMN and not player["crossed"] and state["phase"] in ("turns", "round_end"):
        cross(state, player, events)


def do_forget_position(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, *RACE_PHASES)
    player = require_own_seat(state, seat)
    if player["position"] is None:
        raise IllegalAction(N_("Enter your position first."))
    player["position"] = None
    return [{"type": "position_forgotten", "seat": seat}]


# --- end of the round --------------------------------------------------------

def advance_round_end(state: dict, rng, events: list[dict]) -> bool:
    end = state["round"]["end"]
    step = END_STEPS[end["step"]]
    if not step(state, rng, events):
        return False
    if state["phase"] == "round_end":
        end["step"] += 1
    return True


def projectiles_to_move(state: dict) -> list[dict]:
    """This round's projectiles still to move; one removed meanwhile (a hit reported by a player) is skipped."""
    waiting = state["round"]["end"]["projectiles"]
    on_board = {projectile["id"]: projectile for projectile in state["projectiles"]}
    if waiting is None:
        return list(state["projectiles"])
    return [on_board[number] for number in waiting if number in on_board]


def end_projectiles(state: dict, rng, events: list[dict]) -> bool:
    end = state["round"]["end"]
    while True:
        waiting = projectiles_to_move(state)
        end["projectiles"] = [projectile["id"] for projectile in waiting]
        if not waiting:
            return True
        known, seat = projectile_victim(state, waiting[0])
        if not known:
            return False
        move_projectile(state, waiting[0], seat, events)
        end["projectiles"].pop(0)
        if state["phase"] != "round_end":
            return True  # a hit ended the game


def projectile_path(state: dict, projectile: dict) -> tuple[list[int], bool]:
    """The columns it crosses, counter-clockwise, and whether it then leaves the board."""
    last = PROJECTILE_END[projectile["origin"]]
    target = projectile["column"] - state["config"]["projectile_speed"]
    stop = max(target, last)
    return list(range(projectile["column"], stop - 1, -1)), target <= last


def projectile_victim(state: dict, projectile: dict) -> tuple[bool, object]:
    answers = state["round"]["answers"]
    key = f"projectile_{projectile['id']}"
    if key in answers:
        return True, answers[key]
    if not positions_known(state):
        return False, None
    path, _ = projectile_path(state, projectile)
    for column in path:
        seat = player_at(state, column, projectile["level"])
        if seat is not None:
            return True, seat
    return True, None


def move_projectile(state: dict, projectile: dict, victim, events: list[dict]) -> None:
    path, leaves = projectile_path(state, projectile)
    if victim is not None:
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_hit", "id": projectile["id"], "seat": victim})
        take_hit(state, player_of(state, victim), "projectile", events)
    elif leaves:
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_removed", "id": projectile["id"]})
    else:
        projectile["column"] = path[-1]
        events.append({"type": "projectile_moved", "id": projectile["id"], "column": path[-1],
                       "level": projectile["level"]})


def end_projectile_card(state: dict, rng, events: list[dict]) -> bool:
    line = state["round"]["card_line"]
    if line is not None:
        events.append({"type": "projectile_card_effect", "card": state["config"]["projectile"], "line": line})
    return True


def end_boss(state: dict, rng, events: list[dict]) -> bool:
    boss, end = state["boss"], state["round"]["end"]
    if not boss or boss["column"] is None:
        return True
    if not end["boss_moved"]:
        boss["column"] += boss["move"]
        end["boss_moved"] = True
        events.append({"type": "boss_moved", "column": boss["column"], "level": boss["level"]})
    if boss["column"] > LAST_COLUMN:
        boss_finished(state, events)
        return True
    known, seat = boss_victim(state)
    if not known:
        return False
    if seat is not None:
        boss_hits(state, player_of(state, seat), events)
        if state["phase"] != "round_end":
            return True  # the hit ended the game
    events.append({"type": "boss_attack", "card": boss["card"]})
    return True


def boss_victim(state: dict) -> tuple[bool, object]:
    answers = state["round"]["answers"]
    if "boss_landing" in answers:
        return True, answers["boss_landing"]
    if not positions_known(state):
        return False, None
    return True, player_at(state, state["boss"]["column"], state["boss"]["level"])


def boss_hits(state: dict, player: dict, events: list[dict]) -> None:
    events.append({"type": "boss_hit", "seat": player["seat"]})
    had_heart = player["heart"] and not (player["bubble"] or player["bubble_mode"] or player["immune"])
    take_hit(state, player, "boss", events)
    if had_heart and player["position"] is not None:
        boss = state["boss"]
        move_to(state, player, boss["column"] - 1, boss["level"], events)  # behind the Boss


def boss_finished(state: dict, events: list[dict]) -> None:
    events.append({"type": "boss_finished"})
    if state["config"]["mode"] != "competitive":
        end_coop(state, False, "boss_finished", events)
    elif not state["race"]["final_round"]:
        state["race"]["boss_finished"] = True
        enter_finish(state, events)


def free_move_count(state: dict) -> int:
    """The last player, or the two last from 4 players on; nobody when racing alone."""
    if is_solo(state):
        return 0
    return min(2 if len(state["players"]) >= 4 else 1, len(racers(state)))


def last_players(state: dict):
    """Farthest behind first (same column: the lower level is behind); None when the table must say."""
    count = free_move_count(state)
    answers = state["round"]["answers"]
    if "last" in answers:
        return answers["last"]
    if count == 0:
        return []
    if not positions_known(state):
        return None
    behind = sorted(racers(state), key=lambda p: (p["position"]["column"], p["position"]["level"]))
    return [player["seat"] for player in behind[:count]]


def end_free_move(state: dict, rng, events: list[dict]) -> bool:
    seats = last_players(state)
    if seats is None:
        return False
    state["round"]["free_move"] = seats
    if seats:
        events.append({"type": "free_move", "seats": seats})
    return True


def end_cleanup(state: dict, rng, events: list[dict]) -> bool:
    round_ = state["round"]
    for player in state["players"]:
        player["discard"] += player["played"]
        player["played"] = []
        player["bubble"] = player["slapped"] = False
    if state["config"]["mode"] != "competitive":
        for player in racers(state):
            if not player["hand"]:  # every card used: take them all back, two leave at random
                player["hand"], player["discard"] = player["hand"] + player["discard"], []
                random_discards(state, player, rng, round_["number"] + 1, events)
    events.append({"type": "round_ended", "round": round_["number"]})
    if state["race"]["final_round"]:
        enter_finish(state, events)
    else:
        new_round(state, round_["number"] + 1, rng, events)
    return True


END_STEPS = (end_projectiles, end_projectile_card, end_boss, end_free_move, end_cleanup)


# --- the end of the race ----------------------------------------------------

def end_coop(state: dict, won: bool, reason: str, events: list[dict]) -> None:
    state["result"] = {"kind": "coop", "won": won, "reason": reason}
    state["phase"] = "game_over"
    events.append({"type": "game_over", "won": won, "reason": reason})


def enter_finish(state: dict, events: list[dict]) -> None:
    state["phase"] = "finish"
    state["round"]["answers"] = {}
    events.append({"type": "race_ending", "race": state["race"]["number"]})


def distance_of(player: dict):
    if player["distance"] is not None:
        return player["distance"]
    if player["position"] is not None and player["position"]["column"] > LAST_COLUMN:
        return player["position"]["column"] - LAST_COLUMN
    return None


def others_order(state: dict):
    """Those who did not cross, best first: from the positions or from the host."""
    others = racers(state)
    if len(others) <= 1:
        return [player["seat"] for player in others]
    if "ranking" in state["round"]["answers"]:
        return state["round"]["answers"]["ranking"]
    if positions_known(state):
        ahead = sorted(others, key=lambda p: (p["position"]["column"], p["position"]["level"]), reverse=True)
        return [player["seat"] for player in ahead]
    return None


def advance_finish(state: dict, rng, events: list[dict]) -> bool:
    crossed = [player for player in state["players"] if player["crossed"]]
    if any(distance_of(player) is None for player in crossed):
        return False
    others = others_order(state)
    if others is None:
        return False
    ranking = rank(state, crossed, others)
    finish_race(state, ranking, events)
    return True


def final_initiative(state: dict, seat) -> int:
    entry = next((e for e in state["round"]["revealed"] if e["seat"] == seat), None)
    return entry["left_initiative"] if entry and entry["left_initiative"] is not None else -1


def rank(state: dict, crossed: list[dict], others: list) -> list[dict]:
    def key(player):
        return distance_of(player), final_initiative(state, player["seat"])

    ranking, place = [], 2 if state["race"]["boss_finished"] else 1
    for _, group in groupby(sorted(crossed, key=key, reverse=True), key=key):
        group = list(group)
        ranking += [{"seat": p["seat"], "place": place, "crossed": True, "distance": distance_of(p)} for p in group]
        place += len(group)
    for offset, seat in enumerate(others):
        ranking.append({"seat": seat, "place": place + offset, "crossed": False, "distance": None})
    return ranking


def place_points(place: int) -> int:
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else OTHER_PLACE_POINTS


def finish_race(state: dict, ranking: list[dict], events: list[dict]) -> None:
    winners = [entry["seat"] for entry in ranking if entry["place"] == 1]
    result = {"kind": "race", "ranking": ranking, "winners": winners, "boss_won": state["race"]["boss_finished"]}
    events.append({"type": "race_over", "race": state["race"]["number"], **result})
    state["result"] = result
    tournament = state["tournament"]
    if tournament is None:
        state["phase"] = "game_over"
        events.append({"type": "game_over"})
        return
    points = {entry["seat"]: place_points(entry["place"]) for entry in ranking}
    for standing in tournament["standings"]:
        standing["points"] += points.get(standing["seat"], 0)
    tournament["races"].append({"board": state["race"]["board"], "ranking": ranking, "points": points_list(points)})
    events.append({"type": "standings", "standings": tournament["standings"]})
    if len(tournament["races"]) == len(BOARDS):
        best = max(standing["points"] for standing in tournament["standings"])
        tournament["winners"] = [s["seat"] for s in tournament["standings"] if s["points"] == best]
        state["phase"] = "game_over"
        events.append({"type": "game_over", "winners": tournament["winners"]})
    else:
        state["phase"] = "race_over"


def points_list(points: dict) -> list[dict]:
    return [{"seat": seat, "points": value} for seat, value in points.items()]


def do_distance(state: dict, seat, action: dict, rng) -> list[dict]:
    """How many spaces past the finish line a player got (when they keep no position)."""
    require_phase(state, "finish")
    player = require_own_seat(state, seat)
    if not player["crossed"]:
        raise IllegalAction(N_("Only the players past the finish line enter a distance."))
    require_fields(action, spaces=int)
    if not 1 <= action["spaces"] <= MAX_COLUMN - LAST_COLUMN:
        raise IllegalAction(N_("A distance is a whole number from 1 to %(high)s."), high=MAX_COLUMN - LAST_COLUMN)
    player["distance"] = action["spaces"]
    return [{"type": "distance", "seat": seat, "spaces": action["spaces"]}]


def do_next_race(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "race_over")
    number = state["race"]["number"] + 1
    config = state["config"]
    state["race"] = new_race(config, number)
    state.update({"round": None, "projectiles": [], "second_tile": False,  # projectile ids stay unique
                  "boss": new_boss(config), "draft": None, "result": None})
    for player in state["players"]:
        if config["extra_cards"] and not config["card_exchange"]:
            player["cards"] = [card for card in player["cards"] if card["extra"] is None]
        if not config["keep_legendary"]:
            player["legendary"] = None
        reset_for_race(player)
    events = [{"type": "next_race", "race": number, "board": state["race"]["board"]}]
    enter_setup_after(state, "characters", rng, events)
    return events


# --- questions for the table --------------------------------------------------

def question(state: dict):
    """What the table must tell the companion now (None when nothing): the host answers."""
    phase = state["phase"]
    if phase == "draft" and not state["draft"]["table"] and state["draft"]["round"] < DRAFT_ROUNDS \
            and len(state["players"]) > 1 and state["youngest"] is None:
        return {"key": "youngest", "choices": seat_list(state["players"])}
    if phase == "round_start":
        return round_start_question(state)
    if phase == "round_end":
        return round_end_question(state)
    if phase == "finish" and all(distance_of(p) is not None for p in state["players"] if p["crossed"]) \
            and others_order(state) is None:
        return {"key": "ranking", "choices": seat_list(racers(state))}
    return None


def seat_list(players: list[dict]) -> list:
    return [player["seat"] for player in players]


def round_start_question(state: dict):
    round_, boss = state["round"], state["boss"]
    if not round_["rolled"]:
        if boss and boss["move"] is None:
            return {"key": "boss_move", "low": 1, "high": MAX_BOSS_MOVE}
        if state["config"]["projectile"] and round_["number"] > 1 and current_roller(state) is None:
            return {"key": "farthest", "choices": seat_list(racers(state))}
        return None
    spawn = round_["spawn"]
    if not spawn or spawn["done"]:
        return None
    column = spawn_column(state)
    if column is None:
        return {"key": "second_tile", "column": SECOND_TILE}
    if not spawn_hit(state, column)[0]:
        return {"key": "spawn_hit", "column": column, "level": spawn["level"],
                "choices": seat_list(racers(state)) + [None]}
    return None


def round_end_question(state: dict):
    end = state["round"]["end"]
    step = END_STEPS[end["step"]]
    choices = seat_list(racers(state)) + [None]
    waiting = projectiles_to_move(state) if step is end_projectiles else []
    if waiting:
        projectile = waiting[0]
        if not projectile_victim(state, projectile)[0]:
            path, _ = projectile_path(state, projectile)
            return {"key": f"projectile_{projectile['id']}", "projectile": projectile["id"],
                    "level": projectile["level"], "from": path[0], "to": path[-1], "choices": choices}
    if step is end_boss and end["boss_moved"] and state["boss"]["column"] <= LAST_COLUMN \
            and not boss_victim(state)[0]:
        return {"key": "boss_landing", "column": state["boss"]["column"], "level": state["boss"]["level"],
                "choices": choices}
    if step is end_free_move and last_players(state) is None:
        return {"key": "last", "count": free_move_count(state), "choices": seat_list(racers(state))}
    return None


def do_answer(state: dict, seat, action: dict, rng) -> list[dict]:
    asked = question(state)
    if asked is None:
        raise IllegalAction(N_("There is no question to answer."))
    require_fields(action, question=str)
    if action["question"] != asked["key"]:
        raise IllegalAction(N_("That is not the question the table must answer."))
    if "value" not in action:
        raise IllegalAction(N_("The action needs the field %(field)s (%(kind)s)."), field="value", kind="value")
    value = checked_answer(state, asked, action["value"])
    store_answer(state, asked["key"], value)
    return [{"type": "answered", "question": asked["key"], "value": value}]


def checked_answer(state: dict, asked: dict, value):
    key = asked["key"]
    if key == "boss_move":
        if type(value) is not int or not asked["low"] <= value <= asked["high"]:
            raise IllegalAction(N_("The Boss moves 1 to %(high)s spaces."), high=asked["high"])
        return value
    if key == "second_tile":
        if not isinstance(value, bool):
            raise IllegalAction(N_("Answer yes or no."))
        return value
    if key in ("last", "ranking"):
        wanted = asked["count"] if key == "last" else len(asked["choices"])
        if not isinstance(value, list) or len(value) != wanted or len(set(map(str, value))) != wanted \
                or not all(is_seat_choice(seat, asked) for seat in value):
            raise IllegalAction(N_("Name %(count)s different players, in order."), count=wanted)
        return value
    if not is_seat_choice(value, asked):
        raise IllegalAction(N_("Name one of the players."))
    return value


def is_seat_choice(value, asked: dict) -> bool:
    return not isinstance(value, bool) and (value is None or type(value) is int) and value in asked["choices"]


def store_answer(state: dict, key: str, value) -> None:
    if key == "youngest":
        state["youngest"] = value
    elif key == "boss_move":
        state["boss"]["move"] = value
    elif key == "second_tile" and value:
        state["second_tile"] = True  # once a player reached the second tile, it stays so
    else:  # this round only (a "no" about the second tile is asked again next round)
        state["round"]["answers"][key] = value


# --- legal actions -----------------------------------------------------------

def legal_actions(state: dict, seat) -> list[dict]:
    """The actions ``seat`` may take now (python-chess style), for the phones and the tests.

    Open-ended arguments are sampled: a few initiatives, positions and
    distances, two orders for a ranking. Every listed action is accepted.
    """
    if state["phase"] == "game_over":
        return []
    if seat == HOST:
        return host_actions(state)
    try:
        player = player_of(state, seat)
    except IllegalAction:
        return []
    actions = SEAT_ACTIONS.get(state["phase"], lambda s, p: [])(state, player)
    if state["phase"] in HIT_PHASES and not player["crossed"]:
        actions += hurt_actions(state)
    if state["phase"] in RACE_PHASES:
        actions += position_actions(state, player)
    return actions


def hurt_actions(state: dict) -> list[dict]:
    actions = [{"type": "hurt", "cause": cause} for cause in HURT_CAUSES
               if cause not in ("projectile", "boss") or (cause == "boss" and state["boss"])]
    return actions + [{"type": "hurt", "cause": "projectile", "projectile": p["id"]} for p in state["projectiles"]]


def host_actions(state: dict) -> list[dict]:
    asked = question(state)
    if asked:
        return [{"type": "answer", "question": asked["key"], "value": value} for value in answer_samples(asked)]
    if state["phase"] == "race_over":
        return [{"type": "next_race"}]
    if state["phase"] == "round_start" and needs_roll(state) and not state["round"]["rolled"]:
        return [{"type": "roll"}]
    return []


def answer_samples(asked: dict) -> list:
    key = asked["key"]
    if key == "boss_move":
        return [3, 6, 9]
    if key == "second_tile":
        return [False, True]
    if key == "last":
        return [list(order) for order in permutations(asked["choices"], asked["count"])]
    if key == "ranking":
        return [asked["choices"], list(reversed(asked["choices"]))]
    return list(asked["choices"])


def setup_actions(state: dict, player: dict) -> list[dict]:
    phase = state["phase"]
    if phase == "characters":
        taken = {p["character"].lower() for p in state["players"] if p["character"] and p is not player}
        free_name = f"Hero {player['seat']}"
        return [{"type": "character", "name": name} for name in CHARACTERS + (free_name,)
                if name.lower() not in taken]
    if phase == "legendary":
        taken = {p["legendary"] for p in state["players"] if p is not player}
        return [{"type": "pick_legendary", "card": card} for card in LEGENDARY_CARDS if card not in taken]
    if phase == "exchange" and cards_to_give_back(player):
        ids = [card["id"] for card in player["cards"]]
        return [{"type": "exchange", "drop": list(drop)} for drop in combinations(ids, cards_to_give_back(player))]
    if phase == "hands":
        ids = [card["id"] for card in player["cards"]]
        return [{"type": "hand", "initiatives": {card: 5 for card in ids}},
                {"type": "hand", "initiatives": {card: (index * 7) % 12 for index, card in enumerate(ids)}}]
    return []


def draft_actions(state: dict, player: dict) -> list[dict]:
    draft = state["draft"]
    if draft["table"] and draft["turn"] < len(draft["order"]) and draft["order"][draft["turn"]] == player["seat"]:
        return [{"type": "pick", "card": card} for card in draft["table"]]
    return []


def round_start_actions(state: dict, player: dict) -> list[dict]:
    if not needs_roll(state) or state["round"]["rolled"] or question(state) or player["crossed"]:
        return []
    roller = current_roller(state)
    return [{"type": "roll"}] if roller in (None, player["seat"]) else []


def choosing_actions(state: dict, player: dict) -> list[dict]:
    if player["locked"] or player not in choosers(state):
        return []
    actions = [{"type": "lock"}] if player["secret"] else []
    if may_bubble(state, player) or must_bubble(player):
        actions.append({"type": "choose", "bubble": True})
    if must_bubble(player):
        return actions
    if state["config"]["quick"]:
        pairs = [(5, 5), (5, 3), (9, 1)]
    else:
        pairs = list(permutations(player["hand"], 2))
    return actions + [{"type": "choose", "left": left, "second": second} for left, second in pairs]


def turn_actions(state: dict, player: dict) -> list[dict]:
    seat = player["seat"]
    actions = []
    if player["bonus_pending"]:
        actions += [{"type": "use_bonus"}, {"type": "discard_bonus"}]
    if is_coop(state) and player["bonus"]:
        active = active_seat(state)
        actions += [{"type": "give_bonus", "to": other["seat"]} for other in state["players"]
                    if other is not player and other["bonus"] < MAX_BONUS and active in (seat, other["seat"])]
    if active_seat(state) != seat:
        return actions + crossing_actions(player)
    if player["bonus_pending"]:
        return actions
    actions.append({"type": "end_turn"})
    if player["bubble_mode"]:
        return actions + crossing_actions(player)
    return actions + acting_actions(state, player) + crossing_actions(player)


def acting_actions(state: dict, player: dict) -> list[dict]:
    actions = [{"type": "heart"}, {"type": "bonus"}]
    if is_coop(state) and player["heart"]:
        actions += [{"type": "heart", "to": other["seat"]} for other in state["players"]
                    if other is not player and not other["heart"]]
    if player["heart"] and player["legendary"] == "filou":
        actions.append({"type": "spend_heart"})
    if player["bonus"]:
        actions.append({"type": "use_bonus"})
    if player["legendary"] and not (state["config"]["limited_legendary"] and player["legendary_uses"]):
        actions.append({"type": "use_legendary"})
    actions += [{"type": "free", "ptizetre": number} for number in range(1, state["config"]["captives"] + 1)
                if number not in player["ptizetres"]]
    if not player["crossed"]:
        actions += slap_actions(state, player)
    return actions


def slap_actions(state: dict, player: dict) -> list[dict]:
    actions = []
    for target in state["players"]:
        if target is player or target["crossed"] or target["bubble"]:
            continue
        if target["slapped"] and not state["config"]["unlimited_slaps"]:
            continue
        same_column = (not target["bubble_mode"] and player["position"] and target["position"]
                       and player["position"]["column"] == target["position"]["column"])
        if same_column:
            actions += [{"type": "slap", "target": target["seat"], "direction": way} for way in ("forward", "back")]
        else:
            actions.append({"type": "slap", "target": target["seat"]})
    return actions


def crossing_actions(player: dict) -> list[dict]:
    if player["crossed"] or len(player["ptizetres"]) < PTIZETRES_TO_FINISH:
        return []
    return [{"type": "crossed"}]


def round_end_actions(state: dict, player: dict) -> list[dict]:
    return crossing_actions(player)


def finish_actions(state: dict, player: dict) -> list[dict]:
    if player["crossed"] and player["position"] is None:
        return [{"type": "distance", "spaces": spaces} for spaces in (1, 2, 5)]
    return []


def position_actions(state: dict, player: dict) -> list[dict]:
    position = player["position"]
    if position is None:
        return [{"type": "position", "column": LAST_COLUMN + 1 if player["crossed"] else START_COLUMN, "level": 1}]
    crossing_allowed = state["phase"] in ("turns", "round_end") and (
        player["crossed"] or len(player["ptizetres"]) >= PTIZETRES_TO_FINISH)
    low = LAST_COLUMN + 1 if player["crossed"] else START_COLUMN
    high = MAX_COLUMN if crossing_allowed else LAST_COLUMN
    actions = [{"type": "forget_position"}]
    for direction, (columns, levels) in DIRECTIONS.items():
        column, level = position["column"] + columns, position["level"] + levels
        if low <= column <= high and 1 <= level <= LEVELS:
            actions.append({"type": "step", "direction": direction})
    for jump in (5, 12):
        column = min(position["column"] + jump, high)
        if low <= column:
            actions.append({"type": "position", "column": column, "level": (position["level"] % LEVELS) + 1})
    return actions


SEAT_ACTIONS = {"characters": setup_actions, "legendary": setup_actions, "exchange": setup_actions,
                "hands": setup_actions, "draft": draft_actions, "round_start": round_start_actions,
                "choosing": choosing_actions, "turns": turn_actions, "round_end": round_end_actions,
                "finish": finish_actions}


# --- view ------------------------------------------------------------------

def view(state: dict, seat) -> dict:
    """What ``seat`` may see: their own hand and tentative choice; of the others, counts only."""
    shown = copy.deepcopy(state)
    for player in shown["players"]:
        player["hand_size"], player["discard_size"] = len(player["hand"]), len(player["discard"])
        # Public anyway (a "hand_entered" event says it): who the table still waits for.
        player["hand_entered"] = all(card["initiative"] is not None for card in player["cards"])
        if player["seat"] != seat or seat == HOST:
            hide_private(player)
    if shown["draft"]:
        shown["draft"]["deck"] = len(state["draft"]["deck"])
    if shown["boss"]:
        shown["boss"]["deck"] = len(state["boss"]["deck"])
    shown["you"] = seat if any(p["seat"] == seat for p in state["players"]) and seat != HOST else None
    shown["question"] = question(state)
    shown["active"] = active_seat(state)
    shown["roller"] = current_roller(state) if state["phase"] == "round_start" else None
    shown["positions_known"] = positions_known(state)
    # What this viewer may do now, for its buttons (the rules still check every action).
    shown["actions"] = legal_actions(state, seat) if seat is not None else []
    return shown


def hide_private(player: dict) -> None:
    for key in ("cards", "hand", "discard", "played", "random_discards", "random_ranks"):
        player[key] = None
    player["secret"] = None  # a tentative or locked choice, and its salt


HANDLERS = {
    "character": do_character, "pick_legendary": do_pick_legendary, "pick": do_pick, "exchange": do_exchange,
    "hand": do_hand, "roll": do_roll, "choose": do_choose, "lock": do_lock, "end_turn": do_end_turn,
    "heart": do_heart, "spend_heart": do_spend_heart, "hurt": do_hurt, "slap": do_slap, "free": do_free,
    "bonus": do_bonus, "use_bonus": do_use_bonus, "discard_bonus": do_discard_bonus,
    "give_bonus": do_give_bonus, "use_legendary": do_use_legendary, "crossed": do_crossed,
    "position": do_position, "step": do_step, "forget_position": do_forget_position, "distance": do_distance,
    "answer": do_answer, "next_race": do_next_race,
}

AUTOMATIC = {"characters": advance_setup, "legendary": advance_setup, "exchange": advance_setup,
             "hands": advance_setup, "draft": advance_draft, "round_start": advance_round_start,
             "choosing": advance_choosing, "turns": advance_turns, "round_end": advance_round_end,
             "finish": advance_finish}


GAME = register(Game(
    id="rayman",
    title=N_("Rayman, the board game"),
    min_seats=1,
    max_seats=6,
    options=(
        Option("mode", N_("Mode"), "choice", "competitive", choices=MODES,
               choice_labels=(N_("Competitive"), N_("Co-op against a Boss"), N_("Solo against a Boss"))),
        Option("difficulty", N_("Difficulty"), "choice", "novice", choices=DIFFICULTIES,
               choice_labels=(N_("Novice"), N_("Intermediate"), N_("Hero"), N_("Legend"), N_("Custom"))),
        Option("board", N_("Board"), "choice", "auto", choices=("auto",) + BOARDS,
               choice_labels=(N_("As the difficulty says"), "Jungle", "Forêt", "Fiesta de los Muertos", "Enfer")),
        Option("projectile", N_("Projectiles"), "choice", "auto", choices=("auto", "none") + PROJECTILES,
               choice_labels=(N_("As the difficulty says"), N_("None"), "Missile", "Fourchette", "Feu d'artifice",
                              "Fantôme Rouge", "Bombe Volante")),
        Option("projectile_card", N_("Projectile card"), "choice", "auto", choices=AUTO_ON_OFF),
        Option("extra_cards", N_("Extra action cards"), "choice", "auto", choices=AUTO_ON_OFF),
        Option("legendary", N_("Legendary player cards"), "choice", "auto", choices=AUTO_ON_OFF),
        Option("boss", N_("Boss"), "choice", "auto", choices=("auto", "none") + BOSSES),
        Option("boss_move", N_("Boss movement (0: read it on the Boss card during the game)"), "int", 0,
               minimum=0, maximum=MAX_BOSS_MOVE),
        Option("hand_entry", N_("Hand entry"), "choice", "full", choices=("full", "quick"),
               choice_labels=(N_("Each player enters their cards once"), N_("Quick: type the two initiatives each round"))),
        Option("players_5_6", N_("5–6 player extension"), "choice", "off", choices=ON_OFF),
        Option("captive_ptizetres", N_("Captive Ptizêtres"), "int", 4, minimum=3, maximum=4),
        Option("damage_push", N_("Spaces back after damage"), "int", 2, minimum=2, maximum=3),
        Option("projectile_speed", N_("Projectile spaces per round"), "int", 8, minimum=8, maximum=9),
        Option("limited_legendary", N_("Legendary ability once per race"), "choice", "off", choices=ON_OFF),
        Option("unlimited_slaps", N_("Unlimited slaps"), "choice", "off", choices=ON_OFF),
        Option("harsh_coop", N_("Co-op: damage without a heart loses the race"), "choice", "off", choices=ON_OFF),
        Option("tournament", N_("Tournament (the 4 boards)"), "choice", "off", choices=ON_OFF),
        Option("card_exchange", N_("Tournament: exchange cards between races"), "choice", "off", choices=ON_OFF),
        Option("tournament_legendary", N_("Tournament: legendary card"), "choice", "keep",
               choices=("keep", "change")),
    ),
    setup=setup,
    apply=apply,
    view=view,
    check_options=check_options,
    host_actions=HOST_ACTIONS,
    uses_figures=False,
))
