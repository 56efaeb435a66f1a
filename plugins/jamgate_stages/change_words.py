"""The words that declare a change ("now", "no longer", "switched", "instead of" …) in the
subject stage's seven languages, and the ones that add a fact instead (D-263)."""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import fold, words, wordset
from jamgate_stages.subject import wished

# A change declared in so many words: a text with one of these says something no longer holds.
_CHANGE = lazy_compile(
    r"\b(?:now|no longer|not anymore|anymore|any more|nowadays|these days|switched|changed|"
    r"replaced|instead of|stopped|quit|gave up|"
    # a change of state in so many words: becoming, promotion, an upgrade, a marriage
    r"became|become|got promoted|was promoted|upgraded|got married|got divorced|"
    r"jetzt|nun|inzwischen|mittlerweile|nicht mehr|kein\w* \w+ mehr|gewechselt|umgestiegen|"
    r"statt|anstatt|aufgehört|geworden|befördert|geheiratet|geschieden|"
    r"maintenant|désormais|ne \w+ plus|n['’]\w+ plus|plus de|passée? à|remplacé|au lieu de|"
    r"arrêté|devenue?|promue?|mariée?|divorcée?|"
    r"ahora|ya no|cambié|me cambié|en lugar de|en vez de|dejé de|me convertí|me hice|"
    r"ascendid[oa]|me casé|me divorcié|"
    r"ora|adesso|non \w+ più|non più|passat[oa] a|invece di|smesso|diventat[oa]|"
    r"promoss[oa]|sposat[oa]|divorziat[oa]|"
    r"agora|já não|não \w+ mais|mudei para|troquei|em vez de|parei de|tornei-me|"
    r"me tornei|promovid[oa]|casei|divorciei)\b"
    r"|(?<!\w)(?:τώρα|πλέον|πια|άλλαξα|αντί για|σταμάτησα|έγινα|παντρεύτηκα|"
    r"χώρισα)(?!\w)",
    re.IGNORECASE,
)
# The annotation by which the classifier leaves a refusal to the change stage (D-289): the
# candidate reads as passing state but declares a change, so it is refused (reason code,
# message) unless it updates a live fact of the person's.
PENDING_REFUSAL = "refused_unless_update"
# Words that add a fact beside the old one instead of replacing it.
_ADDITION = frozenset(map(fold, wordset("""also too another second additionally auch zweite
    zweiten aussi autre deuxième también otro otra segundo segunda anche altro altra secondo
    seconda também outro outra επίσης δεύτερο δεύτερη""")))
# Marker and negation words, left out when the texts' words are compared.
MARKER_WORDS = frozenset(map(fold, wordset("""now no longer anymore any more nowadays these
    days switched changed replaced instead of stopped quit gave up from to jetzt nun inzwischen
    mittlerweile nicht mehr gewechselt umgestiegen statt anstatt aufgehört maintenant désormais
    plus passé passée remplacé au lieu arrêté ahora ya cambié lugar en vez dejé ora adesso più
    passato passata invece smesso agora já não mais mudei para troquei em parei τώρα πλέον πια
    άλλαξα αντί για σταμάτησα became become got promoted was upgraded married divorced
    geworden befördert geheiratet geschieden devenu devenue promu promue marié mariée divorcé
    divorcée convertí hice ascendido ascendida casé divorcié diventato diventata promosso
    promossa sposato sposata divorziato divorziata tornei promovido promovida casei divorciei
    έγινα παντρεύτηκα χώρισα not no never don t doesn didn won isn aren non ne pas nicht kein
    keine keinen keiner nie não nao δεν μην""")))


def declares_change(text: str) -> bool:
    """Whether the text says that something no longer holds (and is not a wish or an addition)."""
    if not any(not wished(text, match.start()) for match in _CHANGE.finditer(text)):
        return False
    return not any(fold(word) in _ADDITION for word in words(text))
