"""Arkade (Auzou, 2024): the companion's pure rules for the Alien against the Defender.

The board, the saucers and the Defender's ship stay on the physical table: the
companion throws the dice, keeps the counters (throws, nuggets, saucers on the
board, eliminated and showing their heart, the power tiles) and referees what
those counters can check. The players declare what happens on the board (a
saucer stopped on a bonus cell, a hit, a sacrifice, a saucer on the last
line); when a counter and the board disagree, the host, or both players
together, correct the counter, and the log keeps the correction.

* ``strategie``: turn by turn, the Alien first; the active player throws all
  their dice, then may re-throw both or one, up to ``throws`` throws; only the
  last throw counts, and once a result is used the dice are settled.
* ``arcade``: simultaneous, after a shared countdown; each player throws as
  often as they like; each die result of the Defender may be used once.

Saucers are counted by colour: ``on_board`` and, among them, ``extra_lives``
(those showing their heart). A heart belongs to one saucer: when an extra
life tile is turned and some saucers of that colour show a heart and some do
not, the Alien says whether the triggering saucer already shows one (a second
extra life on one saucer has no effect). A hit or a sacrifice says whether the
saucer showed its heart when the counters cannot tell; the board has the last
word: a hit the counters did not expect is taken, and the counter follows.

The modules: `constants` (the box), `setup` (options and the start),
`throwing` (dice, turns, the reactor), `alien` and `defender` (each role's
moves), `counters` (corrections), `flow` (phases, views, waits, the end).
"""

from __future__ import annotations

from companion.games.arkade.constants import (
    ALIEN, ALIEN_DIE_FACES, ALIEN_TILE_LABELS, ALIEN_TILES, COLOUR_LABELS, COUNTDOWN_SECONDS, DEFENDER,
    DEFENDER_TILE_LABELS, DEFENDER_TILES, HANDICAPS, LEVELS, MODES, SAUCER_COLOURS, SHOOTING_DIE_FACES)
from companion.games.arkade.draws import DrawCheck
from companion.games.arkade.flow import RULES
from companion.games.arkade.setup import check_options, setup
from companion.games.base import N_, DrawKind, Game, Option, declare_draws, register
from companion.game_checks import GameCheck, register_game_check

legal_actions = RULES.legal_actions


GAME = register(Game(
    id="arkade",
    title=N_("Arkade"),
    names={"colours": COLOUR_LABELS, "tiles": ALIEN_TILE_LABELS + DEFENDER_TILE_LABELS},
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
        Option("saucer_colours", N_("Saucer colours"), "list", list(SAUCER_COLOURS), max_items=3,
               item_labels=COLOUR_LABELS),
        Option("alien_die", N_("Alien movement die faces"), "list", list(ALIEN_DIE_FACES), max_items=12,
               item_labels=COLOUR_LABELS),
        Option("shooting_die", N_("Shooting die faces"), "list", list(SHOOTING_DIE_FACES), max_items=12,
               item_labels=COLOUR_LABELS),
        Option("alien_tiles", N_("Alien tiles in the box"), "list", list(ALIEN_TILES), max_items=24,
               item_labels=ALIEN_TILE_LABELS),
        Option("defender_tiles", N_("Defender tiles by colour (colour number, kind, value)"), "list",
               list(DEFENDER_TILES), max_items=24, item_labels=DEFENDER_TILE_LABELS, item_words=True),
    ),
    setup=setup,
    check_options=check_options,
    uses_figures=False,
    withdraw_rule=N_("Arkade is a duel: the other player wins by forfeit."),
    # Bookkeeping a player may take back (the table refuses it once a draw or the other player followed).
    undoable=frozenset({"move", "nugget", "gps", "hit", "sacrifice", "lift_field", "claim", "end_turn", "repair",
                        "heart", "correct"}),
    # The nuggets (11) and the saucers (12, and their repairs) end a game; the longest random game
    # (tests/random_play.py) took under 1,000 actions, corrections and undoable moves included.
    longest_game=lambda options, seats: 1500,
    **RULES.hooks(),
))



def draw_check() -> GameCheck:
    """The verifier's check of Arkade's events against their draws (`draws.DrawCheck`)."""
    check = DrawCheck()
    return GameCheck(step=lambda step: check.step(step.options, step.draws, step.entries), reset=check.reset)


declare_draws(
    "arkade",
    alien_movement_die=DrawKind(("die", "turn"), N_("Alien movement die %(die)s, turn %(turn)s")),
    defender_movement_die=DrawKind(("turn",), N_("Defender movement die, turn %(turn)s")),
    defender_shooting_die=DrawKind(("turn",), N_("Defender shooting die, turn %(turn)s")),
    alien_tiles=DrawKind(("count",), N_("draw 6 of the %(count)s Alien power tiles, face down")),
    defender_tiles=DrawKind(("colour", "count"),
                            N_("draw 2 of the %(count)s Defender power tiles of colour %(colour)s, face down")),
    alien_tile_turned=DrawKind((), N_("Alien turns one of their face-down power tiles")),
    defender_tile_turned=DrawKind(("colour",), N_("Defender turns a face-down power tile of colour %(colour)s")),
)
register_game_check("arkade", draw_check)

__all__ = ["ALIEN", "ALIEN_TILES", "COUNTDOWN_SECONDS", "DEFENDER", "DEFENDER_TILES", "GAME", "legal_actions"]
