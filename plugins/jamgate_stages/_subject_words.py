"""Word tables the subject stage reads, per language (en, de, fr, es, it, pt, el).

Kept apart from the rules so a language is added by adding words: relations (mapped to one
English name, so "mi amiga Ana" and "my friend Ana" share `friend-ana`), possessives, the
person's own pronouns and "the user" phrases, and the slot rules written for one language each
(location and employer, with the update verbs "moved to", "started working at", …).
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import wordset


def _mapping(table: str) -> dict[str, str]:
    """`english: word word …` lines (a line without a colon goes on) as {word: english}."""
    found: dict[str, str] = {}
    name = ""
    for line in table.strip().splitlines():
        if ":" in line:
            name, _, line = line.partition(":")
            name = name.strip()
            found[name] = name
        for word in line.split():
            found[word] = name
    return found


RELATIONS: dict[str, str] = _mapping("""
wife: ehefrau frau femme esposa mujer moglie mulher γυναίκα
husband: ehemann mann mari marido esposo marito άντρας άνδρας
spouse: σύζυγος
partner: partnerin lebensgefährte lebensgefährtin compagnon compagne pareja compagno compagna
    companheiro companheira σύντροφος συντρόφισσα
boyfriend: novio ragazzo namorado
girlfriend: novia ragazza namorada κοπέλα
fiance: fiancee verlobter verlobte fiancé fiancée prometido prometida fidanzato fidanzata noivo
    noiva αρραβωνιαστικός αρραβωνιαστικιά
sister: schwester sœur soeur hermana sorella irmã irma αδερφή αδελφή
brother: bruder frère frere hermano fratello irmão irmao αδερφός αδελφός
sibling: siblings geschwister
mother: mom mum mutter mère mere madre mamá mamma mãe mae μητέρα μαμά
father: dad vater père pere padre papá papà pai πατέρας μπαμπάς
parents: eltern parents padres genitori pais γονείς
son: sohn fils hijo figlio filho γιος
daughter: tochter fille hija figlia filha κόρη
kid: kids child children baby kind kinder enfant enfants niño niña bambino bambina criança παιδί
grandmother: grandma oma großmutter grand-mère abuela nonna avó γιαγιά
grandfather: grandpa opa großvater grand-père abuelo nonno avô παππούς
aunt: tante tía tia zia θεία
uncle: onkel oncle tío tio zio θείος
cousin: cousine cousin primo prima cugino cugina ξάδερφος ξαδέρφη
niece: nichte nièce sobrina nipote sobrinha ανιψιά
nephew: neffe neveu sobrino sobrinho ανιψιός
friend: freund freundin ami amie copain copine amigo amiga amico amica φίλος φίλη
boss: chef chefin jefe jefa capo chefe αφεντικό προϊστάμενος προϊσταμένη
manager: managerin gerente responsable διευθυντής διευθύντρια
colleague: coworker kollege kollegin collègue colega collega συνάδελφος
roommate: flatmate mitbewohner mitbewohnerin colocataire coloc compañero compañera coinquilino
    coinquilina
neighbor: neighbour nachbar nachbarin voisin voisine vecino vecina vicino vicina vizinho vizinha
    γείτονας γειτόνισσα
