"""Arkade (Auzou, 2024): the companion's pure rules for the Alien against the Defender.

The board, the saucers and the Defender's ship stay on the physical table: the
companion throws the dice, keeps the counters (throws, nuggets, saucers on the
board, eliminated and showing their heart, the power tiles) and referees what
those counters can check. The players declare what happens on the board
(a saucer stopped on a bonus cell, a hit, a sacrifice, a saucer on the last
line); when a counter and the board disagree, the host, or both players
together, correct the counter (``correct``), and the log keeps the correction.

Roles, phases and modes
* Two seats. Option ``alien``: ``phones`` (the default) lets the players choose
  on their phones (``choose_role``: the first to choose decides, the other seat
  takes the other role); ``first`` or ``second`` fixes which seat of the table
  plays the Alien.
* Phases: ``roles`` (while the roles are open), ``ready`` then ``countdown``
  (Arcade: each phone says ``ready``; when both are, the shared countdown
  "top départ" runs and a ``go`` after ``countdown`` seconds starts the
  game), ``playing``, ``over``.
* Time is data, never read from a clock: the shell stamps every action with
  ``at`` (its own time, in seconds).
* ``strategie``: turn by turn, the Alien first. The active player throws all
  their dice, then may re-throw both or one of them, up to ``throws`` throws
  (3, or 2 in the hard variant); only the last throw counts. Once a die result
  has been used, the dice are settled: no more throws this turn.
* ``arcade``: simultaneous. Each player throws as often as they like; each die
  result of the Defender may be used once, re-throwing a die makes it usable
  again (the Alien's moves happen on the board, so their dice are not marked).

Each action type is a `Move`: ``check`` says why it is refused (or nothing),
``run`` changes the state, ``candidates`` lists the actions to offer; the legal
actions are the candidates that ``check`` accepts, so the buttons and the
referee never disagree.

Saucers are counted by colour: ``on_board`` and, among them, ``extra_lives``
(those showing their heart). A heart belongs to one saucer: when an extra life
tile is turned and some saucers of that colour show a heart and some do not,
the Alien says whether the saucer that triggered it already shows one (a
second extra life on the same saucer has no effect). A hit or a sacrifice says
whether the saucer showed its heart; the board has the last word: a hit the
counters did not expect is taken, and the heart counter follows it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable

from companion.games.base import HOST, N_, Game, IllegalAction, Option, register, require_fields

ALIEN, DEFENDER = "alien", "defender"
ROLES = (ALIEN, DEFENDER)
MODES = ("strategie", "arcade")
LEVELS = {"hard": 4, "normal": 6, "easy": 8}  # nuggets at the start (the book's three levels)
# The book's adult/child presets: who is the adult, and what the table sets up for it.
HANDICAPS = ("none", "adult_defender", "adult_alien")
NUGGETS_IN_BOX = 11
SHIP_CELLS = 6
SAUCERS = 12
PER_COLOUR = SAUCERS // 3
TILES_DRAWN = 6
COUNTDOWN_SECONDS = 3  # "top départ": 3, 2, 1 on both phones (option ``countdown``)
REACTOR_CELLS = (1, SHIP_CELLS)  # a damaged reactor is freed by a 1 or a 6

SAUCER_COLOURS = ("blue", "green", "pink")
# Two faces per colour: every saucer colour is equally likely to be shot.
SHOOTING_DIE_FACES = ("blue", "green", "pink", "blue", "green", "pink")
# The book names no face but orange (it lifts a magnetic field): the cells are
# taken to be the three saucer colours and orange, the first two repeated to
# fill six faces. The alien_die option matches another box.
ALIEN_DIE_FACES = ("blue", "green", "pink", "orange", "blue", "green")
LIFTS_FIELD = "orange"

# The 12 Alien tiles with the counts the book gives (x4, x2, x2, x2, x1, x1).
ALIEN_TILES = (("extra_life",) * 4 + ("engines",) * 2 + ("rift",) * 2 + ("turret",) * 2
               + ("repair", "reactor"))
# The book does not say how the Defender's 12 tiles split by colour: option
# ``defender_tiles`` matches the players' box. Each item: the colour's number
# (1 to 3, in the order of the saucer colours), the kind, and for a mine or a
# comet its value (1 or 2). The default gives each colour its super munitions
# and one kind of each other family.
DEFENDER_TILE_KINDS = ("munitions", "asteroid", "magnetic_field", "tower", "mine", "comet", "gps")
VALUED_KINDS = ("mine", "comet")
DEFENDER_TILES = (
    "1 munitions", "1 asteroid", "1 mine 1", "1 gps",
    "2 munitions", "2 magnetic_field", "2 mine 2", "2 comet 1",
    "3 munitions", "3 tower", "3 comet 2", "3 gps",
)
KEPT_TILES = ("munitions", "gps")
BOARD_TILES = ("asteroid", "magnetic_field")  # tiles the Defender lays on the board; the Alien can remove them


# --- setup ---------------------------------------------------------------

def check_options(options: dict) -> None:
    colours = options["saucer_colours"]
    if len(colours) != 3 or len(set(colours)) != 3:
        raise IllegalAction(N_("Arkade needs exactly 3 different saucer colours."))
    if not set(options["shooting_die"]) <= set(colours) or len(options["shooting_die"]) < 2:
        raise IllegalAction(N_("The shooting die needs at least 2 faces, all of them saucer colours."))
    if len(options["alien_die"]) < 2:
        raise IllegalAction(N_("The Alien movement die needs at least 2 faces."))
    parse_defender_tiles(options["defender_tiles"])


def parse_defender_tiles(items: list[str]) -> list[tuple[int, str, int]]:
    """``"2 mine 1"`` -> (1, "mine", 1): colour index, kind, value (0 when the kind has none)."""
    tiles = [parse_defender_tile(item) for item in items]
    for index in range(3):
        if sum(1 for tile in tiles if tile[0] == index) < 2:
            raise IllegalAction(N_("Each saucer colour needs at least 2 Defender tiles (colour %(number)s has fewer)."),
                                number=index + 1)
    return tiles


def parse_defender_tile(item: str) -> tuple[int, str, int]:
    words = item.split()
    valued = len(words) == 3 and words[1] in VALUED_KINDS and words[2] in ("1", "2")
    plain = len(words) == 2 and words[1] in DEFENDER_TILE_KINDS and words[1] not in VALUED_KINDS
    if not words or words[0] not in ("1", "2", "3") or not (valued or plain):
        raise IllegalAction(N_("Defender tile %(tile)s: write the colour's number (1 to 3), a kind (%(kinds)s) "
                               "and, for a mine or a comet, 1 or 2."),
                            tile=item, kinds=", ".join(DEFENDER_TILE_KINDS))
    return int(words[0]) - 1, words[1], int(words[2]) if valued else 0


def tiles_in_play(options: dict) -> bool:
    if options["power_tiles"] == "auto":
        return options["mode"] == "strategie"
    return options["power_tiles"] == "on"


def setup(options: dict, seats: list[dict], rng) -> dict:
    if len(seats) != 2:
        raise IllegalAction(N_("Arkade is played by exactly 2 players."))
    colours = list(options["saucer_colours"])
    with_tiles = tiles_in_play(options)
    box = parse_defender_tiles(options["defender_tiles"])
    state = {
        "mode": options["mode"], "max_throws": options["throws"], "power_tiles": with_tiles,
        "colours": colours, "alien_die": list(options["alien_die"]),
        "shooting_die": list(options["shooting_die"]),
        "seats": {str(seat["id"]): seat["name"] for seat in seats},
        "roles": {ALIEN: None, DEFENDER: None}, "names": {ALIEN: None, DEFENDER: None},
        "phase": "roles", "ready": {ALIEN: False, DEFENDER: False},
        "countdown_seconds": options["countdown"], "countdown_from": None, "started_at": None, "ended_at": None,
        "turn": 1, "active": None,
        "dice": {ALIEN: [], DEFENDER: []}, "throws": {ALIEN: 0, DEFENDER: 0},
        "settled": {ALIEN: False, DEFENDER: False},
        "nuggets": starting_nuggets(options), "ship": 1,
        "reminders": setup_reminders(options),
        "saucers": {"on_board": {c: PER_COLOUR for c in colours}, "extra_lives": {c: 0 for c in colours},
                    "eliminated": {c: 0 for c in colours}, "sacrificed": {c: 0 for c in colours},
                    "repairs": 0, "corrected": 0},
        "alien_tiles": draw_alien_tiles(rng) if with_tiles else [],
        "defender_tiles": draw_defender_tiles(colours, box, rng) if with_tiles else [],
        "kept": {"munitions": [], "gps": 0}, "on_the_board": {kind: 0 for kind in BOARD_TILES},
        "tower": False, "reactor": None, "pending": None, "correction": None,
        "winner": None, "won_by": None, "history": [],
    }
    if options["alien"] != "phones":
        alien = seats[0] if options["alien"] == "first" else seats[1]
        assign_roles(state, alien["id"], ALIEN)
    return state


def starting_nuggets(options: dict) -> int:
    """An adult Defender plays with 4 or 6 nuggets at most; a child Defender with 8."""
    nuggets = LEVELS[options["level"]]
    if options["handicap"] == "adult_defender":
        return min(nuggets, LEVELS["normal"])
    if options["handicap"] == "adult_alien":
        return LEVELS["easy"]
    return nuggets


def setup_reminders(options: dict) -> dict:
    """What the players set up on the board (the companion cannot see it): the book's presets."""
    board, layout = {"none": (None, "base"), "adult_defender": ("classic", "simplified"),
                     "adult_alien": ("advanced", "base")}[options["handicap"]]
    return {"board": board, "layout": layout, "nuggets": starting_nuggets(options),
            "power_tiles": tiles_in_play(options), "throws": options["throws"]}


