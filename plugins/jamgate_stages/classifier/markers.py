"""Closed word classes the classifier reads as features, in many languages (D-175).

The categories are defined by whose fact a text states and when it holds: a durable fact names
a person (the user, "I", "we", someone in their life) and holds beyond today; general
knowledge names no person, passing state holds now or today only. Character n-grams learn
that per language from examples; these classes give the model the same signal in every
language listed, from the definitions rather than from any corpus: first-person words, words
for the user, words of the present moment or day ("now", "today", "tonight", "this week"),
and standing words ("always", "every", "usually"). They are features, weighed by training,
never rules; a person is also crossed with the time classes ("a person and now"). A named
person is a person too: a known first name, capitalised where its script has case, from a
table built from Faker's name lists (`first_names.txt`, D-210). With it, "no anchor" (no "I",
no user, no name) is a feature again: before the names, it read a named person's fact
("Melanie has been married for 5 years") as a claim about the world (D-175).

A person is anchored in other ways too, the same in every language (D-217): a third-person
pronoun ("she", "er", "elle", "他的", "彼女") or a title or honorific ("Dr", "Frau", "さん",
"씨"), a first-person form of "to be" or "to have" where the pronoun is dropped ("soy",
"olen", "jestem"), the user's word in its inflected forms ("användaren"). A world fact names
no one and is often a definition: a copula or defining verb ("is", "means", "ist", "是一种",
"とは") without any anchor is a feature of its own (`m:no-anchor+define`), so is "no anchor".
Words that read as another common word in a listed language stay out ("dem", "il", "lei",
"pan", "son", "este").

Tables are folded like the text (`jamgate_core.fold`), so diacritics and case do not matter.
Words are matched whole in space-separated scripts, as substrings in Chinese, Japanese,
Korean and Thai.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

from jamgate_core import fold, words
from jamgate_stages._user_words import marker_table
from jamgate_stages._word_table import WordTable

_SELF = """
i me my mine myself i'm im i've i'd i'll we us our ours we're
ich mich mir mein meine meinen meinem meiner wir uns unser unsere
ik mij me mijn wij we ons onze jag mig min mitt mina vi oss jeg meg mine
je j' moi me m' mon ma mes nous notre nos
yo me mi mis conmigo nosotros nosotras nuestro nuestra nuestros nuestras
eu me mim meu minha meus minhas nos nós nosso nossa
io mi me mio mia miei mie noi ci nostro nostra nostri
eu mea meu mei mele noi nostru noastra meva
я меня мне мной мой моя моё мое мои мы нас нам наш наша наше наши
я мене мені мій моя моє мої ми нас нам наш наша
ja mnie mi mną mój moja moje moi my nas nam nasz nasza nasze
já mě mi můj moje moji my nás nám náš naše
аз мен мене ми мой моя мое моите ние нас наш наша
ја мене ми мој моја моје ми нас наш наша
εγω μου με εμενα εμεισ μασ
ben beni bana benim biz bizi bize bizim
mina minä minun minua minulla minulle me meidän meillä
engem nekem enyém mi minket nekünk
انا أنا لي نحن نا
אני שלי לי אותי אנחנו שלנו לנו
من مرا برای ما
मैं मेरा मेरी मेरे मुझे हम हमारा हमारी
আমি আমার আমাকে আমরা
saya aku ku kami kita
ako ko akin namin natin kami tayo
tôi mình chúng
mimi yangu wangu langu changu sisi yetu
მე ჩემი ჩვენ
ես իմ մենք
soy estoy tengo sou estou tenho habe jsem jestem ειμαι olen vagyok
"""
_SELF_CJK = "我 我们 我們 私 僕 俺 わたし 나는 내가 나의 저는 제가 저의 우리 ฉัน ผม ดิฉัน เรา"

_USER, _USER_CJK = marker_table()  # the shared table of the user's words (D-386)

_NOW = """
now today tonight tomorrow yesterday rn this_morning this_afternoon this_evening this_week right_now
jetzt gerade heute heute_abend morgen gestern diese_woche
nu vandaag vanavond gisteren idag ikväll imorgon igår i_dag i_kveld i_morgen i_går
maintenant aujourd'hui ce_soir demain cette_semaine
ahora hoy esta_noche mañana ayer esta_semana
agora hoje amanhã ontem
adesso ora oggi stasera domani ieri stamattina questa settimana
acum azi astăzi diseară mâine avui demà ahir
сейчас сегодня завтра вчера зараз сьогодні вчора
teraz dzisiaj dziś wieczorem jutro wczoraj teď dnes zítra včera dneska
сега днес утре вчера сада данас сутра јуче
τωρα σημερα αποψε αυριο χθεσ χτεσ
şimdi bugün bu_akşam yarın dün
nyt tänään tänä_iltana huomenna eilen ma_este holnap tegnap
الآن اليوم الليلة غدا أمس
עכשיו היום הערב מחר אתמול
امروز امشب فردا دیروز
अभी आज कल
এখন আজ আজকে কাল
sekarang hari_ini malam_ini besok kemarin ngayon ngayong bukas kahapon
bây_giờ hôm_nay tối_nay ngày_mai hôm_qua
sasa leo_hii usiku_huu kesho jana
ახლა დღეს ხვალ გუშინ հիմա այսօր վաղը երեկ
"""
_NOW_CJK = """今天 今晚 明天 昨天 现在 現在 刚才 剛才 这周 本周 今日 今夜 明日 昨日 今朝 今週
さっき 오늘 내일 어제 지금 이번_주 วันนี้ พรุ่งนี้ ตอนนี้ เมื่อวาน คืนนี้"""

_THIRD = """
he him his himself she her hers herself they them their theirs themselves
er ihn ihm seine seinem seinen seiner sie ihr ihre ihrem ihren ihrer
hij hem zij haar hun han honom hans hon henne hennes deras hende
elle elles lui leur leurs ella ellos ellas ele ela eles elas dele dela deles delas loro
он она они него неё нее ему ей ним ними він вона вони його її йому їй
ona oni jego jej ich jeho její jemu той тя него нея той њега њој
αυτοσ αυτη αυτοι αυτεσ αυτον αυτην
onun ona onlar onların hän häntä hänen hänellä hänelle heidän
او ایشان لديه لديها שלו שלה שלהם
उसका उसकी उसके उनका उनकी उनके সে তার তিনি তাঁর তাদের
beliau mereka siya niya kanya sila nila yeye wao
anh_ấy cô_ấy ông_ấy bà_ấy chị_ấy
mr mrs dr prof herr frau monsieur madame mme señor señora sr sra signor signora
senhor senhora bey hanım hanim господин госпожа пан пані κυριοσ κυρια
السيد السيدة आदरणीय श्री श्रीमती जी bapak ibu pak
씨 씨는 씨가 씨의 씨를 씨도 씨와 씨에게 씨한테
"""
_THIRD_CJK = """她 他的 他是 他在 他有 他们 他們 彼女 彼は 彼の 彼が 그는 그녀 그가 그의 เขา เธอ
さん くん ちゃん 先生 女士 小姐 님 คุณ"""

_DEFINE = """
is are was were means refers stands_for defined consists invented discovered introduced founded
ist sind bedeutet heißt bezeichnet besteht erfunden entdeckt gegründet eingeführt
betekent betyder betyr kallas består
est sont signifie désigne consiste inventé découvert fondé
es significa consiste inventado inventada descubierto fundado fundada
são significa inventado descoberto fundado
sono significa inventato scoperto fondato
sunt înseamnă
является являются означает называется состоит это изобретён означає називається складається
jest są oznacza nazywa składa je jsou znamená означава значи
ειναι σημαινει ονομαζεται αποτελειται
anlamına denir tarkoittaa jelenti
هو هي يعني تعني تسمى يتكون הוא היא פירושו נקרא یعنی
है हैं मतलब মানে adalah ialah merupakan berarti
"""
_DEFINE_CJK = "是一种 是一種 是一个 是一個 是指 指的是 意思是 とは である 의미 이란 คือ หมายถึง"

_STANDING = """
always usually every never generally whenever
immer stets jeden jede jedes nie niemals meistens grundsätzlich
altijd elke nooit alltid aldrig varje hver
toujours chaque jamais généralement
siempre cada nunca generalmente sempre ogni mai
mereu întotdeauna fiecare sempre cada
всегда каждый каждую никогда обычно завжди кожен ніколи
zawsze każdy każdą nigdy zwykle vždy každý nikdy
винаги всеки никога увек сваки никад
παντα καθε ποτε συνηθωσ
her_zaman hep daima asla genellikle aina joka koskaan mindig minden soha
دائما دائماً كل أبدا תמיד כל אף_פעם همیشه هر هرگز
हमेशा हर कभी সবসময় প্রতি কখনো
selalu setiap tidak_pernah palagi bawat hindi_kailanman luôn_luôn không_bao_giờ
kila daima kamwe ყოველთვის ყოველ միշտ ամեն
"""
_STANDING_CJK = "总是 總是 每次 每天 从不 從不 いつも 毎回 毎日 決して 항상 매번 매일 절대 เสมอ"


def _entries(table: str) -> list[list[str]]:
    """Each entry of a table as folded words (`_` joins the words of a phrase)."""
    return [found for entry in table.split() if (found := words(fold(entry.replace("_", " "))))]


def _space_table(table: str) -> tuple[frozenset[str], frozenset[str]]:
    """(single words, phrases of several words) of a space-separated table."""
    entries = _entries(table)
    return (frozenset(e[0] for e in entries if len(e) == 1),
            frozenset(" ".join(e) for e in entries if len(e) > 1))


def _substrings(table: str) -> tuple[str, ...]:
    found = tuple(sorted({"".join(e) for e in _entries(table)}))
    if any(s.isascii() for s in found):  # `marker_features` skips them in an ASCII text
        raise ValueError(f"an unspaced marker must not be ASCII: {table!r}")
    return found


_CLASSES: dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]] = {
    name: (*_space_table(spaced), _substrings(joined)) for name, spaced, joined in (
        ("self", _SELF, _SELF_CJK), ("user", _USER, _USER_CJK), ("now", _NOW, _NOW_CJK),
        ("standing", _STANDING, _STANDING_CJK), ("third", _THIRD, _THIRD_CJK),
        ("define", _DEFINE, _DEFINE_CJK))
}


# The classes that anchor a text to a person (a named person is one too, `named`).
_ANCHORS = frozenset({"self", "user", "name", "third"})
NO_ANCHOR = "m:no-anchor"


def marker_words() -> frozenset[str]:
    """Every single word of every class (the name table leaves them out)."""
    return frozenset().union(*(single for single, _, _ in _CLASSES.values()))


def first_names() -> frozenset[str]:
    """The folded first names of `first_names.txt` (built by scripts/build_name_table.py
    from Faker's person providers, D-210), read from the file at each call."""
    table = resources.files("jamgate_stages.classifier") / "first_names.txt"
    return frozenset(line for line in table.read_text(encoding="utf-8").split("\n")
                     if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def _known_names() -> WordTable:
    """`first_names()` as a compact table, built on first use a name at a time (D-235:
    0.3 MB, not 3.9)."""
    table = resources.files("jamgate_stages.classifier") / "first_names.txt"
    return WordTable(line for line in _lines(table.read_text(encoding="utf-8"))
                     if line and not line.startswith("#"))


def _lines(text: str) -> Iterator[str]:
    """The lines of `text`, one string at a time."""
    start = 0
    while (end := text.find("\n", start)) != -1:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def named_person(text: str) -> bool:
    """A known first name written as a name: capitalised where its script has case."""
    names = _known_names()
    return any(not word[:1].islower() and fold(word) in names for word in words(text))


def marker_features(tokens: list[str], named: bool = False) -> list[str]:
    """The marker classes present among a text's folded words, their crossings, and whether
    the text is anchored to anyone at all: the user, "I"/"we", a named person (`named`,
    D-210), a third-person pronoun or a title (D-217). With names among the anchors, "no
    anchor" no longer reads a named person's fact ("Melanie has been married for 5 years") as
    a claim about the world, as it did before (D-175); a definition without an anchor is
    crossed with it (`m:no-anchor+define`)."""
    present = set(tokens)
    line = f" {' '.join(tokens)} "
    joined = "".join(tokens).replace("たくさん", "")  # "many", not an honorific
    # The substrings are of scripts written without spaces: none is in an ASCII text.
    cjk = not joined.isascii()
    found = {name for name, (single, phrases, substrings) in _CLASSES.items()
             if not present.isdisjoint(single) or any(f" {p} " in line for p in phrases)
             or (cjk and any(s in joined for s in substrings))}
    if named:
        found.add("name")
    names = [f"m:{name}" for name in sorted(found)]
    if found & _ANCHORS:
        names += [f"m:person+{name}" for name in sorted(found & {"now", "standing"})]
    else:
        names.append(NO_ANCHOR)
        if "define" in found:
            names.append(f"{NO_ANCHOR}+define")
    return names