teammate:
landlord: vermieter vermieterin propriétaire casero casera padrone senhorio σπιτονοικοκύρης
doctor: arzt ärztin médecin médico medico γιατρός
dentist: zahnarzt zahnärztin dentiste dentista οδοντίατρος
therapist: therapeut therapeutin thérapeute terapeuta θεραπευτής
ex: ex-mann ex-frau
family: familie famille familia famiglia família οικογένεια
dog: hund chien perro cane cão cachorro σκύλος σκυλί
cat: katze chat gato gatto γάτα
pet: haustier mascota
puppy: welpe
kitten: kätzchen
""")
# Possessives that make the next noun someone in the person's life ("my", "mi", "meine" …).
POSSESSIVES = wordset("""my our his her their your mein meine meinen meinem meiner unser unsere
    unseren mon ma mes notre nos mi mis nuestro nuestra nuestros nuestras mio mia miei mie nostro
    nostra meu minha meus minhas nosso nossa""")
# Articles that may precede a possessive ("la mia amica", "a minha irmã").
POSSESSIVE_ARTICLES = wordset("""il la lo i le gli o a os as""")
# Definite articles that open a sentence ("Der Vater des Nutzers …", "La casa …").
ARTICLES = wordset("""the der die das den dem le la les l' el los las il lo gli""")
# "of" before an owner's name ("la mamma di Jam", "der Vater von Jam", "η μητέρα του Jam").
OF = wordset("""of von des di del della de du do da του της""")
# Greek puts the possessive after the noun: "η αδερφή μου".
GREEK_ARTICLES = wordset("""ο η το οι τα τον την του της""")
GREEK_MY = wordset("""μου μας""")
# The person themself: pronouns, and "the user" in each language.
SELF = wordset("""i i'm im i've i'd me we we're user he she they he's she's ich wir er je j'
    nous il elle yo nosotros nosotras él ella io noi lui lei eu nós ele ela εγώ εμείς αυτός αυτή""")
USER_PHRASES = (
    "the user", "der nutzer", "die nutzerin", "der benutzer", "die benutzerin", "l'utilisateur",
    "l’utilisateur", "l'utilisatrice", "l’utilisatrice", "el usuario", "la usuaria", "l'utente",
    "l’utente", "o usuário", "a usuária", "o utilizador", "a utilizadora", "ο χρήστης",
    "η χρήστρια", "kullanıcı",
    "utilisateur", "usuario", "usuária", "usuário", "nutzer", "benutzer", "χρήστης",
)
# "Now"-words that may open a first-person update ("Now I live in …", "Ahora vivo en …").
NOW = wordset("""now currently jetzt nun inzwischen mittlerweile seit maintenant désormais
    actuellement ahora actualmente ya ora adesso attualmente agora atualmente τώρα πλέον""")
# The leading verbs that are first person only (no name takes them: "Carlos vivo en …" is no
# sentence), so an opening word before one is an adverb, not a person ("Todavía vivo en …",
# "Finalmente trabajo en …", "Ακόμα μένω …", D-419). French and Italian forms shared with the
# third person (habite, travaille, réside, sono) are not among them.
FIRST_PERSON_VERBS = wordset("""wohne lebe arbeite bin ziehe vivo trabajo soy estoy resido
    abito lavoro risiedo moro trabalho sou μένω ζω δουλεύω εργάζομαι είμαι uso bebo tengo
    prefiero juego hablo toco escucho escribo bevo preferisco gioco parlo suono ascolto leggo
    scrivo tenho prefiro jogo falo ouço leio escrevo trinke nutze benutze spiele spreche
    bevorzuge lese schreibe höre πίνω τρώω χρησιμοποιώ προτιμώ παίζω μιλάω μιλώ διαβάζω γράφω
    ακούω έχω""")
# Verbs that open a statement whose holder is the person (first person, or an agent's note
# without a subject: "Wohnt in Graz", "Trabaja en Lima"; pro-drop first persons such as "Uso
# VS Code", which the name table would otherwise read as a person called Uso, D-263): the first
# persons above, and the forms a third person or a past shares.
LEADING_VERBS = FIRST_PERSON_VERBS | wordset("""wohnt lebt arbeitet habe zog habite habites vis
    vit travaille réside vive trabaja me mudé abita lavora sono mora trabalha mudei mudei-me
    μένει ζει δουλεύει εργάζεται μετακόμισα μετακόμισε ξεκίνησα empecé comencé comecei""")

