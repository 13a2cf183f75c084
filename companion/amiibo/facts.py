"""Facts about the characters amiibo figures show, for Amiiboxe's criteria.

One line per character: its name (for the reviewer: the figure's own name
comes from the catalogue), the amiibo character keys it is sold under
(``"0x"`` + the first 4 hexadecimal digits of the id, as the AmiiboAPI keys its
``characters``), and three facts:

* ``weight``: the fighter's weight in Super Smash Bros. Ultimate (version 13,
  the last one), a number without a unit; None for a character who is not a
  fighter there.
* ``debut``: the year the character first appeared in a released game, under
  the name the figure gives it (Sheik appears in 1998 even though Zelda
  appears in 1986; Dr. Mario in 1990), the earliest region counting.
* ``height``: in metres.

Each value is a fact unless it is written ``est(...)``: an estimate. Facts
are official numbers: the Pokédex for Pokémon, the makers' profiles (Sonic
100 cm, Mega Man 132 cm, Samus 190 cm, Solid Snake 182 cm, Cloud 173 cm,
the Street Fighter and Fatal Fury profiles...), the games' own measures (a
Minecraft player is 1.8 blocks, a block being 1 m) and Smash's weights.
Estimates are read off the character's own games, by comparing it with a
character of known or usual height standing next to it, and rounded to 5 cm
(1 cm under 10 cm): an adult human of the age shown, an adult Hylian 1.70 m,
Mario 1.55 m (the usual figure; Nintendo gives none) for the Mushroom
Kingdom, Kirby's official 20 cm for Dream Land, a villager 1.10 m for Animal
Crossing, a Felyne 0.6 m for Monster Hunter. Smash's own scale is ignored:
everyone is resized there. A line's comment explains an estimate that needs
more than that. Pokémon Trainer's weight is an estimate too: the mean of
the weights of the three Pokémon the figure stands with.

A few figures show another fighter than their character key says (the
AmiiboAPI gives Dr. Mario Mario's key and Young Link Link's): `FORMS` has
their lines, keyed by the character key and the variant byte (``"0x"`` + 6
digits) or by the whole id, and is looked up first.

Characters not listed (most Animal Crossing villagers, the Power Pros and
Yu-Gi-Oh! cards) have no facts: the rankings show them without values.
"""

from __future__ import annotations

from dataclasses import dataclass

FACT, ESTIMATE = "fact", "estimate"


@dataclass(frozen=True)
class Estimate:
    """A value worked out by the project rather than published (see the module docstring)."""

    value: float


def est(value: float) -> Estimate:
    return Estimate(value)


@dataclass(frozen=True)
class Facts:
    name: str
    keys: tuple[str, ...]
    weight: int | Estimate | None
    debut: int
    height: float | Estimate | None

    def get(self, field: str) -> tuple[float, str] | None:
        """``(value, "fact" | "estimate")`` for ``weight``, ``debut`` or ``height``; None when unknown."""
        value = getattr(self, field)
        if value is None:
            return None
        if isinstance(value, Estimate):
            return value.value, ESTIMATE
        return value, FACT


