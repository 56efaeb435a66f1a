"""The shapes of the assistant talking about itself or to the user, by closed word classes.

`source_strictness` first knew an agent's self-talk by a few English sentences and one "as an
AI" frame a language. Closed classes say the same in every language, whatever the rest of the
sentence holds (D-311):
- what only the assistant has: an apology that opens the save (for an earlier turn), its own
  answers and replies (with "my", a habit or an earlier turn), a channel it lacks said with a
  negation (the internet, real time, the pictures sent, earlier conversations), a note to
  itself, and what it is ("as / I am" with an AI, model or assistant noun, the assistant noun
  with "your" or a digital qualifier);
- what is said to the user: a second-person opening in the languages the first rule lacked, a
  second-person verb ending (Turkish, Korean honorific observations, Japanese "ようですね"), "based
  on what you told me", and "you would like / enjoy" in each language.
The caller only asks for `agent-inferred` saves; a standing instruction is its decision.
`about_the_user` tells the classifier where a refusal as self-talk cannot stand: the user is
the subject at the opening and none of these shapes is there (D-312).
"""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import HintedPattern
from jamgate_stages._user_words import OTHER_FORMS, SUBJECT, UNSPACED, alternation, opening

# An apology opening the save: the assistant's, for an earlier turn.
_APOLOGY = lazy_compile(
    r"^(?:(?:oh|ah|so|ok|okay)[,\s]+)?(?:sorry|apologies|my apologies|i apologi[sz]e|"
    r"i'?m (?:so |very |really )?sorry|"
    r"entschuldig\w*|verzeih\w*|tut mir leid|es tut mir leid|"
    r"désolée?|pardon|excuse[sz]?-moi|je m['’]excuse|toutes mes excuses|"
    r"perd[oó]n\w*|lo siento|disculp\w+|lamento|mis disculpas|"
    r"mi scuso|scusa\w*|mi dispiace|chiedo scusa|"
    r"desculp\w+|peço desculpa|pe[çc]o perd[aã]o|"
    r"excuses|het spijt me|mijn excuses|"
    r"przepraszam|wybacz\w*|"
    r"özür dilerim|kusura bakma\w*|affedersin\w*|"
    r"förlåt|ursäkta|jag ber om ursäkt|maaf|mohon maaf|xin lỗi|promiňte|promiň|omlouvám se|"
    r"bocsánat|elnézést|îmi pare rău|scuze|anteeksi|pahoittelen|samahani)(?!\w)|"
    r"^(?:извин\w+|простит?е|прошу прощения|приношу извинения|вибач\w*|"
    r"συγγνώμη|συγνώμη|ζητώ συγγνώμη|λυπάμαι|ζητάμε συγγνώμη)(?!\w)|"
    r"^(?:抱歉|对不起|對不起|不好意思|很抱歉|申し訳|すみません|ごめん|失礼しました|죄송|미안)|"
    r"^(?:عذرًا|عذرا|عذراً|أعتذر|آسف|آسفة|المعذرة|ببخشید|متاسفم|پوزش|סליחה|מצטער|מצטערת|"
    r"אני מתנצל|אני מתנצלת|перепрошую|вибачте)(?!\w)|^(?:ขอโทษ|ขออภัย)|"
    r"^(?:माफ़|माफ|क्षमा|सॉरी)(?!\S)",
)
# The assistant's own output: answers, replies, explanations.
_OUTPUT = (
    r"(?:answers?|repl(?:y|ies)|responses?|explanations?|antwort\w*|erklärung\w*|réponses?|"
    r"explications?|respuestas?|explicaciones?|rispost\w+|spiegazion\w+|respostas?|"
    r"explicaç\w+|antwoord\w*|uitleg\w*|odpowied\w+|wyjaśnie\w+|ответ\w*|объяснени\w*|"
    r"cevap\w*|yanıt\w*|απαντήσ\w+|απάντηση|εξηγήσ\w+|ردود\w*|إجاب\w+|ردي)"
)
_OUTPUT_CJK = r"(?:回答|回复|回覆|回應|解释|解釋|返答|説明|답변|대답|설명|जवाब|उत्तर)"
# ... with a first-person possessive, a habit, or an earlier turn.
_OWN_OUTPUT = HintedPattern(lazy_compile(
    rf"\b(?:my|meine?\w*|mes|mis|mie|miei|minhas?|meus|mijn|moje|moich|мои|моих|мой|моё)\s+"
    rf"(?:\w+\s+)?{_OUTPUT}\b|"
    r"\b(?:cevaplarım\w*|yanıtlarım\w*|açıklamalarım\w*|απαντήσεις μου|εξηγήσεις μου|"
    r"ردودي|إجاباتي|إجابتي)\b|"
    r"\b(?:tend(?:s|ed)?|often|usually|habit|neige|angewohnheit|tendance|enclin|tiendo|suelo|"
    r"tendo|tendenza|costumo|hábito|tendência|neiging|skłonność|tendencję|склон\w+|τάση|συχνά|"
    r"genellikle|sıklıkla|bazen|أميل|عادتي)\b.{0,60}?\b" + _OUTPUT + r"|"
    r"\b(?:in|im|en|na|nella|no|w|в|στην|στο)\s+(?:(?:my|meiner|ma|mi|mia|minha|mijn|moje|"
    r"моём|моем|μου)\s+)?(?:previous|last|earlier|vorigen|letzten|vorherigen|précédente|"
    r"dernière|anterior|precedente|ultima|última|vorige|poprzedniej|ostatniej|прошлом|"
    r"предыдущем|последнем|προηγούμενη)\s+(?:\w+\s+)?" + _OUTPUT + r"\b|"
    r"\b" + _OUTPUT + r"\s+(?:anterior|precedente|précédente|prior|previa)\b|"
    # this turn's answer: "for this answer I'll …", "in dieser Antwort", "en esta respuesta"
    r"\b(?:for|in|with|für|pour|dans|para|en|per|nesta|neste|voor|w|в|για|σε)\s+"
    r"(?:this|diese[mnr]?|cette|esta|este|questa|dit|deze|tej|tym|этом|этой|αυτή την|αυτήν την)"
    r"\s+" + _OUTPUT + r"\b(?!\s+(?:format|template|style))|"
    r"\bbu (?:cevapta|yanıtta)\b|"
    r"(?:这次|這次|这个|這個|本次|この|今回の|이번)\s*" + _OUTPUT_CJK + r"|"
    r"(?:هذه|هذا)\s+(?:الإجابة|الرد)|इस (?:जवाब|उत्तर)|"
    r"(?:önceki|geçen)\s+(?:cevab|yanıt)\w*|"
    r"(?:上一|上次|之前的|刚才的|剛才的|先ほどの|前回の|아까|이전|제|我的|私の)\s*(?:则|則|条|條|个|個)?"
    + _OUTPUT_CJK + r"|"
    r"(?:经常|經常|总是|總是|习惯|習慣|往往|常常).{0,12}" + _OUTPUT_CJK + r"|"
    + _OUTPUT_CJK + r".{0,20}(?:癖|がち|경향|버릇|습관)|"
    r"(?:إجاب\w*|ردي|ردود\w*) السابق\w*|"
    r"(?:पिछले|पिछली|मेरे|मेरी)\s+" + _OUTPUT_CJK + r"|(?:आदत|अक्सर).{0,60}" + _OUTPUT_CJK,
), (
    "answer", "repl", "respons", "explanation", "antwort", "explication", "explicacion",
    "respuesta", "rispost", "spiegazion", "resposta", "antwoord", "uitleg", "odpowied", "cevap"
))
# A channel only an assistant lacks, said with a negation: the internet, real time, the pictures
# or attachments sent, earlier conversations.
_CHANNEL = HintedPattern(lazy_compile(
    r"\b(?:internet\w*|(?:the )?web|websites?|webseiten|browse|real[- ]?time|echtzeit|"
    r"temps réel|tiempo real|tempo reale|tempo real|czasie rzeczywistym|gerçek zamanlı|"
    r"(?:previous|earlier|past|prior|früher\w*|vorig\w*|vorherig\w*|letzt\w*) (?:conversations?|"
    r"chats?|sessions?|gespräch\w*|unterhaltung\w*|sitzung\w*)|"
    r"images?|pictures?|photos?|attachments?|bilder|anhänge?|pièces? jointes?|imágenes|adjuntos|"
    r"immagini|allegati|imagens|anexos|afbeeldingen|bijlagen|zdjęć|zdjęcia|załącznik\w*|"
    r"изображени\w+|вложени\w+|resim\w*|fotoğraf\w*|εικόνες|φωτογραφίες|συνημμένα|"
    r"(?:conversations?|sessions?|conversaciones|sesiones|conversazioni|sessioni|conversas|"
    r"sessões|chats?) (?:précédentes?|passées?|antérieures?|anteriores|previas|pasadas|"
    r"precedenti|passate)|d['’]une session à l['’]autre|"
    r"(?:eerdere|vorige) (?:gesprekken|sessies|chats)|"
    r"(?:wcześniejsz|poprzedni)\w* (?:rozm\w+|sesj\w+|czat\w*)|"
    r"(?:прошл|предыдущ|прежн)\w* (?:разговор|бесед|сесси|диалог|чат)\w*|"
    r"интернет\w*|(?:önceki|geçmiş) (?:oturum|konuşma|sohbet)\w*|"
    r"διαδίκτυο|ίντερνετ|πραγματικό χρόνο|(?:προηγούμενες|παλιότερες) "
    r"(?:συζητήσεις|συνομιλίες))(?!\w)|"
    r"图片|圖片|附件|画像|添付|이미지|첨부|الصور|المرفقات|तस्वीरें|"
    r"互联网|網路|网络|網際網路|上网|上網|实时|即時|(?:之前|以前|上次|过去|過去)的?(?:对话|對話|聊天|会话|會話)|"
    r"インターネット|リアルタイム|(?:以前|前回|過去)の(?:会話|やりとり|セッション)|"
    r"인터넷|실시간|(?:이전|지난|예전) (?:대화|세션)|"
    r"الإنترنت|الانترنت|الوقت الفعلي|(?:محادثات|جلسات)\w* السابقة|اینترنت|گفتگوهای قبلی|"
    r"אינטרנט|שיחות קודמות|інтернет\w*|(?:попередн|минул)\w* (?:розмов|сесі)\w*|"
    r"อินเทอร์เน็ต|cuộc trò chuyện trước|"
    r"इंटरनेट|पिछली बातचीत",
), (
    "internet", "web", "browse", "real", "echtzeit", "temps r", "tiempo real", "tempo real",
    "czasie", "convers", "sess", "sesion", "sesj", "rozm", "czat", "chat", "unterhaltung",
    "sitzung", "gesprekken", "image", "picture", "photo", "attachment", "bilder", "jointe",
    "adjuntos", "immagini", "allegati", "imagens", "anexos", "afbeeldingen", "bijlagen", "resim"
))
_NEGATION = lazy_compile(
    r"\b(?:not|no|never|can't|cannot|can not|don't|unable|without|nicht|kein\w*|ne|pas|aucun\w*|"
    r"sans|no|non|não|niet|geen|nie|не|нет|без|yok|değil|olmadığ\w*|δεν|δε|χωρίς|"
    r"\w+(?:ama|eme)(?:m|z|dım|dim)|\w+(?:a|e)m[ıi]yorum|inte|ingen|inga|tidak|"
    r"không|ne(?:mám|mohu|můžu|umím|vidím|pamatuju)|nem|nincs|nu (?:pot|am|știu|văd)|ei|en "
    r"(?:pysty|voi|muista|näe)|emme|немає|ні)\b|"
    r"不|没|沒|無法|无法|ない|ません|できず|못|없|않|(?<!\w)(?:لا|ليس|لم|لن|לא|אין)(?!\w)|नहीं|"
    r"(?<!\w)(?:نمی|ندارم|نمی‌توانم)|ไม่",
)
# Access to the user's things (a calendar, files, an account), said with a negation.
_ACCESS_YOURS = HintedPattern(lazy_compile(
    r"\b(?:access|zugriff|accès|acceso|accesso|acesso|toegang|dostęp\w*|доступ\w*|erişim\w*|"
    r"πρόσβαση)\b.{0,40}?\b(?:your|yours|deine[mnrs]?|ihre[mnrs]?|tes|tos|vos|votre|tus|tuoi|"
    r"tue|tuo|tua|seus|suas|seu|sua|teus|tuas|je|jouw|uw|twoje?j?|twoich|ваш\w*|тво\w+|σου|σας|"
    r"senin|sizin)\b|"
    r"(?:你的|您的|あなたの|당신의).{0,20}(?:访问|訪問|存取|アクセス|접근)|"
    r"(?:访问|訪問|存取|アクセス|접근).{0,20}(?:你的|您的|あなたの)",
), ("access", "zugriff", "acces", "acesso", "toegang"))
# Someone other than the assistant is the subject: the user, a named person in the third person.
_THIRD = lazy_compile(
    rf"\b(?:he|she|they|his|her|their|{alternation(SUBJECT | OTHER_FORMS, proclitics=True)})(?!\w)|"
    + "|".join(UNSPACED),
)
_FIRST_WORD = lazy_compile(r"\w+")
# The user as the subject at the opening, with or without an article ("The user told the
# assistant …", "La usuaria le contó al asistente …", "用户告诉助手…").
_USER_OPENING = lazy_compile(opening(SUBJECT | OTHER_FORMS))  # every form (D-386)
# A note to itself, in the languages the first rule lacked.
_SELF_NOTE = HintedPattern(lazy_compile(
    r"\b(?:(?:assistant|agent|bot|model) (?:reflection|self-assessment|note)|"
    r"notitie voor mezelf|notiz an mich selbst|notatka dla siebie|notka dla siebie|"
    r"заметка (?:для себя|себе)|себе на заметку|kendime not|kendime hatırlatma|"
    r"nota per me(?: stesso)?|promemoria per me|note pour moi-même)\b|"
    r"(?<!\w)σημείωση (?:για μένα|στον εαυτό μου)(?!\w)|"
    r"自分(?:用)?メモ|自分へのメモ|给自己的(?:备注|提醒|笔记)|給自己的(?:備註|提醒|筆記)|自我提醒|"
    r"나에게 (?:메모|남기는)|ملاحظة (?:لنفسي|إلى نفسي)|अपने लिए नोट|खुद के लिए नोट",
), (
    "reflection", "self-assessment", "note", "notitie", "notiz", "notatka", "notka", "kendime",
    "nota per me", "promemoria"
))
# What it is: "as / I am" with an ai, model or assistant word.
_AS_OR_AM = (
    r"(?:as|i am|i'm|als|ich bin|en tant qu['’]|comme|je suis|je ne suis qu['’]|como|soy|"
    r"come|in quanto|sono|enquanto|sou|eu sou|ik ben|jako|jestem|как|я|ως|είμαι|"
    r"bilang|saya)"
)
_ai_NOUN = (
    r"(?:ai|a\.i\.|ki|ia|ии|llm|chatbot\w*|sprachmodell\w*|taalmodel\w*|"
    r"mod[eè]l\w* (?:de )?(?:langage|lenguaje|linguagem|linguistico|językow\w*|ia|ai|di ia)|"
    r"modelem językowym|языков\w+ модел\w*|"
    r"γλωσσικό μοντέλο|πρόγραμμα τεχνητής|"
    r"(?:\w+\s+)?(?:digital\w*|virtu\w+|vocal|voice|sprach|głosow\w+|голосов\w+|ψηφιακ\w+|"
    r"e-?mail|terminal|coding|code|ai-|ki-|ia)\s*-?(?:assist\w*|asist\w*|asystent\w*|agent\w*|"
    r"βοηθ\w*)|"
    r"(?:assist\w*|asist\w*|asystent\w*|agent\w*|βοηθός|ассистент\w*|помощник\w*) (?:virtu\w+|"
    r"vocal|de (?:ia|código|terminal|voz)|di (?:ia|codice)|digital\w*|głosow\w+|ai|ia|ki)|"
    r"(?:your|dein\w*|ihr\w*|ton|votre|tu|tuo|tua|seu|sua|teu|tua|je|jouw|uw|twój|twoja|"
    r"ваш\w*|тво\w+|σας|σου)\s+(?:\w+\s+)?(?:assist\w*|asist\w*|asystent\w*|agent\w*|"
    r"helper|ассистент\w*|помощник\w*|βοηθός))"
)
_NATURE = HintedPattern(lazy_compile(
    rf"(?:^|[.;,]\s*)(?:{_AS_OR_AM})(?:\s+|(?<=['’]))(?:(?:an?|the|ein\w*|une?|una?|uno|um|uma|een|ένα|"
    rf"ένας|μια|just|only|nur|solo|sólo|solamente|apenas|alleen|tylko|всего лишь|лишь|"
    rf"просто|μόνο|qu['’]un)(?:\s+|(?<=['’]))){{0,2}}{_ai_NOUN}\b|"
    r"\b(?:dil modeli|yapay zeka\w*|asistan\w*)\s+olarak\b|"
    r"(?:身为|身為|作为|作為)(?:一个|一個|您的|你的)?\s*(?:ai|人工智能|人工智慧|语言模型|語言模型|助手|助理)|"
    r"我(?:只|只不过|只不過)?是(?:一个|一個)?\s*(?:ai|人工智能|人工智慧|语言模型|語言模型|聊天机器人|聊天機器人)|"
    r"語言模型|人工智慧助理|ai助理|"
    r"저는 (?:ai|인공지능|챗봇)|(?:ai|인공지능)(?:라서|이라서|이기 때문에|로서)|"
    r"(?:ai|人工知能|言語モデル)(?:なので|ですので|として|のため)|"
    r"(?<!\w)(?:بصفتي|بوصفي|كوني)(?!\w)|أنا مجرد|"
    r"भाषा मॉडल होने|एआई होने|(?:एआई|ai) सहायक हूँ",
), (
    "ai", "a.i.", "ki", "ia", "llm", "chatbot", "sprachmodell", "taalmodel", "model", "digital",
    "virtu", "vocal", "voice", "sprach", "mail", "terminal", "cod", "assist", "asist",
    "asystent", "agent", "helper", "yapay zeka", "dil modeli", "asistan"
))

