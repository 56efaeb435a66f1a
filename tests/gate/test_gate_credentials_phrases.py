"""Credentials named in words (many languages), PINs and lock codes, 2FA material, payment
cards and BIP-39 seed phrases.

Values are assembled from pieces (`j(...)`) or generated at run time (Luhn-valid card numbers,
seed phrases from the `mnemonic` wordlists), so no secret sits in this file as one literal.
"""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.credentials import CredentialsStage, _luhn


def j(*parts: str) -> str:
    return "".join(parts)


@pytest.fixture
def detect() -> Any:
    return CredentialsStage().detect


# -- passwords in words, by language ---------------------------------------------------------

PASSWORDS = [
    ("en", j("my password is ", "Tr0ub4dor&3")),
    ("en", j("Home Wi-Fi: network Jam-5G, password ", "sunflower2580!")),
    ("en", j("EMR login: user nurse_0412, password ", "Hsp#Ward7_2025")),
    ("en", j("netflix pw is ", "kumamochi2019", " if the kids ask")),
    ("en", j("The password to the router is ", "Tr0ub4dor&3")),
    ("de", j("Mein Passwort ist ", "Apfel!Baum77")),
    ("de", j("Das Kennwort fürs NAS lautet ", "Nas#Keller42")),
    ("de", j("WLAN-Schlüssel: ", "Garten2024!Netz")),
    ("fr", j("Mot de passe : ", "soleil#Lune42")),
    ("fr", j("Mon mot de passe Gmail, c'est ", "Claire&Lyon88")),
    ("fr", j("Clé WiFi : ", "Maison#Wifi88")),
    ("es", j("contraseña: ", "Gato2024!x")),
    ("es", j("La contraseña del wifi de casa es ", "Kallio-Pamuk-5G")),
    ("pt", j("A minha senha é ", "Casa#Azul19")),
    ("pt", j("A senha do cartão do meu banco é ", "739204")),
    ("it", j("La mia password è ", "Pizza_Roma88")),
    ("it", j("La passphrase della chiave SSH è ", "lampone-pietra-nebbia-03")),
    ("nl", j("Mijn wachtwoord is ", "Fiets#Regen12")),
    ("pl", j("Hasło to ", "Kot!Mleko34")),
    ("pl", j("Hasło do firmowego VPN-a: ", "qS3Z&tpFWpVVN7")),
    ("ru", j("Пароль: ", "Zima_2023x")),
    ("ru", j("мой пароль от почты — ", "Sib2019_vesna")),
    ("uk", j("Пароль до ноутбука — ", "u22Hm5FWV1")),
    ("bg", j("Паролата за акаунта е ", "HzEHho40Ej")),
    ("el", j("Ο κωδικός μου είναι ", "Thal@ssa99")),
    ("el", j("Ο κωδικός του λάπτοπ μου είναι ", "θάλασσα_1996")),
    ("tr", j("e-Devlet şifrem: ", "K9m#tRq2vL")),
    ("tr", j("Banka kartımın şifresi ", "5887", ".")),
    ("zh", j("我的密码是", "Mima@2024x")),
    ("zh", j("服务器 root 密码：", "RniR!K7g*Sup", "，别忘了。")),
    ("ja", j("パスワードは ", "Sakura#88x", " です")),
    ("ja", j("研究室のWi-Fiのパスワードは", "evidlab-kyoto24", "です。")),
    ("ko", j("비밀번호는 ", "Hana!2024x", " 이야")),
    ("ko", j("내 휴대폰 잠금 비밀번호는 ", "730915", "이야.")),
    ("ar", j("كلمة المرور هي ", "Sahra#2024")),
    ("ar", j("كلمة مرور البريد هي ", "98BKTepydq")),
    ("he", j("הסיסמה שלי היא ", "Yam!Kinneret5")),
    ("hi", j("मेरा पासवर्ड ", "Dilli@2024x", " है")),
    ("fa", j("رمز عبور حساب: ", "!atdv7pWcJ0g")),
    ("sv", j("Lösenordet till labbdatorn är ", "Snö!Vinter24")),
    ("da", j("Mit kodeord er ", "Hygge#2024x")),
    ("fi", j("Salasanani CSC:n palveluihin on ", "Talviuinti!2023")),
    ("cs", j("Heslo k NAS je ", "?HoUUFoCUQb2")),
    ("hu", j("A jelszavam a céges VPN-hez: ", "qX1k67yp688Y")),
    ("ro", j("Parola de la contul de Steam este ", "2hTru6wiGIZt")),
    ("vi", j("Mật khẩu wifi nhà mình là ", "ngocanh@1987")),
    ("id", j("Kata sandi dasbor: ", "lHhR-oWe_511")),
    ("th", j("รหัสผ่านไวไฟที่บ้าน: ", "0891234567")),
    ("sw", j("Nenosiri langu ni ", "Simba#2024x")),
    ("hr", j("Lozinka za ruter je ", "Zagreb!2024")),
]


