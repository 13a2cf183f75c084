"""Arkade's numbers, roles and the contents of the box (data; options override some of it)."""

from __future__ import annotations

from companion.games.base import N_

ALIEN, DEFENDER = "alien", "defender"
ROLES = (ALIEN, DEFENDER)
MODES = ("strategie", "arcade")
LEVELS = {"hard": 4, "normal": 6, "easy": 8}  # nuggets at the start (the book's three levels)
# The book's adult/child presets: who is the adult, and what the table sets up for it.
HANDICAPS = ("none", "adult_defender", "adult_alien")
NUGGETS_IN_BOX = 11
SHIP_CELLS = 6
SAUCERS = 12
PER_COLOUR = SAUCERS // 3
TILES_DRAWN = 6
COUNTDOWN_SECONDS = 3  # "top départ": 3, 2, 1 on both phones (option ``countdown``)
REACTOR_CELLS = (1, SHIP_CELLS)  # a damaged reactor is freed by a 1 or a 6

SAUCER_COLOURS = ("blue", "green", "pink")
# Two faces per colour: every saucer colour is equally likely to be shot.
SHOOTING_DIE_FACES = ("blue", "green", "pink", "blue", "green", "pink")
# The book names no face but orange (it lifts a magnetic field): the cells are
# taken to be the three saucer colours and orange, the first two repeated to
# fill six faces. The alien_die option matches another box.
ALIEN_DIE_FACES = ("blue", "green", "pink", "orange", "blue", "green")
LIFTS_FIELD = "orange"

# The 12 Alien tiles with the counts the book gives (x4, x2, x2, x2, x1, x1); option ``alien_tiles``
# matches another box (or a house variant).
ALIEN_TILE_KINDS = ("extra_life", "engines", "rift", "turret", "repair", "reactor")
ALIEN_TILES = (("extra_life",) * 4 + ("engines",) * 2 + ("rift",) * 2 + ("turret",) * 2
               + ("repair", "reactor"))
# The book does not say how the Defender's 12 tiles split by colour: option
# ``defender_tiles`` matches the players' box. Each item: the colour's number
# (1 to 3, in the order of the saucer colours), the kind, and for a mine or a
# comet its value (1 or 2). The default gives each colour its super munitions
# and one kind of each other family.
DEFENDER_TILE_KINDS = ("munitions", "asteroid", "magnetic_field", "tower", "mine", "comet", "gps")
VALUED_KINDS = ("mine", "comet")
DEFENDER_TILES = (
    "1 munitions", "1 asteroid", "1 mine 1", "1 gps",
    "2 munitions", "2 magnetic_field", "2 mine 2", "2 comet 1",
    "3 munitions", "3 tower", "3 comet 2", "3 gps",
)
BOARD_TILES = ("asteroid", "magnetic_field")  # tiles the Defender lays on the board; the Alien can remove them

# How the form and the lobby name the items of the list options (the table stores the ids; a colour
# the companion does not know shows as typed).
COLOUR_LABELS = (("blue", N_("blue")), ("green", N_("green")), ("pink", N_("pink")), ("orange", N_("orange")),
                 ("red", N_("red")), ("yellow", N_("yellow")), ("purple", N_("purple")), ("cyan", N_("cyan")),
                 ("white", N_("white")), ("black", N_("black")))
ALIEN_TILE_LABELS = (("extra_life", N_("Extra life")), ("engines", N_("Engines")), ("rift", N_("Rift in the galaxy")),
                     ("turret", N_("Turret hit")), ("repair", N_("Repaired saucer")), ("reactor", N_("Reactor damage")))
DEFENDER_TILE_LABELS = (("munitions", N_("Super munitions")), ("asteroid", N_("Asteroid")), ("mine", N_("Nugget mine")),
                        ("gps", N_("GPS update")), ("magnetic_field", N_("Magnetic field")),
                        ("tower", N_("Mini-tower")), ("comet", N_("Comet")))
