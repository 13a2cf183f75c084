"""Chakart: the referee for Mario Kart chess on a real board (`../shared/rules/chakart.fr.txt`).

The players move on a physical chess set with item tokens and say each move
on the phone; the companion holds the position (`board.py`), resolves every
item and egg with the table's verifiable randomness (`effects.py`), and tells
both players what to change on the board until the mover confirms
(`turn.py`). Where the book is silent, `silent.py` lists what we chose.
Pieces: Toad (pawn), Yoshi (knight), Donkey (rook), Wario (bishop), Mario
(queen), Peach (king).
"""

from __future__ import annotations

from companion.games.base import N_, DrawKind, Game, Option, declare_draws, register
from companion.games.chakart.board import parse_fen
from companion.games.chakart.turn import MOVES, PHASES, decide, forfeit, render, setup, waiting
from companion.games.chakart.draws import check as check_draws
from companion.games.kernel import Move, Rules
from companion.game_checks import GameCheck, register_game_check


def check_options(options: dict) -> None:
    if options["position"]:
        parse_fen(options["position"][0])


GAME = register(Game(
    id="chakart",
    title=N_("Chakart (Mario Kart chess)"),
    min_seats=2,
    max_seats=2,
    options=(
        Option("start", N_("Start position"), "choice", "standard", choices=("standard", "random", "mirrored"),
               choice_labels=(N_("standard chess"), N_("random back ranks, each side its own (the book)"),
                              N_("random back rank, the same for both sides"))),
        Option("position", N_("Or a position in the book's notation (FEN with items)"), "list", [], max_items=1,
               max_length=100),
        Option("eggs", N_("Egg effects"), "choice", "book", choices=("book", "applicable"),
               choice_labels=(N_("drawn among all eight; one that cannot apply does nothing (the book)"),
                              N_("drawn among those that can apply"))),
        Option("redirect", N_("A banana or bomb that sends a piece next to an enemy"), "choice", "capture",
               choices=("capture", "free"),
               choice_labels=(N_("may send it onto the enemy, who is captured (the book's text)"),
                              N_("sends it only to a square without a piece (the Bxe4 diagram's caption)"))),
        Option("leftovers", N_("The item of a piece that Koopa sends back or Chomp eats"), "choice", "left",
               choices=("left", "none"),
               choice_labels=(N_("is left as after any move"), N_("is not left (the author's site)"))),
        Option("no_move", N_("A player who has no move at all"), "choice", "pass", choices=("pass", "lose"),
               choice_labels=(N_("passes; a draw when neither player can move"),
                              N_("loses the game (the author's site)"))),
        Option("colours", N_("Who plays White"), "choice", "random", choices=("random", "first"),
               choice_labels=(N_("drawn at random"), N_("the first seat"))),
    ),
    setup=setup,
    check_options=check_options,
    uses_figures=False,
    withdraw_rule=N_("The player who leaves loses the game: the other wins by forfeit."),
    # The 50-move rule ends a game where nothing happens (the book's draw); the longest random game
    # (tests/random_play.py) took under 2,500 actions, promotions and item questions included.
    longest_game=lambda options, seats: 4000,
    **Rules(moves=MOVES, phases=PHASES, render=render, decide=decide, wait_on=waiting,
            leave=Move(run=forfeit)).hooks(),
))


def draw_check() -> GameCheck:
    """The verifier's check of Chakart's moves against their draws (`draws.check`)."""
    return GameCheck(step=lambda step: check_draws(step.options, step.draws, step.entries))


declare_draws(
    "chakart",
    white_player=DrawKind((), N_("who plays White")),
    start_light_bishop=DrawKind(("side",), N_("random start (%(side)s): light-squared bishop")),
    start_dark_bishop=DrawKind(("side",), N_("random start (%(side)s): dark-squared bishop")),
    start_other_pieces=DrawKind(("side",), N_("random start (%(side)s): other pieces")),
    redirect=DrawKind(("item", "square"), N_("%(item)s on %(square)s sends the piece")),
    egg=DrawKind(("square",), N_("egg on %(square)s")),
    turncoat=DrawKind(("piece", "colour"), N_("%(piece)s: which %(colour)s piece changes side")),
    drop=DrawKind(("piece", "item", "square"), N_("%(piece)s drops a %(item)s next to %(square)s")),
)
register_game_check("chakart", draw_check)
