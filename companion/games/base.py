"""The interface every game implements, in the style of boardgame.io.

A game is pure: functions of JSON-serialisable data, randomness passed in as a
`companion.fairness.TableRng`, no Flask, no I/O, no clock. The web shell calls

* ``setup(options, seats, rng) -> state`` when the game starts,
* ``apply(state, seat, action, rng) -> (state, events)`` for each action
  (raising `IllegalAction` on a rule violation, never mutating ``state``),
* ``view(state, seat) -> dict``: what that seat may see (``seat=None``: the
  public view for spectators; ``seat=HOST``: the host screen, which sees what
  the public sees).

Seats are small integers given by the table; a seat list is a list of
``{"id": int, "name": str, "figures": [...]}`` (the figures registered to it). Events are public facts of an action (they go to
the table log): never put a secret in one.
"""

from __future__ import annotations

import copy
import marshal
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.text import unsafe_character

HOST = "host"  # the seat argument of apply for the host screen's game actions


def N_(message: str) -> str:
    """Marks a message for translation; the web shell translates it on the way out."""
    return message


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (what states and views are), several times faster than
    ``copy.deepcopy``: one C round trip that keeps every type (tuples, int keys, big ints, NaN).
    Like the store's JSON round trip, and unlike ``copy.deepcopy``, it shares nothing: a list held in
    two places (an event's cards and the draft's table) becomes two lists, so that changing one later
    cannot change the other in a live game and not in its replay (marshal's version 2 writes no
    references). Anything marshal cannot write falls back to ``copy.deepcopy``."""
    try:
        return marshal.loads(marshal.dumps(value, 2))
    except ValueError:
        return copy.deepcopy(value)


class Plural(str):
    """A msgid that counts something: its English singular, with the plural beside it and the name of
    the parameter that holds the count. The web shell picks the form of the screen's language
    (gettext's ngettext: French says "1 point" and "0 point", English "0 points"). Extracted as a
    plural entry (scripts/translations.py)."""

    plural: str
    counter: str

    def __new__(cls, singular: str, plural: str, counter: str = "count") -> "Plural":
        made = super().__new__(cls, singular)
        made.plural, made.counter = plural, counter
        return made

    def translated(self, translations, params: dict) -> str:
        """The form for params[counter] in a gettext translations object's language (English when
        the object has no entry)."""
        return translations.ngettext(str(self), self.plural, int(params.get(self.counter) or 0))


class _English:
    """gettext's English: the msgid itself, singular for a count of 1 (an exception's own text)."""

    @staticmethod
    def ngettext(singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural


_ENGLISH = _English()


class Msg(str):
    """A message parameter that is itself a msgid ("choosing roles"): the web
    shell translates it with the message, so a French screen reads no English."""


class MsgList(tuple):
    """A message parameter that is a list of msgids (or plain words), each translated, then joined
    by ``sep``: Arkade's tile kinds in a refusal, by their names in the screen's language."""

    sep: str

    def __new__(cls, items, sep: str = ", ") -> "MsgList":
        made = super().__new__(cls, items)
        made.sep = sep
        return made

    def __str__(self) -> str:
        return self.sep.join(self)


def duel_outcome(names: dict, winner: int, loser: int, reason: str) -> dict:
    """A two-player game's outcome; its reason names both players (``%(winner)s``, ``%(loser)s``),
    from the game's ``{str(seat): name}``, so that every screen says who won and why."""
    return {"winners": [winner], "reason": reason,
            "params": {"winner": names[str(winner)], "loser": names[str(loser)]}, "ranking": [[winner], [loser]]}


