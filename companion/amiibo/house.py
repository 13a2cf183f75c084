"""The house ranking: what this table has decided about criteria that need
judging ("the least clothed"), remembered for later games, and the rankings
page's answer for any criterion.

Per criterion, the house ranking knows *wins* (winner, loser) and *ties*
(two figures equal), between figures named by amiibo id. Knowledge is
transitive: a tie makes two figures one (what beats one beats the other), and
a figure beats every figure a chain of wins leads to from it. It never
contradicts itself: `HouseRanking.learn` and `HouseRanking.tie` refuse what
would close a loop. Figures it cannot order are simply not ordered yet: at a
fight the two players then judge, and when they agree the game teaches the
answer to the house ranking (a disagreement is a tie for that fight only and
teaches nothing).

Where the book is silent, we chose:

* Dragging figures into tiers (`HouseRanking.reorder`) replaces everything
  known among the figures shown by the new order: a tier ties its figures,
  each tier beats the later ones. What is known about the figures not shown
  is kept as long as it agrees with the new order; what would contradict it
  is forgotten (the latest edit wins).
* For display (`HouseRanking.tiers`), one tier holds tied figures; figures
  that are not ordered with each other appear one tier after the other, in
  the order asked, and the figures the ranking knows nothing about relative
  to the others shown come last, together, like unknown values in
  `companion.amiibo.criteria.rank`.
* Any criterion may have a house ranking (the judgement ones need it; PRO
  mode may use it for the others).

`HouseRanking` and `rankings` are pure; `HouseRankings` keeps one house
ranking per criterion in the store (table ``amiibo_house_rankings``).

A house ranking is shared by every table of the server, so it changes only by
agreement across tables (`HouseRankings.endorse`): what one table agreed (a
proposal agreed at that table) is that table's word on each pair of figures it
orders, and a pair's order reaches the house ranking once ``tables_needed``
different tables (2 by default, ``COMPANION_HOUSE_TABLES``) gave the same word.
A table's newer word on a pair replaces its older one; the house ranking takes
the latest order agreed across tables (the edit wins, as in `reorder`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable

from companion.amiibo.criteria import (CRITERIA, JUDGEMENT, VALUED_KINDS, describe_criterion, figure_value,
                                       get_criterion, rank)
from companion.amiibo.ids import InvalidAmiiboId, normalize
from companion.amiibo.locale import language, translate
from companion.games.base import N_, IllegalAction

SCHEMA = """
CREATE TABLE IF NOT EXISTS amiibo_house_rankings (
    criterion   TEXT NOT NULL,
    position    INTEGER NOT NULL,
    relation    TEXT NOT NULL CHECK (relation IN ('beats', 'ties')),
    first       TEXT NOT NULL,
    second      TEXT NOT NULL,
    PRIMARY KEY (criterion, position)
);
"""

BEATS, TIES = "beats", "ties"

ENDORSEMENTS = """
CREATE TABLE IF NOT EXISTS amiibo_house_endorsements (
    criterion   TEXT NOT NULL,
    first       TEXT NOT NULL,
    second      TEXT NOT NULL,
    relation    TEXT NOT NULL CHECK (relation IN ('beats', 'ties')),
    table_code  TEXT NOT NULL,
    PRIMARY KEY (criterion, first, second, table_code)
);
"""


def _figure(value: Any) -> str:
    """A figure's canonical amiibo id (`IllegalAction` for a malformed one)."""
    try:
        return normalize(value)
    except InvalidAmiiboId as error:
        raise IllegalAction(error.message, **error.params) from None


def _unique(figures: Iterable[Any]) -> list[str]:
    return list(dict.fromkeys(_figure(figure) for figure in figures))


