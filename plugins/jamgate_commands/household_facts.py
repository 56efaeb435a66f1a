"""Near-template facts about the user and the people around them, named by relation only, and
questions that share mostly template words with their fact (issue #21's harder set).

A fact is about an owner ("I", "my sister", "my boss's son") and a thing of theirs (a
dentist, the spare key, the Tuesday choir), in one of a few dozen templates: "My sister's
dentist is in Graz.", "My boss's son keeps his spare key under the blue pot.", "I go to
choir on Tuesdays." No full name appears in a question: the question names the owner by
relation and the thing in other template words ("Where does my sister's dentist work?",
"Where does my boss's son hide his spare key?", "Which day is my choir?"), so all it shares
with its fact are the owner's relation words, the thing's one or two words and common
template words that thousands of facts hold too. Each (owner, thing, template) is stated
once, so a question has one answer; an owner holds many facts, and a thing many owners.
A share of the facts is in German or Spanish, with their own templates and questions.

The stream for a seed is fixed, as in `personal_facts`: the first N facts are the store of
size N. Seeds 1–4 are for tuning; 11 and 23 are held out (measured once, at the end).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

TUNING_SEEDS = (1, 2, 3, 4)
HELD_OUT_SEEDS = (11, 23)


def _w(text: str) -> list[str]:
    return text.split()


# The people: (English, German, Spanish) relation nouns; a second relation makes an owner
# such as "my sister's husband".
_RELATIONS: tuple[tuple[str, str, str], ...] = (
    ("sister", "Schwester", "hermana"), ("brother", "Bruder", "hermano"),
    ("mother", "Mutter", "madre"), ("father", "Vater", "padre"), ("aunt", "Tante", "tía"),
    ("uncle", "Onkel", "tío"), ("cousin", "Cousine", "prima"), ("niece", "Nichte", "sobrina"),
    ("nephew", "Neffe", "sobrino"), ("grandmother", "Oma", "abuela"),
    ("grandfather", "Opa", "abuelo"), ("neighbour", "Nachbar", "vecino"),
    ("boss", "Chefin", "jefa"), ("flatmate", "Mitbewohner", "compañero de piso"),
    ("best friend", "beste Freundin", "mejor amiga"), ("landlord", "Vermieter", "casero"),
    ("colleague", "Kollegin", "compañera"), ("godson", "Patenkind", "ahijado"),
    ("stepfather", "Stiefvater", "padrastro"), ("daughter", "Tochter", "hija"),
    ("son", "Sohn", "hijo"), ("wife", "Frau", "mujer"), ("husband", "Mann", "marido"),
    ("partner", "Partnerin", "pareja"), ("mother-in-law", "Schwiegermutter", "suegra"),
    ("brother-in-law", "Schwager", "cuñado"), ("piano teacher", "Klavierlehrerin",
                                                "profesora de piano"),
    ("physiotherapist", "Physiotherapeutin", "fisioterapeuta"),
)
# Second relations (indexes into _RELATIONS): "my sister's husband", "my boss's son".
_SECOND = (0, 1, 19, 20, 21, 22, 23, 2, 3, 11)

# Things with a place or a person: (English, German, Spanish), its kind.
_SERVICES: tuple[tuple[str, str, str], ...] = (
    ("dentist", "Zahnarzt", "dentista"), ("doctor", "Hausarzt", "médico"),
    ("hairdresser", "Friseur", "peluquero"), ("vet", "Tierarzt", "veterinario"),
    ("optician", "Optiker", "óptico"), ("mechanic", "Mechaniker", "mecánico"),
    ("accountant", "Steuerberater", "gestor"), ("lawyer", "Anwalt", "abogado"),
    ("tailor", "Schneider", "sastre"), ("dermatologist", "Hautarzt", "dermatólogo"),
    ("driving instructor", "Fahrlehrer", "profesor de autoescuela"),
    ("yoga teacher", "Yogalehrerin", "profesora de yoga"), ("plumber", "Klempner", "fontanero"),
    ("bank", "Bank", "banco"), ("gym", "Fitnessstudio", "gimnasio"),
    ("bakery", "Bäckerei", "panadería"), ("pharmacy", "Apotheke", "farmacia"),
    ("butcher", "Metzger", "carnicero"),
)
_OBJECTS: tuple[tuple[str, str, str], ...] = (
    ("spare key", "Ersatzschlüssel", "llave de repuesto"),
    ("passport", "Reisepass", "pasaporte"), ("car keys", "Autoschlüssel", "llaves del coche"),
    ("bike", "Fahrrad", "bicicleta"), ("umbrella", "Regenschirm", "paraguas"),
    ("toolbox", "Werkzeugkasten", "caja de herramientas"),
    ("winter coat", "Wintermantel", "abrigo de invierno"),
    ("birth certificate", "Geburtsurkunde", "partida de nacimiento"),
    ("laptop charger", "Ladekabel", "cargador del portátil"),
    ("photo albums", "Fotoalben", "álbumes de fotos"), ("tent", "Zelt", "tienda de campaña"),
    ("sewing kit", "Nähzeug", "costurero"), ("reading glasses", "Lesebrille", "gafas de leer"),
    ("wedding ring", "Ehering", "anillo de boda"), ("first aid kit", "Verbandskasten",
                                                   "botiquín"),
    ("suitcase", "Koffer", "maleta"), ("headphones", "Kopfhörer", "auriculares"),
    ("garden hose", "Gartenschlauch", "manguera"),
)
_ACTIVITIES: tuple[tuple[str, str, str], ...] = (
    ("choir", "Chorprobe", "coro"), ("swimming", "Schwimmen", "natación"),
    ("yoga class", "Yogakurs", "clase de yoga"), ("book club", "Lesekreis", "club de lectura"),
    ("football training", "Fußballtraining", "entrenamiento de fútbol"),
    ("piano lesson", "Klavierstunde", "clase de piano"),
    ("Spanish course", "Spanischkurs", "curso de español"),
    ("pottery class", "Töpferkurs", "clase de cerámica"),
    ("volunteer shift", "Ehrenamt", "voluntariado"), ("chess club", "Schachklub",
                                                      "club de ajedrez"),
    ("running group", "Lauftreff", "grupo de running"), ("dance class", "Tanzkurs",
                                                         "clase de baile"),
)
_TASTES: tuple[tuple[str, str, str], ...] = (
    ("soup", "Suppe", "sopa"), ("cake", "Kuchen", "tarta"), ("film", "Film", "película"),
    ("band", "Band", "grupo"), ("flower", "Blume", "flor"), ("board game", "Brettspiel",
                                                          "juego de mesa"),
    ("cheese", "Käse", "queso"), ("holiday spot", "Urlaubsort", "lugar de vacaciones"),
    ("tea", "Tee", "té"), ("podcast", "Podcast", "podcast"), ("dish", "Gericht", "plato"),
    ("sport to watch", "Sport im Fernsehen", "deporte para ver"),
)

_CITIES = _w("""Graz Porto Lyon Turin Leipzig Aarhus Bergen Krakow Brno Gdansk Ghent Utrecht
Malaga Bilbao Split Tartu Riga Uppsala Bologna Nantes Seville Cork Basel Salzburg Dresden
Bremen Antwerp Lille Valencia Verona""")
_DAYS_EN = _w("Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays")
_DAYS_DE = _w("montags dienstags mittwochs donnerstags freitags samstags sonntags")
_DAYS_ES = _w("lunes martes miércoles jueves viernes sábados domingos")
_COLOURS = (("blue", "blauen", "azul"), ("red", "roten", "rojo"), ("green", "grünen", "verde"),
            ("yellow", "gelben", "amarillo"), ("white", "weißen", "blanco"),
            ("black", "schwarzen", "negro"), ("grey", "grauen", "gris"))
_SPOTS = (("under the {c} pot", "unter dem {c} Topf", "debajo de la maceta {c}"),
          ("in the {c} box in the hall", "in der {c} Kiste im Flur",
           "en la caja {c} del pasillo"),
          ("behind the {c} books", "hinter den {c} Büchern", "detrás de los libros de color {c}"),
          ("in the {c} drawer by the door", "in der {c} Schublade an der Tür",
           "en el cajón {c} junto a la puerta"),
          ("on the top shelf of the {c} wardrobe", "oben im {c} Schrank",
           "en lo alto del armario {c}"),
          ("in the {c} bag in the attic", "in der {c} Tasche auf dem Dachboden",
           "en la bolsa {c} del desván"))
_SURNAMES = _w("""Weber Novak Rossi Moreau Jensen Silva Haddad Costa Dubois Horvat Mendes Petrov
Santos Keller Lambert Vogel Walsh Berger Castro Engel Gallo Huber Klein Nagy""")
_ORIGINS = (("Greek", "griego"), ("Italian", "italiano"), ("Korean", "coreano"),
            ("Mexican", "mexicano"), ("Irish", "irlandés"), ("Swedish", "sueco"),
            ("Polish", "polaco"), ("Japanese", "japonés"), ("Turkish", "turco"),
            ("Peruvian", "peruano"))

# Templates: (kind, fact, question). {O}/{o} the owner's possessive ("My sister's"/"my
# sister's"; "My"/"my" for the user), {S}/{s} the owner as a subject ("My sister"/"I"), {h} the
# owner's pronoun, {t} the thing, {v} the value; other slots are the owner's verb forms and
# phrases (`_Owner.forms`).
_EN = [
    ("service", "{O} {t} is in {v}.", "Where does {o} {t} work?"),
    ("service", "{O} {t} appointment is always on {v}.", "When does {s} usually see the {t}?"),
    ("service", "{O} {t} is called {v}.", "What is the name of {o} {t}?"),
    ("object", "{S} {keep} {h} {t} {v}.", "Where is {o} {t} hidden?"),
    ("object", "{O} {t} came from a shop in {v}.", "Where did {s} buy {h} {t}?"),
    ("object", "{O} {t} is {v}.", "What colour is {o} {t}?"),
    ("activity", "{O} {t} is on {v}.", "Which day is {o} {t}?"),
    ("activity", "{S} {go} to {t} in {v}.", "In which town {does} {s} attend {t}?"),
    ("taste", "{O} favourite {t} is {v}.", "Which {t} {does} {s} like best?"),
]
_DE = [
    ("service", "{S} {go} in {v} zum {t}.", "In welcher Stadt {go} {s} zum {t}?"),
    ("service", "{S} {has} den Termin beim {t} immer {v}.", "Wann {go} {s} zum {t}?"),
    ("object", "{S} {keep} den {t} {v} auf.", "Wo {hide} {s} den {t}?"),
    ("activity", "{S} {has} {v} {t}.", "An welchem Tag {has} {s} {t}?"),
]
_ES = [
    ("service", "{S} {go} al {t} en {v}.", "¿En qué ciudad está {de} {t}{of}?"),
    ("object", "{S} {keep} {h} {t} {v}.", "¿Dónde {hide} {s} {h} {t}?"),
    ("activity", "{S} {has} {t} los {v}.", "¿Qué día {go} {s} a {t}?"),
    ("taste", "{fav} {t} favorito{of} es el {v}.", "¿Qué {t} {prefer} {s}?"),
]
# The share of facts in each language.
_LANGUAGES = (("en", 0.8), ("de", 0.1), ("es", 0.1))
_COLUMN = {"en": 0, "de": 1, "es": 2}
_FEMININE_DE = frozenset(_w("""Schwester Mutter Tante Cousine Nichte Oma Chefin Freundin
Kollegin Tochter Frau Partnerin Schwiegermutter Klavierlehrerin Physiotherapeutin"""))


@dataclass(frozen=True)
class Fact:
    text: str
    question: str


@dataclass(frozen=True)
class _Owner:
    """One owner: the user (an empty chain), or a chain of relation indexes (sister, husband:
    "my sister's husband")."""

    chain: tuple[int, ...]

    def forms(self, language: str) -> dict[str, str]:
        """The owner's forms in a template's slots, for one language."""
        names = [_RELATIONS[i][_COLUMN[language]] for i in self.chain]
        return {"en": _english, "de": _german, "es": _spanish}[language](names)


def _english(names: list[str]) -> dict[str, str]:
    if not names:
        return {"O": "My", "o": "my", "S": "I", "s": "I", "h": "my", "keep": "keep",
                "go": "go", "does": "do"}
    phrase = "my " + "'s ".join(names)
    return {"O": _capital(phrase) + "'s", "o": phrase + "'s", "S": _capital(phrase),
            "s": phrase, "h": "their", "keep": "keeps", "go": "goes", "does": "does"}


def _german(names: list[str]) -> dict[str, str]:
    if not names:
        return {"S": "Ich", "s": "ich", "go": "gehe", "has": "habe", "keep": "bewahre",
                "hide": "verstecke"}
    first = names[0]
    feminine = first.split()[-1] in _FEMININE_DE
    phrase = ("meine " if feminine else "mein ") + first
    if len(names) > 1:
        article = "die" if names[1].split()[-1] in _FEMININE_DE else "der"
        genitive = f"meiner {first}" if feminine else f"meines {first}s"
        phrase = f"{article} {names[1]} {genitive}"
    return {"S": _capital(phrase), "s": phrase, "go": "geht", "has": "hat",
            "keep": "bewahrt", "hide": "versteckt"}


def _spanish(names: list[str]) -> dict[str, str]:
    if not names:
        return {"S": "Yo", "s": "yo", "h": "mi", "go": "voy", "has": "tengo", "keep": "guardo",
                "hide": "escondo", "prefer": "prefiero", "de": "mi", "fav": "Mi", "of": ""}
    phrase = "mi " + names[0]
    if len(names) > 1:
        phrase = f"{_article_es(names[1])} {names[1]} de {phrase}"
    return {"S": _capital(phrase), "s": phrase, "h": "su", "go": "va", "has": "tiene",
            "keep": "guarda", "hide": "esconde", "prefer": "prefiere", "de": "el",
            "fav": "El", "of": f" de {phrase}".replace(" de el ", " del ")}


def _article_es(noun: str) -> str:
    return "la" if noun.split()[0].endswith("a") or noun in ("madre", "mujer") else "el"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _owners() -> list[_Owner]:
    """The user, every relation, and every relation's second relation (not itself)."""
    owners = [_Owner(())] + [_Owner((i,)) for i in range(len(_RELATIONS))]
    owners += [_Owner((i, j)) for i in range(len(_RELATIONS)) for j in _SECOND if j != i]
    return owners


