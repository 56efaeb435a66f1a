"""What a declared change names as the thing it replaces (D-302).

A change often says what it leaves in so many words — "I switched from Notion to Obsidian",
"I replaced my ThinkPad with a MacBook", "J'ai remplacé mon Samsung par un Pixel", "把华为手机
换成了小米", "아이폰에서 갤럭시로 바꿨어요" — while the rest of the text shares little with the
fact it replaces (the new value is new). The grammar that names the old side is a handful of
frames per language: "from X to Y", a verb of replacing with its object before "with / for /
by / par / por …", and the CJK and Korean frames (把 X 换成, 从 X, X에서 … 로, X から … に).
`replaced_terms` reads X; the change stage retires the person's own live fact that holds every
one of its words.
"""

from __future__ import annotations

from jamgate_stages import _subject_words as lang
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import fold, is_cjk, stem, words, wordset

_X = r"(?P<x>[^,.;:!?()\n]{1,40}?)"
# "from X to Y" and its forms (matched in the lowered text).
_FROM = lazy_compile(
    r"(?<!\w)(?:from|von|vom|de|du|des|da|dal|dalla|dallo|do|dos|van|z|ze|с|со|з|із|"
    r"från|dari|kutoka|từ|من|از)\s+"  # sv id sw vi ar fa (D-353)
    + _X + r"\s+(?:to|into|zu|zum|zur|nach|auf|à|au|aux|a|al|ad|alla|para|pra|pro|naar|op|na|"
    r"do|на|в|у|до|till|ke|hadi|kwenda|sang|إلى|الى|به)(?!\w)")
# "from X to Y" names a replaced X only beside a verb of changing or moving: "from Monday to
# Friday" alone is a range, not a change.
_MOVED = lazy_compile(
    r"\b(?:switched|switching|moved|migrated|changed|went|gone|upgraded|transferred|"
    r"umgestiegen|gewechselt|gezogen|migriert|passé|passée|cambié|pasé|migré|mudei|passei|"
    r"migrei|passato|passata|cambiato|migrato|overgestapt|verhuisd|gemigreerd|przeszedłem|"
    r"przeszłam|перешёл|перешел|перешла|переехал|переехала|перейшов|перейшла|переїхав|"
    r"переїхала|bytte|bytt|flyttade|flyttat|pindah|beralih|ganti|nimehamia|nimebadilisha|"
    r"nilihamia|chuyển|đổi|انتقل|انتقلت|انتقلنا|تحولت|غيرت|غيّرت|بدلت|مهاجرت|کوچ|سوئیچ|"
    r"نقل)\b")
# A verb of replacing, its object, and what the object is exchanged for.
_OBJECT = lazy_compile(
    r"(?<!\w)(?:replaced|swapped|traded|ditched|exchanged|changed|switched|remplacé|échangé|"
    r"changé|troqué|cambié|reemplacé|sustituí|troquei|substituí|mudei|sostituito|cambiato|"
    r"vervangen|verruild|ingeruild|заменил|заменила|поменял|поменяла|сменил|сменила|замінив|"
    r"замінила|змінив|змінила)\s+" + _X + r"\s+(?:with|for|by|par|pour|contre|por|para|pela|"
    r"pelo|con|per|door|voor|met|на)(?!\w)")
# "instead of X" to the end of its clause.
_INSTEAD = lazy_compile(
    r"(?<!\w)(?:instead of|rather than|in place of|statt|anstatt|au lieu de|à la place de|"
    r"en lugar de|en vez de|invece di|al posto di|em vez de|no lugar de|in plaats van|zamiast|"
    r"вместо|замість|istället för|i stället för|alih-alih|ketimbang|badala ya|thay vì|במקום|"
    r"به جای|بجای|بدلاً من|بدلا من)\s+(?P<x>[^,.;:!?()\n،]{1,40})(?=[,.;:!?)\n،]|$)")