class HouseRanking:
    """What a table knows about one criterion: wins and ties between figures."""

    def __init__(self) -> None:
        self._wins: list[tuple[str, str]] = []
        self._ties: list[tuple[str, str]] = []
        self._forget_structure()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HouseRanking) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"HouseRanking(wins={self._wins!r}, ties={self._ties!r})"

    @property
    def wins(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._wins)

    @property
    def ties(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._ties)

    # The transitive structure ------------------------------------------------
    def _forget_structure(self) -> None:
        self._roots: dict[str, str] | None = None
        self._below: dict[str, set[str]] = {}
        self._reached: dict[str, frozenset[str]] = {}

    def _root(self, figure: str) -> str:
        """The representative of the figures tied with ``figure``."""
        if self._roots is None:
            parent: dict[str, str] = {}

            def find(node: str) -> str:
                while parent.get(node, node) != node:
                    node = parent[node]
                return node

            for first, second in self._ties:
                first_root, second_root = find(first), find(second)
                if first_root != second_root:
                    parent[second_root] = first_root
            self._roots = {node: find(node) for node in parent}
            below: dict[str, set[str]] = defaultdict(set)
            for winner, loser in self._wins:
                below[self._roots.get(winner, winner)].add(self._roots.get(loser, loser))
            self._below = below
        return self._roots.get(figure, figure)

    def _beaten_by(self, root: str) -> frozenset[str]:
        """The roots a chain of wins leads to from ``root``."""
        self._root(root)  # builds the structure if needed
        if root not in self._reached:
            reached: set[str] = set()
            waiting = list(self._below.get(root, ()))
            while waiting:
                node = waiting.pop()
                if node not in reached:
                    reached.add(node)
                    waiting.extend(self._below.get(node, ()))
            self._reached[root] = frozenset(reached)
        return self._reached[root]

    def _verdict(self, a: str, b: str) -> int | None:
        root_a, root_b = self._root(a), self._root(b)
        if root_a == root_b:
            return 0
        if root_b in self._beaten_by(root_a):
            return 1
        if root_a in self._beaten_by(root_b):
            return -1
        return None

    # Questions ---------------------------------------------------------------
    def decides(self, a: Any, b: Any) -> int | None:
        """1 when ``a`` wins, -1 when ``b`` wins, 0 when they are tied (or the
        same figure), None when the house ranking does not order them yet."""
        return self._verdict(_figure(a), _figure(b))

    def edges_among(self, figures: Iterable[Any]) -> list[tuple[str, str]]:
        """Every (winner, loser) pair among these figures, transitive ones included."""
        ids = _unique(figures)
        return [(a, b) for a in ids for b in ids if self._verdict(a, b) == 1]

    def ties_among(self, figures: Iterable[Any]) -> list[tuple[str, str]]:
        """Every pair of different figures among these that the house ranking ties."""
        ids = _unique(figures)
        return [(a, b) for index, a in enumerate(ids) for b in ids[index + 1:] if self._verdict(a, b) == 0]

    def unranked(self, figures: Iterable[Any]) -> list[str]:
        """The figures the house ranking neither orders nor ties with any other of these."""
        ids = _unique(figures)
        return [a for a in ids if all(self._verdict(a, b) is None for b in ids if b != a)]

    def tiers(self, figures: Iterable[Any]) -> list[list[str]]:
        """These figures in tiers for display, best first (see the module
        docstring): tied figures share a tier; the unranked ones come last."""
        ids = _unique(figures)
        unranked = set(self.unranked(ids))
        classes: dict[str, list[str]] = {}
        for figure in ids:
            if figure not in unranked:
                classes.setdefault(self._root(figure), []).append(figure)
        above = {root: {other for other in classes if other != root and root in self._beaten_by(other)}
                 for root in classes}
        tiers = []
        while above:  # Kahn's algorithm, the earliest asked first among the free classes
            free = next(root for root in classes if root in above and not above[root])
            tiers.append(classes[free])
            del above[free]
            for waiting in above.values():
                waiting.discard(free)
        last = [figure for figure in ids if figure in unranked]
        return tiers + ([last] if last else [])

    # Learning ----------------------------------------------------------------
    def learn(self, winner: Any, loser: Any) -> None:
        """Remembers that ``winner`` beats ``loser`` (`IllegalAction` if the
        house ranking already says otherwise)."""
        winner, loser = _figure(winner), _figure(loser)
        if winner == loser:
            raise IllegalAction(N_("A figure cannot beat itself."))
        verdict = self._verdict(winner, loser)
        if verdict == -1:
            raise IllegalAction(N_("That contradicts the house ranking: it already ranks these two figures the "
                                   "other way round."), winner=winner, loser=loser)
        if verdict == 0:
            raise IllegalAction(N_("That contradicts the house ranking: it already ties these two figures."),
                                winner=winner, loser=loser)
        if (winner, loser) not in self._wins:
            self._wins.append((winner, loser))
            self._forget_structure()

    def tie(self, a: Any, b: Any) -> None:
        """Remembers that ``a`` and ``b`` are equal (`IllegalAction` if one already beats the other)."""
        a, b = _figure(a), _figure(b)
        if a == b:
            return
        if self._verdict(a, b) in (1, -1):
            raise IllegalAction(N_("That contradicts the house ranking: one of these two figures already beats "
                                   "the other."), first=a, second=b)
        pair = (min(a, b), max(a, b))
        if pair not in self._ties:
            self._ties.append(pair)
            self._forget_structure()

    def reorder(self, order: Any) -> None:
        """A drag-and-drop edit: the tiers (best first, each a list of figures)
        replace what is known among their figures; knowledge involving other
        figures stays where it agrees with them."""
        tiers = _order(order)
        listed = {figure for tier in tiers for figure in tier}
        old_wins, old_ties = self._wins, self._ties
        # One chain per tier and one win per pair of neighbouring tiers say it
        # all: ties are transitive and so are wins.
        self._ties = [(min(a, b), max(a, b)) for tier in tiers for a, b in zip(tier, tier[1:])]
        self._wins = [(upper[0], lower[0]) for upper, lower in zip(tiers, tiers[1:])]
        self._forget_structure()
        for keep, pairs in ((self.learn, old_wins), (self.tie, old_ties)):
            for first, second in pairs:
                if first in listed and second in listed:
                    continue
                try:
                    keep(first, second)
                except IllegalAction:
                    pass  # contradicts the new order: the edit wins

    # JSON ----------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"wins": [list(pair) for pair in self._wins], "ties": [list(pair) for pair in self._ties]}

    @classmethod
    def from_json(cls, data: Any) -> "HouseRanking":
        """The house ranking `to_json` wrote (`IllegalAction` if malformed or self-contradictory)."""
        if not isinstance(data, dict) or set(data) != {"wins", "ties"}:
            raise IllegalAction(N_("A house ranking is a list of wins and a list of ties."))
        ranking = cls()
        for relation, add in (("wins", ranking.learn), ("ties", ranking.tie)):
            pairs = data[relation]
            if not isinstance(pairs, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
                raise IllegalAction(N_("A house ranking is a list of wins and a list of ties."))
            for first, second in pairs:
                add(first, second)
        return ranking


def _order(order: Any) -> list[list[str]]:
    """The tiers of a reorder, checked: lists of figures, none twice, empty tiers dropped."""
    if not isinstance(order, list) or not all(isinstance(tier, list) for tier in order):
        raise IllegalAction(N_("An order is a list of tiers, each a list of figures."))
    seen: set[str] = set()
    tiers = []
    for tier in order:
        figures = [_figure(figure) for figure in tier]
        for figure in figures:
            if figure in seen:
                raise IllegalAction(N_("A figure can appear only once in an order."))
            seen.add(figure)
        if figures:
            tiers.append(figures)
    return tiers


def relations(tiers: list[list[str]]) -> list[tuple[str, str, str]]:
    """Each pair of figures an order ranks, as (relation, first, second): ties with the pair
    sorted, wins with the better figure first."""
    pairs = [(TIES, *sorted((a, b))) for tier in tiers for i, a in enumerate(tier) for b in tier[i + 1:]]
    pairs += [(BEATS, a, b) for i, upper in enumerate(tiers) for lower in tiers[i + 1:] for a in upper for b in lower]
    return pairs


class HouseRankings:
    """The house rankings of this server, one per criterion, kept in the store."""

    def __init__(self, store, tables_needed: int = 2):
        self.store = store
        self.tables_needed = max(1, tables_needed)
        store.ensure_schema(SCHEMA)
        store.ensure_schema(ENDORSEMENTS)

    def endorse(self, criterion_id: str, order: Any, table_code: str) -> dict:
        """A table agreed on this order: its word on each pair the order ranks. The pairs that as many
        tables as needed now order the same way reach the house ranking; the others wait.
        Returns ``{"changed": [...], "waiting": [...]}``, each a list of (relation, first, second)."""
        get_criterion(criterion_id)
        said = relations(_order(order))
        with self.store.transaction() as tx:
            for relation, first, second in said:
                pair = sorted((first, second))
                # The table's newer word on a pair replaces its older one, whichever way it went.
                tx.execute("DELETE FROM amiibo_house_endorsements WHERE criterion = ? AND table_code = ? AND "
                           "((first = ? AND second = ?) OR (first = ? AND second = ?))",
                           (criterion_id, table_code, pair[0], pair[1], pair[1], pair[0]))
                tx.execute("INSERT INTO amiibo_house_endorsements (criterion, first, second, relation, table_code) "
                           "VALUES (?, ?, ?, ?, ?)", (criterion_id, first, second, relation, table_code))
            agreed = [pair for pair in said if self._tables_saying(tx, criterion_id, pair) >= self.tables_needed]
            if agreed:
                ranking = self._load(tx, criterion_id)
                for relation, first, second in agreed:
                    ranking.reorder([[first, second]] if relation == TIES else [[first], [second]])
                self._save(tx, criterion_id, ranking)
        return {"changed": agreed, "waiting": [pair for pair in said if pair not in agreed]}

    @staticmethod
    def _tables_saying(tx, criterion_id: str, pair: tuple[str, str, str]) -> int:
        relation, first, second = pair
        row = tx.execute("SELECT COUNT(DISTINCT table_code) FROM amiibo_house_endorsements WHERE criterion = ? "
                         "AND relation = ? AND first = ? AND second = ?",
                         (criterion_id, relation, first, second)).fetchone()
        return row[0]

    def get(self, criterion_id: str) -> HouseRanking:
        get_criterion(criterion_id)
        with self.store.reading() as tx:
            return self._load(tx, criterion_id)

    def every(self) -> dict[str, HouseRanking]:
        """Every criterion's house ranking, read at once (a game starting needs them all)."""
        with self.store.reading() as tx:
            return {criterion_id: self._load(tx, criterion_id) for criterion_id in CRITERIA}

    def learn(self, criterion_id: str, winner: Any, loser: Any) -> HouseRanking:
        return self._change(criterion_id, lambda ranking: ranking.learn(winner, loser))

    def tie(self, criterion_id: str, a: Any, b: Any) -> HouseRanking:
        return self._change(criterion_id, lambda ranking: ranking.tie(a, b))

    def reorder(self, criterion_id: str, order: Any) -> HouseRanking:
        return self._change(criterion_id, lambda ranking: ranking.reorder(order))

    def _change(self, criterion_id: str, change: Callable[[HouseRanking], None]) -> HouseRanking:
        get_criterion(criterion_id)
        with self.store.transaction() as tx:
            ranking = self._load(tx, criterion_id)
            change(ranking)
            self._save(tx, criterion_id, ranking)
        return ranking

    @staticmethod
    def _load(tx, criterion_id: str) -> HouseRanking:
        data: dict[str, list] = {"wins": [], "ties": []}
        for row in tx.execute("SELECT relation, first, second FROM amiibo_house_rankings WHERE criterion = ? "
                              "ORDER BY position", (criterion_id,)):
            data["wins" if row["relation"] == BEATS else "ties"].append([row["first"], row["second"]])
        return HouseRanking.from_json(data)

    @staticmethod
    def _save(tx, criterion_id: str, ranking: HouseRanking) -> None:
        rows = [(BEATS, *pair) for pair in ranking.wins] + [(TIES, *pair) for pair in ranking.ties]
        tx.execute("DELETE FROM amiibo_house_rankings WHERE criterion = ?", (criterion_id,))
        tx.executemany("INSERT INTO amiibo_house_rankings (criterion, position, relation, first, second) "
                       "VALUES (?, ?, ?, ?, ?)",
                       [(criterion_id, position, *row) for position, row in enumerate(rows)])


# The rankings page ------------------------------------------------------------

def _entry(figure: dict, value: dict | None, source: str | None = None) -> dict:
    return {"id": figure["id"], "label": figure.get("label") or figure.get("name") or figure["id"],
            "value": value["value"] if value else None, "display": value["display"] if value else None,
            "source": value["source"] if value else source}


def rankings(criterion_id: str, figures: list[dict], lang: str, house: HouseRanking | None = None) -> dict:
    """What ``GET /api/rankings/{criterion}`` returns for these figures
    (`Catalog.describe` dicts, in ``lang``): ``{"criterion": {id, wording,
    kind, direction, unit}, "tiers": [[{id, label, value, display, source}]]}``,
    best tier first, tied figures sharing a tier.

    * computed and facts criteria: the figures' values (``source`` computed,
      fact or estimate); those without a value last, together, with
      ``source`` None;
    * judgement criteria: the house ranking's tiers (``source`` "house"); the
      figures it does not order last, together, with ``source`` None;
    * situational criteria: one tier and a ``note``: the board decides.
    """
    criterion = get_criterion(criterion_id)
    lang = language(lang)
    by_id = {}
    for figure in figures:
        by_id.setdefault(_figure(figure.get("id")), {**figure, "id": _figure(figure.get("id"))})
    result: dict[str, Any] = {"criterion": describe_criterion(criterion.id, lang)}
    if criterion.kind in VALUED_KINDS:
        values = {figure_id: figure_value(criterion.id, figure, lang) for figure_id, figure in by_id.items()}
        tiers = rank(criterion.id, list(values.items()))
        result["tiers"] = [[_entry(by_id[figure_id], values[figure_id]) for figure_id in tier] for tier in tiers]
    elif criterion.kind == JUDGEMENT:
        house = house or HouseRanking()
        unranked = set(house.unranked(by_id))
        result["tiers"] = [[_entry(by_id[figure_id], None, None if figure_id in unranked else "house")
                            for figure_id in tier] for tier in house.tiers(by_id)]
    else:
        result["tiers"] = [[_entry(figure, None) for figure in by_id.values()]] if by_id else []
        result["note"] = translate(lang, N_("The board decides at the moment of the fight."))
    return result
