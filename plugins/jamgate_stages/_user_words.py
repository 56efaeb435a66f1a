"""The words that name the user in an agent's note, one table for every stage (D-386).

An agent or an extractor writes about the person in the third person: "The user prefers …",
"Der Nutzer arbeitet …", "L'utilisatrice …", "Пользователь …", "用户…", "ユーザーは…". Every
stage that reads that word reads it from here, so a language added once is read everywhere:
the opening of a reported thanks, question or request (`_reported_thanks`, `_reported_asks`),
a report about the user rather than the assistant's self-talk (`_self_shapes`), the holder of
a fact (`change`), the words a near-copy may add (`change`), and the classifier's `user`
marker class (`classifier.markers`).

`SUBJECT` holds the forms that stand as the subject of a sentence (singular, both genders, the
definite form where a language glues its article on); `OTHER_FORMS` the possessive, oblique and
plural forms, and the indefinite forms that are also verbs (Norwegian and Danish "bruker",
"bruger": "uses"; Hebrew "משתמש": "uses"), which name the user but do not open a note as its
subject. `UNSPACED` holds the words of scripts written without spaces, matched as substrings.
Not here: a password slot or a login label (`_secret_slots.SLOT_WORDS`, "user:" in
`credentials`), which name an account's user name, not the person.
"""

from __future__ import annotations

import re

from jamgate_core import fold
from jamgate_stages._text import wordset

# `_` joins the words of one entry ("người_dùng").
SUBJECT = wordset("""
user
nutzer nutzerin benutzer benutzerin anwender anwenderin
utilisateur utilisatrice usuario usuaria usuário usuária utilizador utilizadora utente usuari
gebruiker användaren användare brukeren brugeren
użytkownik użytkowniczka uživatel uživatelka
пользователь пользовательница користувач користувачка потребител корисник
χρήστης χρήστρια
kullanıcı käyttäjä felhasználó utilizator utilizatorul utilizatoarea
mtumiaji pengguna gumagamit người_dùng
کاربر המשתמש המשתמשת משתמשת المستخدم المستخدمة
उपयोगकर्ता यूज़र यूजर ব্যবহারকারী მომხმარებელი օգտատեր
""")
OTHER_FORMS = wordset("""
user's users'
nutzers benutzers anwenders
utilisateurs usuarios utilizadores usuários utenti
bruker bruger משתמש
käyttäjän käyttäjää käyttäjälle käyttäjällä käyttäjältä
kullanıcının kullanıcıya kullanıcıyı kullanıcıda kullanıcıdan
пользователя пользователю пользователем пользователе пользователей
користувача користувачеві користувачу користувачки користувачці
потребителя потребителят
użytkownika użytkownikowi użytkowniku użytkowniczki użytkowniczce
uživatele uživateli uživatelky uživatelce
utilizatorului utilizatoarei felhasználónak felhasználót felhasználója felhasználónál
χρήστη χρήστες
""")
UNSPACED = ("用户", "用戶", "使用者", "ユーザー", "사용자", "ผู้ใช้", "उपयोगकर्ता")
# Articles and determiners that may stand before the word ("the user", "die Nutzerin",
# "l'utilisateur", "a felhasználó", "ο χρήστης").
ARTICLES = wordset("the this our der die den la le el il o a de ο η το")
# After the word, it is someone else's: "the user's wife", "用户的", "ユーザーの", "사용자의".
POSSESSIVE = r"['’]s\b|\s*(?:的|の|의|का|की|के)"


# Letters folding keeps that a keyboard without them replaces ("kullanici", "uzytkownik").
_UNMARKED = str.maketrans({"ı": "i", "ł": "l", "ø": "o", "đ": "d"})


def _forms(words: frozenset[str]) -> list[str]:
    """Each word and, where folding leaves it ASCII, its form typed without diacritics
    ("usuario" for "usuário", "uzytkownik"), longest first; `_` becomes a space."""
    spelled = {w.replace("_", " ") for w in words}
    bare = {f for w in spelled
            if not w.isascii() and (f := fold(w).translate(_UNMARKED)).isascii()}
    return sorted(spelled | bare, key=lambda w: (-len(w), w))


_Node = dict[str, "_Node"]


def _trie(words: list[str]) -> str:
    """One regex for `words` that shares their common openings, so a position fails at its
    first letter instead of once per word (blanks as `\\s+`)."""
    root: _Node = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: _Node) -> str:
        branches = [(r"\s+" if char == " " else re.escape(char)) + emit(child)
                    for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if "" in node:
            return "(?:" + "|".join(branches) + ")?"
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(root)


# Hebrew and Arabic glue one or two letters before a word ("שהמשתמשת", "والمستخدم").
_PROCLITICS = ((("\u05d0", "\u05ea"), r"(?:[\u05d0-\u05ea]{1,2})?"),
               (("\u0621", "\u064a"), r"(?:[\u0621-\u064a]{1,2})?"))


def alternation(words: frozenset[str], *, proclitics: bool = False) -> str:
    """A regex for any of `words` (and their forms without diacritics), blanks as `\\s+`;
    with `proclitics`, a Hebrew or Arabic word may have one or two letters glued before it."""
    forms = _forms(words)
    parts = []
    for (low, high), glued in _PROCLITICS if proclitics else ():
        own = [w for w in forms if low <= w[:1] <= high]
        forms = [w for w in forms if w not in own]
        parts.append(glued + "(?:" + _trie(own) + ")")
    return "|".join([_trie(forms), *parts])


def opening(forms: frozenset[str] = SUBJECT, *, possessive: bool = True, lead: str = "^") -> str:
    """A pattern for the user named at the opening of a lowercased text: an optional article,
    then one of `forms` as a whole word, or one of `UNSPACED` anywhere after it. With
    `possessive=False` a possessive after the word ("the user's", "用户的") does not match."""
    after = r"(?!\w" + ("" if possessive else "|" + POSSESSIVE) + ")"
    unspaced = "|".join(UNSPACED)
    tail = "" if possessive else rf"(?!{POSSESSIVE})"
    articles = "|".join(sorted(ARTICLES, key=lambda w: (-len(w), w)))
    return (rf"{lead}(?:(?:{articles})\s+|l['’])?(?:{alternation(forms)}){after}|"
            rf"{lead}(?:{unspaced}){tail}")


def marker_table() -> tuple[str, str]:
    """The classifier's `user` marker class: every form (and its form typed without
    diacritics), spaced and unspaced, as its tables are written (blank-separated, `_` joining
    a phrase's words)."""
    spaced = (w.replace(" ", "_") for w in _forms(SUBJECT | OTHER_FORMS))
    return " ".join(spaced), " ".join(UNSPACED)