_P = re.IGNORECASE
# Location, by language: the person's home now. The update verbs ("moved to …") need a name
# after them (True), so "moved to the backend team" is not a new home.
Rules = tuple[tuple[re.Pattern[str], bool | str], ...]
LOCATION: Rules = (
    (lazy_compile(r"\b(?:moved|relocated|moving)\s+(?:back\s+)?to\b", _P), True),
    (lazy_compile(r"\b(?:wohne|wohnt|wohnen|lebe|lebt|leben)\s+(?:ich\s+|wir\s+)?(?:nicht\s+mehr\s+)?(?:jetzt\s+|nun\s+|"
                r"inzwischen\s+|mittlerweile\s+|seit\s+\w+\s+)?(?:in|im|bei|auf)\b", _P), False),
    (lazy_compile(r"\b(?:nach\s+\w+(?:\s+\w+)?\s+(?:um)?gezogen|(?:um)?gezogen\s+nach)\b", _P),
     False),
    (lazy_compile(r"\b(?:habite|habites|habitons|habitent|vis|vit|vivons|vivent|réside|résident)"
                r"\s+(?:plus\s+)?(?:maintenant\s+|désormais\s+|actuellement\s+)?(?:à|au|aux|en|dans|près)\b",
                _P), False),
    (lazy_compile(r"\b(?:déménagée?s?|emménagée?s?|installée?s?)\s+(?:à|au|aux|en|dans)\b", _P),
     True),
    (lazy_compile(r"\b(?:vivo|vive|vivimos|viven|resido|reside|residimos)\s+(?:ahora\s+|"
                r"actualmente\s+|ya\s+)?(?:en|cerca)\b", _P), False),
    (lazy_compile(r"\b(?:me\s+mud[ée]|me\s+he\s+mudado|nos\s+mudamos|se\s+mud[óo]|mudé)\s+"
                r"(?:a|al)\b", _P), True),
    (lazy_compile(r"\b(?:vivo|vive|viviamo|abito|abita|abitiamo|risiedo|risiede)\s+(?:più\s+)?(?:ora\s+|"
                r"adesso\s+|attualmente\s+)?(?:a|ad|in|al|nel|nella|vicino)\b", _P), False),
    (lazy_compile(r"\btrasferit[oaie]\s+(?:a|ad|in|al|nel|nella)\b", _P), True),
    (lazy_compile(r"\b(?:moro|mora|moramos|vivo|vive|vivemos|resido|reside)\s+(?:mais\s+)?(?:agora\s+|"
                r"atualmente\s+)?(?:em|no|na|nos|nas|perto)\b", _P), False),
    (lazy_compile(r"\b(?:me\s+mudei|mudei-me|mudei|se\s+mudou|mudou-se)\s+(?:para|pra|pro)\b", _P),
     True),
    (lazy_compile(r"(?<!\w)(?:μένω|μένει|μένουμε|ζω|ζει|ζούμε|κατοικώ|κατοικεί)\s+(?:πια\s+)?(?:τώρα\s+|"
                r"πλέον\s+)?(?:στ[οηα]ν?|σε|κοντά)(?!\w)", _P), False),
    (lazy_compile(r"(?<!\w)μετακόμισ(?:α|ε|αμε)\s+(?:στ[οηα]ν?|σε)(?!\w)", _P), True),
)
# Employer, by language: where the person works now; "org" takes a name or "a/an" and a
# workplace noun ("works for a startup", not "works for a long time").
EMPLOYER: Rules = (
    (lazy_compile(r"\b(?:work|works|working)\s+(?:now\s+|currently\s+)?(?:at|for)\b", _P), "org"),
    (lazy_compile(r"\b(?:started|starting|began|begun)\s+(?:a\s+(?:new\s+)?job|working|to\s+work|"
                r"work)\s+(?:at|for|with)\b", _P), "org"),
    (lazy_compile(r"\b(?:employed\s+(?:at|by)|got\s+a\s+(?:new\s+)?job\s+(?:at|with))\b", _P),
     "org"),
    (lazy_compile(r"\b(?:arbeite|arbeitet|arbeiten)\s+(?:ich\s+|wir\s+)?(?:jetzt\s+|nun\s+|inzwischen\s+|"
                r"mittlerweile\s+|seit\s+\w+\s+)?(?:bei|für)\b", _P), True),
    (lazy_compile(r"\bbei\s+\w+(?:\s+\w+)?\s+angefangen\b", _P), False),
    (lazy_compile(r"\b(?:travaille|travailles|travaillons|travaillent)\s+(?:maintenant\s+|"
                r"désormais\s+|actuellement\s+)?(?:chez|pour)\b", _P), True),
    (lazy_compile(r"\b(?:commencé\s+(?:à\s+travailler\s+)?|embauchée?\s+)(?:chez|par)\b", _P),
     True),
    (lazy_compile(r"\b(?:trabajo|trabaja|trabajamos)\s+(?:ahora\s+|actualmente\s+|ya\s+)?"
                r"(?:en|para)\b", _P), True),
    (lazy_compile(r"\bempec[ée]\s+a\s+trabajar\s+(?:en|para)\b", _P), True),
    (lazy_compile(r"\b(?:lavoro|lavora|lavoriamo)\s+(?:ora\s+|adesso\s+|attualmente\s+)?"
                r"(?:per|presso|da|alla|al|in)\b", _P), True),
    (lazy_compile(r"\biniziato\s+a\s+lavorare\s+(?:per|presso|da|alla|al|in)\b", _P), True),
    (lazy_compile(r"\b(?:trabalho|trabalha|trabalhamos)\s+(?:agora\s+|atualmente\s+)?"
                r"(?:na|no|em|para|pra)\b", _P), True),
    (lazy_compile(r"\bcomecei\s+a\s+trabalhar\s+(?:na|no|em|para)\b", _P), True),
    (lazy_compile(r"(?<!\w)(?:δουλεύω|δουλεύει|εργάζομαι|εργάζεται)\s+(?:τώρα\s+|πλέον\s+)?"
                r"(?:στ[οηα]ν?|σε|για)(?!\w)", _P), True),
    (lazy_compile(r"(?<!\w)ξεκίνησα\s+(?:να\s+)?(?:δουλεύω|δουλειά)\s+(?:στ[οηα]ν?|σε)(?!\w)", _P),
     True),
)
# What a workplace is called when it is not named ("I work at a bank").
ORG_NOUNS = wordset("""company startup start-up firm bank agency consultancy studio lab
    laboratory hospital clinic school university college nonprofit charity ngo shop store
    restaurant cafe bakery hotel factory airline publisher newspaper magazine ministry council
    government insurer retailer manufacturer""")
