"""Arkade (Auzou, 2024): the companion's pure rules for the Alien against the Defender.

The board, the saucers and the Defender's ship stay on the physical table: the
companion throws the dice, keeps the counters (throws, nuggets, saucers on the
board, eliminated and with an extra life, the power tiles) and referees what
those counters can check. The players declare what happens on the board
(a saucer stopped on a bonus cell, a hit, a saucer on the last line).

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
  ``at`` (its own time, in seconds). The rules keep ``countdown_from``,
  ``started_at`` and ``ended_at`` so that the screens can run the clock, and
  refuse a ``go`` that comes before the countdown is over.
* ``strategie``: turn by turn, the Alien first. The active player throws all
  their dice, then may re-throw both or one of them, up to ``throws`` throws
  (3, or 2 in the hard variant); only the last throw counts. Once a die result
  has been used (the ship moved by its die, a shot by the die, a bonus
  declared by the Alien), the dice are settled: no more throws this turn.
  ``end_turn`` passes the turn (after at least one throw).
* ``arcade``: simultaneous. Each player throws as often as they like; each die
  result of the Defender may be used once, re-throwing a die makes it usable
  again (the Alien's moves happen on the board, so their dice are not marked).

Dice (data, overridable by options): the Alien's two movement dice show
``ALIEN_DIE_FACES``, the Defender's movement die shows 1-6 and the shooting
die ``SHOOTING_DIE_FACES``. The book does not list the faces; we assume three
saucer colours (4 saucers each, the 12 of the box; the Defender's tiles come
2 per colour out of 6, so there are 3 colours), a shooting die showing each
colour twice (every colour equally likely), and movement dice showing the
cell colours, orange included (the only die colour the book names: it frees
a magnetic field).

Power tiles (on by default in Stratégie, off in Arcade; option ``power_tiles``):
6 of the 12 Alien tiles at random, and 6 of the 12 Defender tiles, exactly 2 of
each colour, all face down. Nobody sees a face-down tile's identity (the colour
of a Defender tile is its back, so it is shown). The Alien turns one at random
when they declare a saucer stopped on a bonus cell of its own colour; the
Defender turns one of the colour at random each time a second, fourth, ...
saucer of that colour is eliminated. Effects the companion can count are
applied (extra life, repair, turret: -1 nugget, reactor, mine, kept super
munitions and GPS); the others (engines, rift, asteroid, magnetic field,
mini-tower, comet) are shown to both players to be carried out on the board.

Actions (``type`` and fields)
* setup: ``choose_role`` (``role``), ``ready`` and ``go`` (Arcade).
* both: ``throw`` (``dice``: die numbers to throw, all by default; Alien 0-1,
  Defender 0 = movement, 1 = shooting); ``end_turn`` (Stratégie).
* Alien: ``bonus`` (``colour`` of the saucer on a bonus cell of its colour),
  ``repair`` (``colour``, or null when the first line is full), ``claim``
  (a saucer reached the last line).
* Defender: ``move`` (to the movement die's cell), ``nugget`` (``to``: an
  adjacent cell), ``gps`` (``to``: any cell), ``hit`` (``colour``,
  ``extra_life``: bool, ``munitions``: bool to shoot with kept super
  munitions instead of the die), ``confirm`` (``accept``: bool, the answer to
  a claim).

Where the book is silent, we chose:
* A repaired saucer: the Alien picks the colour among the eliminated ones, or
  none when the first line is full (no effect).
* Reactor damage in Arcade lasts for the Defender's next throw.
* Nuggets: never below zero, at most the 11 of the box in hand.
* The Alien wins when they declare a saucer on the last line and the Defender
  confirms it; a refused claim changes nothing.
* ``turn`` counts turns in Stratégie and throws (both players) in Arcade.
"""

from __future__ import annotations

import copy

from companion.games.base import N_, Game, IllegalAction, Option, register, require_fields

