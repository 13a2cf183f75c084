"""Amiiboxe's criteria and references: what the die's face asks, and the
values that answer it.

A fight is decided by a die rolled on the app: the face picks one of the six
criteria of the current *reference*, and the criterion names the winner. A
criterion has an English wording (the msgid; French in messages.po), a
direction (``"min"``: the smallest value wins, ``"max"``: the largest) and
one of four kinds, each with its own source of values:

* ``computed`` from the catalogue's description of the figure
  (`companion.amiibo.catalog.Catalog.describe`): the letters of its name,
  its first release date;
* ``facts`` written by the project per character (`companion.amiibo.facts`):
  Smash Ultimate weight, debut year, height, each a fact or an estimate;
* ``situational``: decided by the board at the moment of the fight (supports,
  distance from the starting line); the game computes or asks the values and
  compares them with `compare`;
* ``judgement``: the table's house ranking decides (`companion.amiibo.house`),
  or the two players when it does not order the two figures yet.

Where the book is silent, we chose:

* Names count letters only (any alphabet; not spaces, punctuation or digits):
  "R.O.B." has 3, "Mr. Game & Watch" 11. The name is the character's, in the
  table's language, without the figure's variant: "Mario" for "Mario - Gold
  Edition" or "8-Bit Mario Classic Color". It comes from the facts
  (`companion.amiibo.facts` for the character, `companion.amiibo.locale` for
  its French name; a character without a French name keeps its English one,
  and the value says so); a figure without facts counts its own name in the
  table's language, cut at its variant (" - ", " – ", " — " or " (").
* A figure's age is its first release in any region (oldest and newest alike).
* Heights compare in metres, estimates and facts alike; the source is shown.
* A value nobody knows (a character without facts, a figure without a release
  date) decides nothing: `compare` says 0 (a tie) and the rankings put such
  figures last, apart. The game may ask the players instead.
* The direction of a judgement criterion only describes its wording: the
  house ranking records who wins.
* A reference names six different criteria, face 1 first (the book's does).

Pure: no Flask, no I/O beyond reading the compiled French catalogue once for
the display of letter counts (as `companion.amiibo.catalog` does).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from companion.amiibo.facts import facts_for
from companion.amiibo.locale import character_name, language, translate
from companion.games.base import N_, IllegalAction, Plural

MIN, MAX = "min", "max"
COMPUTED, FACTS, SITUATIONAL, JUDGEMENT = "computed", "facts", "situational", "judgement"
KINDS = (COMPUTED, FACTS, SITUATIONAL, JUDGEMENT)
VALUED_KINDS = (COMPUTED, FACTS)
FACE_COUNT = 6


@dataclass(frozen=True)
class Criterion:
    id: str
    wording: str  # English msgid, e.g. "The lightest"
    direction: str  # MIN: the smallest value wins; MAX: the largest
    kind: str  # one of KINDS
    unit: str | None = None


@dataclass(frozen=True)
class Reference:
    id: str
    title: str  # English msgid
    faces: tuple[str, ...]  # FACE_COUNT criterion ids, face 1 first


def _by_id(*items):
    return {item.id: item for item in items}


CRITERIA: dict[str, Criterion] = _by_id(
    Criterion("shortest_name", N_("The shortest name"), MIN, COMPUTED, "letters"),
    Criterion("longest_name", N_("The longest name"), MAX, COMPUTED, "letters"),
    Criterion("oldest_figure", N_("The oldest figure"), MIN, COMPUTED, "date"),
    Criterion("newest_figure", N_("The newest figure"), MAX, COMPUTED, "date"),
    Criterion("lightest", N_("The lightest"), MIN, FACTS, None),  # Smash weights have no unit
    Criterion("heaviest", N_("The heaviest"), MAX, FACTS, None),
    Criterion("tallest", N_("The tallest"), MAX, FACTS, "m"),
    Criterion("smallest", N_("The smallest"), MIN, FACTS, "m"),
    Criterion("oldest_character", N_("The oldest character"), MIN, FACTS, "year"),
    Criterion("newest_character", N_("The most recent character"), MAX, FACTS, "year"),
    Criterion("most_supports", N_("The one with the most supports"), MAX, SITUATIONAL, "supports"),
    Criterion("fewest_supports", N_("The one with the fewest supports"), MIN, SITUATIONAL, "supports"),
    Criterion("farthest_from_start", N_("The farthest from its starting line"), MAX, SITUATIONAL, "rows"),
    Criterion("closest_to_start", N_("The closest to its starting line"), MIN, SITUATIONAL, "rows"),
    Criterion("least_clothed", N_("The least clothed"), MIN, JUDGEMENT),
    Criterion("most_villainous", N_("The most villainous"), MAX, JUDGEMENT),
    Criterion("strongest", N_("The strongest"), MAX, JUDGEMENT),
    Criterion("fastest", N_("The fastest"), MAX, JUDGEMENT),
    Criterion("cutest", N_("The cutest"), MAX, JUDGEMENT),
    Criterion("most_famous", N_("The most famous"), MAX, JUDGEMENT),
    Criterion("smartest", N_("The smartest"), MAX, JUDGEMENT),
    Criterion("best_armed", N_("The best armed"), MAX, JUDGEMENT),
    Criterion("most_colourful", N_("The most colourful"), MAX, JUDGEMENT),
)

REFERENCES: dict[str, Reference] = _by_id(
    Reference("book", N_("The book's example"),
              ("most_supports", "tallest", "shortest_name", "least_clothed", "lightest", "farthest_from_start")),
    Reference("numbers", N_("By the numbers"),
              ("tallest", "smallest", "lightest", "heaviest", "oldest_character", "newest_character")),
    Reference("collector", N_("Collectors"),
              ("oldest_figure", "newest_figure", "shortest_name", "longest_name", "oldest_character",
               "newest_character")),
    Reference("tactics", N_("Tactics"),
              ("most_supports", "fewest_supports", "farthest_from_start", "closest_to_start", "heaviest",
               "lightest")),
    Reference("debate", N_("Heated debates"),
              ("least_clothed", "most_villainous", "strongest", "fastest", "cutest", "most_famous")),
    Reference("mixed", N_("A bit of everything"),
              ("farthest_from_start", "smallest", "longest_name", "most_villainous", "oldest_character",
               "fastest")),
)


def get_criterion(criterion_id: Any) -> Criterion:
    """The criterion with that id (`IllegalAction` for an unknown one)."""
    criterion = CRITERIA.get(criterion_id) if isinstance(criterion_id, str) else None
    if criterion is None:
        raise IllegalAction(N_("Unknown criterion: %(criterion)s."), criterion=str(criterion_id)[:40])
    return criterion


def check_faces(faces: Any) -> tuple[str, ...]:
    """A custom reference: six different known criterion ids, face 1 first."""
    if not isinstance(faces, (list, tuple)) or len(faces) != FACE_COUNT:
        raise IllegalAction(N_("A reference has %(count)s criteria, one per face of the die."), count=FACE_COUNT)
    for face in faces:
        get_criterion(face)
    for number, face in enumerate(faces, start=1):
        if face in faces[:number - 1]:
            raise IllegalAction(N_("Faces %(first)s and %(second)s have the same criterion: a reference has "
                                   "%(count)s different criteria."),
                                first=faces.index(face) + 1, second=number, count=FACE_COUNT)
    return tuple(faces)


def describe_criterion(criterion_id: str, lang: str) -> dict:
    """A criterion as JSON for the screens, its wording in ``lang``."""
    criterion = get_criterion(criterion_id)
    return {"id": criterion.id, "wording": translate(lang, criterion.wording), "direction": criterion.direction,
            "kind": criterion.kind, "unit": criterion.unit}


def describe_faces(faces: Any, lang: str) -> list[dict]:
    """The faces of a reference as JSON: ``[{"face": 1, "id": ..., "wording": ...}, ...]``."""
    return [{"face": number, **describe_criterion(face, lang)}
            for number, face in enumerate(check_faces(faces), start=1)]


def describe_reference(reference_id: str, lang: str) -> dict:
    reference = REFERENCES.get(reference_id)
    if reference is None:
        raise IllegalAction(N_("Unknown reference: %(reference)s."), reference=str(reference_id)[:40])
    return {"id": reference.id, "title": translate(lang, reference.title),
            "faces": describe_faces(reference.faces, lang)}


# Values ---------------------------------------------------------------------

def _value(value: float, source: str, display: str) -> dict:
    return {"value": value, "source": source, "display": display}


def _decimal(number: float, lang: str) -> str:
    text = f"{number:g}"
    return text.replace(".", ",") if lang == "fr" else text


VARIANT = re.compile(r"\s+[-–—]\s|\s*\(")


def _name(figure: dict, lang: str) -> tuple[str | None, str]:
    """The character's name in ``lang`` without the variant, and where it comes from:
    ``"fact"``, ``"english"`` (no French name known) or ``"catalogue"``."""
    figure_id = figure.get("id")
    facts = facts_for(figure_id) if isinstance(figure_id, str) else None
    if facts is not None:
        return character_name(facts.name, lang)
    names = figure.get("names")
    name = (names.get(lang) if isinstance(names, dict) else None) or figure.get("name")
    if not isinstance(name, str):
        return None, "catalogue"
    return VARIANT.split(name, maxsplit=1)[0], "catalogue"


def letter_count(name: str) -> int:
    """The letters of a name, in any alphabet: not spaces, punctuation or digits."""
    return sum(1 for char in unicodedata.normalize("NFC", name) if char.isalpha())


def _letters(figure: dict, lang: str) -> dict | None:
    name, name_source = _name(figure, lang)
    if not isinstance(name, str) or not name.strip():
        return None
    count = letter_count(name)
    wording = Plural("%(count)s letter", "%(count)s letters")
    return {**_value(count, COMPUTED, translate(lang, wording, count=count)), "name": name,
            "name_source": name_source}


def first_release(figure: dict) -> date | None:
    """The earliest release date of the figure over the regions, if any."""
    release = figure.get("release")
    dates = []
    for text in release.values() if isinstance(release, dict) else ():
        try:
            dates.append(date.fromisoformat(text))
        except (TypeError, ValueError):
            continue
    return min(dates, default=None)


def _release(figure: dict, lang: str) -> dict | None:
    released = first_release(figure)
    return None if released is None else _value(released.toordinal(), COMPUTED, released.isoformat())


def _fact(field: str, display: Callable[[float, str], str]):
    def value(figure: dict, lang: str) -> dict | None:
        figure_id = figure.get("id")
        facts = facts_for(figure_id) if isinstance(figure_id, str) else None
        found = facts.get(field) if facts else None
        if found is None:
            return None
        number, source = found  # "fact" or "estimate"
        return _value(number, source, display(number, lang))
    return value


_weight = _fact("weight", lambda number, lang: _decimal(number, lang))
_debut = _fact("debut", lambda number, lang: str(number))
_height = _fact("height", lambda number, lang: f"{_decimal(number, lang)} m")

_VALUES: dict[str, Callable[[dict, str], dict | None]] = {
    "shortest_name": _letters, "longest_name": _letters,
    "oldest_figure": _release, "newest_figure": _release,
    "lightest": _weight, "heaviest": _weight,
    "tallest": _height, "smallest": _height,
    "oldest_character": _debut, "newest_character": _debut,
}


def figure_value(criterion_id: str, figure: dict, lang: str) -> dict | None:
    """``{"value", "source", "display"}`` of a figure (a `Catalog.describe` dict)
    for a computed or facts criterion; None when unknown, and for the
    situational and judgement kinds (the board or the house ranking decides).

    ``source`` is ``"computed"``, ``"fact"`` or ``"estimate"``; ``display`` is
    short text ("1.75 m", "98", "1985", "2014-11-21", "5 letters") in ``lang``.
    ``shortest_name`` and ``longest_name`` count letters only (not spaces,
    punctuation or digits); ``oldest_figure`` and ``newest_figure`` compare the
    first release over the regions, as an ordinal day.
    """
    get_criterion(criterion_id)
    compute = _VALUES.get(criterion_id)
    return compute(figure, language(lang)) if compute else None


def figure_values(figure: dict, lang: str) -> dict[str, dict]:
    """Every computed or facts criterion that has a value for the figure."""
    values = {criterion_id: figure_value(criterion_id, figure, lang) for criterion_id in _VALUES}
    return {criterion_id: value for criterion_id, value in values.items() if value is not None}


def _number(value: Any) -> float | None:
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def compare(criterion_id: str, a: Any, b: Any) -> int:
    """1 when value ``a`` wins, -1 when ``b`` wins, 0 for a tie, by the
    criterion's direction. Values are numbers or `figure_value` dicts; a
    situational criterion compares the numbers the board gives (supports,
    rows). An unknown value (None) decides nothing: 0."""
    criterion = get_criterion(criterion_id)
    a, b = _number(a), _number(b)
    if a is None or b is None or a == b:
        return 0
    a_wins = a < b if criterion.direction == MIN else a > b
    return 1 if a_wins else -1


def rank(criterion_id: str, entries: list[tuple[str, Any]]) -> list[list[str]]:
    """Tiers of ids, best first: equal values share a tier (in the order
    given). The ids without a value come last, together in one final tier."""
    criterion = get_criterion(criterion_id)
    seen: set[str] = set()
    known, unknown = [], []
    for figure_id, value in entries:
        if figure_id in seen:
            continue
        seen.add(figure_id)
        number = _number(value)
        if number is None:
            unknown.append(figure_id)
        else:
            known.append((number, figure_id))
    known.sort(key=lambda entry: entry[0], reverse=criterion.direction == MAX)
    tiers: list[list[str]] = []
    for position, (number, figure_id) in enumerate(known):
        if position and number == known[position - 1][0]:
            tiers[-1].append(figure_id)
        else:
            tiers.append([figure_id])
    return tiers + ([unknown] if unknown else [])