@pytest.mark.parametrize(("lang", "text"), PASSWORDS, ids=[f"{lang}-{i}" for i, (lang, _) in
                                                           enumerate(PASSWORDS)])
def test_passwords_in_words_are_refused(detect: Any, lang: str, text: str) -> None:
    assert detect(text) == ("password", "a password or key assignment"), text


def test_at_least_twelve_languages() -> None:
    assert len({lang for lang, _ in PASSWORDS}) >= 12


@pytest.mark.parametrize("text", [
    j("Netflix login: jam@example.org / ", "Summer2024!"),
    j("creds: jam / ", "Hunter22!"),
    j("user/pass: admin/", "Hunter22x"),
    j("WiFi: JamHome / ", "sunflower2580!"),
])
def test_user_and_password_pairs(detect: Any, text: str) -> None:
    assert detect(text) == ("password", "a password or key assignment")


@pytest.mark.parametrize("text", [
    j("hunter2", " is my password"),
    j("Tr0ub4dor&3", " ist mein Passwort"),
    j("Soleil#42", " est mon mot de passe"),
])
def test_value_first(detect: Any, text: str) -> None:
    assert detect(text) is not None


@pytest.mark.parametrize("text", [
    j("Jam's bank card PIN is ", "4821"),
    j("my pin: ", "7391"),
    j("Smart lock PIN for the front door: ", "041793#"),
    j("Die Geheimzahl meiner Karte ist ", "7314"),
    j("Le code PIN de ma carte bancaire est ", "5172", "."),
    j("El PIN de mi tarjeta es ", "4817", "."),
    j("Il PIN del mio bancomat è ", "2604", "."),
    j("PIN m-banking BCA saya ", "271083", "."),
    j("은행 앱 PIN은 ", "902615", "이야."),
    j("ゆうちょの暗証番号は ", "0923", " です。"),
    j("मेरा UPI पिन ", "482915", " है"),
    j("ПИН-код карты: ", "3941"),
    j("Yung PIN ng ATM ko sa BDO ay ", "4827", "."),
    j("Namba ya siri ya M-Pesa yangu ni ", "9137", "."),
    j("the code for the safe is ", "4821"),
    j("door code: ", "7391#"),
    j("The safe combination is ", "3856"),
    j("Der Code für den Tresor ist ", "2580"),
    j("Le code du coffre est ", "1986"),
    j("El código de la caja fuerte es ", "4321"),
    j("kod do sejfu to ", "8080"),
    j("Код от сейфа: ", "5512"),
    j("The garage door opener code is ", "7391"),
    j("The combination to my locker is ", "12-34-56"),
    j("Le digicode de l'immeuble est ", "4B21A"),
    j("Alarm code ", "4821"),
    j("הקוד לכספת הוא ", "4821"),
    j("金庫の暗証番号は", "1234"),
    j("My ATM PIN, ", "4821", ", is the same as my phone's."),
])
def test_pins_and_lock_codes_are_refused(detect: Any, text: str) -> None:
    assert detect(text) == ("pin", "a PIN"), text