ALIEN, DEFENDER = "alien", "defender"
MODES = ("strategie", "arcade")
LEVELS = {"hard": 4, "normal": 6, "easy": 8}  # nuggets at the start (the book's three levels)
# The book's adult/child presets: who is the adult, and what the table sets up for it.
HANDICAPS = ("none", "adult_defender", "adult_alien")
NUGGETS_IN_BOX = 11
SHIP_CELLS = 6
SAUCERS = 12
TILES_DRAWN = 6
COUNTDOWN_SECONDS = 3  # "top départ": 3, 2, 1 on both phones (option ``countdown``)

SAUCER_COLOURS = ("blue", "green", "pink")
# Two faces per colour: every saucer colour is equally likely to be shot.
SHOOTING_DIE_FACES = ("blue", "green", "pink", "blue", "green", "pink")
# The book names no face but orange (it lifts a magnetic field): the cells are
# taken to be the three saucer colours and orange, the first two repeated to
# fill six faces. The alien_die option matches another box.
ALIEN_DIE_FACES = ("blue", "green", "pink", "orange", "blue", "green")

# The 12 Alien tiles with the counts the book gives (x4, x2, x2, x2, x1, x1).
ALIEN_TILES = (("extra_life",) * 4 + ("engines",) * 2 + ("rift",) * 2 + ("turret",) * 2
               + ("repair", "reactor"))
# The 12 Defender tiles, 4 per colour (index into the saucer colours): each
# colour has its own super munitions and one kind of each other family.
DEFENDER_TILES = (
    (0, "munitions", 0), (0, "asteroid", 0), (0, "mine", 1), (0, "gps", 0),
    (1, "munitions", 0), (1, "magnetic_field", 0), (1, "mine", 2), (1, "comet", 1),
    (2, "munitions", 0), (2, "tower", 0), (2, "comet", 2), (2, "gps", 0),
)
KEPT_TILES = ("munitions", "gps")


# --- setup ---------------------------------------------------------------

def check_options(options: dict) -> None:
    colours = options["saucer_colours"]
    if len(colours) != 3 or len(set(colours)) != 3:
        raise IllegalAction(N_("Arkade needs exactly 3 different saucer colours."))
    if not set(options["shooting_die"]) <= set(colours) or len(options["shooting_die"]) < 2:
        raise IllegalAction(N_("The shooting die needs at least 2 faces, all of them saucer colours."))
    if len(options["alien_die"]) < 2:
        raise IllegalAction(N_("The Alien movement die needs at least 2 faces."))


def tiles_in_play(options: dict) -> bool:
    if options["power_tiles"] == "auto":
        return options["mode"] == "strategie"
    return options["power_tiles"] == "on"


