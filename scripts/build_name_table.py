"""Build the classifier's table of first names from Faker's person providers (D-210).

    .venv/bin/python -m pip install faker      # a build-time tool only, not a dependency
    .venv/bin/python scripts/build_name_table.py

Faker (MIT licence) keeps first-name lists for some 90 locales. This script takes every
first name written in a script with spaces between words (Chinese, Japanese, Korean and Thai
names are left out: those texts have no word boundaries to match a name at), folds it like
the classifier's text, and leaves out what would read as another kind of word:
- common words (Faker's lorem word lists: "will", "hope") and places named in one word (its
  address providers' country, state, region and city lists: "India", "China"), unless the
  name is in the lists of at least three languages ("Anna", "María");
- month, weekday and language names ("May", "August", "German"), always;
- words shorter than three letters and the marker words of `markers.py`.
The result is a sorted list of folded names, one a line, shipped beside the weights
(`classifier/first_names.txt`).
"""

from __future__ import annotations

import calendar
import importlib
import pkgutil
import sys
from collections.abc import Iterable
from pathlib import Path

from jamgate_core import fold, is_cjk, words
from jamgate_stages.classifier.markers import marker_words

OUT = (Path(__file__).resolve().parent.parent / "plugins" / "jamgate_stages" / "classifier"
       / "first_names.txt")
NAME_LISTS = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")
PLACE_WORDS = ("countr", "state", "cit", "province", "region", "town", "municipal", "district",
               "prefecture", "department", "canton", "county")
MIN_LETTERS = 3
# A name in this many languages' lists stays a name though a word or place list has it
# ("Anna", "María").
WIDESPREAD = 3
HEADER = ("# First names for the gate classifier's person anchor (D-210), folded, one a line.\n"
          "# Built by scripts/build_name_table.py from Faker {version} (MIT licence,\n"
          "# copyright Daniele Faraglia and contributors): its person providers' first names\n"
          "# less common words (its lorem lists) and places (its address lists).\n")


def _providers(package: str) -> Iterable[tuple[str, type]]:
    """(language, provider) of every locale of a Faker provider package."""
    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(module.__path__):
        yield (info.name.split("_")[0],
               importlib.import_module(f"{package}.{info.name}").Provider)


def _strings(value: object) -> list[str]:
    """The strings of a provider attribute (a list, tuple or weighted dict of strings)."""
    if isinstance(value, dict):
        value = list(value)
    if isinstance(value, list | tuple):
        return [item for item in value if isinstance(item, str)]
    return []


def _folded_words(texts: Iterable[str]) -> set[str]:
    return {word for text in texts for word in words(fold(text))}


def _one_word_places(texts: Iterable[str]) -> set[str]:
    """Places named in one word ("Jordan"; not "john" of "Saint John")."""
    return {found[0] for text in texts if len(found := words(fold(text))) == 1}


def _calendar_words() -> set[str]:
    """Month and weekday names ("May", "August", "Mercredi"): a date far more often than a
    person, in every language Faker's date providers name them in, and English."""
    found = _folded_words([*calendar.month_name, *calendar.day_name])
    for _, provider in _providers("faker.providers.date_time"):
        for attribute in ("MONTH_NAMES", "DAY_NAMES"):
            found |= _folded_words(_strings(list(getattr(provider, attribute, {}).values())))
    return found


def _language_words() -> set[str]:
    """The words of language names ("German", "French"): the subject of a claim about a
    language, not a person, in the languages Faker names them in."""
    found: set[str] = set()
    for _, provider in _providers("faker.providers.person"):
        found |= _folded_words(_strings(getattr(provider, "language_names", None)))
    return found


def build() -> tuple[list[str], str]:
    import faker

    languages: dict[str, set[str]] = {}
    for language, provider in _providers("faker.providers.person"):
        for attribute in NAME_LISTS:
            for word in _folded_words(_strings(getattr(provider, attribute, None))):
                languages.setdefault(word, set()).add(language)
    common: set[str] = set()
    for _, provider in _providers("faker.providers.lorem"):
        common |= _folded_words(_strings(getattr(provider, "word_list", None)))
    for _, provider in _providers("faker.providers.address"):
        for attribute in dir(provider):
            if any(part in attribute for part in PLACE_WORDS) and not attribute.startswith("_"):
                common |= _one_word_places(_strings(getattr(provider, attribute, None)))
    common = {word for word in common if len(languages.get(word, ())) < WIDESPREAD}
    common |= marker_words() | _calendar_words() | _language_words()
    kept = sorted(name for name in set(languages) - common
                  if len(name) >= MIN_LETTERS and name.isalpha()
                  and not any(is_cjk(char) or "\u0e00" <= char <= "\u0e7f" for char in name))
    return kept, faker.VERSION


def main() -> int:
    kept, version = build()
    OUT.write_text(HEADER.format(version=version) + "\n".join(kept) + "\n", encoding="utf-8")
    print(f"{len(kept)} names -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
