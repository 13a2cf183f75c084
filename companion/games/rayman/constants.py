"""Rayman: the numbers of the box and of the board, and the commitment of a secret choice."""

from __future__ import annotations

import hashlib
import json


MODES = ("competitive", "coop", "solo")


DIFFICULTIES = ("novice", "intermediate", "hero", "legend", "custom")


BOARDS = ("jungle", "foret", "fiesta", "enfer")  # also the tournament's order


PROJECTILES = ("missile", "fourchette", "feu_artifice", "fantome_rouge", "bombe_volante")


BOSSES = ("crapaud_blinde", "ptizetre_malefique", "seabreather", "grundermord")


CHARACTERS = ("Rayman", "Globox", "Barbara", "Grand Minimus")


LEGENDARY_CARDS = ("esquiveur", "vagabond", "fracasseur", "sprinteur", "filou", "grimpeur")


AUTO_ON_OFF = ("auto", "on", "off")


ON_OFF = ("off", "on")


PRESETS = {
    "novice": {"board": "jungle", "projectile": None, "card": False, "extras": False, "legendary": False,
               "boss": "crapaud_blinde"},
    "intermediate": {"board": "foret", "projectile": "missile", "card": False, "extras": True,
                     "legendary": False, "boss": "ptizetre_malefique"},
    "hero": {"board": "fiesta", "projectile": "fourchette", "card": True, "extras": True, "legendary": False,
             "boss": "seabreather"},
    "legend": {"board": "enfer", "projectile": "fantome_rouge", "card": True, "extras": True, "legendary": True,
               "boss": "grundermord"},
    "custom": {"board": "jungle", "projectile": None, "card": True, "extras": False, "legendary": False,
               "boss": "crapaud_blinde"},
}


BASE_CARDS = 8


EXTRA_CARDS = 22


DRAFT_ROUNDS = 2


SOLO_DRAFT = 3


MAX_INITIATIVE = 99


START_COLUMN = 0


LAST_COLUMN = 43


SECOND_TILE = 22


SPAWN_COLUMNS = (21, 43)


PROJECTILE_END = {21: 1, 43: 22}  # the last column a projectile from each spawn crosses


MAX_COLUMN = LAST_COLUMN + 40  # room enough past the finish line


LEVELS = 3


MAX_BONUS = 4


PTIZETRES_TO_FINISH = 3
CAPTIVES = 4  # captive Ptizêtre tokens in the box (the option may place 3)


BUBBLE_MODE_ADVANCE = 4
MAX_SLAP_DISTANCE = 3


BOSS_DECK = 3


MAX_BOSS_MOVE = 20




# The projectile card lines the book quotes as reading « CE ROUND-CI »: in effect from the roll to the end of
# the round, so announced at the roll and not applied at the round's end. The book quotes one, the Missile's
# line 2 (« Tous les Ennemis ont maintenant besoin de 1 🦋 supplémentaire pour être vaincus CE ROUND-CI »); it
# prints no other line of any card (a line from a trusted source goes here, with it).
ROUND_LONG_LINES = {"missile": (2,)}


def lasts_the_round(card, line) -> bool:
    return line in ROUND_LONG_LINES.get(card, ())


HISTORY_KEPT = 40  # events kept in the state for the screens (the table's log keeps them all)


RANDOM_DISCARDS = 2


PLACE_POINTS = (5, 3, 2)


OTHER_PLACE_POINTS = 1


HURT_CAUSES = ("enemy", "obstacle", "wall", "projectile", "boss")


DIRECTIONS = {"forward": (1, 0), "back": (-1, 0), "up": (0, 1), "down": (0, -1)}


SETUP_PHASES = ("characters", "legendary", "draft", "exchange")


RACE_PHASES = ("round_start", "choosing", "revealing", "initiatives", "turns", "round_end", "finish")


HIT_PHASES = RACE_PHASES[:-1]  # a hit can happen in a turn, or by the free move at the end of a round


def canonical_json(value) -> str:
    """Keys sorted, no spaces: the bytes a phone hashes to check a reveal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def commitment(choice: dict, salt: str) -> str:
    return hashlib.sha256((canonical_json(choice) + salt).encode()).hexdigest()