def setup(options: dict, seats: list[dict], rng) -> dict:
    if len(seats) != 2:
        raise IllegalAction(N_("Arkade is played by exactly 2 players."))
    colours = list(options["saucer_colours"])
    with_tiles = tiles_in_play(options)
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
        "saucers": {"on_board": {c: SAUCERS // 3 for c in colours}, "extra_lives": {c: 0 for c in colours},
                    "eliminated": {c: 0 for c in colours}, "repairs": 0},
        "alien_tiles": draw_alien_tiles(rng) if with_tiles else [],
        "defender_tiles": draw_defender_tiles(colours, rng) if with_tiles else [],
        "kept": {"munitions": [], "gps": 0},
        "tower": False, "reactor": None, "pending": None, "winner": None, "history": [],
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
    other_role = DEFENDER if role == ALIEN else ALIEN
    state["roles"] = {role: seat, other_role: other_seat}
    state["names"] = {role: state["seats"][str(seat)], other_role: state["seats"][str(other_seat)]}
    if state["mode"] == "strategie":
        state["phase"], state["active"] = "playing", ALIEN
    else:
        state["phase"] = "ready"


def draw_alien_tiles(rng) -> list[dict]:
    drawn = rng.shuffle(list(ALIEN_TILES), "draw 6 of the 12 Alien power tiles, face down", secret=True)
    return [{"kind": kind, "turned": False} for kind in drawn[:TILES_DRAWN]]


def draw_defender_tiles(colours: list[str], rng) -> list[dict]:
    """Two tiles of each colour, so that every colour can reward the Defender."""
    tiles = []
    for index, colour in enumerate(colours):
        family = [tile for tile in DEFENDER_TILES if tile[0] == index]
        drawn = rng.shuffle(family, f"draw 2 of the 4 {colour} Defender power tiles, face down", secret=True)
        tiles += [defender_tile(colour, kind, value) for _, kind, value in drawn[:2]]
    return tiles


def defender_tile(colour: str, kind: str, value: int) -> dict:
    tile = {"colour": colour, "kind": kind, "turned": False}
    if kind in ("mine", "comet"):
        tile["value"] = value
    return tile


# --- apply ---------------------------------------------------------------

def apply(state: dict, seat: int, action: dict, rng) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(action))
    kind = action.get("type")
    handler = HANDLERS.get(kind)
    if handler is None and kind not in PHASE_HANDLERS:
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(kind))
    if state["winner"]:
        raise IllegalAction(N_("The game is over."))
    new_state = copy.deepcopy(state)  # apply never mutates its input
    if kind in PHASE_HANDLERS:
        events = PHASE_HANDLERS[kind](new_state, seat, action)
    else:
        require_phase(state, "playing")
        role = role_of(state, seat)
        check_pending(state, role, kind)
        events = handler(new_state, role, action, rng)
        if new_state["started_at"] is None:  # Stratégie: the clock starts with the first action
            new_state["started_at"] = action_time(action)
        if new_state["winner"]:
            new_state["phase"], new_state["ended_at"] = "over", action_time(action)
    new_state["history"] = new_state["history"] + events
    return new_state, events


def role_of(state: dict, seat: int) -> str:
    for role, owner in state["roles"].items():
        if owner == seat:
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
    if action["role"] not in (ALIEN, DEFENDER):
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


def check_pending(state: dict, role: str, kind: str) -> None:
    """A claim or a repair waits for its answer before the game goes on."""
    pending = state["pending"]
    answers = {"confirm": "claim", "repair": "repair"}
    if kind in answers and (not pending or pending["kind"] != answers[kind]):
        raise IllegalAction(N_("There is nothing to answer."))
    if not pending:
        return
    if pending["kind"] == "claim":
        if role == DEFENDER and kind != "confirm":
            raise IllegalAction(N_("Answer the Alien's claim first: is a saucer on the last line?"))
        if role == ALIEN:
            raise IllegalAction(N_("Wait for the Defender to answer your claim."))
    elif role == ALIEN and kind != "repair":
        raise IllegalAction(N_("Choose the colour of the repaired saucer first."))
    elif role == DEFENDER and (kind == "repair" or state["mode"] == "strategie"):
        raise IllegalAction(N_("Wait for the Alien to place the repaired saucer."))


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


# --- throwing ------------------------------------------------------------

def do_throw(state: dict, role: str, action: dict, rng) -> list[dict]:
    check_turn(state, role)
    faces = die_faces(state, role)
    chosen = dice_to_throw(state, role, action, len(faces))
    check_throw_allowed(state, role)
    dice = state["dice"][role] or [None] * len(faces)
    for index in chosen:
        face = roll_face(faces[index], f"{die_name(role, index)}, turn {state['turn']}", rng)
        dice[index] = {"face": face, "used": False}
    state["dice"][role] = dice
    state["throws"][role] += 1
    if state["mode"] == "arcade":
        state["turn"] += 1
        if role == DEFENDER:
            advance_arcade_reactor(state)
    return [{"type": "thrown", "role": role, "throw": state["throws"][role], "dice": chosen,
             "faces": [die["face"] for die in dice]}]


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