def facts(seed: int, count: int) -> list[Fact]:
    """The first `count` facts of the stream for `seed`; each (owner, thing, template) once."""
    rng = random.Random(seed)
    owners = _owners()
    rng.shuffle(owners)
    used: set[tuple[int, str, int, str]] = set()
    out: list[Fact] = []
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > count * 50:
            raise ValueError(f"the household facts hold fewer than {count:,} for seed {seed}")
        # A pool of owners that grows with the store: an owner holds many facts.
        pool = max(40, len(out) // 20)
        owner_n = rng.randrange(min(pool, len(owners)))
        language = _language(rng)
        templates = {"en": _EN, "de": _DE, "es": _ES}[language]
        which = rng.randrange(len(templates))
        kind, fact, question = templates[which]
        things = {"service": _SERVICES, "object": _OBJECTS, "activity": _ACTIVITIES,
                  "taste": _TASTES}[kind]
        thing_n = rng.randrange(len(things))
        value = _value(rng, kind, which, language)
        key = (owner_n, language, which, f"{kind}{thing_n}")
        if key in used:
            continue
        used.add(key)
        col = _COLUMN[language]
        slots = owners[owner_n].forms(language)
        thing = things[thing_n][col]
        out.append(Fact(_sentence(fact.format(t=thing, v=value, **slots)),
                        _sentence(question.format(t=thing, v=value, **slots))))
    return out


def _language(rng: random.Random) -> str:
    draw = rng.random()
    for language, share in _LANGUAGES:
        draw -= share
        if draw < 0:
            return language
    return "en"


def _value(rng: random.Random, kind: str, which: int, language: str) -> str:
    """The template's value: a city, a day, a name, a hiding place, a colour or a taste."""
    col = _COLUMN[language]
    if kind == "object":
        spot = rng.choice(_SPOTS)[col]
        colour = rng.choice(_COLOURS)[col]
        if language == "en" and which == 4:
            return rng.choice(_CITIES)
        if language == "en" and which == 5:
            return rng.choice(_COLOURS)[0]
        return spot.format(c=colour)
    if kind == "activity":
        if language == "en" and which == 7:
            return rng.choice(_CITIES)
        return rng.choice((_DAYS_EN, _DAYS_DE, _DAYS_ES)[col])
    if kind == "service":
        if which == 1 and language in ("en", "de"):
            return rng.choice((_DAYS_EN, _DAYS_DE)[col])
        if language == "en" and which == 2:
            return f"{rng.choice(('Dr', 'Mr', 'Ms'))} {rng.choice(_SURNAMES)}"
        return rng.choice(_CITIES)
    origin = rng.choice(_ORIGINS)
    return f"the {origin[0]} one" if language == "en" else origin[1]


def _sentence(text: str) -> str:
    """One space between words, the first letter a capital (Spanish marks kept)."""
    text = " ".join(text.split())
    start = 1 if text[:1] in "¿¡" else 0
    return text[:start] + text[start:start + 1].upper() + text[start + 1:]


def probes(seed: int, count: int, asked: int = 200) -> list[tuple[str, int]]:
    """`asked` (question, index of the fact it asks for) pairs over the first `count` facts."""
    stream = facts(seed, count)
    rng = random.Random(seed * 7919 + count)
    picked = rng.sample(range(count), min(asked, count))
    return [(stream[n].question, n) for n in picked]