class IllegalAction(Exception):
    """A rule says no. ``message`` is an English msgid with ``%(name)s`` fields."""

    def __init__(self, message: str, **params: Any):
        english = message.translated(_ENGLISH, params) if isinstance(message, Plural) else message
        super().__init__(english % params if params else english)
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Option:
    """One setting of a game, shown on the host's create-table form."""

    name: str
    label: str
    kind: str  # "choice", "int", "list"
    default: Any
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    max_items: int = 100
    max_length: int = 24
    choice_labels: tuple = ()  # what the form shows for each choice (N_ msgids), in the order of choices
    # A list's known items, as (stored id, N_ label) pairs: screens show the label in their language,
    # the table stores the id (companion/option_texts.py); unknown items show as typed.
    item_labels: tuple = ()
    item_words: bool = False  # each item is words, labelled one by one (Arkade's "2 magnetic_field")

    def labelled_choices(self) -> list[tuple[str, str]]:
        return list(zip(self.choices, self.choice_labels or self.choices))

    def schema(self) -> dict:
        """The option as JSON Schema, for the OpenAPI document and the form."""
        if self.kind == "choice":
            return {"type": "string", "enum": list(self.choices), "default": self.default}
        if self.kind == "int":
            return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum, "default": self.default}
        return {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": self.max_length},
                "maxItems": self.max_items, "default": self.default}

    def normalize(self, value: Any) -> Any:
        if value is None:
            return self.default
        if self.kind == "choice":
            if value not in self.choices:
                raise IllegalAction(N_("Option %(option)s must be one of %(choices)s."),
                                    option=self.name, choices=", ".join(self.choices))
            return value
        if self.kind == "int":
            if type(value) is not int or not self.minimum <= value <= self.maximum:
                raise IllegalAction(N_("Option %(option)s must be a whole number from %(low)s to %(high)s."),
                                    option=self.name, low=self.minimum, high=self.maximum)
            return value
        return self._normalize_list(value)

    def _normalize_list(self, value: Any) -> list[str]:
        if not isinstance(value, list) or len(value) > self.max_items:
            raise IllegalAction(N_("Option %(option)s must be a list of at most %(count)s items."),
                                option=self.name, count=self.max_items)
        items = [item.strip() for item in value if isinstance(item, str)]
        if len(items) != len(value) or not all(0 < len(item) <= self.max_length for item in items):
            raise IllegalAction(N_("Each item of %(option)s must be text of 1 to %(length)s characters."),
                                option=self.name, length=self.max_length)
        if any(unsafe_character(item) for item in items):
            raise IllegalAction(N_("Each item of %(option)s must be visible text: no control, invisible or "
                                   "direction-changing characters."), option=self.name)
        return items


@dataclass(frozen=True)
class RegistrationRules:
    """How figures join a game (checked when a figure is registered or the game starts)."""

    unique_figures: bool = False  # each figure (amiibo id) at most once per game
    per_seat: int | None = None  # at most this many figures per player
    equal_counts: bool = False  # every player has the same number before the start


