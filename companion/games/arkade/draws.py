"""How Arkade's events follow from the table's draws, for the verifier: every face a throw shows,
every power tile turned (which one, and once the seed is revealed, what it is).

Pure functions of the options, the draws and the events of the log; `DrawCheck` keeps what it
needs across steps (the tiles already turned)."""

from __future__ import annotations

from companion.games.arkade.constants import SHIP_CELLS, TILES_DRAWN
from companion.games.arkade.setup import parse_defender_tiles
from companion.games.base import purpose_kind

DICE = ("alien_movement_die", "defender_movement_die", "defender_shooting_die")


def die_faces_of(options: dict, kind: str | None) -> list:
    if kind == "alien_movement_die":
        return list(options.get("alien_die") or [])
    if kind == "defender_movement_die":
        return list(range(1, SHIP_CELLS + 1))
    return list(options.get("shooting_die") or [])


class DrawCheck:
    """One verification of one game: call `step` for each action's draws and events, in order."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.alien_turned: set[int] = set()
        self.defender_turned: set[int] = set()
        self.alien_box: list | None = None  # the six drawn Alien tiles, once the seed is revealed
        self.defender_box: dict[str, list] = {}  # by colour: the two drawn tiles, once revealed

    def step(self, options: dict, draws: list[dict], entries: list[dict]) -> list[tuple[int, str]]:
        events = [(entry.get("i"), entry.get("event") or {}) for entry in entries]
        problems: list[tuple[int, str]] = []
        dice = [draw for draw in draws if purpose_kind(draw.get("purpose")) in DICE]
        if dice or any(event.get("type") == "thrown" for _, event in events):
            problems += self.throw(options, dice, events)
        for draw in draws:
            kind = purpose_kind(draw.get("purpose"))
            if kind == "alien_tiles":
                self.alien_box = self.drawn(options.get("alien_tiles") or [], draw, TILES_DRAWN)
            elif kind == "defender_tiles":
                self.remember_defender_draw(options, draw["purpose"].get("colour"), draw)
            elif kind == "alien_tile_turned":
                problems += self.alien_tile(draw, events)
            elif kind == "defender_tile_turned":
                problems += self.defender_tile(options, draw, events)
        return problems

    # Throws -------------------------------------------------------------------
    def throw(self, options: dict, dice: list[dict], events: list) -> list[tuple[int, str]]:
        thrown = [(i, event) for i, event in events if event.get("type") == "thrown"]
        if not thrown:
            return [(dice[0].get("i"), "a throw's draws have no thrown event: the event was removed")]
        i, event = thrown[0]
        if not dice:
            return [(i, "a thrown event without any draw: the event was forged")]
        chosen, faces = event.get("dice"), event.get("faces")
        if not isinstance(chosen, list) or not isinstance(faces, list) or len(chosen) != len(dice):
            return [(i, f"the throw names dice {chosen!r}, the log has {len(dice)} draws")]
        problems = []
        for die, draw in zip(chosen, dice):
            sides = die_faces_of(options, purpose_kind(draw.get("purpose")))
            result = draw.get("result")
            if not isinstance(die, int) or not 0 <= die < len(faces) or not isinstance(result, int) \
                    or not 0 <= result < len(sides):
                problems.append((i, f"die {die!r}: the draw {result!r} is not one of its {len(sides)} faces"))
            elif faces[die] != sides[result]:
                problems.append((i, f"die {die} shows {faces[die]!r} but the draw gives {sides[result]!r}"))
        return problems

    # Power tiles ------------------------------------------------------------------
    @staticmethod
    def drawn(box: list, draw: dict, count: int) -> list | None:
        order = draw.get("result")
        if not isinstance(order, list) or sorted(order) != list(range(len(box))):
            return None  # sealed until the table closes (or not a shuffle of this box)
        return [box[index] for index in order][:count]

    def remember_defender_draw(self, options: dict, colour, draw: dict) -> None:
        colours = list(options.get("saucer_colours") or [])
        if colour not in colours:
            return
        family = [(kind, value) for index, kind, value in parse_defender_tiles(options.get("defender_tiles") or [])
                  if index == colours.index(colour)]
        self.defender_box[colour] = self.drawn(family, draw, 2)

    def alien_tile(self, draw: dict, events: list) -> list[tuple[int, str]]:
        turned = [(i, e) for i, e in events if e.get("type") == "alien_tile"]
        if not turned:
            return [(draw.get("i"), "an Alien tile was drawn but no tile was turned")]
        i, event = turned[0]
        face_down = [index for index in range(TILES_DRAWN) if index not in self.alien_turned]
        result = draw.get("result")
        if not isinstance(result, int) or not 0 <= result < len(face_down) or event.get("tile") != face_down[result]:
            return [(i, f"Alien tile {event.get('tile')!r} turned, the draw picks {result!r} of {face_down}")]
        self.alien_turned.add(event["tile"])
        if self.alien_box and event.get("kind") != self.alien_box[event["tile"]]:
            return [(i, f"Alien tile {event['tile']} is {self.alien_box[event['tile']]!r}, not {event.get('kind')!r}")]
        return []

    def defender_tile(self, options: dict, draw: dict, events: list) -> list[tuple[int, str]]:
        turned = [(i, e) for i, e in events if e.get("type") == "defender_tile"]
        if not turned:
            return [(draw.get("i"), "a Defender tile was drawn but no tile was turned")]
        i, event = turned[0]
        colours = list(options.get("saucer_colours") or [])
        colour = event.get("colour")
        if colour not in colours:
            return [(i, f"a Defender tile of colour {colour!r}, not a saucer colour")]
        first = 2 * colours.index(colour)  # two tiles per colour, in the order of the colours
        face_down = [index for index in (first, first + 1) if index not in self.defender_turned]
        result = draw.get("result")
        if not isinstance(result, int) or not 0 <= result < len(face_down) or event.get("tile") != face_down[result]:
            return [(i, f"Defender tile {event.get('tile')!r} turned, the draw picks {result!r} of {face_down}")]
        self.defender_turned.add(event["tile"])
        box = self.defender_box.get(colour)
        if box:
            kind, value = box[event["tile"] - first]
            if event.get("kind") != kind or event.get("value", 0) != value:
                return [(i, f"Defender tile {event['tile']} is {kind!r} {value}, not {event.get('kind')!r}")]
        return []
