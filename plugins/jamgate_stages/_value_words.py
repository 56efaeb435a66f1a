"""Closed classes of value words (D-443): a diet, a colour, a deployment environment, in the
change stage's Latin-script languages, each word read as its class and its value ("vegana",
"végane", "weganką", "veganist" → diet/vegan; "rojo", "czerwony", "kırmızı" → colour/red).

Two texts that differ in such a word, and in few other words, say two values of one slot
("Soy vegetariano" / "Soy vegano", "Mijn fiets is blauw" / "… zwart", "the staging server …" /
"the production server …"): never a copy of each other, however close their vectors. A
paraphrase or a translation names the same value ("Ich bin Veganerin" / "I am vegan"), and a
pair that differs in no class word is judged as before. Only the diet is one-valued for the
person: the change stage retires the old diet (`ONE_VALUED`); a colour is read with a slot of
theirs (D-410) and an environment names another thing, so both are stored beside the old fact.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jamgate_stages._text import fold, words

# class -> value -> the folded openings of its words
_CLASSES: dict[str, dict[str, tuple[str, ...]]] = {
    "diet": {
        "vegan": ("vegan", "vegano", "vegana", "vegane", "veganer", "veganist", "wegan", "vegansk"),
        "vegetarian": ("vegetar", "wegetarian", "vejetaryen"),
        "pescatarian": ("pescatar", "pescetar", "pesketar"),
        "flexitarian": ("flexitar", "fleksitar"),
        "omnivore": ("omnivor",),
        "keto": ("keto",),
        "paleo": ("paleo",),
    },
    "colour": {
        "red": ("red", "rot", "rote", "roter", "rotes", "rouge", "rojo", "roja", "rosso", "rossa",
                "vermelh", "rood", "rod", "czerwon", "kirmizi", "kırmızı"),
        "blue": ("blue", "blau", "blaue", "blauer", "blaues", "bleu", "bleue", "azul", "blu",
                 "blauw", "bla", "niebiesk", "mavi"),
        "green": ("green", "grun", "grune", "gruner", "vert", "verte", "verde", "groen", "gron",
                  "zielon", "yesil"),
        "black": ("black", "schwarz", "noir", "noire", "negro", "negra", "nero", "nera", "preto",
                  "preta", "zwart", "svart", "czarn", "siyah"),
        "white": ("white", "weiss", "blanc", "blanco", "blanca", "bianco", "bianca", "branco",
                  "branca", "wit", "vit", "bialy", "biala", "biale", "beyaz"),
        "grey": ("grey", "gray", "grau", "graue", "gris", "grise", "grigio", "grigia", "cinza",
                 "grijs", "gra", "szary", "szara", "szare", "gri"),
        "silver": ("silver", "silber", "argent", "plata", "plateado", "argento", "prata", "zilver",
                   "srebrn", "gumus"),
        "yellow": ("yellow", "gelb", "gelbe", "jaune", "amarill", "giall", "amarel", "geel", "gul",
                   "zolty", "zolta", "zolte", "sari", "sarı"),
        "brown": ("brown", "braun", "marron", "marrone", "castanh", "bruin", "brun", "brazow",
                  "kahverengi"),
        "pink": ("pink", "rosa", "roze", "rozow", "pembe"),
        "purple": ("purple", "lila", "violet", "violette", "morado", "viola", "roxo", "paars",
                   "fiolet", "mor"),
        "orange": ("orange", "arancion", "laranja", "oranje", "pomarancz", "turuncu"),
    },
    "environment": {
        "production": ("production", "prod", "produktion", "produccion", "produzione", "producao",
                       "productie", "produktions", "produkcyj", "canli", "canlı"),
        "staging": ("staging", "preprod", "recette"),
        "test": ("test", "testing", "pruebas", "testes", "testowy", "testomgeving", "testmiljo",
                 "testserver", "testumgebung"),
        "development": ("dev", "development", "entwicklung", "developpement", "desarrollo",
                        "sviluppo", "desenvolvimento", "ontwikkel", "utveckling", "deweloper",
                        "gelistirme"),
    },
}
# A slot that holds one value for the person at a time: a new value replaces the old one.
ONE_VALUED = frozenset({"diet"})
# An entry this long or longer is an opening of the words it reads ("czerwon" → "czerwony");
# a shorter one is a whole word ("rot", not "rotation"; "blau", not "blauwdruk").
_OPENING = 5


# whole words, and openings by their first five letters: one dict lookup a word or two
_WHOLE: dict[str, tuple[str, str]] = {}
_OPENINGS: dict[str, list[tuple[str, str, str]]] = {}
for _kind, _table in _CLASSES.items():
    for _value, _words in _table.items():
        for _entry in _words:
            _WHOLE.setdefault(_entry, (_kind, _value))
            if len(_entry) >= _OPENING:
                _OPENINGS.setdefault(_entry[:_OPENING], []).append((_entry, _kind, _value))
# a class's words anywhere in a folded text (a cheap gate before a search)
_IN_TEXT = {kind: re.compile(r"(?<!\w)(?:" + "|".join(
    re.escape(entry) + (r"\w*" if len(entry) >= _OPENING else r"(?!\w)")
    for words_ in table.values() for entry in words_) + ")")
    for kind, table in _CLASSES.items()}


def value_of(word: str) -> tuple[str, str] | None:
    """(class, value) of a folded word, or None (`_OPENING`)."""
    if (whole := _WHOLE.get(word)) is not None:
        return whole
    for entry, kind, value in _OPENINGS.get(word[:_OPENING], ()):
        if word.startswith(entry):
            return kind, value
    return None


def _values(said: frozenset[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for word in said:
        if (hit := value_of(word)) is not None:
            found.setdefault(hit[0], set()).add(hit[1])
    return found


@lru_cache(maxsize=1024)
def _folded(text: str) -> frozenset[str]:
    return frozenset(fold(w) for w in words(text))


def value_swap(new: str, old: str, *, others: int = 3) -> str | None:
    """The class in which the two texts name different values, where each text says at most
    `others` other words the other lacks; None where they name the same values or differ in
    no class word."""
    a, b = _folded(new), _folded(old)
    only_new, only_old = a - b, b - a
    if not (only_new and only_old):
        return None
    mine, theirs = _values(only_new), _values(only_old)
    for kind in mine.keys() & theirs.keys():
        if mine[kind] & _values(b).get(kind, set()) or theirs[kind] & _values(a).get(kind, set()):
            continue  # the same value on both sides, said twice
        rest_new = [w for w in only_new if value_of(w) is None]
        rest_old = [w for w in only_old if value_of(w) is None]
        if len(rest_new) <= others and len(rest_old) <= others:
            return kind
    return None


def names_value(text: str, kind: str) -> bool:
    """Whether a word of the text is a value of the class (a cheap gate before a search)."""
    return _IN_TEXT[kind].search(fold(text).lower()) is not None