@dataclass(frozen=True)
class Game:
    """A game as the table sees it: its identity, options and pure rules."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...]
    setup: Callable[[dict, list[dict], Any], dict]
    apply: Callable[[dict, int, dict, Any], tuple[dict, list[dict]]]
    view: Callable[[dict, int | None], dict]
    # Games such as the shared die start at once and take seats as they come;
    # the others wait in the lobby until the host starts them with the seats present.
    starts_at_once: bool = False
    seat_added: Callable[[dict, dict], dict] = field(default=lambda state, seat: state)
    check_options: Callable[[dict], None] = field(default=lambda options: None)
    # The options once the shell has prepared them for the setup (GameServices.prepare: Amiiboxe's
    # references and criteria), checked without setting up: (prepared options) -> None or IllegalAction.
    check_prepared: Callable[[dict], None] = field(default=lambda options: None)
    registration: RegistrationRules = RegistrationRules()
    # Game actions the host screen may take (board keeping, questions for the whole
    # table): ``apply`` gets them with ``seat == HOST`` and refuses those a seat sends
    # when they are the host's alone.
    host_actions: frozenset = frozenset()
    # Whether the host screen has game actions in this state (None: whenever ``host_actions`` has
    # some). A duel the host screen plays only when no player has a phone says no otherwise, so a
    # seat holding the host's rights is not offered an empty host board.
    host_acts: Callable[[dict], bool] | None = None
    uses_figures: bool = True  # False: the screens offer no figure registration (a game without amiibo)
    # A registered figure tapped on the reader during play: (state, figure, rng) -> (state, events).
    figure_tapped: Callable[[dict, dict, Any], tuple[dict, list[dict]]] | None = None

    # What the table shell asks of every game (the kernel; see the module docstring).
    # None while the game runs; then {"winners": [seat, ...], "reason": msgid, "ranking": [[seat, ...], ...]}.
    outcome: Callable[[dict], dict | None] = field(default=lambda state: None)
    # The viewer's legal actions now, each a complete action dict (without "id" or "at").
    legal_actions: Callable[[dict, Any], list[dict]] = field(default=lambda state, seat: [])
    # Whom the game waits on now: [{"seat": int, "for": msgid, "params": {...}, "timed": bool}].
    # "timed": a step that needs another phone (a judged fight, a confirmation): it must not
    # wait forever, so the table's timeout applies to it.
    waiting: Callable[[dict], list[dict]] = field(default=lambda state: [])
    # Action types the host may take for an away seat: open decisions only, never a secret choice.
    proxy_actions: frozenset = frozenset()
    # What each action type is called on a button (msgids), where the screens show it generically.
    action_labels: dict = field(default_factory=dict)
    # Every phase's and stage's label (msgids): the views carry them (``phase_label``, ``stage_label``)
    # and the screens translate them from the browser's catalogue, which holds these.
    phase_labels: tuple = ()
    # What the screens call the game's components, by kind: ((id, name), ...) in the box's order (JSON
    # objects lose theirs), each name a msgid or a proper name the box prints, the same in every language.
    # The table's part of every view carries them once, and the page's catalogue holds their
    # translations, so that no screen keeps a copy of the game's names.
    names: dict = field(default_factory=dict)
    # The seat leaves the game for good: (state, seat, rng) -> (state, events); the rule
    # (a msgid) is shown to the host before confirming.
    withdraw: Callable[[dict, int, Any], tuple[dict, list[dict]]] = field(default=lambda state, seat, rng: (state, []))
    withdraw_rule: str = N_("The seat leaves the game; the game goes on without it.")
    # A timed wait on ``seat`` passed the table's deadline: (state, seat, rng) -> (state, events).
    # None: the host decides for the seat (with a proxy action) instead.
    on_timeout: Callable[[dict, int, Any], tuple[dict, list[dict]]] | None = None
    # A draw the game asks the table for, that no one who saw the game's secrets may steer (Rayman's
    # choice drawn for a phone that lost it): (state) -> what it waits for, a JSON value, or None.
    # When the value changes the table opens a round of the phones' values, and once it is sealed calls
    # ``fresh_draw(state, rng)`` -> (state, events) with the table's draws from that pool.
    wants_fresh_draw: Callable[[dict], Any] | None = None
    fresh_draw: Callable[[dict, Any], tuple[dict, list[dict]]] | None = None
    # Bookkeeping action types a seat may undo (a move, a declared board event, a counter change)
    # until another seat acts or a draw depends on them: never a draw or a revealed secret.
    undoable: frozenset = frozenset()
    # How many players the chosen options allow, when narrower than min_seats..max_seats (a solo
    # mode): (normalized options) -> (low, high). The lobby shows it before the start checks it.
    seats_for: Callable[[dict], tuple[int, int]] | None = None
    # What a game leaves the table for its next games of the evening (public facts the players told,
    # such as Rayman's card initiatives): (state) -> JSON. The table keeps the last one per game and
    # gives it back to the next setup as ``options["memory"]`` (Play again asks nothing twice).
    carry: Callable[[dict], Any] | None = None
    # The most actions a game takes, every seat's and the host screen's, board corrections included
    # (as OpenSpiel's ``max_game_length``): (normalized options, number of seats) -> actions. The
    # random-play harness fails a walk that goes past it. None: the game never ends by itself.
    longest_game: Callable[[dict, int], int] | None = None

    def seat_limits(self, options: dict) -> tuple[int, int]:
        return self.seats_for(options) if self.seats_for else (self.min_seats, self.max_seats)

    def normalize_options(self, raw: Any) -> dict:
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise IllegalAction(N_("Options must be a JSON object."))
        unknown = sorted(set(raw) - {option.name for option in self.options})
        if unknown:
            raise IllegalAction(N_("Unknown option: %(option)s."), option=", ".join(unknown))
        options = {option.name: option.normalize(raw.get(option.name)) for option in self.options}
        self.check_options(options)
        return options

    def options_schema(self) -> dict:
        return {"type": "object", "additionalProperties": False,
                "properties": {option.name: option.schema() for option in self.options}}


REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    REGISTRY[game.id] = game
    return game


def require_fields(action: dict, **types: type) -> None:
    """Checks that an action carries each field with the right JSON type."""
    for name, expected in types.items():
        value = action.get(name)
        wrong_bool = expected is int and isinstance(value, bool)
        if name not in action or not isinstance(value, expected) or wrong_bool:
            raise IllegalAction(N_("The action needs the field %(field)s (%(kind)s)."),
                                field=name, kind=_JSON_TYPE_NAMES.get(expected, expected.__name__))


_JSON_TYPE_NAMES = {int: "number", str: "text", bool: "true/false", list: "list", dict: "object"}


@dataclass(frozen=True, init=False)
class Draw:
    """What a draw is for: a declared ``kind`` and its fields (JSON values), as
    ``Draw("projectile_level", round=3, seat=2)``. The log keeps ``{"kind": …, **fields}``; the
    verifiers match a draw on its kind, never on words, and the verify page says it in a sentence
    of the page's language (`DrawKind.sentence`)."""

    kind: str
    fields: dict

    def __init__(self, kind: str, **fields: Any):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "fields", fields)

    def as_json(self) -> dict:
        """The draw's ``purpose`` in the log, checked against its kind's declaration."""
        declared = DRAW_KINDS.get(self.kind)
        if declared is None:
            raise ValueError(f"draw kind {self.kind!r} is not declared (declare_draws)")
        if tuple(sorted(self.fields)) != tuple(sorted(declared.fields)):
            raise ValueError(f"draw kind {self.kind!r} has the fields {sorted(declared.fields)}, "
                             f"not {sorted(self.fields)}")
        return {"kind": self.kind, **self.fields}


@dataclass(frozen=True)
class DrawKind:
    """One kind of draw: its fields and its sentence, an English msgid whose ``%(field)s`` are the
    fields (a field named ``seat`` is a seat number, said as its player's name on the verify page).
    ``static/js/draw-kinds.js`` declares the same kinds for the verify page (tests/test_draw_kinds.py)."""

    fields: tuple[str, ...]
    sentence: str
    game: str = ""


DRAW_KINDS: dict[str, DrawKind] = {}


def declare_draws(game: str, **kinds: DrawKind) -> None:
    """A game's kinds of draw; a kind belongs to one game only."""
    for kind, declared in kinds.items():
        declared = DrawKind(declared.fields, declared.sentence, game)
        if kind in DRAW_KINDS and DRAW_KINDS[kind] != declared:
            raise ValueError(f"draw kind {kind!r} is declared twice")
        DRAW_KINDS[kind] = declared


def purpose_kind(purpose: Any) -> str | None:
    """The kind of a logged draw's purpose (None: a log from before typed purposes, or no purpose)."""
    return purpose.get("kind") if isinstance(purpose, dict) else None
