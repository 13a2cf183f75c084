"""Mario Universalis cards: the duel's counter, phase keeper and combat calculator.

The cards stay on the table; each player's phone keeps what paper used to:
coins, Super Stars, the deck's count, the characters in play with their
current/max PC and current/base PF, the graveyard, and the phases of the turn
(`companion/games/universalis/turn.py`). The rules the companion applies are
in `rules.py` (checks: every one can be overridden, « a card allows it »),
the combat in `combat.py`.

What the book does not say, and what we assumed (every phone's rules summary
lists them, marked "the book is silent"; the options, on the create form, are
where groups differ):

* starting coins: 6 (the book gives no stake; with none, nothing could be
  played in the first global turn, when nobody refills);
* starting hand: 5 cards drawn before the first turn, out of a 40-card deck;
* who starts: drawn at random by the table's fair draw, or the first (second)
  player to sit;
* several blockers on one attacker: the attacker's controller shares its PF
  among them (``sharing = split``, as card players expect), or each blocker
  takes its whole PF (``each``); the attacker always takes the sum of its
  blockers' PF;
* a KO'd Character goes to its owner's graveyard; an Action card goes there
  once played; the other kinds stay in play until they leave it;
* PF never go below 0 (the book only says so of PC);
* a player's deck list is theirs alone: the opponent sees its count, not its
  names.
"""

from __future__ import annotations

from companion.games.base import N_, DrawKind, Game, IllegalAction, Option, declare_draws, purpose_kind, register
from companion.games.kernel import Move, Rules
from companion.game_checks import GameCheck, register_game_check
from companion.games.universalis import one_phone
from companion.games.universalis.turn import (
    ANY_PHASE, HISTORY_KEPT, MOVES, PHASES, carry, decide, forfeit, render, setup, waiting,
)

def check_options(options: dict) -> None:
    if options["hand_size"] >= options["deck_size"]:
        raise IllegalAction(N_("The starting hand must be smaller than the deck."))
    if any(not name.strip() for name in options["opponent"]) or len(set(options["opponent"])) < len(options["opponent"]):
        raise IllegalAction(N_("The players without a phone need different names."))


GAME = register(Game(
    id="universalis",
    title=N_("Mario Universalis cards"),
    min_seats=2,
    max_seats=2,
    options=(
        Option("deck_size", N_("Cards in each deck"), "int", 40, minimum=5, maximum=200),
        Option("hand_size", N_("Cards in the starting hand"), "int", 5, minimum=0, maximum=20),
        Option("starting_coins", N_("Coins at the start"), "int", 6, minimum=0, maximum=100),
        Option("sharing", N_("Several blockers on one attacker"), "choice", "split", choices=("split", "each"),
               choice_labels=(N_("the attacker shares its PF among them"), N_("each blocker takes its whole PF"))),
        Option("first", N_("Who plays first"), "choice", "random", choices=("random", "first_seat", "second_seat"),
               choice_labels=(N_("drawn at random by the table"), N_("the first player to sit"),
                              N_("the second player to sit"))),
        Option("turn_seconds", N_("Turn timer in seconds (0: none); when it runs out the phones buzz and "
                                  "the turn goes on"), "int", 0, minimum=0, maximum=900),
        # A pair without a second phone: the other player's name, and the duel is played on one phone;
        # without a phone at all: both names, and the host screen plays.
        Option("opponent", N_("Players without a phone (one name: one phone plays for both; two names: "
                              "the host screen plays for both)"), "list", [], max_items=2),
    ),
    seats_for=one_phone.seat_range,
    setup=setup,
    check_options=check_options,
    uses_figures=False,
    carry=carry,
    # Nothing in a duel draws after the start: a player may take back any action until the other acts.
    undoable=frozenset(MOVES),
    withdraw_rule=N_("The player who leaves loses the duel: the other wins by forfeit."),
    # A duel ends when a deck runs out (at most 120 cards, one drawn a turn) or at the third Super Star;
    # the longest random duel (tests/random_play.py, a 120-card deck) took under 3,000 actions.
    longest_game=lambda options, seats: 4000,
    **one_phone.wrap(Rules(moves=MOVES, phases=PHASES, render=render, decide=decide, wait_on=waiting,
                           always=ANY_PHASE, leave=Move(run=forfeit), history=HISTORY_KEPT).hooks(), MOVES),
))


# The duel's draws: who plays first (at the start, when drawn), and the die and the coin a card asks for.
declare_draws("universalis", first_player=DrawKind((), N_("who plays first")),
              card_die=DrawKind((), N_("a card's die")), card_coin=DrawKind((), N_("a card's coin")))
DRAWS = {"first_player": (0, 1), "card_die": (1, 6), "card_coin": (0, 1)}


def only_the_duels_draws(step) -> list[tuple[int, str]]:
    """Every draw is one of `DRAWS`, over its range."""
    return [(draw.get("i"), "the duel draws only who plays first, a die and a coin") for draw in step.draws
            if DRAWS.get(purpose_kind(draw.get("purpose"))) != (draw.get("lo"), draw.get("hi"))]


register_game_check("universalis", lambda: GameCheck(step=only_the_duels_draws))
