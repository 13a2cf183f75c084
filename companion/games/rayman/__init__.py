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
  variant, from the second race).
* Each round: ``round_start`` (the projectile and Boss dice), ``choosing``
  (secret choice of two cards or a Bubble), ``revealing``, ``initiatives`` (only
  when a card is played for the first time and the companion does not know the
  initiative printed on it: its owner reads it, see ``cards``), ``turns`` (in initiative order),
  ``round_end`` (projectiles, projectile card, Boss, free move of the last
  player, discards).
* The end: ``finish`` (distances past the line and the ranking), ``race_over``
  (tournament: between two races) and ``game_over``.

Secret choices never reach the server before the reveal: the phone keeps its
pick (local storage) and sends ``lock`` with ``commitment(choice, salt)``
(SHA-256 of the canonical JSON of the choice followed by a salt the phone made).
When every phone has locked in (``revealing``), each sends ``reveal`` (the choice
and the salt); the server checks them and holds them in the table's secret until
the last, then every choice and salt is public. A new phone for a seat, without
the pick, sends ``repick``: before any phone of the round has revealed it chooses
again; after, its commitment stands and its choice is drawn at random among its
legal choices, from a round of the phones' values opened after the loss (the
table's ``fresh`` draw: nobody who saw a revealed choice can steer it); every
screen is told.

Positions are optional, per player: a player who keeps their column and level
on their phone (``position``/``step``) lets the companion decide who is last,
who is farthest from the finish, where projectiles spawn and whom they or the
Boss hit. When a position is unknown, the phone whose player knows tells it:
a hit (``hurt``), the second tile reached (``second_tile``); the player farthest
from the finish rolls on their own phone; the last players move on the board.
The host answers (``question`` in the view, ``answer``) only what no phone can
say: the youngest player, a Boss's movement, the final ranking of those who
keep no position.