# Said to the user: second-person openings the first rule lacked.
_YOU_OPENING = lazy_compile(
    r"^(?:dir|dich|euch|ti|jij|jouw|jullie|ty|tobie|cię|twój|twoja|twoje|"
    r"вы|ты|вам|тебе|вас|тебя|ваш\w*|тво\w+|sen|siz|sana|senin|sizin|"
    r"wydajesz|wyglądasz|powinie(?:n|neś)|powinnaś|jesteś|"
    r"φαίνεσαι|φαίνεστε|θα μπορούσατε|θα μπορούσες|"
    r"أنت|أنتِ|أنتم|عليك|لديك|إنك|يبدو أنك|يبدو عليك|تبدو|"
    r"du verkar|ni verkar|dig|anda|kamu|شما|אתה|tobě|vám|neked|önnek|ön|îți|ți|dumneavoastră|"
    r"ти|тобі|вам|sinä|sinun|teidän|sinulle|wewe)(?!\w)|"
    r"^(?:je|u)\s+(?:lijkt|bent|hebt|heeft|zou|zult|kunt|moet|houdt|vindt|werkt)\b|"
    r"^(?:你|您|妳|あなた|君は|きみは|당신|너는|네가)|"
    r"^(?:आप|आपको|आपकी|आपका|आपके|तुम|तुम्हें|तुम्हारा|तुम्हारी|तुम्हारे|तू|तुझे)(?!\S)",
)
# "Pan / Pani" opens an address unless a name follows (then it is "Mr" / "Mrs").
_POLISH_PAN = lazy_compile(r"^(?:[Pp]an|[Pp]ani|[Pp]aństwo)\s+(?![A-ZĄĆĘŁŃÓŚŹŻ])")
# A second-person verb ending on the last word: Turkish "-sun / -siniz" after a tense; Korean
# honorific observations; Japanese "…のようですね".
_TR_ENDING = lazy_compile(
    r"\w+(?:yor|[aeıiuü]r|abilir|ebilir|malı|meli|acak|ecek|mış|miş|muş|müş)"
    r"(?:sun|sın|sin|sün|sunuz|sınız|siniz|sünüz)"
)
_YOU_ENDINGS = (
    "보이세요", "보이시네요", "보여요", "시네요", "시는군요", "실 거예요", "실 것 같아요",
    "ようですね", "みたいですね", "お好きだと思います", "お好きでしょう",
)
# Standing words of the languages `_standing.STANDING` lacks, for the openings above
# ("Du ska alltid …", "Sinun pitää aina …", "Завжди відповідай …").
_MORE_STANDING = lazy_compile(
    r"\b(?:alltid|aldrig|framöver|aina|koskaan|jatkossa|vždy|nikdy|mindig|soha|mereu|"
    r"întotdeauna|niciodată|завжди|ніколи|luôn|kila mara|siku zote)\b|"
    r"همیشه|هرگز|תמיד|אף פעם|เสมอ"
)
# "Based on what you told me", "you would like / enjoy …", "I'd recommend …".
_TOLD_ME = HintedPattern(lazy_compile(
    r"\b(?:based on what you|from what you(?:'ve| have)? (?:told|said|shared)|"
    r"you(?:'d| would| might| will| may)(?: probably| really| definitely)? (?:like|love|enjoy)|"
    r"i(?:'d| would) (?:recommend|suggest)|"
    r"(?:aufgrund|basierend auf|ausgehend von|nach) (?:deine[ms]?|ihre[ms]?) "
    r"(?:hintergrund\w*|angaben|erfahrung\w*|beschreibung)|(?:würde|könnte) (?:dir|ihnen) "
    r"(?:\w+ ){0,3}(?:gefallen|liegen|gut tun|helfen)|"
    r"ce que (?:tu m['’]as|vous m['’]avez) (?:dit|raconté|décrit)|(?:te|vous) plair\w*|"
    r"por lo que me (?:contaste|dijiste|cuentas|ha dicho|has dicho)|"
    r"(?:te|le) (?:encantar|gustar|convendr|vendr)ía|(?:te|le) recomiendo|"
    r"(?:ti|le) (?:potrebbe piacere|piacerebbe)|(?:ti|le) consiglio|"
    r"da (?:quello|quanto) (?:che )?mi hai (?:detto|raccontato)|"
    r"(?:com base n|pel)o que (?:você |tu )?me (?:contou|disse|contaste|disseste)|"
    r"(?:você )?(?:iria|vai|irá) gostar|gostarias|vais gostar|"
    r"wat je me (?:vertelde|vertelt|hebt verteld)|(?:iets|goed) voor je|zou je (?:leuk|fijn) "
    r"vinden|"
    r"na podstawie tego,? co (?:mówiłeś|mówiłaś|powiedziałeś|powiedziałaś|pan mówił|pani "
    r"mówiła)|spodoba\w* (?:ci|panu|pani) się|"
    r"судя по (?:твоим|вашим|тому, что (?:ты|вы))|(?:тебе|вам) (?:понрав\w+|стоит|следует)|"
    r"(?:sizin|senin) gibi|"
    r"με βάση όσα μου (?:είπες|είπατε)|θα (?:σου|σας) (?:άρεσε|αρέσει|άρεσαν))(?!\w)|"
    r"根据你|根據你|根据您|根據您|听你说|聽你說|你会喜欢|你會喜歡|您会喜欢|您會喜歡|"
    r"(?:你|您)(?:应该|應該)|お話を伺う限り|お話から|お聞きした限り|"
    r"말씀하신 (?:걸|것을|내용을|것으로) 보면|잘 맞으실|좋아하실|"
    r"بناءً على ما (?:قلته|ذكرته|أخبرتني)|بناء على ما (?:قلته|ذكرته|أخبرتني)|"
    r"(?:ستعجبك|سيعجبك|قد يعجبك|تناسبك|يناسبك)|"
    r"आपकी बातों से|आपने जो बताया",
), (
    "you", "recommend", "suggest", "deine", "ihre", "m'as", "m'avez", "plair", "por lo que me",
    "recomiendo", "piace", "consiglio", "mi hai", "me cont", "me diss", "gostar", "wat je me",
    "voor je", "zou je", "podstawie", "spodoba", "gibi"
))


