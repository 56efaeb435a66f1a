"""An ending event and the state it ends (D-442): "Dana and I broke up" ends "Dana and I are
engaged", "I sold my Volvo" ends "I have a Volvo V70", "Mein Hund Bruno ist gestorben" ends
"Ich habe einen Hund namens Bruno".

An ending (broke up, called off, divorced, sold, quit, resigned, cancelled, graduated, died,
moved out …, in the change stage's languages) names what it ends: the state it retires is a
fact of the person's that names the same object (a shared word that is no function word, no
ending word and no word of the person: "Dana", "Sparkasse", "Basic-Fit", "Miso"). An ending
that names an object no fact of theirs holds ("I sold my old bike" beside "I drive a Mazda 3")
ends nothing stored: it retires nothing, never the nearest fact by resemblance.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jamgate_stages._frame import MINE
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import fold, words, wordset
from jamgate_stages._time import YEARS

# The endings, one alternative each; matched against the lowered text.
_ALTERNATIVES = (
    "broke up", "break up", "split up", "called off", "call off", "divorced", "sold", "quit",
    "resigned", "cancell?ed", "graduated", "died", "passed away", "moved out", "dropped out",
    "getrennt", "schluss gemacht", "scheiden lassen", "geschieden", "verkauft", "gekündigt",
    "abgeschlossen", "gestorben", "verstorben", "ausgezogen", "exmatrikuliert", "rompu",
    "séparée?s?", "divorcée?", "vendue?", "quitté", "démissionné", "résilié", "annulé", "diplômée?",
    "morte?", "décédée?", "lo dejamos", "terminamos", "rompimos", "nos separamos", "me divorcié",
    "se divorció", "vendí", "renuncié", "dejé mi trabajo", "cancelé", "me di de baja", "me gradué",
    "murió", "falleció", "ci siamo lasciati", "ci siamo separati", "lasciat[oa]", "divorziat[oa]",
    "vendut[oa]", "licenziat[oa]", "dimess[oa]", "disdett[oa]", "laureat[oa]", "mort[oa]",
    "separamos", "divorciei", "divorciou(?:-se)?", "vendi", "demiti-me", "me demiti", "saí do",
    "saí da", "cancelei", "me formei", "formei-me", "morreu", "faleceu", "uit elkaar", "gescheiden",
    "verkocht", "ontslag genomen", "opgezegd", "afgestudeerd", "overleden", "gestorven",
    "gestopt bij", "gjort slut", "gjorde slut", "skilt", "skilde", "sålt", "sålde", "sagt upp",
    "sade upp", "tog examen", "har dött", "gick bort", "flyttat ut", r"rozstał\w*", r"rozwiod\w*",
    r"rozwiódł\w*",
    r"sprzedał\w*", r"odszedł\w*", r"odeszł\w*", r"zrezygnował\w*", r"ukończył\w*", r"zmarł\w*",
    r"umarł\w*", r"wyprowadził\w*", "ayrıldık", "ayrıldım", "boşandık", "boşandım", "boşandı",
    "sattım", "istifa ettim", "iptal ettim", "mezun oldum", "öldü", "vefat etti",
)
_ENDING = lazy_compile(r"(?<!\w)(?:" + "|".join(_ALTERNATIVES) + r")(?!\w)")


def _key(alternative: str) -> str:
    """The first four letters of the alternative's longest literal word: a text the pattern
    matches has a word opening with them."""
    literal = [re.split(r"[\[(?*+\\.]", word)[0] for word in alternative.split()]
    return max(literal, key=len)[:4]


_KEYS = frozenset(_key(alternative) for alternative in _ALTERNATIVES)
_KEY_LENGTHS = tuple(sorted({len(key) for key in _KEYS}))


# Words that name no object: function words, the person, endings' own words, old / new.
_NO_OBJECT = frozenset(map(fold, wordset("""
the and with from off out away my our his her their last week month year ago old new first
called have has had got are was were been is i me we us
der die das den dem des und mit von bei aus mein meine meinen meinem ich wir uns mich mir
ist hat habe haben bin sind sich alt alte alten altes
le la les et avec de du des mon ma mes je moi nous on ai est suis sont vieux vieille chez
poste
el la los las y con de del mi mis yo lo me nos se he es soy estoy viejo vieja
il lo la gli le e con di del della mio mia miei io ci si sono ho è vecchio vecchia
o a os as e com de do da meu minha eu me se sou velho velha
de het een en met van bij mijn ik wij we ons zijn ben heb oude oud
och med från min mitt mina jag vi oss har är gamla gammal
i z ze w we mój moja moje ja się jestem mam stary stara stare
ile ve ben biz bir eski
""")))


@lru_cache(maxsize=1024)  # a pure function of the text, read for the save and each neighbour
def ends(text: str) -> bool:
    """Whether the text tells of an ending (module docstring); a word opening with no
    alternative's key first (most texts stop there)."""
    lowered = text.lower()
    if not any(word[:n] in _KEYS for word in words(lowered) for n in _KEY_LENGTHS):
        return False
    return bool(_ENDING.search(lowered))