Actions (``type`` and fields; ``legal_actions(state, seat)`` lists them)
* Setup: ``character`` (``name``), ``pick_legendary`` (``card``), ``pick``
  (``card``: an extra card's number), ``exchange`` (``drop``: card ids).
* Rounds: ``roll``; ``lock`` (``commitment``), ``reveal`` (``choice``: ``{bubble,
  left, second}``, card ids or initiatives with quick entry; ``salt``),
  ``repick``; ``initiative`` (``seat``, ``card``, ``initiative``: a card played
  for the first time; the host may answer for a seat); on one's turn ``end_turn``, ``heart`` (``to``: co-op gift),
  ``spend_heart`` (Filou), ``slap`` (``target``, ``direction`` when both
  figures share a column), ``free`` (``ptizetre``), ``bonus``, ``use_bonus``,
  ``use_legendary``; any time ``hurt`` (``cause``, ``projectile``),
  ``discard_bonus`` (a fifth token), ``give_bonus`` (``to``, ``give``,
  ``take``: a co-op offer) and ``answer_offer`` (``accept``), ``crossed``,
  ``position`` (``column``, ``level``), ``step`` (``direction``),
  ``forget_position``, ``second_tile``, ``correct_initiative`` (``card``,
  ``initiative``); at a round's end ``free_move`` (``level`` or ``pass``);
  after the race ``distance`` (``spaces`` past the line).
* Host (``seat == HOST``): ``answer`` (``question``: the asked key,
  ``value``), ``roll`` (for the player who should), ``next_race``, ``initiative``;
  in any phase ``ptizetre_colour`` (``ptizetre``, ``colour``: a captive token named by its
  colour, see ``ptizetres``).

A view carries, besides the state a seat may see, ``legal`` (that viewer's
legal actions, for the buttons of its screen; none for the public) and
``history`` (the last public events, ``history_count`` of them in all), so that
every screen can tell what just happened, such as the end of a round.

Board geometry: players start on the start line (column 0) and race through
columns 1 to 43 (tile 1: 1-21, tile 2: 22-43); the finish line follows column
43, so column 44 is one space past it. Levels are 1 (ground) to 3.

Where the book is silent, we chose:
* Cards are known by their initiative: the box's values where a source gives them
  (``cards.BOX_INITIATIVES``: the rule book prints none), else the owner's phone asks
  it once, after the reveal, the first time the card is played; the table remembers
  the answer for its next games (Play again), by character and extra card number.
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
  co-op any damage puts a player in Bubble mode (« le mode Bulle est activé
  lorsqu'un joueur subit un dégât »); a player in Bubble mode cannot declare a
  Bubble action.
* The mode is resolved once into named rules (``config["rules"]``, see
  ``options.mode_rules``); the rules read those names, never the mode.
* Damage: the companion moves a kept position back 2 (or 3) columns, to the
  free level nearest its own; the player corrects the level (or an obstacle it
  cannot see) with the stepper. A Boss hit with a heart puts the player behind
  the Boss, else above or below it. A slap's push and the Bubble mode's float
  end on a free space: the one aimed at, else directly above, below or behind,
  else farther back (``board.pushed_to``). A wall the pushed player reports
  undoes the push: pushed back against it, the damage moves them no farther.
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
* Solo keeps the free move: the book changes nothing in solo but the Bubble mode, and a player racing
  alone is the last on the board.
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
  book gives each a colour but not which); the host may name each by the colour
  on its token (``ptizetres.PALETTE``), and the table keeps those names for the
  evening, like the cards' initiatives.
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

from companion.games.base import HOST, N_, DrawKind, Game, Option, declare_draws, register
from companion.game_checks import register_game_check
from companion.games.rayman.constants import (AUTO_ON_OFF, BOARDS, BOSSES, CHARACTERS, DIFFICULTIES, LAST_COLUMN,
                                              LEGENDARY_CARDS, LEVELS, MAX_BONUS, MAX_BOSS_MOVE, MODES, ON_OFF,
                                              PROJECTILE_END, PROJECTILES, PTIZETRES_TO_FINISH, SETUP_PHASES,
                                              canonical_json, commitment)
from companion.games.rayman.audit import draw_check
from companion.games.rayman.choosing import lost_choices
from companion.games.rayman.common import die_level
from companion.games.rayman.components import (BOARD_NAMES, BOSS_NAMES, DIFFICULTY_NAMES, MODE_NAMES, NAMES,
                                               PROJECTILE_NAMES)
from companion.games.rayman.flow import RULES, remember
from companion.games.rayman.options import check_options, resolve, seat_range
from companion.games.rayman.ptizetres import carry
from companion.games.rayman.setup import setup
from companion.games.rayman.withdraw import WITHDRAW_RULE

__all__ = [  # what the tests and the other modules read from the package
    "BOARDS", "CHARACTERS", "GAME", "HOST", "LAST_COLUMN", "LEGENDARY_CARDS", "LEVELS", "MAX_BONUS",
    "PROJECTILE_END", "PTIZETRES_TO_FINISH", "SETUP_PHASES", "canonical_json", "commitment", "die_level",
    "legal_actions", "view",
]

view = RULES.view
legal_actions = RULES.legal_actions


def remembering(step):
    """The kernel's apply, leave, timeout or fresh draw, keeping the last public events for the screens
    (``remember``)."""
    def run(*arguments) -> tuple[dict, list[dict]]:
        state, events = step(*arguments)
        if events:  # a refused leave or timeout returns the state itself, unchanged
            remember(state, events)
        return state, events
    return run


HOOKS = RULES.hooks()
HOOKS.update({name: remembering(HOOKS[name]) for name in ("apply", "withdraw", "on_timeout", "fresh_draw")})


# What the create form shows for the options' values (the values themselves are ids).
AUTO_ON_OFF_LABELS = (N_("As the difficulty says"), N_("Yes"), N_("No"))
ON_OFF_LABELS = (N_("No"), N_("Yes"))


GAME = register(Game(
    id="rayman",
    title=N_("Rayman, the board game"),
    names=NAMES,
    min_seats=1,
    max_seats=6,
    options=(
        Option("mode", N_("Mode"), "choice", "competitive", choices=MODES, choice_labels=tuple(MODE_NAMES.values())),
        Option("difficulty", N_("Difficulty"), "choice", "novice", choices=DIFFICULTIES,
               choice_labels=tuple(DIFFICULTY_NAMES.values())),
        Option("board", N_("Board"), "choice", "auto", choices=("auto",) + BOARDS,
               choice_labels=(N_("As the difficulty says"), *BOARD_NAMES.values())),
        Option("projectile", N_("Projectiles"), "choice", "auto", choices=("auto", "none") + PROJECTILES,
               choice_labels=(N_("As the difficulty says"), N_("None"), *PROJECTILE_NAMES.values())),
        Option("projectile_card", N_("Projectile card"), "choice", "auto", choices=AUTO_ON_OFF,
               choice_labels=AUTO_ON_OFF_LABELS),
        Option("extra_cards", N_("Extra action cards"), "choice", "auto", choices=AUTO_ON_OFF,
               choice_labels=AUTO_ON_OFF_LABELS),
        Option("legendary", N_("Legendary player cards"), "choice", "auto", choices=AUTO_ON_OFF,
               choice_labels=AUTO_ON_OFF_LABELS),
        Option("boss", N_("Boss"), "choice", "auto", choices=("auto", "none") + BOSSES,
               choice_labels=(N_("As the difficulty says"), N_("None"), *BOSS_NAMES.values())),
        Option("boss_move", N_("Boss movement (0: read it on the Boss card during the game)"), "int", 0,
               minimum=0, maximum=MAX_BOSS_MOVE),
        Option("hand_entry", N_("Hand entry"), "choice", "full", choices=("full", "quick"),
               choice_labels=(N_("Known cards; a new card's initiative is asked once"),
                              N_("Quick: type the two initiatives each round"))),
        Option("players_5_6", N_("5–6 player extension"), "choice", "off", choices=ON_OFF, choice_labels=ON_OFF_LABELS),
        Option("captive_ptizetres", N_("Captive Ptizêtres"), "int", 4, minimum=3, maximum=4),
        Option("damage_push", N_("Spaces back after damage"), "int", 2, minimum=2, maximum=3),
        Option("projectile_speed", N_("Projectile spaces per round"), "int", 8, minimum=8, maximum=9),
        Option("limited_legendary", N_("Legendary ability once per race"), "choice", "off", choices=ON_OFF,
               choice_labels=ON_OFF_LABELS),
        Option("unlimited_slaps", N_("Unlimited slaps"), "choice", "off", choices=ON_OFF, choice_labels=ON_OFF_LABELS),
        Option("harsh_coop", N_("Co-op: damage without a heart loses the race"), "choice", "off", choices=ON_OFF,
               choice_labels=ON_OFF_LABELS),
        Option("tournament", N_("Tournament (the 4 boards)"), "choice", "off", choices=ON_OFF,
               choice_labels=ON_OFF_LABELS),
        Option("card_exchange", N_("Tournament: exchange cards between races"), "choice", "off", choices=ON_OFF,
               choice_labels=ON_OFF_LABELS),
        Option("tournament_legendary", N_("Tournament: legendary card"), "choice", "keep",
               choices=("keep", "change"),
               choice_labels=(N_("Each player keeps theirs"), N_("Each player picks again before each race"))),
    ),
    setup=setup,
    check_options=check_options,
    seats_for=lambda options: seat_range(resolve(options)),
    uses_figures=False,
    withdraw_rule=WITHDRAW_RULE,
    # A seat's own bookkeeping, which the table lets it (or the host) take back: board entries and tokens.
    undoable=frozenset({"position", "step", "forget_position", "second_tile", "hurt", "heart", "spend_heart",
                        "bonus", "use_bonus", "discard_bonus", "free", "use_legendary", "correct_initiative",
                        "initiative"}),
    carry=carry,
    wants_fresh_draw=lost_choices,
    # No rule bounds a race's board keeping (the phones move the figures); the longest random race
    # (tests/random_play.py, five players) took about 2,200 actions, a tournament's three races 3,500.
    longest_game=lambda options, seats: 6000 if options.get("tournament") == "on" else 3000,
    **HOOKS,
))

declare_draws(
    "rayman",
    extra_cards_shuffle=DrawKind(("count",), N_("shuffle of the %(count)s extra action cards")),
    random_discard=DrawKind(("seat", "round"), N_("random discard of 2 cards for %(seat)s, round %(round)s")),
    first_roller=DrawKind((), N_("random player to roll the first projectile die")),
    projectile_level=DrawKind(("round", "seat"), N_("projectile level, round %(round)s, rolled for %(seat)s")),
    boss_level=DrawKind(("round",), N_("Boss level, round %(round)s")),
    boss_cards_shuffle=DrawKind((), N_("shuffle of the Boss's 3 attack cards")),
    lost_choice=DrawKind(("seat", "round"), N_("drawn choice for %(seat)s, whose phone lost it, round %(round)s")),
    tie_break=DrawKind(("seat", "round", "attempt"), N_("tie-break, roll %(attempt)s for %(seat)s, round %(round)s")),
)
register_game_check("rayman", draw_check)  # the verifier checks every die, shuffle, tie-break and reveal
