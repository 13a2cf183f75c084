"""The compiled French catalogues (``.mo``), made from the ``.po`` files when missing or older.

A fresh clone then runs (``python app.py``, the tests, the CLI) without a separate compile step;
``./manage.sh`` calls the same function. A read-only install that already ships its ``.mo``
files skips the write.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def stale_catalogues(root: Path = TRANSLATIONS) -> list[Path]:
    """The .po files whose .mo is missing or older."""
    stale = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(po)
    return stale


def compile_catalogues(root: Path = TRANSLATIONS) -> list[Path]:
    """Compiles every stale catalogue (fuzzy entries left out, as pybabel does); returns the
    .mo files written. The .mo is written beside and renamed into place, so that another
    process starting at the same moment reads either the old file or the new one."""
    written = []
    for po in stale_catalogues(root):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parent.parent.name, domain=po.stem)
        mo = po.with_suffix(".mo")
        partial = mo.with_suffix(f".mo.{id(catalog)}.tmp")
        try:
            with partial.open("wb") as handle:
                write_mo(handle, catalog)
            partial.replace(mo)
        except OSError:  # a read-only install: its shipped .mo files stay as they are
            partial.unlink(missing_ok=True)
            continue
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"compiled {path.relative_to(TRANSLATIONS.parent.parent)}")