def assign_roles(state: dict, seat: int, role: str) -> None:
    """The seat takes the role and the other seat the other one; the game moves on."""
    other_seat = next(int(key) for key in state["seats"] if int(key) != seat)
    state["roles"] = {role: seat, other(role): other_seat}
    state["names"] = {role: state["seats"][str(seat)], other(role): state["seats"][str(other_seat)]}
    if state["mode"] == "strategie":
        state["phase"], state["active"] = "playing", ALIEN
    else:
        state["phase"] = "ready"


def other(role: str) -> str:
    return DEFENDER if role == ALIEN else ALIEN


def draw_alien_tiles(rng) -> list[dict]:
    drawn = rng.shuffle(list(ALIEN_TILES), "draw 6 of the 12 Alien power tiles, face down", secret=True)
    return [{"kind": kind, "turned": False} for kind in drawn[:TILES_DRAWN]]


def draw_defender_tiles(colours: list[str], box: list[tuple[int, str, int]], rng) -> list[dict]:
    """Two tiles of each colour, so that every colour can reward the Defender."""
    tiles = []
    for index, colour in enumerate(colours):
        family = [tile for tile in box if tile[0] == index]
        drawn = rng.shuffle(family, f"draw 2 of the {len(family)} {colour} Defender power tiles, face down",
                            secret=True)
        tiles += [defender_tile(colour, kind, value) for _, kind, value in drawn[:2]]
    return tiles


def defender_tile(colour: str, kind: str, value: int) -> dict:
    tile = {"colour": colour, "kind": kind, "turned": False}
    if kind in VALUED_KINDS:
        tile["value"] = value
    return tile


# --- moves ---------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """One action type: who sends it, why it is refused, what it does, what to offer."""

    run: Callable[[dict, str, dict, object], list[dict]]
    check: Callable[[dict, str, dict], None]
    candidates: Callable[[dict, str], list[dict]]
    roles: tuple = ROLES
    answers: str | None = None  # the pending question this move answers


def apply(state: dict, seat, action: dict, rng) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(action))
    kind = action.get("type")
    if kind not in MOVES and kind not in PHASE_HANDLERS:
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(kind))
    if state["winner"]:
        raise IllegalAction(N_("The game is over."))
    new_state = copy.deepcopy(state)  # apply never mutates its input
    if kind in PHASE_HANDLERS:
        events = PHASE_HANDLERS[kind](new_state, seat, action)
    else:
        require_phase(state, "playing")
        role = HOST if seat == HOST else role_of(state, seat)
        check_move(state, role, action)
        events = MOVES[kind].run(new_state, role, action, rng)
        if new_state["started_at"] is None:  # Stratégie: the clock starts with the first action
            new_state["started_at"] = action_time(action)
        if new_state["winner"]:
            new_state["phase"], new_state["ended_at"] = "over", action_time(action)
    new_state["history"] = new_state["history"] + events
    return new_state, events