def _fold(text: str) -> str:
    """Lowercase once for every pattern here (none ignores case: a long case-blind alternation
    is tried at every position, D-311); a Turkish dotted capital I folds to "i"."""
    return text.lower().replace("i\u0307", "i")


def speaks_as_assistant(text: str) -> bool:
    """The assistant about itself: an apology that opens the save, its own answers, a channel
    it lacks, a note to itself, what it is."""
    low = _fold(text)
    if (_APOLOGY.search(low) or _NATURE.search(low) or _OWN_OUTPUT.search(low)
            or _SELF_NOTE.search(low)):
        return True
    return bool(_CHANNEL.search(low) or _ACCESS_YOURS.search(low)) \
        and bool(_NEGATION.search(low)) and not _third_person(text, low)


def _third_person(text: str, low: str) -> bool:
    """The user or a named person is the subject ("User can't …", "Ana no tiene …")."""
    from jamgate_stages.classifier.markers import named_person  # the classifier imports us
    opening = _FIRST_WORD.match(text)
    return bool(_THIRD.search(low)) or (
        opening is not None and named_person(opening.group()))


def standing_elsewhere(text: str) -> bool:
    """A standing word of a language `_standing.STANDING` lacks."""
    return bool(_MORE_STANDING.search(_fold(text)))


def addresses_user(text: str) -> bool:
    """Said to the user: a second-person opening or verb ending, "based on what you told me",
    "you would like …"."""
    low = _fold(text)
    tail = low.rstrip(" .!。！")
    last = tail.rsplit(None, 1)[-1] if tail else ""
    return bool(_YOU_OPENING.search(low) or _POLISH_PAN.match(text)
                or _TR_ENDING.fullmatch(last) or tail.endswith(_YOU_ENDINGS)
                or _TOLD_ME.search(low))


def about_the_user(text: str) -> bool:
    """The user is the subject at the opening and no shape of the assistant's own is there:
    a report of the user ("The user told the assistant she is colour-blind"), not the
    assistant about itself, whatever assistant words it holds (D-312)."""
    return bool(_USER_OPENING.match(_fold(text).lstrip())) and not speaks_as_assistant(text) \
        and not addresses_user(text)

