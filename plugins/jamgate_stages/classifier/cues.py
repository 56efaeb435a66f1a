"""Closed word classes that check two of the classifier's refusals (D-436, D-437).

- `hedged`: speculation is by definition a hedged claim, the agent guessing. A refusal as
  speculation of a text with no hedge anywhere — a modal or epistemic word ("probably",
  "might", "seems", "vielleicht", "quizás", "może", "belki", "可能", "たぶん", "아마" …, a
  closed class per language, with the markers of an inference from a cue: "judging by", "a
  giudicare", "судя по", "…으로 봐서") — reads an agent's plain note about the user ("The
  user prefers …") as a guess; the stage then judges it by the other categories
  (`ClassifierStage`).
- `owned_since_now`: "now" / "jetzt" / "ahora" / "теперь" … (a change of state, not the
  present moment: "right now", "ahora mismo", "прямо сейчас" are not in the class) with a
  verb of possession ("I have", "ich habe", "tengo", "έχω", "punya", "у меня" …) marks a
  possession that began, not passing state ("Ich habe jetzt ein Lastenrad"); a refusal as
  passing state of such a text becomes an unsure keep.
"""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile

_HEDGE = lazy_compile(
    r"(?<!\w)(?:probably|possibly|perhaps|maybe|presumably|likely|unlikely|might|may|could|"
    r"must be|would|seems?|seemed|seemingly|apparently|appears?|looks like|sounds like|"
    r"guess|guessing|guessed|suspect|assume|assuming|think|thinks|believe|suppose|infer|"
    r"inferred|judging|possible|probable|chance|not sure|unclear|hypothes\w+|"
    r"vermutlich|wahrscheinlich|vielleicht|möglicherweise|eventuell|anscheinend|scheint|"
    r"dürfte|könnte|wohl|vermute|glaube|offenbar|"
    r"peut-être|probablement|sans doute|apparemment|semble|pourrait|doit être|se peut|"
    r"vraisemblablement|suppose|crois|"
    r"posible|puede que|quizás?|quizá|tal vez|probablemente|posiblemente|al parecer|parece|"
    r"podría|acaso|supongo|creo|a lo mejor|"
    r"forse|probabilmente|sembra|pare|potrebbe|magari|suppongo|credo|"
    r"talvez|provavelmente|possivelmente|pode ser|poderia|acho|suponho|"
    r"misschien|waarschijnlijk|lijkt|blijkbaar|mogelijk|vermoedelijk|denk|"
    r"być może|możliwe|prawdopodobnie|chyba|może|wydaje się|pewnie|zapewne|"
    r"muhtemelen|belki|galiba|sanırım|herhalde|görünüyor|olabilir|"
    r"kanske|förmodligen|troligen|antagligen|verkar|nog|potser|poate|ehkä|kenties|"
    r"mungkin|sepertinya|kayaknya|barangkali|tampaknya|kelihatannya|baka|siguro|marahil|"
    r"labda|huenda|pengine|inaonekana|"
    r"có lẽ|có thể|hình như|chắc là|"
    r"ίσως|πιθανόν|πιθανώς|μάλλον|ενδεχομένως|φαίνεται|"
    r"возможно|вероятно|наверное|похоже|кажется|видимо|может быть|"
    r"можливо|мабуть|напевно|схоже|"
    r"ربما|احتمالاً|احتمالا|يبدو|قد|شاید|به نظر|ייתכן|אולי|כנראה|נראה|"
    r"शायद|संभवतः|लगता|"
    # an inference from a cue, said so ("judging by …"): the same class (D-436)
    r"going by|by the look of|zu urteilen|wie es aussieht|à en juger|a juzgar|por lo visto|"
    r"a giudicare|a quanto pare|a julgar|pelo jeito|pelo visto|te oordelen|sądząc|"
    r"najwyraźniej|судя по|по всей видимости|anlaşılan|görünüşe göre|belli ki|att döma|"
    r"tydligen|kelihatan dari|dilihat dari|kwa kuangalia|κρίνοντας|على ما يبدو)(?!\w)"
    r"|可能|也许|也許|或许|或許|大概|似乎|好像|估计|應該|应该|"
    r"かもしれ|たぶん|多分|おそらく|らしい|ようだ|みたい|と思われ|でしょう|だろう|"
    r"看出来|看出來|看来|看來|看样子|から見て|から察|見たところ|으로 봐서|로 봐서|로 보아|"
    r"지도 모르|지도 모른|น่าจะ|อาจ|คงจะ|아마|것 같|듯하|모양이",
)  # matched against the lowered text
# "now" as a change of state; the present moment's compounds are excluded by lookaround.
_NOW = lazy_compile(
    r"(?<!\w)(?<!right )(?<!just )(?:now|nowadays|these days|lately|"
    r"jetzt|nun|inzwischen|mittlerweile|neuerdings|maintenant|ces temps-ci|"
    r"ahora(?! mismo)|últimamente|hoy en día|adesso|ora|ultimamente|oggigiorno|"
    r"agora(?! mesmo)|hoje em dia|nu|tegenwoordig|teraz|obecnie|ostatnio|artık|bugünlerde|"
    r"numera|nuförtiden|sekarang(?! ini)|kini|akhir-akhir ini|sasa(?! hivi)|siku hizi|"
    r"bây giờ|dạo này|τώρα|πλέον|теперь|тепер|עכשיו|अब)(?!\w)"
    r"|现在|現在|今は|今では|이제|요즘",
)
_HAVE = lazy_compile(
    r"(?<!\w)(?:i have|i've got|i own|we have|we own|i now have|i now own|"
    r"ich habe|ich besitze|wir haben|j['’]ai|nous avons|je possède|tengo|tenemos|"
    r"ho|abbiamo|tenho|temos|ik heb|wij hebben|we hebben|mam|mamy|jag har|vi har|jag äger|"
    r"punya|memiliki|mempunyai|nina|tuna|έχω|έχουμε|у меня|у нас|var)(?!\w)"
    r"|我现在有|我現在有|我有|飼って|持って|가 있어|이 있어|생겼",
)


def hedged(text: str) -> bool:
    """Whether the text hedges anywhere (a modal or epistemic word of the closed class)."""
    return bool(_HEDGE.search(text.lower()))


def owned_since_now(text: str) -> bool:
    """Whether the text says that the person now has something ("I now have a standing
    desk", "Sekarang saya punya motor listrik"): a possession that began."""
    lowered = text.lower()
    return bool(_NOW.search(lowered)) and bool(_HAVE.search(lowered))
