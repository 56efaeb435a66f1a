"""Words of a standing instruction, per language: a request with one of them holds beyond this
turn ("always", "immer", "siempre", "πάντα", "每次", "いつも", and since D-272 "zawsze",
"altijd", "हमेशा", "دائما", "꼭"). Shared by the one-off rule and the "tell me" question shape.
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import HintedPattern

# Words of a standing instruction: a request with one of them holds beyond this turn.
STANDING = HintedPattern(lazy_compile(
    r"\b(?:always|never|every|each|whenever|from now on|going forward|in future|in the future|"
    r"by default|default|all (?:my|our)|unless|"
    r"immer|nie|niemals|jede[nmrs]?|ab jetzt|künftig|zukünftig|grundsätzlich|standardmäßig|"
    r"toujours|jamais|chaque|désormais|à l['’]avenir|dorénavant|par défaut|"
    r"siempre|nunca|cada|de ahora en adelante|en adelante|por defecto|"
    r"sempre|mai|ogni|d['’]ora in poi|in futuro|"
    r"daqui para frente|a partir de agora|por padrão|"
    r"her (?:zaman|gün|seferinde|defasında)|hep|asla|daima|bundan sonra|"
    r"всегда|никогда|каждый|впредь|zawsze|nigdy|każd\w*|od teraz|altijd|nooit|elke|voortaan|"
    r"standaard|selalu)\b|"
    r"(?<!\w)(?:πάντα|ποτέ|κάθε|στο εξής|από εδώ και πέρα)(?!\w)|"
    r"总是|總是|始终|始終|一律|永远|永遠|每次|以后|以後|今后|今後|默认|默認|一直|"
    r"いつも|常に|必ず|毎回|これから|ずっと|항상|앞으로|매번|꼭|"
    r"(?<!\S)(?:हमेशा|कभी नहीं|हर बार|आगे से)(?!\S)|(?<!\w)(?:دائما|دائمًا|دائماً|أبدا|أبدًا|أبداً)(?!\w)",
    re.IGNORECASE,
), (  # what each alternative an ASCII text can match must contain
    "always", "never", "every", "each", "from now on", "going forward", "futur", "default",
    "all my", "all our", "unless", "immer", "nie", "jede", "ab jetzt", "toujours", "jamais",
    "chaque", "siempre", "nunca", "cada", "en adelante", "por defecto", "sempre", "mai", "ogni",
    "ora in poi", "daqui para frente", "a partir de agora", "her zaman", "her seferinde", "hep",
    "asla", "daima", "bundan sonra", "zawsze", "nigdy", "od teraz", "altijd", "nooit", "elk",
    "voortaan", "standaard", "selalu",
))

# Words that open a standing rule at a point in time ("from now on"), narrower than STANDING:
# none of them is a frequency ("every", "each") that a routine or passing state also uses.
ONSET = HintedPattern(lazy_compile(
    r"\b(?:from now on|from here on|going forward|henceforth|from today on|"
    r"ab jetzt|ab sofort|von nun an|von jetzt an|künftig|zukünftig|in zukunft|"
    r"désormais|dorénavant|à l['’]avenir|à partir de maintenant|"
    r"de ahora en adelante|a partir de ahora|en adelante|en lo sucesivo|de aquí en adelante|"
    r"d['’]ora in (?:poi|avanti)|da ora in (?:poi|avanti)|d['’]ora innanzi|"
    r"daqui para (?:frente|a frente)|daqui em diante|a partir de agora|de agora em diante|"
    r"doravante|bundan (?:sonra|böyle)|şu andan itibaren|"
    r"впредь|отныне|с этого момента|od teraz|odtąd|od tej pory|od teď|odteď|"
    r"voortaan|vanaf nu|van nu af aan|fra nå av|fra nu af|från och med nu|hädanefter|"
    r"tästä lähtien|jatkossa|mostantól|de acum înainte|kuanzia sasa|mulai sekarang|"
    r"mulai hari ini|dari sekarang|từ giờ trở đi|từ nay về sau)\b|"
    r"(?<!\w)(?:στο εξής|από εδώ και πέρα|από τώρα και (?:στο εξής|πέρα)|"
    r"с сегодняшнего дня|з цього моменту|відтепер|надалі|"
    r"من الآن فصاعد(?:ا|اً|ًا)?|من الآن وصاعد(?:ا|اً|ًا)?|מעכשיו|מעתה|מהיום והלאה|"
    r"از این به بعد|अब से|आगे से)(?!\w)|"
    # not a bare 以后 ("after ten"), これから or 今から ("I'm leaving now"), 지금부터
    r"从现在起|從現在起|从现在开始|從現在開始|从今以后|從今以後|今后|今後|"
    r"これからは|今後|이제부터|앞으로|ต่อจากนี้|จากนี้ไป",
    re.IGNORECASE,
), (  # what each alternative an ASCII text can match must contain
    "from now on", "from here on", "going forward", "henceforth", "from today on", "ab jetzt",
    "ab sofort", "von nun an", "von jetzt an", "in zukunft", "en adelante", "a partir de ahora",
    "en lo sucesivo", "ora in poi", "ora in avanti", "ora innanzi", "daqui", "a partir de agora",
    "de agora em diante", "doravante", "bundan sonra", "od teraz", "od tej pory", "voortaan",
    "vanaf nu", "van nu af aan", "fra nu af", "jatkossa", "kuanzia sasa", "mulai sekarang",
    "mulai hari ini", "dari sekarang",
))
