"""What the pure games need from the server's memory, and what they teach it.

Amiiboxe's rules never read the catalogue or the database: when a game
starts, each figure gets its criterion values (from the catalogue and the
fact tables, in the table's language) and its remembered home location, and
the game gets the criteria, the references and what the house rankings say
about its figures. During the game, what the players agreed on ("house_learned")
and the locations they named ("location_named") are remembered for later games.
"""

from __future__ import annotations

from typing import Callable

from companion.amiibo.catalog import Catalog
from companion.amiibo.criteria import CRITERIA, REFERENCES, figure_values
from companion.amiibo.house import HouseRankings
from companion.amiibo.judgements import default_tiers
from companion.amiibo.locations import FigureLocations, suggested_home
from companion.games.base import Game
from companion.tables import GameServices

AMIIBOXE = "amiiboxe"


class CompanionServices(GameServices):
    def __init__(self, catalog: Catalog, house: HouseRankings, locations: FigureLocations,
                 language: Callable[[], str] = lambda: "en"):
        self.catalog = catalog
        self.house = house
        self.locations = locations
        self.language = language  # the table's language: the host screen's, when it starts the game

    def prepare(self, game: Game, options: dict, seats: list[dict]) -> tuple[dict, list[dict]]:
        if game.id != AMIIBOXE:
            return options, seats
        lang = self.language()
        ids = [figure["amiibo_id"] for seat in seats for figure in seat["figures"]]
        remembered = self.locations.get(ids)
        seats = [{**seat, "figures": [self._figure(figure, lang, remembered) for figure in seat["figures"]]}
                 for seat in seats]
        return {**options, "context": self.context(ids, lang)}, seats

    def context(self, amiibo_ids: list[str], lang: str) -> dict:
        return {
            "lang": lang,
            "criteria": {cid: {"kind": c.kind, "direction": c.direction} for cid, c in CRITERIA.items()},
            "references": {rid: list(reference.faces) for rid, reference in REFERENCES.items()},
            "house": {cid: [list(pair) for pair in ranking.edges_among(amiibo_ids)]
                      for cid, ranking in self.house.every().items()},
            "defaults": {cid: default_tiers(cid, amiibo_ids) for cid, c in CRITERIA.items() if c.kind == "judgement"},
            "cards": sorted({home for home in map(suggested_home, amiibo_ids) if home}),
        }

    def _figure(self, figure: dict, lang: str, remembered: dict[str, str]) -> dict:
        values = figure_values(self.catalog.describe(figure["amiibo_id"], lang), lang)
        return {**figure, "values": {cid: value["value"] for cid, value in values.items()},
                "displays": {cid: value["display"] for cid, value in values.items()},
                "location": remembered.get(figure["amiibo_id"]) or suggested_home(figure["amiibo_id"])}

    def remember(self, game: Game, events: list[dict], table: str = "") -> None:
        if game.id != AMIIBOXE:
            return
        for event in events:
            if event["type"] == "house_learned":
                # Two players agreeing is their table's word: the house ranking, shared by every
                # table, takes it once other tables said the same (HouseRankings.endorse).
                self.house.endorse(event["criterion"], [[event["winner"]], [event["loser"]]], table)
            elif event["type"] == "location_named":
                self.locations.remember(event["amiibo_id"], event["name"])