def check_move(state: dict, role: str, action: dict) -> None:
    """Every refusal of a move in play, in the order a player needs to hear them."""
    move = MOVES[action["type"]]
    if role == HOST and action["type"] != "correct":
        raise IllegalAction(N_("The host screen does not play: act from a seat."))
    if role != HOST and role not in move.roles:
        raise IllegalAction(N_("Only the Alien can do that.") if move.roles == (ALIEN,)
                            else N_("Only the Defender can do that."))
    check_pending(state, role, action["type"])
    move.check(state, role, action)


def is_legal(state: dict, role: str, action: dict) -> bool:
    try:
        check_move(state, role, action)
    except IllegalAction:
        return False
    return True


def role_of(state: dict, seat) -> str:
    for role, owner in state["roles"].items():
        if owner == seat and seat is not None:
            return role
    raise IllegalAction(N_("Only the Alien and the Defender play Arkade."))


def require_phase(state: dict, phase: str) -> None:
    if state["phase"] == phase:
        return
    if state["phase"] == "roles":
        raise IllegalAction(N_("Choose who plays the Alien and who plays the Defender first."))
    if state["phase"] in ("ready", "countdown"):
        raise IllegalAction(N_("Wait for the countdown: top départ!"))
    raise IllegalAction(N_("The game has already started."))


def action_time(action: dict) -> float | None:
    """The shell's time stamp of the action (seconds); None when it gave none (tests of other rules)."""
    at = action.get("at")
    return float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else None


# --- roles and the countdown -----------------------------------------------

def do_choose_role(state: dict, seat: int, action: dict) -> list[dict]:
    require_phase(state, "roles")
    if str(seat) not in state["seats"]:
        raise IllegalAction(N_("Only the Alien and the Defender play Arkade."))
    require_fields(action, role=str)
    if action["role"] not in ROLES:
        raise IllegalAction(N_("The roles are the Alien and the Defender."))
    assign_roles(state, seat, action["role"])
    return [{"type": "roles_chosen", "alien": state["roles"][ALIEN], "defender": state["roles"][DEFENDER]}]


def do_ready(state: dict, seat: int, action: dict) -> list[dict]:
    require_phase(state, "ready")
    role = role_of(state, seat)
    state["ready"][role] = True
    events = [{"type": "ready", "role": role}]
    if all(state["ready"].values()):
        at = action_time(action)
        if at is None:
            raise IllegalAction(N_("The action needs the field %(field)s (%(kind)s)."), field="at", kind="number")
        state["phase"], state["countdown_from"] = "countdown", at
        events.append({"type": "countdown", "seconds": state["countdown_seconds"]})
    return events


def do_go(state: dict, seat: int, action: dict) -> list[dict]:
    """Top départ: either phone sends it when its countdown ends; the server's clock has the last word."""
    require_phase(state, "countdown")
    role_of(state, seat)
    at = action_time(action)
    if at is None or at < state["countdown_from"] + state["countdown_seconds"]:
        raise IllegalAction(N_("Wait for the countdown: top départ!"))
    state["phase"], state["started_at"] = "playing", at
    return [{"type": "top_depart"}]


PHASE_HANDLERS = {"choose_role": do_choose_role, "ready": do_ready, "go": do_go}


# --- what every move checks --------------------------------------------------

FREE_MOVES = ("correct", "agree_correction")  # counters can be corrected whatever else waits


def check_pending(state: dict, role: str, kind: str) -> None:
    """A claim, a repair or a heart question waits for its answer before the game goes on."""
    pending = state["pending"]
    answers = MOVES[kind].answers
    if answers and (not pending or pending["kind"] != answers):
        raise IllegalAction(N_("There is nothing to answer."))
    if not pending or kind in FREE_MOVES or role == HOST:
        return
    if pending["kind"] == "claim":
        if role == DEFENDER and kind != "confirm":
            raise IllegalAction(N_("Answer the Alien's claim first: is a saucer on the last line?"))
        if role == ALIEN:
            raise IllegalAction(N_("Wait for the Defender to answer your claim."))
    elif role == ALIEN and kind != answers_of(pending):
        raise IllegalAction(N_("Answer the power tile's question first."))
    elif role == DEFENDER and (answers or state["mode"] == "strategie"):
        raise IllegalAction(N_("Wait for the Alien to answer the power tile's question."))


def answers_of(pending: dict) -> str:
    return {"repair": "repair", "heart": "heart", "claim": "confirm"}[pending["kind"]]


def check_turn(state: dict, role: str) -> None:
    if state["mode"] == "strategie" and state["active"] != role:
        raise IllegalAction(N_("It is %(name)s's turn."), name=state["names"][state["active"]])


def require_dice(state: dict, role: str) -> None:
    if not state["dice"][role]:
        raise IllegalAction(N_("Throw your dice first."))


def settle(state: dict, role: str) -> None:
    """In Stratégie a used result ends the throwing: only the last throw counts."""
    if state["mode"] == "strategie":
        state["settled"][role] = True


def require_colour(state: dict, action: dict) -> str:
    require_fields(action, colour=str)
    if action["colour"] not in state["colours"]:
        raise IllegalAction(N_("Saucers are %(choices)s."), choices=", ".join(state["colours"]))
    return action["colour"]


def require_flag(action: dict, name: str) -> None:
    if name in action:
        require_fields(action, **{name: bool})


def nothing(state: dict, role: str) -> list[dict]:
    return []


def single(action: dict) -> Callable[[dict, str], list[dict]]:
    return lambda state, role: [dict(action)]


# --- throwing ------------------------------------------------------------