def check_throw_allowed(state: dict, role: str) -> None:
    if state["mode"] == "arcade":
        return
    if state["settled"][role]:
        raise IllegalAction(N_("Your dice are settled: you already used this throw."))
    if state["throws"][role] >= state["max_throws"]:
        raise IllegalAction(N_("Only %(count)s throws are allowed per turn."), count=state["max_throws"])


def do_end_turn(state: dict, role: str, action: dict, rng) -> list[dict]:
    if state["mode"] == "arcade":
        raise IllegalAction(N_("There are no turns in Arcade mode."))
    check_turn(state, role)
    require_dice(state, role)
    other = DEFENDER if role == ALIEN else ALIEN
    state["dice"][role], state["throws"][role], state["settled"][role] = [], 0, False
    state["reactor"] = next_reactor_state(state["reactor"], other)
    state["active"] = other
    state["turn"] += 1
    return [{"type": "turn_ended", "role": role, "next": other, "turn": state["turn"]}]


def next_reactor_state(reactor: str | None, starting: str) -> str | None:
    """Damage lasts the whole of the Defender's next turn, then the ship is free."""
    if starting == DEFENDER and reactor == "pending":
        return "active"
    if starting == ALIEN and reactor == "active":
        return None
    return reactor


def advance_arcade_reactor(state: dict) -> None:
    """In Arcade the damage holds for the Defender's next throw only."""
    if state["reactor"] == "active":
        state["reactor"] = None
    elif state["reactor"] == "pending":
        state["reactor"] = "active"


# --- the Alien -----------------------------------------------------------

def require_alien(role: str) -> None:
    if role != ALIEN:
        raise IllegalAction(N_("Only the Alien can do that."))


def require_defender(role: str) -> None:
    if role != DEFENDER:
        raise IllegalAction(N_("Only the Defender can do that."))


def require_colour(state: dict, action: dict) -> str:
    require_fields(action, colour=str)
    if action["colour"] not in state["colours"]:
        raise IllegalAction(N_("Saucers are %(choices)s."), choices=", ".join(state["colours"]))
    return action["colour"]


