"""Home and work said whole, in languages the holder rules do not read (D-301).

The subject stage derives `location` and `employer` only where `holder` reads whose fact a text
is: Latin and Greek openings, and the seven languages of its word tables. In Chinese, Japanese
and Korean the person often drops the pronoun ("서울에 살아요", "東京に住んでいます"), and in
Dutch, Russian, Ukrainian, Polish or Turkish the tables hold no verb of living or working, so
"我住在北京" and "我搬到上海了" shared no subject and no word, and the move retired nothing.

Each phrase here is the whole sentence: an optional first-person opening and "now" word, the
slot's verb in the present (live, work) or of the change itself (moved to, joined), a short
place or organisation, and the end of the sentence. Anything else — a relative or a name before
the verb, a negation, a past tense, a wish ("我想搬到 …"), a clause after it — leaves the text
unmatched, and an unmatched text gets no subject, which never retires anything (D-040).
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile

# A short name of a place or an organisation: no sentence mark, no space (CJK), at most 16
# characters; in Japanese no topic or subject particle either ("妹は大阪に …" is the sister's).
_CJK_NAME = r"[^\s，,、。．.！!？?；;：:]{1,16}"
_JA_NAME = r"[^\s，,、。．.！!？?；;：:はが]{1,16}"
_END = r"\s*[。．.！!]?\s*$"
_ZH_I = r"(?:我|我们|我們)"
_ZH_NOW = r"(?:现在|現在|目前|已经|已經|刚|剛|最近|今年)?"
_JA_I = r"(?:(?:私|僕|俺|わたし|ぼく)(?:は|が))?"
_JA_NOW = r"(?:今は|今|現在は|現在|最近)?"
_KO_I = r"(?:(?:저는|나는|제가|내가|저희는|우리는)\s+)?"
_KO_NOW = r"(?:(?:지금은|이제|이제는|요즘|요즘은|현재|현재는|최근에)\s+)?"
_RU_NOW = r"(?:(?:теперь|сейчас|тепер|зараз)\s+)?"
# Words of a Latin or Cyrillic name: one to three, each opening the word ("Den Haag", "Нью-Йорк").
_NAME = r"\w[\w'’.-]*(?:\s+\w[\w'’.-]*){0,2}"

_PATTERNS: tuple[tuple[str, str], ...] = (
    # Chinese: 我住在北京 / 我搬到上海了 / 我在阿里巴巴工作 / 我加入了腾讯
    ("location", rf"^{_ZH_I}{_ZH_NOW}(?:住在|住於|住于|生活在){_CJK_NAME}{_END}"),
    ("location", rf"^{_ZH_I}{_ZH_NOW}(?:搬到|搬去|搬家到|搬來|搬来)(?:了)?{_CJK_NAME}{_END}"),
    ("employer", rf"^{_ZH_I}{_ZH_NOW}在{_CJK_NAME}(?:工作|上班|任职|任職)(?:了)?{_END}"),
    ("employer", rf"^{_ZH_I}{_ZH_NOW}(?:跳槽到|跳槽去|入职了|入職了|入职|入職|加入了){_CJK_NAME}"
                 rf"{_END}"),
    # Japanese: 東京に住んでいます / 大阪に引っ越しました / 楽天で働いています / 転職しました
    ("location", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}に(?:住んでいます|住んでいる|住んでる|"
                 rf"住んでおります|暮らしています|暮らしている){_END}"),
    ("location", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:に|へ)引っ越し(?:ました|た){_END}"),
    ("employer", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:で働いています|で働いている|で働いてる|"
                 rf"に勤めています|に勤めている|に勤務しています|で勤務しています){_END}"),
    ("employer", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:に転職しました|に転職した|に入社しました|"
                 rf"に入社した){_END}"),
    # Korean: 서울에 살아요 / 부산으로 이사했어요 / 삼성에서 일해요 / 네이버로 이직했어요
    ("location", rf"^{_KO_I}{_KO_NOW}\S+(?:에|에서)\s+(?:살아요|삽니다|살아|살고\s+있어요|"
                 rf"살고\s+있습니다|살고\s+있어){_END}"),
    ("location", rf"^{_KO_I}{_KO_NOW}\S+(?:으로|로)\s+이사(?:했어요|했습니다|했어|왔어요|"
                 rf"왔습니다|갔어요|갔습니다){_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+에서\s+(?:일해요|일합니다|일해|일하고\s+있어요|"
                 rf"일하고\s+있습니다|근무해요|근무합니다|근무하고\s+있어요|근무하고\s+있습니다)"
                 rf"{_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+(?:으로|로)\s+이직(?:했어요|했습니다|했어){_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+에\s+입사(?:했어요|했습니다|했어){_END}"),
    # Dutch: Ik woon in Utrecht / Ik ben verhuisd naar Amsterdam / Ik werk bij ING
    ("location", rf"^(?:ik|wij|we)\s+(?:woon|wonen)\s+(?:nu\s+|tegenwoordig\s+|sinds\s+kort\s+)?"
                 rf"(?:in|op)\s+{_NAME}{_END}"),
    ("location", rf"^(?:ik|wij|we)\s+(?:ben|zijn)\s+(?:net\s+|onlangs\s+|pas\s+)?verhuisd\s+"
                 rf"naar\s+{_NAME}{_END}"),
    ("employer", rf"^(?:ik|wij|we)\s+(?:werk|werken)\s+(?:nu\s+|tegenwoordig\s+)?(?:bij|voor)\s+"
                 rf"{_NAME}{_END}"),
    # Russian, Ukrainian: Я живу в Москве / Я переехал в Тбилиси / Я работаю в Яндексе
    ("location", rf"^{_RU_NOW}(?:я|мы|ми)\s+{_RU_NOW}(?:живу|живём|живем|живемо)\s+(?:в|во|у)\s+"
                 rf"{_NAME}{_END}"),
    ("location", rf"^(?:я|мы|ми)\s+(?:недавно\s+|нещодавно\s+)?(?:переехал|переехала|переехали|"
                 rf"переїхав|переїхала|переїхали)\s+(?:в|во|у|до)\s+{_NAME}{_END}"),
    ("employer", rf"^{_RU_NOW}(?:я|мы|ми)\s+{_RU_NOW}(?:работаю|працюю)\s+(?:в|во|у|на)\s+"
                 rf"{_NAME}{_END}"),
    # Polish: Mieszkam w Krakowie / Przeprowadziłem się do Gdańska / Pracuję w Allegro
    ("location", rf"^(?:teraz\s+|obecnie\s+)?mieszkam\s+(?:teraz\s+|obecnie\s+)?(?:w|we|na)\s+"
                 rf"{_NAME}{_END}"),
    ("location", rf"^(?:przeprowadziłem|przeprowadziłam)\s+się\s+(?:do|na)\s+{_NAME}{_END}"),
    ("employer", rf"^(?:teraz\s+|obecnie\s+)?pracuję\s+(?:teraz\s+|obecnie\s+)?(?:w|we|dla)\s+"
                 rf"{_NAME}{_END}"),
    # Turkish: İstanbul'da yaşıyorum / İzmir'e taşındım / Trendyol'da çalışıyorum
    ("location", rf"^(?:ben\s+)?(?:artık\s+|şimdi\s+)?{_NAME}['’]?(?:da|de|ta|te)\s+"
                 rf"(?:yaşıyorum|oturuyorum){_END}"),
    ("location", rf"^(?:ben\s+)?{_NAME}['’]?(?:a|e|ya|ye)\s+taşındım{_END}"),
    ("employer", rf"^(?:ben\s+)?(?:artık\s+|şimdi\s+)?{_NAME}['’]?(?:da|de|ta|te)\s+"
                 rf"çalışıyorum{_END}"),
)
# The verbs above, searched first: most texts hold none of them and are not read further.
_VERBS = lazy_compile(
    r"住|搬|工作|上班|任职|任職|跳槽|入职|入職|加入了|暮らし|引っ越し|働い|勤め|勤務|転職|入社|"
    r"살|이사|일해|일합|일하|근무|이직|입사|woon|wonen|verhuisd|werk|живу|живём|живем|переехал|"
    r"переїха|работаю|працюю|mieszkam|przeprowadzi|pracuję|yaşıyorum|oturuyorum|taşındım|"
    r"çalışıyorum")  # searched in the lowered text: IGNORECASE is slower
_COMPILED = tuple((slot, lazy_compile(pattern, re.IGNORECASE)) for slot, pattern in _PATTERNS)


def slot_phrase(text: str) -> str | None:
    """`location` or `employer` where the whole text is the person's home or work said in one
    of these languages, else None (texts over 80 characters are not read)."""
    stripped = text.strip()
    if len(stripped) > 80 or not _VERBS.search(stripped.lower()):
        return None
    for slot, pattern in _COMPILED:
        if pattern.match(stripped):
            return slot
    return None
