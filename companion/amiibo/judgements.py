"""The project's default rankings for Amiiboxe's judgement criteria.

The book: « Le site vous propose un classement des amiibo pour chaque critère
qui nous semble le plus juste, mais vous pouvez avoir votre propre point de
vue, du moment que vous et votre adversaire êtes d'accord. » These rankings
are that proposal, written by the project: every one is an estimate (a
judgement, not a fact), in tiers from the figure the criterion favours down;
figures of one tier are not ordered. They cover at least every fighter of
Super Smash Bros. Ultimate (by the names of `companion.amiibo.facts`).

A fight uses them only where the table's house ranking does not order the
two figures, and two players who agree override both (see
`companion.games.amiiboxe.fights`).
"""

from __future__ import annotations

from companion.amiibo.facts import facts_for

ESTIMATE = "estimate"

# criterion: tiers, best first; a tier is names separated by ";".
DEFAULTS: dict[str, tuple[str, ...]] = {
    "least_clothed": (
        "Kirby; Jigglypuff; Pikachu; Pichu; Squirtle; Ivysaur; Charizard; Mewtwo; Lucario; Greninja; Piranha Plant; "
        "Ridley; Duck Hunt; Sonic; Pac-Man; R.O.B.; Mr. Game & Watch",
        "Donkey Kong; Diddy Kong; King K. Rool; Yoshi; Incineroar; Banjo & Kazooie; Little Mac; Bowser; Kazuya",
        "Wii Fit Trainer; Zero Suit Samus; Bayonetta; Ryu; Ken; Terry; Mythra; Pyra; Inkling; Meta Knight; "
        "King Dedede; Isabelle; Villager",
        "Mario; Luigi; Dr. Mario; Wario; Peach; Daisy; Bowser Jr.; Rosalina & Luma; Ness; Lucas; Pit; Dark Pit; "
        "Palutena; Fox; Falco; Wolf; Captain Falcon; Mii Brawler; Mii Swordfighter; Min Min; Pokémon Trainer; Marth; "
        "Lucina; Roy; Chrom; Ike; Robin; Corrin; Byleth; Shulk; Zelda; Sheik; Link; Young Link; Toon Link; Joker; "
        "Hero; Cloud; Sephiroth; Sora; Steve; Alex; Ice Climbers; Simon; Richter",
        "Samus; Dark Samus; Snake; Mega Man; Ganondorf; Olimar; Mii Gunner",
    ),
    "most_villainous": (
        "Ganondorf; Bowser; Ridley; Sephiroth; King K. Rool; Wolf",
        "Dark Samus; Wario; King Dedede; Bowser Jr.; Mewtwo; Kazuya; Dark Pit; Meta Knight",
        "Piranha Plant; Incineroar; Bayonetta; Joker; Snake; Duck Hunt",
        "Cloud; Robin; Corrin; Mii Brawler; Mii Swordfighter; Mii Gunner; Mr. Game & Watch; R.O.B.; Greninja; "
        "Lucario; Charizard; Sheik; Zero Suit Samus; Samus; Captain Falcon; Falco; Fox; Little Mac; Terry; Ryu; Ken; "
        "Min Min; Byleth; Steve; Alex; Simon; Richter; Pac-Man; Mega Man; Sonic; Shulk; Pyra; Mythra; Hero; Sora; "
        "Ike; Marth; Lucina; Roy; Chrom; Olimar; Wii Fit Trainer; Pokémon Trainer; Ice Climbers; Inkling; "
        "Banjo & Kazooie; Link; Toon Link; Young Link; Zelda; Pit; Palutena; Diddy Kong; Donkey Kong; Ness; Lucas",
        "Mario; Dr. Mario; Luigi; Peach; Daisy; Rosalina & Luma; Yoshi; Kirby; Pikachu; Pichu; Jigglypuff; Squirtle; "
        "Ivysaur; Villager; Isabelle",
    ),
    "strongest": (
        "Bowser; Ganondorf; Donkey Kong; King K. Rool; Kazuya; Ridley; Sephiroth; Mewtwo; Palutena",
        "Samus; Dark Samus; Charizard; Incineroar; Terry; Ryu; Ken; Cloud; Ike; Little Mac; Captain Falcon; "
        "King Dedede; Bayonetta; Mythra; Pyra; Hero; Sora; Lucario; Wario; Snake",
        "Link; Zelda; Sheik; Zero Suit Samus; Fox; Falco; Wolf; Marth; Lucina; Roy; Chrom; Robin; Corrin; Byleth; "
        "Shulk; Meta Knight; Joker; Simon; Richter; Mega Man; Sonic; Mario; Dr. Mario; Luigi; Yoshi; Greninja; "
        "Min Min; Steve; Alex; Banjo & Kazooie; Ness; Lucas; Pit; Dark Pit; Kirby; Bowser Jr.; Piranha Plant; "
        "Mii Brawler; Mii Swordfighter; Mii Gunner",
        "Peach; Daisy; Rosalina & Luma; Toon Link; Young Link; Diddy Kong; Pikachu; Ivysaur; Squirtle; Jigglypuff; "
        "Pokémon Trainer; Wii Fit Trainer; Inkling; Ice Climbers; Pac-Man; R.O.B.; Duck Hunt; Villager",
        "Isabelle; Pichu; Olimar; Mr. Game & Watch",
    ),
    "fastest": (
        "Sonic",
        "Captain Falcon; Fox; Falco; Sheik; Greninja; Pikachu; Little Mac; Meta Knight; Joker; Zero Suit Samus; "
        "Pichu; Wolf",
        "Mario; Dr. Mario; Luigi; Yoshi; Diddy Kong; Lucario; Marth; Lucina; Roy; Chrom; Pit; Dark Pit; Cloud; "
        "Sephiroth; Bayonetta; Sora; Inkling; Mythra; Mewtwo; Terry; Ryu; Ken; Link; Young Link; Toon Link; Corrin; "
        "Byleth; Shulk; Mii Brawler; Mii Swordfighter; Min Min; Kirby; Pac-Man; Mega Man; Squirtle; Wii Fit Trainer; "
        "Ness; Lucas; Palutena; Hero; Snake; Banjo & Kazooie; Daisy; Peach; Pyra",
        "Samus; Dark Samus; Ike; Robin; Simon; Richter; Rosalina & Luma; Zelda; Wario; Donkey Kong; Charizard; "
        "Ivysaur; Jigglypuff; Pokémon Trainer; Ridley; Mii Gunner; Kazuya; Steve; Alex; Bowser Jr.; Isabelle; "
        "Villager; Duck Hunt; Ice Climbers; R.O.B.; Mr. Game & Watch; Olimar",
        "Bowser; Ganondorf; King K. Rool; King Dedede; Incineroar; Piranha Plant",
    ),
    "cutest": (
        "Kirby; Pichu; Pikachu; Jigglypuff; Yoshi; Isabelle",
        "Villager; Squirtle; Rosalina & Luma; Peach; Daisy; Toon Link; Olimar; Ice Climbers; Inkling; Diddy Kong; "
        "Ness; Lucas; Duck Hunt; Min Min",
        "Mario; Dr. Mario; Luigi; Bowser Jr.; Young Link; Pit; Zelda; Lucina; Pyra; Mythra; Sonic; Mega Man; Ivysaur; "
        "Greninja; Lucario; Meta Knight; Banjo & Kazooie; Sora; Palutena; Pac-Man; Wii Fit Trainer; "
        "Mr. Game & Watch; R.O.B.; Corrin; Robin; Marth; Roy; Link; Sheik; Zero Suit Samus; Fox; Falco; Mii Brawler; "
        "Mii Swordfighter; Mii Gunner; Pokémon Trainer; Steve; Alex; Hero; Cloud; Shulk; Joker; Byleth; Chrom; Ike; "
        "Charizard; Incineroar; Little Mac; Terry; Ryu; Ken; Bayonetta; Simon; Richter; Snake; Samus; "
        "Captain Falcon; Wolf; Dark Pit; King Dedede; Donkey Kong; Wario",
        "Bowser; Ganondorf; King K. Rool; Kazuya; Sephiroth; Mewtwo; Piranha Plant; Dark Samus",
        "Ridley",
    ),
    "most_famous": (
        "Mario; Pikachu; Sonic; Pac-Man",
        "Link; Donkey Kong; Luigi; Peach; Bowser; Yoshi; Kirby; Samus; Zelda; Mega Man; Ryu; Steve; Cloud; Sora",
        "Fox; Ganondorf; Wario; Charizard; Mewtwo; Jigglypuff; Squirtle; Ken; Snake; Simon; Villager; Isabelle; "
        "Dr. Mario; Diddy Kong; Daisy; Bowser Jr.; Toon Link; Young Link; Sheik; Zero Suit Samus; Captain Falcon; "
        "Meta Knight; King Dedede; Sephiroth; Pichu; Lucario; Greninja; Mr. Game & Watch; Inkling; Alex; "
        "Rosalina & Luma; Marth; Ness; Bayonetta; Joker; Kazuya; Terry; Banjo & Kazooie",
        "Falco; Wolf; Ridley; Dark Samus; Pit; Palutena; Ike; Lucina; Roy; Chrom; Robin; Corrin; Byleth; Shulk; "
        "Pyra; Mythra; Lucas; Little Mac; Olimar; R.O.B.; Duck Hunt; Ice Climbers; Wii Fit Trainer; Ivysaur; "
        "Incineroar; Piranha Plant; King K. Rool; Hero; Richter; Mii Brawler; Mii Swordfighter; Mii Gunner; "
        "Pokémon Trainer; Dark Pit",
        "Min Min",
    ),
    "smartest": (
        "Robin; Palutena; Mewtwo; Zelda; Rosalina & Luma; Dr. Mario; Olimar",
        "Byleth; Shulk; Mythra; Sephiroth; Ganondorf; Snake; Joker; Bayonetta; Sheik; Samus; Zero Suit Samus; "
        "R.O.B.; Lucario; Meta Knight; Ness; Mega Man; Fox; Hero; Isabelle; Steve; Alex",
        "Mario; Luigi; Peach; Daisy; Link; Toon Link; Young Link; Marth; Lucina; Roy; Chrom; Ike; Corrin; Pyra; "
        "Cloud; Sora; Falco; Wolf; Captain Falcon; Ryu; Ken; Terry; Kazuya; Simon; Richter; Pit; Dark Pit; Lucas; "
        "Greninja; Wii Fit Trainer; Inkling; Min Min; Villager; Pokémon Trainer; Mii Brawler; Mii Swordfighter; "
        "Mii Gunner; Sonic; Pac-Man; Little Mac; Ice Climbers; Banjo & Kazooie; Bowser; King K. Rool; King Dedede; "
        "Ridley; Dark Samus; Mr. Game & Watch; Duck Hunt",
        "Wario; Bowser Jr.; Diddy Kong; Donkey Kong; Yoshi; Kirby; Pikachu; Pichu; Squirtle; Ivysaur; Charizard; "
        "Jigglypuff; Incineroar; Piranha Plant",
    ),
    "best_armed": (
        "Samus; Dark Samus; Snake; Mega Man; Mii Gunner; Sephiroth; Cloud; Hero; Link",
        "Fox; Falco; Wolf; Bayonetta; Joker; Simon; Richter; Ike; Marth; Lucina; Roy; Chrom; Byleth; Shulk; Pyra; "
        "Mythra; Sora; Meta Knight; King Dedede; Mii Swordfighter; Robin; Corrin; Young Link; Toon Link; Pit; "
        "Dark Pit; Palutena; Min Min; Inkling; Steve; Alex; King K. Rool; Ganondorf; R.O.B.; Zero Suit Samus; Sheik",
        "Mario; Dr. Mario; Luigi; Peach; Daisy; Bowser Jr.; Wario; Diddy Kong; Villager; Isabelle; Ness; Lucas; "
        "Zelda; Rosalina & Luma; Olimar; Pokémon Trainer; Wii Fit Trainer; Ice Climbers; Duck Hunt; "
        "Mr. Game & Watch; Pac-Man; Banjo & Kazooie; Piranha Plant",
        "Bowser; Donkey Kong; Ridley; Charizard; Mewtwo; Lucario; Greninja; Incineroar; Captain Falcon; Little Mac; "
        "Ryu; Ken; Terry; Kazuya; Sonic; Yoshi; Kirby; Pikachu; Pichu; Jigglypuff; Squirtle; Ivysaur; Mii Brawler",
    ),
    "most_colourful": (
        "Inkling; Pokémon Trainer; Ice Climbers; Mario; Yoshi; Captain Falcon; Banjo & Kazooie; Min Min",
        "Luigi; Peach; Daisy; Wario; Bowser; Bowser Jr.; Diddy Kong; Donkey Kong; King K. Rool; Fox; Falco; Samus; "
        "Link; Toon Link; Young Link; Zelda; Pit; Palutena; Ness; Lucas; Villager; Isabelle; Pac-Man; Sonic; "
        "Mega Man; Pikachu; Pichu; Charizard; Squirtle; Ivysaur; Greninja; Incineroar; Olimar; Piranha Plant; "
        "Duck Hunt; Hero; Sora; Shulk; Pyra; Corrin; Robin; Lucina; Marth; Roy; Chrom; Ike; Byleth; Terry; Ken; "
        "Little Mac; Rosalina & Luma; Mii Brawler; Mii Swordfighter; Mii Gunner; King Dedede; Kirby; Jigglypuff; "
        "Lucario; Steve; Alex; Richter; Simon; Wii Fit Trainer; Zero Suit Samus",
        "Dr. Mario; Ryu; Kazuya; Cloud; Sheik; Wolf; Meta Knight; Ganondorf; Ridley; Dark Pit; R.O.B.; Snake; "
        "Mythra; Mewtwo; Bayonetta; Joker; Sephiroth",
        "Mr. Game & Watch; Dark Samus",
    ),
}


def tiers_of(criterion_id: str) -> list[list[str]]:
    """The default ranking's tiers of character names, best first ([] for a criterion without one)."""
    return [[name.strip() for name in tier.split(";")] for tier in DEFAULTS.get(criterion_id, ())]


def tier_of(criterion_id: str, amiibo_id: str) -> int | None:
    """The figure's tier (0 = the one the criterion favours), by its character; None when unranked."""
    facts = facts_for(amiibo_id) if isinstance(amiibo_id, str) else None
    if facts is None:
        return None
    return next((number for number, tier in enumerate(tiers_of(criterion_id)) if facts.name in tier), None)


def default_tiers(criterion_id: str, amiibo_ids: list[str]) -> list[list[str]]:
    """These figures in the default ranking's tiers, best first; unranked figures left out."""
    placed: dict[int, list[str]] = {}
    for amiibo_id in amiibo_ids:
        tier = tier_of(criterion_id, amiibo_id)
        if tier is not None:
            placed.setdefault(tier, []).append(amiibo_id)
    return [placed[tier] for tier in sorted(placed)]
