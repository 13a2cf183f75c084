"""Generates the shipped figure catalogue, companion/amiibo/data/catalogue.json.

    .venv/bin/python -m scripts.make_catalogue [SOURCE]
    .venv/bin/python -m scripts.make_catalogue --database instance/companion.sqlite3

SOURCE is a file in the AmiiboAPI format (by default ../shared/data/amiiboapi/amiibo.json
beside this repository). --database instead exports what `catalog sync` or `catalog import`
stored in that SQLite file, to regenerate the shipped file after a sync. Either way the
whole source is checked first (nothing is written when it is not valid), and only public
facts are kept: ids, names, release dates and the names of series, characters and types.
The AmiiboAPI database is MIT-licensed: its notice stays in companion/amiibo/data/NOTICE.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.amiibo.catalog import Catalog
from companion.amiibo.document import CatalogError, load_json, parse
from companion.amiibo.shipped import SHIPPED, as_amiiboapi, dumps, from_document, is_shipped_format
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "amiiboapi" / "amiibo.json"


def from_file(path: Path) -> dict:
    doc = load_json(path.read_bytes())
    return as_amiiboapi(doc) if is_shipped_format(doc) else doc


def from_database(path: Path) -> dict:
    if not path.is_file():
        raise CatalogError("No database at %(path)s.", path=str(path))
    store = Store(str(path))
    try:
        return Catalog(store).export_document()
    finally:
        store.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE,
                        help="an amiibo.json in the AmiiboAPI format")
    parser.add_argument("--database", type=Path, help="export the catalogue stored in this SQLite file instead")
    parser.add_argument("--output", type=Path, default=SHIPPED, help="where to write (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        document = parse(from_database(args.database) if args.database else from_file(args.source))
    except (CatalogError, OSError) as error:
        print(f"make_catalogue: {error}", file=sys.stderr)
        return 1
    if not document.amiibos:
        print("make_catalogue: the source holds no figure; nothing written", file=sys.stderr)
        return 1
    args.output.write_text(dumps(from_document(document)), encoding="utf-8")
    print(f"{args.output}: {len(document.amiibos)} figures, "
          + ", ".join(f"{len(names)} {kind}" for kind, names in document.lookups.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