def check_throw(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    dice_to_throw(state, role, action, len(die_faces(state, role)))
    if state["mode"] == "arcade":
        return
    if state["settled"][role]:
        raise IllegalAction(N_("Your dice are settled: you already used this throw."))
    if state["throws"][role] >= state["max_throws"]:
        raise IllegalAction(N_("Only %(count)s throws are allowed per turn."), count=state["max_throws"])


def do_throw(state: dict, role: str, action: dict, rng) -> list[dict]:
    faces = die_faces(state, role)
    chosen = dice_to_throw(state, role, action, len(faces))
    dice = state["dice"][role] or [None] * len(faces)
    for index in chosen:
        face = roll_face(faces[index], f"{die_name(role, index)}, turn {state['turn']}", rng)
        dice[index] = {"face": face, "used": False}
    state["dice"][role] = dice
    state["throws"][role] += 1
    events = [{"type": "thrown", "role": role, "throw": state["throws"][role], "dice": chosen,
               "faces": [die["face"] for die in dice]}]
    if state["mode"] == "arcade":
        state["turn"] += 1
        if role == DEFENDER and 0 in chosen:  # only the movement die frees a damaged reactor
            events += arcade_reactor_throw(state)
    return events


def throw_candidates(state: dict, role: str) -> list[dict]:
    if not state["dice"][role]:
        return [{"type": "throw"}]
    return [{"type": "throw"}] + [{"type": "throw", "dice": [die]} for die in range(2)]


def die_faces(state: dict, role: str) -> list[list]:
    if role == ALIEN:
        return [state["alien_die"], state["alien_die"]]
    return [list(range(1, SHIP_CELLS + 1)), state["shooting_die"]]


def die_name(role: str, index: int) -> str:
    if role == ALIEN:
        return f"Alien movement die {index + 1}"
    return ("Defender movement die", "Defender shooting die")[index]


def roll_face(faces: list, purpose: str, rng):
    return faces[rng.randint(0, len(faces) - 1, purpose)]


def dice_to_throw(state: dict, role: str, action: dict, count: int) -> list[int]:
    chosen = action.get("dice", list(range(count)))
    valid = isinstance(chosen, list) and chosen and all(
        type(index) is int and 0 <= index < count for index in chosen)
    if not valid or len(set(chosen)) != len(chosen):
        raise IllegalAction(N_("Choose which dice to throw: a list of die numbers from 0 to %(high)s."),
                            high=count - 1)
    if not state["dice"][role] and len(chosen) != count:
        raise IllegalAction(N_("The first throw takes all your dice."))
    return sorted(chosen)


def check_end_turn(state: dict, role: str, action: dict) -> None:
    if state["mode"] == "arcade":
        raise IllegalAction(N_("There are no turns in Arcade mode."))
    check_turn(state, role)
    require_dice(state, role)
    cell = reactor_cell_due(state, role)
    if cell:
        raise IllegalAction(N_("The damaged reactor: the ship must move to cell %(cell)s before the turn ends."),
                            cell=cell)


def reactor_cell_due(state: dict, role: str) -> int | None:
    """Stratégie: with the reactor damaged, a 1 or a 6 on the movement die must move the ship there."""
    if role != DEFENDER or state["reactor"] != "active" or not state["dice"][DEFENDER]:
        return None
    movement = state["dice"][DEFENDER][0]
    return movement["face"] if movement["face"] in REACTOR_CELLS and not movement["used"] else None


def do_end_turn(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["dice"][role], state["throws"][role], state["settled"][role] = [], 0, False
    state["reactor"] = next_reactor_state(state["reactor"], other(role))
    state["active"] = other(role)
    state["turn"] += 1
    return [{"type": "turn_ended", "role": role, "next": other(role), "turn": state["turn"]}]


def next_reactor_state(reactor: str | None, starting: str) -> str | None:
    """Damage lasts the whole of the Defender's next turn, then the ship is free."""
    if starting == DEFENDER and reactor == "pending":
        return "active"
    if starting == ALIEN and reactor == "active":
        return None
    return reactor


def arcade_reactor_throw(state: dict) -> list[dict]:
    """Arcade: the first movement die thrown after the damage frees the ship on a 1 or a 6, moving it
    there; either way that die is spent and the ship stays put until the movement die is thrown again."""
    movement = state["dice"][DEFENDER][0]
    if state["reactor"] == "held":
        state["reactor"] = None
        return []
    if state["reactor"] != "active":
        return []
    movement["used"] = True
    state["reactor"] = "held"
    if movement["face"] not in REACTOR_CELLS:
        return [{"type": "reactor_stuck", "face": movement["face"]}]
    state["ship"] = movement["face"]
    return [{"type": "ship_moved", "to": state["ship"], "by": "reactor"}]


# --- the Alien -----------------------------------------------------------

def check_bonus(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    colour = require_colour(state, action)
    if not state["power_tiles"]:
        raise IllegalAction(N_("Power tiles are not in play in this game."))
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board."), colour=colour)
    if all(tile["turned"] for tile in state["alien_tiles"]):
        raise IllegalAction(N_("All your power tiles are already turned."))


def do_bonus(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A saucer stopped on a bonus cell framed in its own colour: one face-down tile, at random."""
    colour = action["colour"]
    settle(state, role)
    face_down = [i for i, tile in enumerate(state["alien_tiles"]) if not tile["turned"]]
    index = face_down[rng.randint(0, len(face_down) - 1, "Alien turns one of their face-down power tiles")]
    tile = state["alien_tiles"][index]
    tile["turned"] = True
    event = {"type": "alien_tile", "tile": index, "kind": tile["kind"], "colour": colour}
    event["applied"] = ALIEN_EFFECTS[tile["kind"]](state, colour)
    return [event] + repair_at_once(state)


def bonus_candidates(state: dict, role: str) -> list[dict]:
    return [{"type": "bonus", "colour": c} for c in state["colours"]]


def gain_extra_life(state: dict, colour: str) -> bool | None:
    """The saucer that triggered the tile turns to its heart, unless it already shows it.

    Returns None when only the Alien knows (some saucers of that colour show a heart, some do not)."""
    saucers = state["saucers"]
    hearts, plain = saucers["extra_lives"][colour], saucers["on_board"][colour] - saucers["extra_lives"][colour]
    if plain == 0:
        return False  # every saucer of that colour, the trigger included, already shows its heart
    if hearts:
        state["pending"] = {"kind": "heart", "colour": colour}
        return None
    saucers["extra_lives"][colour] += 1
    return True


def hit_turret(state: dict, colour: str) -> bool:
    if state["nuggets"] == 0:
        return False
    state["nuggets"] -= 1
    return True


def damage_reactor(state: dict, colour: str) -> bool:
    # Stratégie: the Defender's next turn; Arcade: at once, even for a movement die already thrown.
    if state["mode"] == "arcade":
        state["reactor"] = "active"
        mark_movement_die_spent(state)
    elif state["reactor"] is None:
        state["reactor"] = "pending"
    return True


def mark_movement_die_spent(state: dict) -> None:
    if state["dice"][DEFENDER]:
        state["dice"][DEFENDER][0]["used"] = True


def ask_for_repair(state: dict, colour: str) -> bool | None:
    if not repairable_colours(state):
        return False
    state["pending"] = {"kind": "repair", "colours": repairable_colours(state)}
    return None


def repair_at_once(state: dict) -> list[dict]:
    """A repair replaces an eliminated saucer at once: with one colour to repair, the companion
    puts it back without asking (a full first line is then for the players to correct)."""
    pending = state["pending"]
    if not pending or pending["kind"] != "repair" or len(pending["colours"]) != 1:
        return []
    return put_back(state, pending["colours"][0])


def repairable_colours(state: dict) -> list[str]:
    """Colours with fewer saucers on the board than at the start: one lies in the discard."""
    return [c for c in state["colours"] if state["saucers"]["on_board"][c] < PER_COLOUR]


def on_the_board_only(state: dict, colour: str) -> bool:
    return True  # engines and rift: the Alien moves the saucers on the board


ALIEN_EFFECTS = {"extra_life": gain_extra_life, "turret": hit_turret, "reactor": damage_reactor,
                 "repair": ask_for_repair, "engines": on_the_board_only, "rift": on_the_board_only}


def check_repair(state: dict, role: str, action: dict) -> None:
    colour = action.get("colour")
    if colour is None:
        if sum(state["saucers"]["on_board"].values()) == 0:
            raise IllegalAction(N_("No saucer is on the board, so the first line is not full: choose a colour."))
        return
    if colour not in state["pending"]["colours"] or colour not in repairable_colours(state):
        raise IllegalAction(N_("No eliminated saucer of that colour can be repaired."))


def do_repair(state: dict, role: str, action: dict, rng) -> list[dict]:
    if action.get("colour") is None:
        state["pending"] = None
        return [{"type": "repaired", "colour": None}]  # the first line is full: no effect
    return put_back(state, action["colour"])


def put_back(state: dict, colour: str) -> list[dict]:
    state["pending"] = None
    state["saucers"]["on_board"][colour] += 1
    state["saucers"]["repairs"] += 1
    return [{"type": "repaired", "colour": colour}]


def repair_candidates(state: dict, role: str) -> list[dict]:
    colours = state["pending"]["colours"] if state["pending"] and state["pending"]["kind"] == "repair" else []
    return [{"type": "repair", "colour": None}] + [{"type": "repair", "colour": c} for c in colours]


def check_heart(state: dict, role: str, action: dict) -> None:
    require_fields(action, already=bool)


def do_heart(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The Alien's answer: did the saucer on the bonus cell already show its heart?"""
    colour = state["pending"]["colour"]
    state["pending"] = None
    if not action["already"]:
        state["saucers"]["extra_lives"][colour] += 1
    return [{"type": "extra_life", "colour": colour, "applied": not action["already"]}]


def check_sacrifice(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    colour = require_colour(state, action)
    require_flag(action, "extra_life")
    if state["on_the_board"]["asteroid"] == 0:
        raise IllegalAction(N_("No asteroid lies on the board."))
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board."), colour=colour)
    if "extra_life" not in action and heart_unknown(state, colour):
        raise IllegalAction(N_("Say whether the %(colour)s saucer showed its heart."), colour=colour)


def do_sacrifice(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The saucer before the asteroid is sacrificed: the saucer and the tile leave the board."""
    colour = action["colour"]
    extra_life, fixed = heart_of(state, colour, action)
    saucers = state["saucers"]
    if extra_life:
        saucers["extra_lives"][colour] -= 1
    saucers["on_board"][colour] -= 1
    saucers["sacrificed"][colour] += 1
    state["on_the_board"]["asteroid"] -= 1
    event = {"type": "sacrificed", "colour": colour, "extra_life": extra_life, **({"counters_fixed": True} if fixed else {})}
    return [event] + defender_wins_if_board_empty(state)


def saucer_candidates(kind: str) -> Callable[[dict, str], list[dict]]:
    def candidates(state: dict, role: str) -> list[dict]:
        return [{"type": kind, "colour": c, "extra_life": life} for c in state["colours"] for life in (False, True)]
    return candidates


def check_lift_field(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    if state["on_the_board"]["magnetic_field"] == 0:
        raise IllegalAction(N_("No magnetic field lies on the board."))
    if not any(die["face"] == LIFTS_FIELD for die in state["dice"][ALIEN]):
        raise IllegalAction(N_("An orange result is needed to lift the magnetic field."))


def do_lift_field(state: dict, role: str, action: dict, rng) -> list[dict]:
    settle(state, role)
    state["on_the_board"]["magnetic_field"] -= 1
    return [{"type": "field_lifted"}]


def check_claim(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)


def do_claim(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["pending"] = {"kind": "claim"}
    return [{"type": "claimed_last_line"}]


def check_confirm(state: dict, role: str, action: dict) -> None:
    require_fields(action, accept=bool)


def do_confirm(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["pending"] = None
    if action["accept"]:
        win(state, ALIEN, "last_line")
    return [{"type": "claim_answered", "accepted": action["accept"], "winner": state["winner"]}]


def win(state: dict, role: str, how: str) -> None:
    state["winner"], state["won_by"], state["active"] = role, how, None


# --- the Defender --------------------------------------------------------

def require_cell(action: dict) -> int:
    require_fields(action, to=int)
    if not 1 <= action["to"] <= SHIP_CELLS:
        raise IllegalAction(N_("The ship's cells are numbered 1 to 6."))
    return action["to"]


def check_move_ship(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_dice(state, role)
    movement = state["dice"][DEFENDER][0]
    if movement["used"]:
        raise IllegalAction(N_("The movement die has already been used."))
    if state["reactor"] in ("active", "held") and (state["mode"] == "arcade" or movement["face"] not in REACTOR_CELLS):
        raise IllegalAction(N_("The reactor is damaged: the ship moves only on a 1 or a 6."))


def do_move_ship(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The ship goes to the cell its movement die shows."""
    movement = state["dice"][DEFENDER][0]
    movement["used"] = True
    settle(state, role)
    state["ship"] = movement["face"]
    return [{"type": "ship_moved", "to": state["ship"], "by": "reactor" if state["reactor"] else "die"}]


def check_ship_free(state: dict) -> None:
    if state["reactor"] in ("active", "held"):
        raise IllegalAction(N_("The reactor is damaged: the ship moves only with its die this turn."))


def check_nugget(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    cell = require_cell(action)
    check_ship_free(state)
    if state["nuggets"] == 0:
        raise IllegalAction(N_("You have no nugget left."))
    if abs(cell - state["ship"]) != 1:
        raise IllegalAction(N_("A nugget moves the ship to an adjacent cell only."))


def do_nugget(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A nugget moves the ship one cell, at any time of the Defender's turn."""
    state["nuggets"] -= 1
    state["ship"] = action["to"]
    return [{"type": "ship_moved", "to": action["to"], "by": "nugget", "nuggets": state["nuggets"]}]


def check_gps(state: dict, role: str, action: dict) -> None:
    check_turn(state, role)
    require_cell(action)
    check_ship_free(state)
    if state["kept"]["gps"] == 0:
        raise IllegalAction(N_("You have no GPS update."))


def do_gps(state: dict, role: str, action: dict, rng) -> list[dict]:
    state["kept"]["gps"] -= 1
    state["ship"] = action["to"]
    return [{"type": "ship_moved", "to": action["to"], "by": "gps"}]


def cell_candidates(kind: str, cells: Callable[[dict], list[int]]) -> Callable[[dict, str], list[dict]]:
    return lambda state, role: [{"type": kind, "to": cell} for cell in cells(state)]


def check_hit(state: dict, role: str, action: dict) -> None:
    """A shot hit the first saucer of the column: the Defender says its colour, and whether it showed
    its heart when the counters cannot tell."""
    check_turn(state, role)
    colour = require_colour(state, action)
    require_flag(action, "extra_life")
    require_flag(action, "munitions")
    if action.get("munitions"):
        if colour not in state["kept"]["munitions"]:
            raise IllegalAction(N_("You have no %(colour)s super munitions."), colour=colour)
    else:
        require_dice(state, role)
        shooting = state["dice"][DEFENDER][1]
        if shooting["used"]:
            raise IllegalAction(N_("The shooting die has already been used."))
        if shooting["face"] != colour:
            raise IllegalAction(N_("The shooting die shows %(colour)s."), colour=shooting["face"])
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board: correct the counters if the board "
                               "says otherwise."), colour=colour)
    if "extra_life" not in action and heart_unknown(state, colour):
        raise IllegalAction(N_("Say whether the %(colour)s saucer showed its heart."), colour=colour)


def heart_unknown(state: dict, colour: str) -> bool:
    saucers = state["saucers"]
    return 0 < saucers["extra_lives"][colour] < saucers["on_board"][colour]


def heart_of(state: dict, colour: str, action: dict) -> tuple[bool, bool]:
    """Whether the saucer showed its heart, and whether the heart counter had to follow the board."""
    saucers = state["saucers"]
    hearts, plain = saucers["extra_lives"][colour], saucers["on_board"][colour] - saucers["extra_lives"][colour]
    extra_life = action.get("extra_life", hearts > 0 and plain == 0)
    if extra_life and hearts == 0:
        saucers["extra_lives"][colour] += 1  # it showed a heart the counters missed
        return True, True
    if not extra_life and plain == 0:
        saucers["extra_lives"][colour] -= 1  # it showed no heart, though the counters said so
        return False, True
    return extra_life, False


def do_hit(state: dict, role: str, action: dict, rng) -> list[dict]:
    colour, with_munitions = action["colour"], action.get("munitions", False)
    if with_munitions:
        state["kept"]["munitions"].remove(colour)
    else:
        state["dice"][DEFENDER][1]["used"] = True
        settle(state, role)
    extra_life, fixed = heart_of(state, colour, action)
    return record_hit(state, colour, extra_life, with_munitions, fixed, rng)


def record_hit(state: dict, colour: str, extra_life: bool, with_munitions: bool, fixed: bool, rng) -> list[dict]:
    saucers = state["saucers"]
    marks = {"counters_fixed": True} if fixed else {}
    if extra_life:
        saucers["extra_lives"][colour] -= 1
        if not with_munitions:  # the saucer turns over and stays; super munitions finish it
            return [{"type": "hit", "colour": colour, "eliminated": False, **marks}]
    saucers["on_board"][colour] -= 1
    saucers["eliminated"][colour] += 1
    events = [{"type": "hit", "colour": colour, "eliminated": True, **marks}]
    if saucers["eliminated"][colour] % 2 == 0:
        events += turn_defender_tile(state, colour, rng)
    return events + defender_wins_if_board_empty(state)


def hit_candidates(state: dict, role: str) -> list[dict]:
    """A shot with the die (its colour) or with each kind of kept super munitions, on a saucer
    showing its heart or not."""
    actions = []
    if state["dice"][DEFENDER]:
        actions += [{"type": "hit", "colour": state["dice"][DEFENDER][1]["face"], "extra_life": life}
                    for life in (False, True)]
    return actions + [{"type": "hit", "colour": c, "extra_life": life, "munitions": True}
                      for c in sorted(set(state["kept"]["munitions"])) for life in (False, True)]


def defender_wins_if_board_empty(state: dict) -> list[dict]:
    """Every saucer is off the board, and no repair can bring one back: the Defender wins."""
    pending = state["pending"]
    if sum(state["saucers"]["on_board"].values()) or (pending and pending["kind"] == "repair"):
        return []
    win(state, DEFENDER, "saucers")
    return [{"type": "won", "winner": DEFENDER}]


def turn_defender_tile(state: dict, colour: str, rng) -> list[dict]:
    face_down = [i for i, tile in enumerate(state["defender_tiles"])
                 if tile["colour"] == colour and not tile["turned"]]
    if not face_down:
        return []
    index = face_down[rng.randint(0, len(face_down) - 1, f"Defender turns a face-down {colour} power tile")]
    tile = state["defender_tiles"][index]
    tile["turned"] = True
    keep_or_apply_defender_tile(state, tile)
    return [{"type": "defender_tile", "tile": index, **{k: v for k, v in tile.items() if k != "turned"}}]


def keep_or_apply_defender_tile(state: dict, tile: dict) -> None:
    if tile["kind"] == "munitions":
        state["kept"]["munitions"].append(tile["colour"])
    elif tile["kind"] == "gps":
        state["kept"]["gps"] += 1
    elif tile["kind"] == "mine":
        state["nuggets"] = min(NUGGETS_IN_BOX, state["nuggets"] + tile["value"])
    elif tile["kind"] == "tower":
        state["tower"] = True
    elif tile["kind"] in BOARD_TILES:
        state["on_the_board"][tile["kind"]] += 1  # the Defender lays it where they like
    # a comet is carried out on the board


# --- correcting the counters -------------------------------------------------

def corrected_counts(state: dict, action: dict) -> dict:
    """The counters as the correction would leave them (only the fields it names change)."""
    fields = [name for name in ("saucers", "hearts", "nuggets") if name in action]
    if not fields:
        raise IllegalAction(N_("Say which counters to correct: saucers, hearts or nuggets."))
    counts = current_counts(state)
    for name in ("saucers", "hearts"):
        if name in action:
            require_fields(action, **{name: dict})
            for colour, value in action[name].items():
                if colour not in state["colours"] or type(value) is not int:
                    raise IllegalAction(N_("Correct the saucers by colour (%(choices)s), with whole numbers."),
                                        choices=", ".join(state["colours"]))
                counts[name][colour] = value
    if "nuggets" in action:
        require_fields(action, nuggets=int)
        counts["nuggets"] = action["nuggets"]
    check_counts(state, counts)
    return counts


def current_counts(state: dict) -> dict:
    saucers = state["saucers"]
    return {"saucers": dict(saucers["on_board"]), "hearts": dict(saucers["extra_lives"]), "nuggets": state["nuggets"]}


def check_counts(state: dict, counts: dict) -> None:
    for colour in state["colours"]:
        if not 0 <= counts["saucers"][colour] <= PER_COLOUR:
            raise IllegalAction(N_("A colour has 0 to %(count)s saucers on the board."), count=PER_COLOUR)
        if not 0 <= counts["hearts"][colour] <= counts["saucers"][colour]:
            raise IllegalAction(N_("Hearts go from 0 to the number of saucers of that colour on the board."))
    if not 0 <= counts["nuggets"] <= NUGGETS_IN_BOX:
        raise IllegalAction(N_("The Defender holds 0 to %(count)s nuggets."), count=NUGGETS_IN_BOX)
    if counts == current_counts(state):
        raise IllegalAction(N_("These are the counters already: nothing to correct."))


def check_correct(state: dict, role: str, action: dict) -> None:
    corrected_counts(state, action)


def do_correct(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The host corrects at once; a player proposes, and the other player agrees or not."""
    counts = corrected_counts(state, action)
    if role != HOST:
        state["correction"] = {"by": role, "counts": counts}
        return [{"type": "correction_proposed", "by": role, "counts": counts}]
    return set_counts(state, counts, "host")


def set_counts(state: dict, counts: dict, by: str) -> list[dict]:
    before = current_counts(state)
    saucers = state["saucers"]
    saucers["corrected"] += sum(counts["saucers"].values()) - sum(before["saucers"].values())
    saucers["on_board"], saucers["extra_lives"] = dict(counts["saucers"]), dict(counts["hearts"])
    state["nuggets"] = counts["nuggets"]
    state["correction"] = None
    if state["pending"] and state["pending"]["kind"] == "repair":  # the answer may have changed
        state["pending"]["colours"] = [c for c in state["pending"]["colours"] if c in repairable_colours(state)]
        if not state["pending"]["colours"]:
            state["pending"] = None
    return [{"type": "corrected", "by": by, "before": before, "after": counts}] + defender_wins_if_board_empty(state)


def check_agree(state: dict, role: str, action: dict) -> None:
    require_fields(action, accept=bool)
    proposal = state["correction"]
    if not proposal or proposal["by"] == role:
        raise IllegalAction(N_("There is no correction of the other player's to answer."))
    if action["accept"] and proposal["counts"] == current_counts(state):
        raise IllegalAction(N_("These are the counters already: nothing to correct."))


def do_agree(state: dict, role: str, action: dict, rng) -> list[dict]:
    counts = state["correction"]["counts"]
    if not action["accept"]:
        state["correction"] = None
        return [{"type": "correction_refused", "by": role}]
    return set_counts(state, counts, "both")


MOVES = {
    "throw": Move(do_throw, check_throw, throw_candidates),
    "end_turn": Move(do_end_turn, check_end_turn, single({"type": "end_turn"})),
    "bonus": Move(do_bonus, check_bonus, bonus_candidates, (ALIEN,)),
    "repair": Move(do_repair, check_repair, repair_candidates, (ALIEN,), answers="repair"),
    "heart": Move(do_heart, check_heart, lambda s, r: [{"type": "heart", "already": a} for a in (False, True)],
                  (ALIEN,), answers="heart"),
    "sacrifice": Move(do_sacrifice, check_sacrifice, saucer_candidates("sacrifice"), (ALIEN,)),
    "lift_field": Move(do_lift_field, check_lift_field, single({"type": "lift_field"}), (ALIEN,)),
    "claim": Move(do_claim, check_claim, single({"type": "claim"}), (ALIEN,)),
    "confirm": Move(do_confirm, check_confirm, lambda s, r: [{"type": "confirm", "accept": a} for a in (True, False)],
                    (DEFENDER,), answers="claim"),
    "move": Move(do_move_ship, check_move_ship, single({"type": "move"}), (DEFENDER,)),
    "nugget": Move(do_nugget, check_nugget, cell_candidates("nugget", lambda s: [s["ship"] - 1, s["ship"] + 1]),
                   (DEFENDER,)),
    "gps": Move(do_gps, check_gps, cell_candidates("gps", lambda s: list(range(1, SHIP_CELLS + 1))), (DEFENDER,)),
    "hit": Move(do_hit, check_hit, hit_candidates, (DEFENDER,)),
    # A correction's counts are free: the screens offer a form, not a list of candidates.
    "correct": Move(do_correct, check_correct, nothing),
    "agree_correction": Move(do_agree, check_agree,
                             lambda s, r: [{"type": "agree_correction", "accept": a} for a in (True, False)]),
}


# --- view ----------------------------------------------------------------

def view(state: dict, seat) -> dict:
    """Everything but the identity of face-down tiles, which nobody sees, not even their owner."""
    public = copy.deepcopy(state)
    public["alien_tiles"] = [tile if tile["turned"] else {"turned": False} for tile in public["alien_tiles"]]
    public["defender_tiles"] = [tile if tile["turned"] else {"colour": tile["colour"], "turned": False}
                                for tile in public["defender_tiles"]]
    role = next((role for role, owner in state["roles"].items() if seat is not None and owner == seat), None)
    public["role"] = role
    public["saucers_on_board"] = sum(state["saucers"]["on_board"].values())
    public["throws_left"] = throws_left(state)
    public["reactor_cell_due"] = reactor_cell_due(state, DEFENDER)
    # What this seat may do now, for its buttons (the rules still check every action).
    public["legal"] = legal_actions(state, seat) if seat is not None and seat != HOST else []
    return public


def throws_left(state: dict) -> dict:
    if state["mode"] == "arcade":
        return {ALIEN: None, DEFENDER: None}  # unlimited
    return {role: 0 if state["settled"][role] else state["max_throws"] - state["throws"][role] for role in ROLES}


# --- legal actions -----------------------------------------------------------

def legal_actions(state: dict, seat) -> list[dict]:
    """Every legal action of a seat: the candidates its moves' checks accept.

    Setup actions and ``go`` need the shell's time stamp, so they are listed
    without one; a correction's counts are the player's to write, so it is not listed."""
    if state["winner"] or seat is None or seat == HOST or str(seat) not in state["seats"]:
        return []
    if state["phase"] == "roles":
        return [{"type": "choose_role", "role": ALIEN}, {"type": "choose_role", "role": DEFENDER}]
    role = role_of(state, seat)
    if state["phase"] == "ready":
        return [] if state["ready"][role] else [{"type": "ready"}]
    if state["phase"] == "countdown":
        return [{"type": "go"}]
    return [action for move in MOVES.values() if role in move.roles
            for action in move.candidates(state, role) if is_legal(state, role, action)]


# --- the table's hooks -----------------------------------------------------------

OUTCOME_REASONS = {"saucers": N_("Every saucer is off the board: the Defender wins."),
                   "last_line": N_("A saucer reached the last line: the Alien wins."),
                   "forfeit": N_("The other player left the game: a win by forfeit.")}


def outcome(state: dict) -> dict | None:
    if not state["winner"]:
        return None
    winner, loser = state["roles"][state["winner"]], state["roles"][other(state["winner"])]
    return {"winners": [winner], "reason": OUTCOME_REASONS[state["won_by"]], "ranking": [[winner], [loser]]}


def waiting(state: dict) -> list[dict]:
    """Whom the game waits on: the claim's answer needs the other phone, so it is timed."""
    if state["winner"]:
        return []
    roles = state["roles"]
    if state["phase"] == "roles":
        return [{"seat": int(seat), "for": N_("choose a role"), "params": {}, "timed": False} for seat in state["seats"]]
    if state["phase"] == "ready":
        return [{"seat": roles[role], "for": N_("say ready"), "params": {}, "timed": False}
                for role in ROLES if not state["ready"][role]]
    pending = state["pending"]
    if pending and pending["kind"] == "claim":
        return [{"seat": roles[DEFENDER], "for": N_("answer the Alien's last-line claim"), "params": {}, "timed": True}]
    if pending:
        return [{"seat": roles[ALIEN], "for": N_("answer the power tile's question"), "params": {}, "timed": False}]
    if state["phase"] == "playing" and state["mode"] == "strategie":
        return [{"seat": roles[state["active"]], "for": N_("play their turn"), "params": {}, "timed": False}]
    return []


def withdraw(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    """Arkade is a duel: the player who stays wins by forfeit."""
    if state["winner"] or state["roles"][ALIEN] is None:
        return state, []
    new_state = copy.deepcopy(state)
    leaving = role_of(state, seat)
    win(new_state, other(leaving), "forfeit")
    new_state["phase"], new_state["pending"] = "over", None
    events = [{"type": "withdrew", "role": leaving}, {"type": "won", "winner": other(leaving)}]
    new_state["history"] = new_state["history"] + events
    return new_state, events


GAME = register(Game(
    id="arkade",
    title=N_("Arkade"),
    min_seats=2,
    max_seats=2,
    options=(
        Option("mode", N_("Mode"), "choice", "strategie", choices=MODES,
               choice_labels=(N_("Stratégie (turn by turn)"), N_("Arcade (simultaneous, real time)"))),
        Option("alien", N_("Who plays the Alien"), "choice", "phones", choices=("phones", "first", "second"),
               choice_labels=(N_("Chosen on the phones"), N_("The first player"), N_("The second player"))),
        Option("level", N_("Defender level"), "choice", "normal", choices=tuple(LEVELS),
               choice_labels=(N_("Hard: 4 nuggets"), N_("Normal: 6 nuggets"), N_("Easy: 8 nuggets"))),
        Option("handicap", N_("Adult and child"), "choice", "none", choices=HANDICAPS,
               choice_labels=(N_("Same level"), N_("The adult is the Defender"), N_("The adult is the Alien"))),
        Option("power_tiles", N_("Power tiles"), "choice", "auto", choices=("auto", "on", "off"),
               choice_labels=(N_("As the book says (Stratégie only)"), N_("In play"), N_("Left out"))),
        Option("throws", N_("Throws per turn (Stratégie)"), "int", 3, minimum=2, maximum=3),
        Option("countdown", N_("Countdown before an Arcade game (seconds)"), "int", COUNTDOWN_SECONDS,
               minimum=1, maximum=10),
        Option("saucer_colours", N_("Saucer colours"), "list", list(SAUCER_COLOURS), max_items=3),
        Option("alien_die", N_("Alien movement die faces"), "list", list(ALIEN_DIE_FACES), max_items=12),
        Option("shooting_die", N_("Shooting die faces"), "list", list(SHOOTING_DIE_FACES), max_items=12),
        Option("defender_tiles", N_("Defender tiles by colour (colour number, kind, value)"), "list",
               list(DEFENDER_TILES), max_items=24),
    ),
    setup=setup,
    apply=apply,
    view=view,
    check_options=check_options,
    uses_figures=False,
    host_actions=frozenset({"correct"}),
    outcome=outcome,
    legal_actions=legal_actions,
    waiting=waiting,
    proxy_actions=frozenset({"confirm", "end_turn", "repair", "heart", "agree_correction"}),
    withdraw=withdraw,
    withdraw_rule=N_("Arkade is a duel: the other player wins by forfeit."),
))