def _keys(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# fmt: off
# The Super Smash Bros. Ultimate roster, then the other characters sold as figures or cards.
CHARACTERS: tuple[Facts, ...] = (
    #      name                  keys                     weight  debut  height
    Facts("Mario",               _keys("0x0000 0x09c0"),   98,    1981,  est(1.55)),
    Facts("Luigi",               _keys("0x0001 0x09c1"),   97,    1983,  est(1.75)),
    Facts("Peach",               _keys("0x0002 0x09c2"),   89,    1985,  est(1.85)),
    Facts("Yoshi",               _keys("0x0003 0x09c4"),  104,    1990,  est(1.6)),
    Facts("Rosalina & Luma",     _keys("0x0004 0x09cf"),   82,    2007,  est(2.0)),   # a head above Peach
    Facts("Bowser",              _keys("0x0005 0x09c9"),  135,    1985,  est(2.4)),
    Facts("Bowser Jr.",          _keys("0x0006 0x09ca"),  108,    2002,  est(1.0)),
    Facts("Wario",               _keys("0x0007 0x09c5"),  107,    1992,  est(1.6)),
    Facts("Donkey Kong",         _keys("0x0008 0x09c7"),  127,    1981,  est(2.0)),
    Facts("Diddy Kong",          _keys("0x0009 0x09c8"),   90,    1994,  est(0.9)),
    Facts("Daisy",               _keys("0x0013 0x09c3"),   89,    1989,  est(1.8)),
    Facts("Piranha Plant",       _keys("0x0024"),         112,    1985,  est(1.2)),   # out of its pipe
    Facts("King K. Rool",        _keys("0x00c0"),         133,    1994,  est(2.6)),
    Facts("Link",                _keys("0x0100"),         104,    1986,  est(1.7)),
    Facts("Zelda",               _keys("0x0101"),          85,    1986,  est(1.7)),
    Facts("Ganondorf",           _keys("0x0102"),         118,    1998,  est(2.3)),   # a head and a half above Link
    Facts("Villager",            _keys("0x0180"),          92,    2001,  est(1.1)),
    Facts("Isabelle",            _keys("0x0181"),          88,    2012,  est(1.0)),
    Facts("Fox",                 _keys("0x0580"),          77,    1993,  est(1.5)),
    Facts("Falco",               _keys("0x0581"),          82,    1993,  est(1.5)),
    Facts("Wolf",                _keys("0x0584"),          92,    1997,  est(1.7)),
    Facts("Samus",               _keys("0x05c0"),         108,    1986,  1.9),
    Facts("Ridley",              _keys("0x05c2"),         107,    1986,  est(4.0)),   # over twice Samus in Other M
    Facts("Dark Samus",          _keys("0x05c3"),         108,    2004,  est(1.9)),   # Samus's shape
    Facts("Captain Falcon",      _keys("0x0600"),         104,    1990,  est(1.85)),
    Facts("Olimar",              _keys("0x0640"),          79,    2001,  est(0.03)),  # a coin's height beside him
    Facts("Little Mac",          _keys("0x06c0"),          87,    1987,  est(1.7)),   # a young adult boxer
    Facts("Wii Fit Trainer",     _keys("0x0700"),          96,    2007,  est(1.7)),
    Facts("Pit",                 _keys("0x0740"),          96,    1986,  est(1.4)),
    Facts("Dark Pit",            _keys("0x0741"),          96,    2012,  est(1.4)),
    Facts("Palutena",            _keys("0x0742"),          91,    1986,  est(1.85)),
    Facts("Mr. Game & Watch",    _keys("0x0780"),          75,    1980,  est(1.0)),   # flat, and Mario-sized
    Facts("R.O.B.",              _keys("0x0781"),         106,    1985,  est(0.25)),  # the NES accessory it is
    Facts("Duck Hunt",           _keys("0x0782"),          86,    1984,  est(0.6)),   # a beagle-sized dog
    Facts("Ice Climbers",        _keys("0x078f"),          92,    1985,  est(1.0)),
    Facts("Mii Brawler",         _keys("0x07c0"),          94,    2006,  est(1.6)),   # the other Mii fighters: FORMS
    Facts("Inkling",             _keys("0x0800"),          94,    2015,  est(1.5)),   # a 14-year-old
    Facts("Min Min",             _keys("0x0a40"),         104,    2017,  est(1.6)),
    Facts("Ivysaur",             _keys("0x1902"),         104,    1996,  1.0),
    Facts("Charizard",           _keys("0x1906"),         116,    1996,  1.7),
    Facts("Squirtle",            _keys("0x1907"),          65,    1996,  0.5),
    Facts("Pikachu",             _keys("0x1919"),          79,    1996,  0.4),
    Facts("Jigglypuff",          _keys("0x1927"),          68,    1996,  0.5),
    Facts("Mewtwo",              _keys("0x1996"),          79,    1996,  2.0),
    Facts("Pichu",               _keys("0x19ac"),          62,    1999,  0.3),
    Facts("Lucario",             _keys("0x1ac0"),          92,    2006,  1.2),
    Facts("Greninja",            _keys("0x1b92"),          88,    2013,  1.5),
    Facts("Incineroar",          _keys("0x1bd7"),         116,    2016,  1.8),
    Facts("Pokémon Trainer",     _keys("0x1d40"),     est(95),    1996,  est(1.5)),   # (65 + 104 + 116) / 3
    Facts("Kirby",               _keys("0x1f00"),          79,    1992,  0.2),
    Facts("Meta Knight",         _keys("0x1f01"),          80,    1993,  est(0.25)),
    Facts("King Dedede",         _keys("0x1f02"),         127,    1992,  est(0.75)),  # three or four Kirbys
    Facts("Marth",               _keys("0x2100"),          90,    1990,  est(1.75)),
    Facts("Ike",                 _keys("0x2101"),         107,    2005,  est(1.85)),
    Facts("Lucina",              _keys("0x2102"),          90,    2012,  est(1.65)),
    Facts("Robin",               _keys("0x2103"),          95,    2012,  est(1.75)),
    Facts("Roy",                 _keys("0x2104"),          95,    2001,  est(1.7)),   # Melee, 2001
    Facts("Corrin",              _keys("0x2105"),          98,    2015,  est(1.75)),
    Facts("Chrom",               _keys("0x2108"),          95,    2012,  est(1.85)),
    Facts("Byleth",              _keys("0x210b"),          97,    2019,  est(1.75)),
    Facts("Shulk",               _keys("0x2240"),          97,    2010,  est(1.7)),
    Facts("Pyra",                _keys("0x2241"),          98,    2017,  est(1.6)),
    Facts("Mythra",              _keys("0x2242"),          92,    2017,  est(1.6)),
    Facts("Ness",                _keys("0x2280"),          94,    1994,  est(1.3)),   # a boy of about 12
    Facts("Lucas",               _keys("0x2281"),          94,    2006,  est(1.3)),
    Facts("Sonic",               _keys("0x3200"),          86,    1991,  1.0),
    Facts("Bayonetta",           _keys("0x3240"),          81,    2009,  est(1.85)),
    Facts("Pac-Man",             _keys("0x3340"),          95,    1980,  est(1.0)),
    Facts("Kazuya",              _keys("0x33c0"),         113,    1994,  1.8),
    Facts("Mega Man",            _keys("0x3480"),         102,    1987,  1.32),
    Facts("Ryu",                 _keys("0x34c0"),         103,    1987,  1.75),
    Facts("Ken",                 _keys("0x34c1"),         103,    1987,  1.76),
    Facts("Cloud",               _keys("0x3600"),         100,    1997,  1.73),
    Facts("Sephiroth",           _keys("0x3601"),          79,    1997,  1.85),
    Facts("Hero",                _keys("0x3640"),         101,    2017,  est(1.7)),
    Facts("Snake",               _keys("0x3780"),         106,    1987,  1.82),
    Facts("Simon",               _keys("0x37c0"),         107,    1986,  est(1.85)),
    Facts("Richter",             _keys("0x37c1"),         107,    1993,  est(1.8)),
    Facts("Joker",               _keys("0x3a00"),          93,    2016,  est(1.7)),
    Facts("Banjo & Kazooie",     _keys("0x3b40"),         106,    1998,  est(1.3)),
    Facts("Terry",               _keys("0x3c80"),         108,    1991,  1.82),
    Facts("Steve",               _keys("0x3dc0"),          92,    2009,  1.8),
    Facts("Alex",                _keys("0x3dc1"),          92,    2014,  1.8),
    Facts("Sora",                _keys("0x3f00"),          85,    2002,  est(1.55)),  # a boy of 14
    # Not fighters in Super Smash Bros. Ultimate: no weight.
    Facts("Toad",                _keys("0x000a"),        None,    1985,  est(0.9)),
    Facts("Waluigi",             _keys("0x0014 0x09c6"), None,    2000,  est(1.9)),
    Facts("Goomba",              _keys("0x0015"),        None,    1985,  est(0.7)),
    Facts("Boo",                 _keys("0x0017 0x09cb"), None,    1988,  est(0.7)),
    Facts("Koopa Troopa",        _keys("0x0023"),        None,    1985,  est(1.0)),
    Facts("Poochy",              _keys("0x0080"),        None,    1995,  est(1.0)),
    Facts("Baby Mario",          _keys("0x09cc"),        None,    1995,  est(0.6)),
    Facts("Baby Luigi",          _keys("0x09cd"),        None,    1995,  est(0.6)),
    Facts("Birdo",               _keys("0x09ce"),        None,    1987,  est(1.6)),
    Facts("Metal Mario",         _keys("0x09d0"),        None,    1996,  est(1.55)),
    Facts("Pink Gold Peach",     _keys("0x09d1"),        None,    2014,  est(1.85)),
    Facts("Midna",               _keys("0x0103"),        None,    2006,  est(1.3)),   # on Wolf Link's back
    Facts("Daruk",               _keys("0x0105"),        None,    2017,  est(3.0)),
    Facts("Urbosa",              _keys("0x0106"),        None,    2017,  est(2.3)),
    Facts("Mipha",               _keys("0x0107"),        None,    2017,  est(1.6)),
    Facts("Revali",              _keys("0x0108"),        None,    2017,  est(2.0)),
    Facts("Riju",                _keys("0x0109"),        None,    2017,  est(1.6)),
    Facts("Sidon",               _keys("0x010a"),        None,    2017,  est(3.0)),
    Facts("Tulin",               _keys("0x010b"),        None,    2023,  est(1.3)),
    Facts("Yunobo",              _keys("0x010c"),        None,    2017,  est(2.3)),
    Facts("Guardian",            _keys("0x0140"),        None,    2017,  est(5.0)),   # three Links and more
    Facts("Bokoblin",            _keys("0x0141"),        None,    2002,  est(1.7)),
    Facts("K.K. Slider",         _keys("0x0182"),        None,    2001,  est(1.1)),
    Facts("Tom Nook",            _keys("0x0183"),        None,    2001,  est(1.1)),
    Facts("Timmy & Tommy",       _keys("0x0184"),        None,    2001,  est(0.7)),
    Facts("Mabel",               _keys("0x0188"),        None,    2001,  est(1.0)),
    Facts("Reese",               _keys("0x018a"),        None,    2008,  est(1.0)),
    Facts("Cyrus",               _keys("0x018b"),        None,    2008,  est(1.0)),
    Facts("Digby",               _keys("0x018c"),        None,    2012,  est(1.0)),
    Facts("Rover",               _keys("0x018d"),        None,    2001,  est(1.1)),
    Facts("Resetti",             _keys("0x018e"),        None,    2001,  est(0.9)),
    Facts("Blathers",            _keys("0x0192"),        None,    2001,  est(1.0)),
    Facts("Celeste",             _keys("0x0193"),        None,    2005,  est(1.0)),
    Facts("Kicks",               _keys("0x0194"),        None,    2008,  est(0.9)),
    Facts("Kapp'n",              _keys("0x0196"),        None,    2001,  est(1.1)),
    Facts("Lottie",              _keys("0x01c1"),        None,    2015,  est(1.0)),
    Facts("Metroid",             _keys("0x05c1"),        None,    1986,  est(0.6)),
    Facts("E.M.M.I.",            _keys("0x05c4"),        None,    2021,  est(2.5)),
    Facts("Pikmin",              _keys("0x0642"),        None,    2001,  est(0.03)),
    Facts("Callie",              _keys("0x0801"),        None,    2015,  est(1.5)),
    Facts("Marie",               _keys("0x0802"),        None,    2015,  est(1.5)),
    Facts("Pearl",               _keys("0x0803"),        None,    2017,  est(1.3)),
    Facts("Marina",              _keys("0x0804"),        None,    2017,  est(1.7)),
    Facts("Octoling",            _keys("0x0805"),        None,    2015,  est(1.5)),
    Facts("Smallfry",            _keys("0x0806"),        None,    2022,  est(0.3)),
    Facts("Shiver",              _keys("0x0807"),        None,    2022,  est(1.6)),
    Facts("Frye",                _keys("0x0808"),        None,    2022,  est(1.6)),
    Facts("Big Man",             _keys("0x0809"),        None,    2022,  est(2.0)),
    Facts("Shadow Mewtwo",       _keys("0x1d00"),        None,    2015,  2.0),        # Mewtwo's Pokédex height
    Facts("Detective Pikachu",   _keys("0x1d01"),        None,    2016,  0.4),        # Pikachu's Pokédex height
    Facts("Waddle Dee",          _keys("0x1f03"),        None,    1992,  est(0.2)),
    Facts("Qbby",                _keys("0x1f40"),        None,    2015,  est(0.3)),
    Facts("Alm",                 _keys("0x2106"),        None,    1992,  est(1.75)),
    Facts("Celica",              _keys("0x2107"),        None,    1992,  est(1.6)),
    Facts("Tiki",                _keys("0x2109"),        None,    1990,  est(1.4)),
    Facts("Noah",                _keys("0x2243"),        None,    2022,  est(1.75)),
    Facts("Mio",                 _keys("0x2244"),        None,    2022,  est(1.6)),
    Facts("Chibi-Robo",          _keys("0x22c0"),        None,    2005,  0.1),
    Facts("Solaire of Astora",   _keys("0x3380"),        None,    2011,  est(1.85)),
    Facts("Luke",                _keys("0x34c2"),        None,    2021,  est(1.8)),
    Facts("Jamie",               _keys("0x34c3"),        None,    2023,  est(1.75)),
    Facts("Kimberly",            _keys("0x34c4"),        None,    2023,  est(1.65)),
    Facts("Chun-Li",             _keys("0x34c5"),        None,    1991,  1.69),
    Facts("Guile",               _keys("0x34c6"),        None,    1991,  1.82),
    Facts("Juri",                _keys("0x34c7"),        None,    2010,  est(1.65)),
    Facts("Blanka",              _keys("0x34c8"),        None,    1991,  1.92),
    Facts("Dhalsim",             _keys("0x34c9"),        None,    1991,  1.76),
    Facts("E. Honda",            _keys("0x34ca"),        None,    1991,  1.85),
    Facts("Dee Jay",             _keys("0x34cb"),        None,    1993,  1.84),
    Facts("Manon",               _keys("0x34cc"),        None,    2023,  est(1.8)),
    Facts("Marisa",              _keys("0x34cd"),        None,    2023,  est(2.0)),
    Facts("JP",                  _keys("0x34ce"),        None,    2023,  est(1.9)),
    Facts("Zangief",             _keys("0x34cf"),        None,    1991,  2.11),
    Facts("Lily",                _keys("0x34d0"),        None,    2023,  est(1.5)),
    Facts("Cammy",               _keys("0x34d1"),        None,    1993,  1.64),
    Facts("Rashid",              _keys("0x34d2"),        None,    2016,  est(1.85)),
    Facts("A.K.I.",              _keys("0x34d3"),        None,    2023,  est(1.65)),
    Facts("Ed",                  _keys("0x34d4"),        None,    2011,  est(1.8)),
    Facts("Akuma",               _keys("0x34d5"),        None,    1994,  1.78),
    Facts("M. Bison",            _keys("0x34d6"),        None,    1991,  1.82),
    Facts("Elena",               _keys("0x34d8"),        None,    1997,  est(1.8)),
    Facts("Sagat",               _keys("0x34d9"),        None,    1987,  2.26),
    Facts("C. Viper",            _keys("0x34da"),        None,    2008,  est(1.75)),
    Facts("Alex (Street Fighter)", _keys("0x34db"),      None,    1997,  est(1.85)),
    Facts("Ingrid",              _keys("0x34dc"),        None,    2004,  est(1.6)),
    Facts("Mai",                 _keys("0x3c81"),        None,    1992,  est(1.65)),
    Facts("One-Eyed Rathalos",   _keys("0x3500"),        None,    2016,  est(5.0)),
    Facts("Navirou",             _keys("0x3501"),        None,    2016,  est(0.6)),
    Facts("Rathian",             _keys("0x3502"),        None,    2004,  est(5.0)),
    Facts("Barioth",             _keys("0x3503"),        None,    2009,  est(4.0)),
    Facts("Qurupeco",            _keys("0x3504"),        None,    2009,  est(3.0)),
    Facts("Razewing Ratha",      _keys("0x3505"),        None,    2021,  est(5.0)),
    Facts("Ena",                 _keys("0x3506"),        None,    2021,  est(1.6)),
    Facts("Tsukino",             _keys("0x3507"),        None,    2021,  est(0.6)),
    Facts("Magnamalo",           _keys("0x3508"),        None,    2021,  est(6.0)),
    Facts("Palico",              _keys("0x3509"),        None,    2004,  est(0.6)),
    Facts("Palamute",            _keys("0x350a"),        None,    2021,  est(1.2)),
    Facts("Malzeno",             _keys("0x350b"),        None,    2022,  est(6.0)),
    Facts("Shovel Knight",       _keys("0x35c0"),        None,    2014,  est(1.6)),
    Facts("Plague Knight",       _keys("0x35c1"),        None,    2014,  est(1.5)),
    Facts("Specter Knight",      _keys("0x35c2"),        None,    2014,  est(1.8)),
    Facts("King Knight",         _keys("0x35c3"),        None,    2014,  est(1.7)),
    Facts("Loot Goblin",         _keys("0x38c0"),        None,    2012,  est(1.0)),
)

# Figures whose character key is shared with another fighter: by character key
# and variant byte ("0x" + 6 digits), or by the whole id.
FORMS: dict[str, Facts] = {
    "0x000001":           Facts("Dr. Mario",         (),   98,    1990,  est(1.55)),
    "0x010001":           Facts("Toon Link",         (),   91,    2002,  est(1.2)),   # a child in a cartoon world
    "0x01000000037c0002": Facts("Young Link",        (),   88,    1998,  est(1.3)),
    "0x0101000003520902": Facts("Toon Zelda",        (), None,    2002,  est(1.3)),   # Tetra, Toon Link's age
    "0x010101":           Facts("Sheik",             (),   78,    1998,  est(1.7)),
    "0x05c001":           Facts("Zero Suit Samus",   (),   80,    2004,  1.9),
    "0x07c001":           Facts("Mii Swordfighter",  (),  100,    2006,  est(1.6)),
    "0x07c002":           Facts("Mii Gunner",        (),  104,    2006,  est(1.6)),
}
# fmt: on

BY_KEY: dict[str, Facts] = {key: facts for facts in CHARACTERS for key in facts.keys}


def facts_for(figure_id: str) -> Facts | None:
    """The facts for a figure, from its amiibo id (``"0x"`` + 16 hexadecimal digits)."""
    figure_id = figure_id.lower()
    return FORMS.get(figure_id) or FORMS.get(figure_id[:8]) or BY_KEY.get(figure_id[:6])
