"""A password, PIN or passphrase word followed by its value with no verb (issue #16, D-387).

Written from the `credential` and `credential-lookalike` definitions (CATEGORIES.md) before the
rule: a secret word, perhaps the account it is for, and the value at once ("my wifi password
…", "Passwort fürs NAS …", "PIN 4471", "WLAN-Schlüssel …"), in 19 languages, with digits and
with letters only; beside them, benign text in the same shapes — the word followed by a word
of the language, a product, an app, a place, a rule or a reminder. Values are random strings,
not remembered passwords.
"""

from __future__ import annotations

import pytest

from jamgate_stages.credentials import CredentialsStage

STAGE = CredentialsStage()

# The word and the value with no verb between; the value mixes letters with digits or symbols.
WITH_DIGITS = [
    "My wifi password Tr0ub4dor",
    "Home alarm PIN 4471",
    "PIN 4471",
    "WLAN-Schlüssel 7hQz2mKwP",
    "Passwort fürs NAS: Kx9mPq2w",
    "Code PIN de la carte bleue 8832",
    "contraseña wifi Lm4kPz9q",
    "senha wifi Pq7mZk2r",
    "Wachtwoord router 4vTq8zLm",
    "Hasło do routera 9kXw2qLm",
    "Пароль от роутера Zq4m9kTw",
    "Wifi şifresi 8mKq2zTw",
    "Wi-Fiのパスワード qZ7kLm2P",
    "路由器密码 Xk8qM2zw",
    "와이파이 비밀번호 Tq9kM2zx",
    "Mật khẩu wifi 7kQz2mWp",
]

# The same shapes with a letters-only value: its case is no word's (upper case inside it
# where no name puts one).
LETTERS_ONLY = [
    "My Netflix password xqAYfwFBHP",
    "Backup disk passphrase tbYoMqbjZMQO",
    "Mein Passwort fürs NAS GygZnhAOgs",
    "Mon mot de passe Gmail FPbjTozxWq",
    "Mi contraseña del correo UaCFaESYhDN",
    "La mia password di casa azOchVRdW",
    "Minha senha do banco pFjttuDDek",
    "Moje hasło do banku jOSqplLapHp",
    "Мой пароль от почты UDDqcdbTmBQ",
    "Kata sandi email saya GozlxQFlAnQ",
    "Mitt lösenord till banken bFtKsheWYtV",
    "Sähköpostin salasana pIPEnLCGiFJ",
    "Moje heslo k e-mailu fZFUWdGvIkg",
    "我的邮箱密码 zszeomDnTa",
    "ビルの入口のパスワード bNNZZGnELEwi",
    "Το συνθηματικό του email μου VTlgmbfxUsP",
    "Wifi şifresi ovzMNndrKq",
    "Mật khẩu wifi nhà tôi yOdjQISoPt",
]

# Not reached (D-387). A dictionary word as the password, with no verb: no general signal
# tells it from prose ("Passwort vergessen"). Random letters that happen to have a name's case
# and vowels ("pOoastv-Qj-V", "QYRP-eoug-Tf-Ih" read as "iPhone", "OAuth", "LinkedIn" do):
# about one random letters-only value in eight.
NOT_REACHED = [
    "WLAN-Schlüssel pOoastvQjV",
    "Mijn wachtwoord voor de mail QYRPeougTfIh",
    "WLAN-Schlüssel Sonnenblume",
    "my wifi password sunflower",
]

# The same shapes, benign: the word and a word, a product, an app, a place, a rule.
LOOKALIKES = [
    "My password manager 1Password",
    "Password policy twelve characters minimum",
    "Passwort vergessen, der Reset-Link kommt per Mail",
    "My PIN reminder is on the fridge",
    "PIN pad at the front door is broken again",
    "WLAN-Schlüssel steht auf der Rückseite der FritzBox",
    "Das WLAN-Passwort der FritzBox steht auf der Rückseite",
    "Mein Passwort fürs NAS liegt im Tresor",
    "Shared the Netflix password via WhatsApp with my sister",
    "Kata sandi saya lupa lagi minggu lalu",
    "Mot de passe Google changé en mars",
    "Contraseña PayPal cambiada ayer",
    "Senha do iCloud guardada no Bitwarden",
    "Hasło do banku zmieniam co miesiąc",
    "Пароль от Госуслуг меняю каждые полгода",
    "Wachtwoord vergeten bij PostNL, nieuwe aangevraagd",
    "Lösenord till banken byts varje kvartal",
    "Salasana vaihdettu viime viikolla",
    "Heslo k e-mailu mám v KeePassu",
    "Wifi şifresi kafenin duvarında yazıyor",
    "Mật khẩu wifi dán ở quầy thu ngân",
    "パスワード管理はBitwardenでしている",
    "我的邮箱密码 每三个月换一次",
    "와이파이 비밀번호 바꿨어",
    "Password for PlayStation differs from the one for SharePoint",
    "Wi-Fi password at the office is on the whiteboard",
    "Netflix password shared with the family, managed in LastPass",
    "Password hint PlayStation",
    "La mia password di casa è sul frigorifero",
    "Minha senha do banco vence todo mês",
    "Mijn wachtwoord voor de mail staat in LastPass",
    "Passwort fürs WLAN im Hotel Adlon stand auf der Zimmerkarte",
    "Το συνθηματικό του email μου το αλλάζω κάθε μήνα",
    "Passphrase length at work: at least five words",
    "WLAN-Passwort MeinHeimnetz ist nur der Name des Netzes, nicht das Passwort",
]


@pytest.mark.parametrize("text", WITH_DIGITS + LETTERS_ONLY)
def test_a_value_after_the_word_is_refused(text: str) -> None:
    assert STAGE.detect(text) is not None


@pytest.mark.parametrize("text", NOT_REACHED)
@pytest.mark.xfail(reason="a dictionary word, or letters of a name's shape (D-387)", strict=True)
def test_values_that_read_as_words(text: str) -> None:
    assert STAGE.detect(text) is not None


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_word_after_the_word_is_kept(text: str) -> None:
    assert STAGE.detect(text) is None