def without_ending(text: str) -> str:
    """The text with its ending words blanked (what else it says: "adesso sto con Luca")."""
    return _ENDING.sub(" ", text.lower())


@lru_cache(maxsize=2048)
def object_words(text: str) -> frozenset[str]:
    """The folded words of the text that may name an object: three letters or more, no
    function word, no ending word."""
    lowered = _ENDING.sub(" ", text.lower())
    return frozenset(w for w in map(fold, words(lowered))
                     if len(w) >= 3 and w not in _NO_OBJECT and not w.isdigit())


def _same_word(a: str, b: str) -> bool:
    """The same word, or two forms of one: an opening of four letters or more shared, at
    least three fifths of the shorter ("engaged" / "engagement", "smoke" / "smoking")."""
    if a == b:
        return True
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return shared >= 4 and shared * 5 >= 3 * min(len(a), len(b))


@lru_cache(maxsize=2048)
def names(text: str) -> frozenset[str]:
    """The folded capitalised words of the text after its first: names of people, places,
    firms, makes ("Fnac", "Riverside", "Tomkiem")."""
    return frozenset(fold(w) for w in words(text)[1:] if w[:1].isupper() and len(w) >= 2)


def shared_objects(ending: str, fact: str) -> int:
    """How many of the ending's object words the fact names; none where the ending names a
    name the fact lacks while the fact names another ("I quit my job at Fnac" beside "I work
    at Orange"): another object."""
    named = object_words(fact)
    own = names(ending)
    if own and not own & (names(fact) | named) and names(fact):
        return 0
    return sum(any(_same_word(w, n) for n in named) for w in object_words(ending))


def dated_before(text: str, year: int) -> bool:
    """Whether the text dates itself in a year before `year` ("W 2012 roku …", "En 2016, …"):
    an ending then is history, not a change now."""
    return any(int(found) < year for found in YEARS.findall(text))


# The person said as a pronoun anywhere in the text ("Dana and I …", "Hugo et moi …"); the
# English "I" by its case (the Polish, Swedish and Italian "i" are no person).
_PERSON = frozenset(map(fold, wordset("""me moi yo io eu ik jag ja ich wir we nous ben biz vi
noi nós""")))


def names_person(text: str) -> bool:
    """Whether the person is said as a pronoun in the text."""
    said = words(text)
    return "I" in said or any(fold(w) in _PERSON for w in said)


def opens_mine(text: str) -> str | None:
    """The folded word after a first-person possessive opening the text ("My cat Miso …" →
    "cat", "O meu gato …" → "gato"), or None."""
    said = [fold(w) for w in words(text)[:3]]
    for at in (0, 1):
        if len(said) > at + 1 and said[at] in MINE:
            return said[at + 1]
    return None
