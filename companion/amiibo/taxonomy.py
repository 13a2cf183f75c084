"""A small built-in taxonomy, written by hand for the project: the figure
types, and the names of the common amiibo series and game series.

It names what an imported catalogue does not know yet, so that even an unknown
figure shows as "unknown figure #0x… — Super Smash Bros. series". Names are
(English, French); the French is left out where it is the same. An imported
catalogue (the AmiiboAPI) takes precedence in the languages it covers.
"""

from __future__ import annotations

# Byte 3 of the id.
FIGURE_TYPES: dict[int, tuple[str, ...]] = {
    0x00: ("Figure", "Figurine"),
    0x01: ("Card", "Carte"),
    0x02: ("Yarn", "Laine"),
    0x03: ("Band", "Bracelet"),
    0x04: ("Block", "Bloc"),
}

# Byte 6 of the id: the product line a figure was sold in.
AMIIBO_SERIES: dict[int, tuple[str, ...]] = {
    0x00: ("Super Smash Bros.",),
    0x01: ("Super Mario Bros.",),
    0x02: ("Chibi-Robo!",),
    0x03: ("Yoshi's Woolly World",),
    0x04: ("Splatoon",),
    0x05: ("Animal Crossing",),
    0x06: ("8-bit Mario", "Mario 8 bits"),
    0x07: ("Skylanders",),
    0x09: ("The Legend of Zelda",),
    0x0A: ("Shovel Knight",),
    0x0C: ("Kirby",),
    0x0D: ("Pokémon",),
    0x0E: ("Mario Sports Superstars",),
    0x0F: ("Monster Hunter",),
    0x10: ("BoxBoy!",),
    0x11: ("Pikmin",),
    0x12: ("Fire Emblem",),
    0x13: ("Metroid",),
    0x14: ("Others", "Autres"),
    0x15: ("Mega Man",),
}

# The 10-bit game series (the top bits of the character): (first, last, names).
# Animal Crossing and Pokémon have more characters than one game series holds
# (64), so they span several numbers.
GAME_SERIES: tuple[tuple[int, int, tuple[str, ...]], ...] = (
    (0x000, 0x000, ("Super Mario",)),
    (0x002, 0x002, ("Yoshi",)),
    (0x003, 0x003, ("Donkey Kong",)),
    (0x004, 0x005, ("The Legend of Zelda",)),
    (0x006, 0x014, ("Animal Crossing",)),
    (0x016, 0x016, ("Star Fox",)),
    (0x017, 0x017, ("Metroid",)),
    (0x018, 0x018, ("F-Zero",)),
    (0x019, 0x019, ("Pikmin",)),
    (0x01B, 0x01B, ("Punch-Out!!",)),
    (0x01C, 0x01C, ("Wii Fit",)),
    (0x01D, 0x01D, ("Kid Icarus",)),
    (0x01E, 0x01E, ("Classic Nintendo", "Nintendo rétro")),
    (0x01F, 0x01F, ("Mii",)),
    (0x020, 0x020, ("Splatoon",)),
    (0x027, 0x027, ("Mario Sports Superstars",)),
    (0x028, 0x028, ("Animal Crossing",)),
    (0x029, 0x029, ("ARMS",)),
    (0x064, 0x077, ("Pokémon",)),
    (0x07C, 0x07C, ("Kirby",)),
    (0x07D, 0x07D, ("BoxBoy!",)),
    (0x084, 0x084, ("Fire Emblem",)),
    (0x089, 0x089, ("Xenoblade Chronicles",)),
    (0x08A, 0x08A, ("EarthBound",)),
    (0x08B, 0x08B, ("Chibi-Robo!",)),
    (0x0C8, 0x0C8, ("Sonic the Hedgehog", "Sonic")),
    (0x0C9, 0x0C9, ("Bayonetta",)),
    (0x0CD, 0x0CD, ("Pac-Man",)),
    (0x0D2, 0x0D2, ("Mega Man",)),
    (0x0D3, 0x0D3, ("Street Fighter",)),
    (0x0D4, 0x0D4, ("Monster Hunter",)),
    (0x0D7, 0x0D7, ("Shovel Knight",)),
    (0x0D8, 0x0D8, ("Final Fantasy",)),
    (0x0D9, 0x0D9, ("Dragon Quest",)),
    (0x0DE, 0x0DE, ("Metal Gear Solid",)),
    (0x0DF, 0x0DF, ("Castlevania",)),
    (0x0ED, 0x0ED, ("Banjo-Kazooie",)),
    (0x0F7, 0x0F7, ("Minecraft",)),
    (0x0FC, 0x0FC, ("Kingdom Hearts",)),
)

LANGUAGES = ("en", "fr")


def _pick(names: tuple[str, ...] | None, lang: str) -> str | None:
    if names is None:
        return None
    return names[LANGUAGES.index(lang)] if lang != "en" and len(names) > 1 else names[0]


def figure_type_name(figure_type: int, lang: str = "en") -> str | None:
    return _pick(FIGURE_TYPES.get(figure_type), lang)


def amiibo_series_name(amiibo_series: int, lang: str = "en") -> str | None:
    return _pick(AMIIBO_SERIES.get(amiibo_series), lang)


def game_series_name(game_series: int, lang: str = "en") -> str | None:
    """The name of a 10-bit game series."""
    for first, last, names in GAME_SERIES:
        if first <= game_series <= last:
            return _pick(names, lang)
    return None