# Articles skipped before the name a `proper` rule needs.
NAME_ARTICLES = wordset("""the der die das dem den le la les l' l’ el los las il lo gli o a os as
    ο η το τον την""")
# Tools a "moved/switched to" names instead of a place.
TECH = wordset("""python rust go golang java kotlin typescript javascript ruby elixir swift
    haskell scala php perl linux macos windows ubuntu debian fedora arch vim neovim emacs helix zed
    vscode intellij pycharm postgres postgresql mysql sqlite mongodb react vue svelte angular
    django rails kubernetes docker aws gcp azure""")
# Negation, and the change-of-state phrases that make a negation an update ("no longer").
NEGATION = lazy_compile(
    r"\b(?:not|never|no|don't|doesn't|didn't|isn't|aren't|won't|nor|nicht|kein|keine|keinen|nie|"
    r"niemals|ne|n'|n’|pas|jamais|nunca|non|não|nao)\b|n't\b|(?<!\w)(?:δεν|μην|ποτέ)(?!\w)",
    re.IGNORECASE,
)
CHANGE = lazy_compile(
    r"\bno longer\b|\bnot anymore\b|\banymore\b|\bnicht mehr\b|\bkein\w* \w+ mehr\b|"
    r"\bn['’]\w+ plus\b|\bne \w+ plus\b|\bya no\b|\bnon \w+ più\b|\bnon più\b|\bjá não\b|"
    r"\bnão \w+ mais\b|(?<!\w)δεν \w+ πια(?!\w)|(?<!\w)πλέον δεν(?!\w)",
    re.IGNORECASE,
)
