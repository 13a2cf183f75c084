"""Arkade's options and the state at the start: counters, the drawn power tiles (face down, in
``state["secret"]``), the book's adult/child presets."""

from __future__ import annotations

from companion.games.arkade.constants import (
    ALIEN, ALIEN_TILE_KINDS, ALIEN_TILE_LABELS, BOARD_TILES, DEFENDER, DEFENDER_TILE_KINDS, DEFENDER_TILE_LABELS, LEVELS,
    PER_COLOUR, TILES_DRAWN, VALUED_KINDS)
from companion.games.base import N_, Draw, IllegalAction, MsgList

# A refusal names the tiles as the form shows them (a French host typed « Champ magnétique »).
ALIEN_NAMES, DEFENDER_NAMES = dict(ALIEN_TILE_LABELS), dict(DEFENDER_TILE_LABELS)


def check_options(options: dict) -> None:
    colours = options["saucer_colours"]
    if len(colours) != 3 or len(set(colours)) != 3:
        raise IllegalAction(N_("Arkade needs exactly 3 different saucer colours."))
    if not set(options["shooting_die"]) <= set(colours) or len(options["shooting_die"]) < 2:
        raise IllegalAction(N_("The shooting die needs at least 2 faces, all of them saucer colours."))
    if len(options["alien_die"]) < 2:
        raise IllegalAction(N_("The Alien movement die needs at least 2 faces."))
    parse_defender_tiles(options["defender_tiles"])
    unknown = sorted(set(options["alien_tiles"]) - set(ALIEN_TILE_KINDS))
    if unknown or len(options["alien_tiles"]) < TILES_DRAWN:
        raise IllegalAction(N_("The Alien tiles: at least %(count)s, each one of %(kinds)s."),
                            count=TILES_DRAWN, kinds=MsgList(ALIEN_NAMES[kind] for kind in ALIEN_TILE_KINDS))


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
                            tile=MsgList((DEFENDER_NAMES.get(word, word) for word in item.split()), " "),
                            kinds=MsgList(DEFENDER_NAMES[kind] for kind in DEFENDER_TILE_KINDS))
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
    alien_kinds = draw_alien_tiles(options["alien_tiles"], rng) if with_tiles else []
    defender_faces = draw_defender_tiles(colours, parse_defender_tiles(options["defender_tiles"]), rng) \
        if with_tiles else []
    state = {
        "phase": "roles" if options["alien"] == "phones" else phase_after_roles(options["mode"]), "outcome": None,
        "mode": options["mode"], "max_throws": options["throws"], "power_tiles": with_tiles,
        "colours": colours, "alien_die": list(options["alien_die"]),
        "shooting_die": list(options["shooting_die"]),
        "seats": {str(seat["id"]): seat["name"] for seat in seats},
        "roles": {ALIEN: None, DEFENDER: None}, "names": {ALIEN: None, DEFENDER: None},
        "ready": {ALIEN: False, DEFENDER: False},
        "countdown_seconds": options["countdown"], "countdown_from": None, "started_at": None, "ended_at": None,
        "turn": 1, "active": None,
        "dice": {ALIEN: [], DEFENDER: []}, "throws": {ALIEN: 0, DEFENDER: 0},
        "settled": {ALIEN: False, DEFENDER: False},
        "nuggets": starting_nuggets(options), "ship": 1,
        "reminders": setup_reminders(options),
        "saucers": {"on_board": {c: PER_COLOUR for c in colours}, "extra_lives": {c: 0 for c in colours},
                    "eliminated": {c: 0 for c in colours}, "sacrificed": {c: 0 for c in colours},
                    "repairs": 0, "corrected": 0},
        # Face down, a tile shows only its back (the Defender's: its colour); what it is stays secret.
        "alien_tiles": [{"turned": False} for _ in alien_kinds],
        "defender_tiles": [{"colour": face["colour"], "turned": False} for face in defender_faces],
        "secret": {"alien_tiles": alien_kinds, "defender_tiles": defender_faces},
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
    """The seat takes the role and the other seat the other one (the phase follows from it: `flow`)."""
    other_seat = next(int(key) for key in state["seats"] if int(key) != seat)
    other_role = DEFENDER if role == ALIEN else ALIEN
    state["roles"] = {role: seat, other_role: other_seat}
    state["names"] = {role: state["seats"][str(seat)], other_role: state["seats"][str(other_seat)]}
    if state["mode"] == "strategie":
        state["active"] = ALIEN


def phase_after_roles(mode: str) -> str:
    """Stratégie starts with the Alien's turn; Arcade first waits for both phones to be ready."""
    return "playing" if mode == "strategie" else "ready"


def draw_alien_tiles(box: list[str], rng) -> list[str]:
    drawn = rng.shuffle(list(box), Draw("alien_tiles", count=len(box)), secret=True)
    return drawn[:TILES_DRAWN]


def draw_defender_tiles(colours: list[str], box: list[tuple[int, str, int]], rng) -> list[dict]:
    """Two tiles of each colour, so that every colour can reward the Defender."""
    tiles = []
    for index, colour in enumerate(colours):
        family = [tile for tile in box if tile[0] == index]
        drawn = rng.shuffle(family, Draw("defender_tiles", colour=colour, count=len(family)), secret=True)
        tiles += [defender_face(colour, kind, value) for _, kind, value in drawn[:2]]
    return tiles


def defender_face(colour: str, kind: str, value: int) -> dict:
    face = {"colour": colour, "kind": kind}
    if kind in VALUED_KINDS:
        face["value"] = value
    return face