@pytest.mark.parametrize("text", [
    j("api key: ", "sk-abc"),
    j("Zotero API key (read/write): ", "B4zcH9So9qODhnVJlfW3QF0m"),
    j("For the S3 tools, access key ", "3fa8fe7133f42dba3bd810a78e24583e", " and secret key ",
      "01c36d6f8cee34833e7fd1a8dd7f702b", "."),
    j("Mein API-Schlüssel: ", "Xk29fLq0Zp7Rw3Ty"),
    j("Mi clave API es ", "Zq8Xw2Lm9Rt4Yb7Nc3Vd"),
    j("APIキーは ", "Zq8Xw2Lm9Rt4Yb7Nc3Vd", " です"),
    j("client secret: ", "Zq8Xw2Lm9Rt4Yb7Nc3Vd"),
    j("token: ", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op"),
    j("Todoist API token ", "0123456789abcdef0123456789abcdef01234567"),
    j("the bot token ", "Zq8Xw2Lm9Rt4Yb7Nc3Vd_x"),
    j("Ethereum private key ", "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f3623"),
])
def test_keys_and_tokens_in_words_are_refused(detect: Any, text: str) -> None:
    assert detect(text) is not None, text


# -- 2FA ---------------------------------------------------------------------------------------

SEED32 = j("JBSWY3DP", "EHPK3PXP", "GEZDGNBV", "GY3TQOJQ")


@pytest.mark.parametrize(("text", "kind"), [
    (j("otpauth://totp/Jam:jam%40example.org?", "secret=", SEED32, "&issuer=Jam"), "otpauth_uri"),
    (j("otpauth://hotp/Bank?counter=1&", "secret=", SEED32[:16]), "otpauth_uri"),
    (j("TOTP secret for the AWS root account: ", SEED32), "totp_seed"),
    (j("TOTP-Seed für Grafana: ", " ".join(SEED32[i:i + 4].lower() for i in range(0, 32, 4))),
     "totp_seed"),
    (j("Semilla TOTP de Hetzner: ", " ".join(SEED32[i:i + 4] for i in range(0, 32, 4))),
     "totp_seed"),
    (j("2FA seed: ", SEED32[:16]), "totp_seed"),
    (j("Authenticator key ", SEED32[:24].lower()), "totp_seed"),
])
def test_2fa_secrets_are_refused(detect: Any, text: str, kind: str) -> None:
    assert detect(text)[0] == kind


DASHED = ["2a7a4-7ed7f", "2be49-fa109", "21feb-be6ba", "4132f-ef2ee", "d7d7a-3d934"]
PAIRS = ["0333 9838", "8614 3622", "6945 8425", "1990 0349", "4878 4258"]


@pytest.mark.parametrize("text", [
    j("GitHub recovery codes:\n", "\n".join(DASHED)),
    j("Google backup codes: ", ", ".join(PAIRS)),
    j("Backup-Codes für Google: ", " ".join(PAIRS)),
    j("Códigos de recuperación: ", " ".join(DASHED)),
    j("Codes de secours : ", " · ".join(PAIRS)),
    j("Резервные коды: ", ", ".join(PAIRS)),
    j("Yliopiston varakoodit: ", ", ".join(PAIRS)),
    j("バックアップコード: ", " ".join(DASHED)),
    j("복구 코드: ", " ".join(PAIRS)),
])
def test_backup_code_lists_are_refused(detect: Any, text: str) -> None:
    assert detect(text) == ("backup_codes", "2FA backup or recovery codes"), text


# -- payment cards --------------------------------------------------------------------------------

def card(prefix: str, length: int) -> str:
    """A Luhn-valid number of `length` digits starting with `prefix`."""
    stem = (prefix + "7350281946" * 2)[: length - 1]
    return next(stem + d for d in "0123456789" if _luhn(stem + d))


def spaced(number: str, groups: tuple[int, ...] = (4, 4, 4, 4, 4)) -> str:
    parts, at = [], 0
    for size in groups:
        if at < len(number):
            parts.append(number[at:at + size])
            at += size
    return " ".join(parts)


@pytest.mark.parametrize("text", [
    j("Company Visa: ", spaced(card("4539", 16)), ", exp 08/27, CVV 913"),
    j("Mastercard ", card("5425", 16), " (12/26)"),
    j("Card: ", spaced(card("2221", 16)).replace(" ", "-"), " valid until 03/28"),
    j("Amex ", spaced(card("3714", 15), (4, 6, 5)), " exp 11/26 CID 5579"),
    j("Discover card ", card("6011", 16)),
    j("JCBカード番号は ", spaced(card("3538", 16)), "、有効期限 11/28"),
    j("我的银联卡号是 ", spaced(card("6222", 19)), "，有效期05/29"),
    j("Diners Club ", card("3056", 14), " exp 01/27"),
    j("Meine Kreditkarte: ", spaced(card("4645", 16)), ", gültig bis 08/27"),
    j("Kredi kartım: ", spaced(card("5425", 16)), ", son kullanma 11/26"),
    j("카드번호 ", spaced(card("5425", 16)), " 유효기간 03/27"),
    j("Note: ", spaced(card("4916", 16))),  # the 4-4-4-4 layout of a card is enough
])
def test_luhn_valid_card_numbers_are_refused(detect: Any, text: str) -> None:
    assert detect(text) == ("card_number", "a payment card number"), text


@pytest.mark.parametrize("text", [
    j("Order ", card("4539", 16), " shipped on Monday."),  # unbroken, no card wording: an id
    j("Card ", spaced(card("4539", 16))[:-1], "0 on file"),  # Luhn-invalid
    "Her ISNI is 0000 0001 2103 2683.",
    "IBAN DE89 3704 0044 0532 0130 00 for the rent (an account, not a card).",
    "Account number 12345678, sort code 12-34-56.",
])
def test_ids_and_account_numbers_are_not_cards(detect: Any, text: str) -> None:
    if text.startswith("Card "):
        digits = "".join(c for c in text if c.isdigit())
        assert not _luhn(digits)
    assert detect(text) is None, text


# -- BIP-39 seed phrases --------------------------------------------------------------------------

ENTROPY = {12: bytes(range(3, 19)), 15: bytes(range(7, 27)), 18: bytes(range(11, 35)),
           21: bytes(range(13, 41)), 24: bytes(range(17, 49))}


def seed(language: str, words: int = 12) -> str:
    mnemonic = pytest.importorskip("mnemonic")
    return str(mnemonic.Mnemonic(language).to_mnemonic(ENTROPY[words]))


LANGUAGES = ["english", "spanish", "french", "italian", "portuguese", "czech", "turkish",
             "russian", "japanese", "korean", "chinese_simplified", "chinese_traditional"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_seed_phrases_in_every_wordlist_language_are_refused(detect: Any, language: str) -> None:
    phrase = seed(language)
    assert detect(phrase) == ("seed_phrase", "a wallet seed (recovery) phrase")
    assert detect(j("Recovery phrase: ", phrase, " (keep it offline)"))[0] == "seed_phrase"


@pytest.mark.parametrize("words", [12, 15, 18, 21, 24])
def test_every_seed_length_numbered_or_comma_separated(detect: Any, words: int) -> None:
    tokens = seed("english", words).split()
    numbered = " ".join(f"{i}. {w}" for i, w in enumerate(tokens, 1))
    assert detect(numbered)[0] == "seed_phrase"
    assert detect(", ".join(tokens))[0] == "seed_phrase"
    assert detect("\n".join(f"{i}) {w}" for i, w in enumerate(tokens, 1)))[0] == "seed_phrase"


def test_accents_may_be_left_out(detect: Any) -> None:
    import unicodedata
    phrase = seed("spanish")
    bare = "".join(c for c in unicodedata.normalize("NFKD", phrase)
                   if unicodedata.category(c) != "Mn")
    assert detect(bare)[0] == "seed_phrase"


def test_eleven_words_are_not_a_seed(detect: Any) -> None:
    assert detect(" ".join(seed("english").split()[:11])) is None
