"""Frames: two statements in the same words but for one value (D-410, D-411).

"I have two grandchildren" → "I have four grandchildren", "Mijn schoenmaat is 43" → "… 45",
"Mi película favorita es Roma" → "Mi pelicula favorita es Coco": the frame is the same, word
for word (a word written two ways counts as one, `_spelling.twin`), and the words that differ
are the value. A count (numbers, in digits or words) has one value at a time whatever the verb,
so a count said again replaces the count said before (`count_swap`). Another value at the
end of the frame ("I play the piano" → "… the cello", "I'm vegan" → "I'm vegetarian") is no
copy of the old one (`value_swap`), but only a slot the person owns has one value at a time:
"my X is A" → "my X is B" (`owned_swap`, a copula before the value); a verb may hold many
("I like tea" → "I like coffee"), so those stay side by side. Language-free but for the number
words, first-person possessives and copulas below.

Since D-431 only `owned_swap` is wired (the change stage); `count_swap` and `value_swap` are
read by no stage — a count alone is as often another thing ("city number 2") as a new count,
and a new last word was too often a paraphrase's — and stay, tested, for the next try.
"""

from __future__ import annotations

from functools import lru_cache

from jamgate_stages._spelling import twin
from jamgate_stages._text import fold, words, wordset

# Cardinals from zero to twelve, in the languages the update corpora speak in Latin script
# ("-" where a language has no single word); "a"/"an"/"un" are articles far more often than
# counts, so left out. Polish collectives ("dwoje", "troje") follow.
_CARDINALS = """
    zero one two three four five six seven eight nine ten eleven twelve
    null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf
    zéro une deux trois quatre cinq six sept huit neuf dix onze douze
    cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce
    zero uno due tre quattro cinque sei sette otto nove dieci undici dodici
    zero um dois três quatro cinco seis sete oito nove dez onze doze
    nul één twee drie vier vijf zes zeven acht negen tien elf twaalf
    noll ett två tre fyra fem sex sju åtta nio tio elva tolv
    zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście dwanaście
    - - dwoje troje czworo pięcioro sześcioro - - - - - -
    - una duas - - - - - - - - - -
    - jedna dwie - - - - - - - - - -
"""
# The number a number word says ("drei" → "3").
NUMBER_VALUES = {fold(word): str(value) for line in _CARDINALS.strip().splitlines()
                 for value, word in enumerate(line.split()) if word != "-"}
NUMBER_WORDS = frozenset(NUMBER_VALUES)
# The number words that are no common word of another language besides ("due", "sei", "sex",
# "once", "très", "doce", "um", "nul", "one", the articles "une"/"uno"/"una"): a value wherever
# they stand (D-410).
PLAIN_NUMBER_WORDS = NUMBER_WORDS - frozenset(map(fold, wordset("""zero null nul one une uno
    una um due sei sex elf ett jeden jedna once tres doce tio""")))
# First-person possessives opening a text (an article before them skipped: "il mio", "a
# minha"): what follows is a slot of the person's.
MINE = frozenset(map(fold, wordset("""my mein meine meinen meinem meiner mon ma mes mi mis mio
    mia miei mie meu minha meus minhas mijn min mitt mina mój moja moje""")))
ARTICLES = frozenset(map(fold, wordset("""il la lo i le gli o a os as el""")))
# The copula before the value of an owned slot ("my X is Y"; Polish "mój X to Y").
_COPULAS = frozenset(map(fold, wordset("""is are was were ist sind war est sont était es son
    era está están è sono é são zijn är var jest są to""")))
_MIN_FRAME = 2  # shared words a frame needs besides its value


@lru_cache(maxsize=2048)
def tokens(text: str) -> tuple[str, ...]:
    """The text's folded words (accents dropped, as people often type them)."""
    return tuple(fold(w) for w in words(text))


def is_number(token: str) -> bool:
    """Digits (with separators) or a number word."""
    return token.replace(".", "").replace(",", "").isdigit() or token in NUMBER_WORDS


def _differing(new: str, old: str) -> tuple[tuple[str, ...], tuple[str, ...], list[int]] | None:
    """The two texts' words and where they differ, when they align word for word."""
    a, b = tokens(new), tokens(old)
    if len(a) != len(b) or len(a) < 2:
        return None
    return a, b, [i for i, (x, y) in enumerate(zip(a, b, strict=True))
                  if x != y and not twin(x, y)]


def count_swap(new: str, old: str) -> bool:
    """The same frame with another count: every differing word a number on both sides (or
    the counted word after it, inflected), and at least two words shared ("Ich schlafe sechs
    Stunden" → "… acht Stunden")."""
    found = _differing(new, old)
    if found is None:
        return False
    a, b, diff = found
    counted = [i for i in diff if is_number(a[i]) and is_number(b[i])]
    # the thing counted may take another form after another number ("three cups" → "one
    # cup", "dwa koty" → "pięć kotów"): the same opening of three letters
    inflected = [i for i in diff if i - 1 in counted and a[i][:3] == b[i][:3]]
    return (bool(counted) and len(counted) + len(inflected) == len(diff)
            and len(a) - len(diff) >= _MIN_FRAME)


def _inflected(a: str, b: str) -> bool:
    """One word in two forms: all but the last letter of the shorter shared ("करो" / "करना",
    "zurdo" / "zurda"), where a verb-final language's last word is its verb."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
    return shared >= max(2, min(len(a), len(b)) - 1)


def value_swap(new: str, old: str) -> bool:
    """The same frame with another last word, its value ("Soy zurdo" → "Soy diestro"): a new
    value, never a copy. A paraphrase changes the verb or adds words, not the value; the
    last word in another form is the same word (D-411)."""
    found = _differing(new, old)
    if found is None or found[2] != [len(found[0]) - 1]:
        return False
    return not _inflected(found[0][-1], found[1][-1])


def owned_swap(new: str, old: str) -> bool:
    """A slot of the person's, said with another value: both open with a first-person
    possessive and say the same words up to a copula, then another value ("My favourite
    film is X" → "My favorite film is Y", "Il mio colore preferito è il rosso" → "… il blu",
    "Mi bebida favorita es el té verde" → "… es el mate")."""
    a, b = tokens(new), tokens(old)
    start = 1 if a[:1] and a[0] in ARTICLES else 0
    if len(a) < start + 4 or a[start] not in MINE:
        return False
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y and not twin(x, y):
            break
        shared += 1
    if shared < start + 3 or shared >= min(len(a), len(b)):
        return False  # the possessive and a slot word shared, and a value left on each side
    # the shared words end in a copula (and an article): "my kids love pizza" is no slot
    last = a[shared - 1]
    return last in _COPULAS or (last in ARTICLES and a[shared - 2] in _COPULAS)
