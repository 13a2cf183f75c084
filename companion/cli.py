"""Command-line tools: ``flask --app app catalog …``.

* ``catalog import FILE``: imports a file in the AmiiboAPI format (all of it or,
  when something is wrong, nothing, saying why);
* ``catalog sync [--url URL]``: downloads the current AmiiboAPI database and
  imports it (only when asked; the table never needs the internet);
* ``catalog show ID`` and ``catalog name ID NAME``: what a figure is, and the
  name a host or owner gives a figure the catalogue does not know.

Messages follow the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
"""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import AppGroup

from companion.amiibo.catalog import Catalog
from companion.amiibo.ids import AmiiboError
from companion.amiibo.locale import environment_language, translate, translate_error
from companion.amiibo.sync import DEFAULT_TIMEOUT, DEFAULT_URL
from companion.games.base import N_

SECTION_LABELS = {
    "amiibos": N_("figures"),
    "characters": N_("characters"),
    "game_series": N_("game series"),
    "amiibo_series": N_("amiibo series"),
    "types": N_("figure types"),
}


def _(message: str, **params) -> str:
    return translate(environment_language(), message, **params)


catalog_cli = AppGroup("catalog", help=_(N_("The amiibo catalogue: import, sync, show and name figures.")))


def _catalog() -> Catalog:
    return current_app.extensions["companion.catalog"]


def _fail(error: AmiiboError) -> click.ClickException:
    return click.ClickException(translate_error(error, environment_language()))


def _report(counts: dict) -> None:
    if all(section["added"] == section["updated"] == 0 for section in counts.values()):
        click.echo(_(N_("Nothing changed: the catalogue already had everything in it.")))
    for key, label in SECTION_LABELS.items():
        click.echo("  " + _(N_("%(section)s: %(added)s new, %(updated)s changed, %(unchanged)s unchanged"),
                            section=_(label), **counts[key]))


@catalog_cli.command("import", help=_(N_("Import FILE, in the AmiiboAPI format (amiibo.json).")))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--lang", type=click.Choice(["en", "fr"]), default="en", show_default=True,
              help=_(N_("The language of the names in the file.")))
def import_command(file: str, lang: str) -> None:
    try:
        counts = _catalog().import_file(file, lang)
    except AmiiboError as error:
        raise _fail(error) from None
    click.echo(_(N_("Imported %(file)s into the catalogue."), file=file))
    _report(counts)


@catalog_cli.command("sync", help=_(N_("Download the current AmiiboAPI database and import it.")))
@click.option("--url", default=DEFAULT_URL, show_default=True, help=_(N_("Where to download it from.")))
@click.option("--timeout", type=click.FloatRange(min=0.1), default=DEFAULT_TIMEOUT, show_default=True,
              help=_(N_("Seconds to wait for the server.")))
def sync_command(url: str, timeout: float) -> None:
    click.echo(_(N_("Downloading %(url)s…"), url=url))
    try:
        counts = _catalog().sync(url, timeout)
    except AmiiboError as error:
        raise _fail(error) from None
    click.echo(_(N_("The catalogue is up to date with %(url)s."), url=url))
    _report(counts)


@catalog_cli.command("show", help=_(N_("Show what the catalogue knows about a figure (an id such as "
                                       "0x0000000000000002).")))
@click.argument("amiibo_id")
@click.option("--json", "as_json", is_flag=True, help=_(N_("Print the JSON the API serves.")))
def show_command(amiibo_id: str, as_json: bool) -> None:
    lang = environment_language()
    try:
        described = _catalog().describe(amiibo_id, lang)
    except AmiiboError as error:
        raise _fail(error) from None
    if as_json:
        click.echo(json.dumps(described, ensure_ascii=False, indent=2))
        return
    click.echo(described["label"])
    for label, part in ((N_("character: %(name)s (%(key)s)"), "character"),
                        (N_("game series: %(name)s (%(key)s)"), "game_series"),
                        (N_("amiibo series: %(name)s (%(key)s)"), "amiibo_series"),
                        (N_("type: %(name)s (%(key)s)"), "type")):
        click.echo("  " + _(label, name=described[part]["name"] or "?", key=described[part]["key"]))
    if described["release"]:
        dates = ", ".join(f"{region} {date}" for region, date in described["release"].items() if date)
        click.echo("  " + _(N_("released: %(dates)s"), dates=dates or "?"))


@catalog_cli.command("name", help=_(N_("Give a name to a figure (remembered for the next time).")))
@click.argument("amiibo_id")
@click.argument("name")
@click.option("--lang", type=click.Choice(["en", "fr"]), default="en", show_default=True,
              help=_(N_("The language of the name.")))
def name_command(amiibo_id: str, name: str, lang: str) -> None:
    try:
        described = _catalog().name_figure(amiibo_id, name, lang)
    except AmiiboError as error:
        raise _fail(error) from None
    click.echo(_(N_("%(id)s is now called “%(name)s”."), id=described["id"], name=" ".join(name.split())))