# A cessation and what ceased, to the end of its clause: "I no longer drink coffee", "ya no
# juego al pádel", "больше не пью кофе" (the first two content words of it are read, D-307).
CEASED = lazy_compile(
    r"(?<!\w)(?:no longer|ya no|já não|больше не|уже не|більше не|вже не|już nie|"
    r"inte längre|tidak lagi|không còn)\s+"
    r"(?P<x>[^,.;:!?()\n]{1,40})")
_CJK_FRAMES = (
    lazy_compile(r"(?:不再|已经不|已經不)(?P<x>[^，,。、\s了]{1,10})"),
    lazy_compile(r"(?:而不是|而不再是)(?P<x>[^，,。、\s]{1,10})"),
    lazy_compile(r"(?:把|将|將)(?P<x>[^，,。、\s]{1,10}?)(?:换成|換成|改成|换为|換為|换了|換了)"),
    lazy_compile(r"从(?P<x>[^，,。、\s]{1,10}?)(?:换|換|改|转|轉|搬)"),
    lazy_compile(r"(?P<x>[^、。\s]{1,10}?)から[^、。\s]{1,10}?(?:に|へ)(?:乗り換え|切り替え|変え)"),
    lazy_compile(r"(?P<x>[^\s.,]{1,10}?)에서\s+[^\s.,]{1,10}?(?:으로|로)\s+(?:바꿨|바꾸었|"
                 r"갈아탔|옮겼)"),
)
# Words that open the named thing without naming it: articles, possessives, "old", pronouns.
_LEAD = frozenset(map(fold, lang.POSSESSIVES | lang.ARTICLES | lang.NAME_ARTICLES | wordset(
    """a an the my our your his her their old former previous un une um uma uno una een ein
    eine einen einem het il lo mein meine meinen meinem mon ma mes me i we я мой моя моё мои
    свой свою свои""")))


# Prepositions and particles a ceased phrase's first content words skip ("al", "в", "to").
_FUNCTION = _LEAD | frozenset(map(fold, wordset("""to in on at of for with and al del en a de
    em no na nos nas à au aux du in im am zu um op te w we z ze do в во на с со к у по и""")))


def is_spaceless(term: str) -> bool:
    """A term of a script written without spaces, or with its particles fused (Hangul)."""
    first = term[0]
    return is_cjk(first) or "\uac00" <= first <= "\ud7a3"


def moves_from(lowered: str) -> list[int]:
    """Where a verb of changing or moving stands in a lowered text that also says "from X to
    Y" ("we migrated from MySQL to Postgres"): a change declared by its frame."""
    starts = [match.start() for match in _MOVED.finditer(lowered)]
    return starts if starts and _FROM.search(lowered) else []


def replaced_terms(text: str) -> tuple[str, ...]:
    """The folded words of what the text says it replaces (CJK and Hangul as one run each),
    or () when it names nothing."""
    lowered = text.lower()
    found = [m.group("x") for p in (_OBJECT, _INSTEAD) for m in p.finditer(lowered)]
    if _MOVED.search(lowered):
        found += [m.group("x") for m in _FROM.finditer(lowered)]
    found += [" ".join([w for w in words(m.group("x")) if fold(w) not in _FUNCTION][:2])
              for m in CEASED.finditer(lowered)]
    if not text.isascii():
        found += [m.group("x").removeprefix("我的").removeprefix("我们的")
                  for p in _CJK_FRAMES for m in p.finditer(lowered)]
    for named in found:
        if any(is_spaceless(c) for c in named if c.isalpha()):
            terms = tuple(t for t in (fold(w) for w in named.split()) if t)
        else:
            terms = tuple(t for t in (fold(w) for w in words(named)) if t not in _LEAD)
        if terms and len(terms) <= 4:
            return terms
    return ()


def holds_all(record_text: str, terms: tuple[str, ...]) -> bool:
    """Whether the record's text holds every term: as a word (lightly stemmed), or, for a
    spaceless term, as a substring."""
    folded = fold(record_text)
    own = {stem(w) for w in words(folded)}
    return all(term in folded if is_spaceless(term) else stem(term) in own for term in terms)
