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