def do_bonus(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A saucer stopped on a bonus cell framed in its own colour."""
    require_alien(role)
    check_turn(state, role)
    require_dice(state, role)
    colour = require_colour(state, action)
    if not state["power_tiles"]:
        raise IllegalAction(N_("Power tiles are not in play in this game."))
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board."), colour=colour)
    face_down = [i for i, tile in enumerate(state["alien_tiles"]) if not tile["turned"]]
    if not face_down:
        raise IllegalAction(N_("All your power tiles are already turned."))
    settle(state, role)
    index = face_down[rng.randint(0, len(face_down) - 1, "Alien turns one of their face-down power tiles")]
    tile = state["alien_tiles"][index]
    tile["turned"] = True
    event = {"type": "alien_tile", "tile": index, "kind": tile["kind"], "colour": colour}
    event["applied"] = ALIEN_EFFECTS[tile["kind"]](state, colour)
    return [event]


def gain_extra_life(state: dict, colour: str) -> bool:
    saucers = state["saucers"]
    if saucers["extra_lives"][colour] >= saucers["on_board"][colour]:
        return False  # that saucer already shows its heart: no second extra life
    saucers["extra_lives"][colour] += 1
    return True


def hit_turret(state: dict, colour: str) -> bool:
    if state["nuggets"] == 0:
        return False
    state["nuggets"] -= 1
    return True


def damage_reactor(state: dict, colour: str) -> bool:
    state["reactor"] = "pending"
    return True


def ask_for_repair(state: dict, colour: str) -> bool:
    eliminated = [c for c in state["colours"] if repairable(state, c)]
    if not eliminated:
        return False
    state["pending"] = {"kind": "repair", "colours": eliminated}
    return True


def repairable(state: dict, colour: str) -> bool:
    """Fewer saucers of that colour on the board than at the start: one lies in the discard."""
    return state["saucers"]["on_board"][colour] < SAUCERS // 3


def on_the_board_only(state: dict, colour: str) -> bool:
    return True  # engines and rift: the Alien moves the saucers on the board


ALIEN_EFFECTS = {"extra_life": gain_extra_life, "turret": hit_turret, "reactor": damage_reactor,
                 "repair": ask_for_repair, "engines": on_the_board_only, "rift": on_the_board_only}


def do_repair(state: dict, role: str, action: dict, rng) -> list[dict]:
    require_alien(role)
    colour = action.get("colour")
    state["pending"] = None
    if colour is None:
        return [{"type": "repaired", "colour": None}]  # the first line is full: no effect
    pending_colours = [c for c in state["colours"] if repairable(state, c)]
    if colour not in pending_colours:
        raise IllegalAction(N_("No eliminated saucer of that colour can be repaired."))
    state["saucers"]["on_board"][colour] += 1
    state["saucers"]["repairs"] += 1
    return [{"type": "repaired", "colour": colour}]


def do_claim(state: dict, role: str, action: dict, rng) -> list[dict]:
    require_alien(role)
    check_turn(state, role)
    require_dice(state, role)
    state["pending"] = {"kind": "claim"}
    return [{"type": "claimed_last_line"}]


def do_confirm(state: dict, role: str, action: dict, rng) -> list[dict]:
    require_defender(role)
    require_fields(action, accept=bool)
    state["pending"] = None
    if action["accept"]:
        state["winner"] = ALIEN
        state["active"] = None
    return [{"type": "claim_answered", "accepted": action["accept"], "winner": state["winner"]}]


# --- the Defender --------------------------------------------------------

def require_cell(action: dict) -> int:
    require_fields(action, to=int)
    if not 1 <= action["to"] <= SHIP_CELLS:
        raise IllegalAction(N_("The ship's cells are numbered 1 to 6."))
    return action["to"]


def defender_dice(state: dict, role: str) -> list[dict]:
    require_defender(role)
    check_turn(state, role)
    require_dice(state, role)
    return state["dice"][role]


def do_move(state: dict, role: str, action: dict, rng) -> list[dict]:
    """The ship goes to the cell its movement die shows."""
    movement = defender_dice(state, role)[0]
    if movement["used"]:
        raise IllegalAction(N_("The movement die has already been used."))
    if state["reactor"] == "active" and movement["face"] not in (1, SHIP_CELLS):
        raise IllegalAction(N_("The reactor is damaged: the ship moves only on a 1 or a 6."))
    movement["used"] = True
    settle(state, role)
    state["ship"] = movement["face"]
    return [{"type": "ship_moved", "to": state["ship"], "by": "die"}]


def check_ship_free(state: dict) -> None:
    if state["reactor"] == "active":
        raise IllegalAction(N_("The reactor is damaged: the ship moves only with its die this turn."))


def do_nugget(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A nugget moves the ship one cell, at any time of the Defender's turn."""
    require_defender(role)
    check_turn(state, role)
    cell = require_cell(action)
    check_ship_free(state)
    if state["nuggets"] == 0:
        raise IllegalAction(N_("You have no nugget left."))
    if abs(cell - state["ship"]) != 1:
        raise IllegalAction(N_("A nugget moves the ship to an adjacent cell only."))
    state["nuggets"] -= 1
    state["ship"] = cell
    return [{"type": "ship_moved", "to": cell, "by": "nugget", "nuggets": state["nuggets"]}]


def do_gps(state: dict, role: str, action: dict, rng) -> list[dict]:
    require_defender(role)
    check_turn(state, role)
    cell = require_cell(action)
    check_ship_free(state)
    if state["kept"]["gps"] == 0:
        raise IllegalAction(N_("You have no GPS update."))
    state["kept"]["gps"] -= 1
    state["ship"] = cell
    return [{"type": "ship_moved", "to": cell, "by": "gps"}]


def do_hit(state: dict, role: str, action: dict, rng) -> list[dict]:
    """A shot hit the first saucer of the column: the Defender says its colour."""
    require_defender(role)
    check_turn(state, role)
    colour = require_colour(state, action)
    require_fields(action, **{flag: bool for flag in ("extra_life", "munitions") if flag in action})
    extra_life, with_munitions = action.get("extra_life", False), action.get("munitions", False)
    use_shot(state, role, colour, with_munitions)
    check_target(state, colour, extra_life)
    return record_hit(state, colour, extra_life, with_munitions, rng)


def use_shot(state: dict, role: str, colour: str, with_munitions: bool) -> None:
    if with_munitions:
        if colour not in state["kept"]["munitions"]:
            raise IllegalAction(N_("You have no %(colour)s super munitions."), colour=colour)
        state["kept"]["munitions"].remove(colour)
        return
    shooting = defender_dice(state, role)[1]
    if shooting["used"]:
        raise IllegalAction(N_("The shooting die has already been used."))
    if shooting["face"] != colour:
        raise IllegalAction(N_("The shooting die shows %(colour)s."), colour=shooting["face"])
    shooting["used"] = True
    settle(state, role)


def check_target(state: dict, colour: str, extra_life: bool) -> None:
    saucers = state["saucers"]
    if extra_life and saucers["extra_lives"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer has an extra life."), colour=colour)
    if not extra_life and saucers["on_board"][colour] - saucers["extra_lives"][colour] == 0:
        raise IllegalAction(N_("Every %(colour)s saucer left has an extra life."), colour=colour)


def record_hit(state: dict, colour: str, extra_life: bool, with_munitions: bool, rng) -> list[dict]:
    saucers = state["saucers"]
    if extra_life:
        saucers["extra_lives"][colour] -= 1
        if not with_munitions:  # the saucer turns over and stays; super munitions finish it
            return [{"type": "hit", "colour": colour, "eliminated": False}]
    saucers["on_board"][colour] -= 1
    saucers["eliminated"][colour] += 1
    events = [{"type": "hit", "colour": colour, "eliminated": True}]
    if saucers["eliminated"][colour] % 2 == 0:
        events += turn_defender_tile(state, colour, rng)
    if sum(saucers["on_board"].values()) == 0:
        state["winner"], state["active"] = DEFENDER, None
        events.append({"type": "won", "winner": DEFENDER})
    return events


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
    # asteroid, magnetic field and comet are carried out on the board


HANDLERS = {"throw": do_throw, "end_turn": do_end_turn, "bonus": do_bonus, "repair": do_repair,
            "claim": do_claim, "confirm": do_confirm, "move": do_move, "nugget": do_nugget,
            "gps": do_gps, "hit": do_hit}


# --- view ----------------------------------------------------------------

def view(state: dict, seat: int | None) -> dict:
    """Everything but the identity of face-down tiles, which nobody sees, not even their owner."""
    public = copy.deepcopy(state)
    public["alien_tiles"] = [tile if tile["turned"] else {"turned": False} for tile in public["alien_tiles"]]
    public["defender_tiles"] = [tile if tile["turned"] else {"colour": tile["colour"], "turned": False}
                                for tile in public["defender_tiles"]]
    role = next((role for role, owner in state["roles"].items() if seat is not None and owner == seat), None)
    public["role"] = role
    public["saucers_on_board"] = sum(state["saucers"]["on_board"].values())
    public["throws_left"] = throws_left(state)
    # What this seat may do now, for its buttons (the rules still check every action).
    public["can"] = sorted({action["type"] for action in legal_actions(state, seat)}) if seat is not None else []
    return public


def throws_left(state: dict) -> dict:
    if state["mode"] == "arcade":
        return {ALIEN: None, DEFENDER: None}  # unlimited
    return {role: 0 if state["settled"][role] else state["max_throws"] - state["throws"][role]
            for role in (ALIEN, DEFENDER)}


# --- legal actions -----------------------------------------------------------

def legal_actions(state: dict, seat: int | None) -> list[dict]:
    """Every legal action of a seat, from the rules (like python-chess's legal moves).

    Setup actions and ``go`` need the shell's time stamp, so they are listed
    without one; ``hit`` is listed with its fields."""
    if state["winner"] or seat is None or str(seat) not in state["seats"]:
        return []
    if state["phase"] == "roles":
        return [{"type": "choose_role", "role": ALIEN}, {"type": "choose_role", "role": DEFENDER}]
    role = role_of(state, seat)
    if state["phase"] == "ready":
        return [] if state["ready"][role] else [{"type": "ready"}]
    if state["phase"] == "countdown":
        return [{"type": "go"}]
    return playing_actions(state, role)


def playing_actions(state: dict, role: str) -> list[dict]:
    pending = state["pending"]
    if pending and pending["kind"] == "claim":
        return [{"type": "confirm", "accept": True}, {"type": "confirm", "accept": False}] if role == DEFENDER else []
    if pending and role == ALIEN:
        return [{"type": "repair", "colour": None}] + [
            {"type": "repair", "colour": c} for c in state["colours"] if repairable(state, c)]
    strategie = state["mode"] == "strategie"
    if strategie and (state["active"] != role or pending):
        return []
    actions = legal_throws(state, role)
    if state["dice"][role]:
        actions += [{"type": "end_turn"}] if strategie else []
        actions += alien_actions(state) if role == ALIEN else []
    return actions + (defender_actions(state) if role == DEFENDER else [])


def legal_throws(state: dict, role: str) -> list[dict]:
    if state["mode"] == "strategie" and (state["settled"][role] or state["throws"][role] >= state["max_throws"]):
        return []
    if not state["dice"][role]:
        return [{"type": "throw"}]
    return [{"type": "throw"}] + [{"type": "throw", "dice": [die]} for die in range(2)]


def alien_actions(state: dict) -> list[dict]:
    actions = [{"type": "claim"}]
    if state["power_tiles"] and not all(tile["turned"] for tile in state["alien_tiles"]):
        actions += [{"type": "bonus", "colour": c} for c in state["colours"] if state["saucers"]["on_board"][c]]
    return actions


def defender_actions(state: dict) -> list[dict]:
    free = state["reactor"] != "active"
    actions = []
    if free and state["nuggets"]:
        neighbours = (state["ship"] - 1, state["ship"] + 1)
        actions += [{"type": "nugget", "to": cell} for cell in neighbours if 1 <= cell <= SHIP_CELLS]
    if free and state["kept"]["gps"]:
        actions += [{"type": "gps", "to": cell} for cell in range(1, SHIP_CELLS + 1)]
    actions += [{"type": "hit", "colour": c, "extra_life": life, "munitions": True}
                for c in sorted(set(state["kept"]["munitions"])) for life in hit_targets(state, c)]
    if state["dice"][DEFENDER]:
        movement, shooting = state["dice"][DEFENDER]
        if not movement["used"] and (free or movement["face"] in (1, SHIP_CELLS)):
            actions.append({"type": "move"})
        if not shooting["used"]:
            actions += [{"type": "hit", "colour": shooting["face"], "extra_life": life}
                        for life in hit_targets(state, shooting["face"])]
    return actions


def hit_targets(state: dict, colour: str) -> list[bool]:
    """Whether a saucer of that colour with (True) or without (False) an extra life can be hit."""
    saucers = state["saucers"]
    lives = [True] if saucers["extra_lives"][colour] else []
    return lives + ([False] if saucers["on_board"][colour] > saucers["extra_lives"][colour] else [])


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
    ),
    setup=setup,
    apply=apply,
    view=view,
    check_options=check_options,
    uses_figures=False,
))
