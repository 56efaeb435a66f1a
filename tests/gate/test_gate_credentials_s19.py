"""The shapes s19 (the credentials' tuning source, D-254) found missing, each with the benign
text beside it that shares its surface; and a secret of each new shape never reaches the gate
log, whichever field carries it (exports and import formats: tests/formats).

Fake secrets are joined from parts (`j`), so no file in the repository holds one whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jamgate_core.app import open_app
from jamgate_core.models import ClientInfo, SaveRequest
from jamgate_core.settings import load_settings
from jamgate_stages.credentials import CredentialsStage

STAGE = CredentialsStage()
BODY = "Zq8Xw2Lm9Rt4Yb7Nc3Vd6Kp1Hs5Jg0FtAeUiRoPyWnMbQcTsLx"


def j(*parts: str) -> str:
    return "".join(parts)


REFUSED = [
    # vendor formats without a plain prefix, and key bodies without their armour
    (j("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", BODY), "private_key"),
    (j("client-key-data: LS0tLS1CRUdJTiBSU0Eg", "UFJJVkFURSBLRVktLS0tLQo", BODY), "private_key"),
    (j("b3BlbnNzaC1rZXktdjE", "AAAAABG5vbmUAAAAEbm9uZQ", BODY), "private_key"),
    (j("VAULT_ADDR is set; token ", "hv", "s.", BODY), "vault_token"),
    (j("Authorization: SS", "WS 00", BODY[:40]), "okta_token"),
    (j("AAAA", "xY3_k9Q", ":APA91b", BODY * 3), "firebase_key"),
    (j("1//0", "g", BODY), "google_oauth_secret"),
    (j("s", "l.", BODY * 3), "dropbox_token"),
    (j("AT", "BB", BODY[:34]), "bitbucket_token"),
    (j("LT", "AI", BODY[:20]), "alibaba_key"),
    (j("ke", "y-", "3f9c2e1a7b4d5e6f", "8a0b3f9c2e1a7b4d"), "mailgun_key"),
    (j("stream key ", "live_", "772269343_", BODY[:30]), "twitch_key"),
    # credential files and command lines
    (j("db.internal:5432:app:report:", "Kq9", "xR2mLp7"), "credential_file"),
    (j("machine api.example.org login jam password ", "correcthorse", "batterystaple"),
     "credential_file"),
    (j("WIFI:T:WPA;S:Home;P:", "Sunfl0", "wer77", ";;"), "credential_file"),
    (j("sqlplus scott/", "T1ger", "77@orcl"), "cli_password"),
    (j("openssl pkcs12 -export -passout pass:", "Sn0w", "fall9"), "cli_password"),
    (j("7z a -p", "Arch1", "ve55", " backup.7z docs"), "cli_password"),
    (j("zip -P ", "Bl4ck", "cat9", " -r taxes.zip taxes"), "cli_password"),
    (j("ldapsearch -x -D cn=admin -w ", "Ld4p", "Pass9", " -b dc=x"), "cli_password"),
    (j("htpasswd -b .htpasswd jam ", "Gr4ss", "hopper"), "cli_password"),
    (j("xfreerdp /v:host /u:admin /p:", "Oc3an", "Wave"), "cli_password"),
    (j("net use Z: \\\\nas\\media /user:jam ", "Pl4net", "Nine"), "cli_password"),
    (j("echo '", "R3dw00d", "Tree", "' | sudo -S reboot"), "cli_password"),
    (j("echo ", "Zq8Xw2Lm9", "Rt4Yb7Nc3", " | docker login -u jam --password-stdin"),
     "cli_password"),
    # code and markup
    (j("define( 'DB_PASSWORD', '", "v92juWZ8", "PAas5MxI", "' );"), "env_assignment"),
    (j("os.environ[\"OPENAI_API_KEY\"] = \"", BODY[:40], "\""), "env_assignment"),
    (j("requests.get(url, auth=(\"jam\", \"", "Pe4ch", "Tree9", "\"))"), "env_assignment"),
    (j("<password>", "N3xus", "Repo7", "</password>"), "env_assignment"),
    (j("<add key=\"StripeSecretKey\" value=\"", BODY[:30], "\" />"), "env_assignment"),
    (j("setx OPENAI_API_KEY ", BODY[:40]), "env_assignment"),
    # wording
    (j("router - user: admin pass: ", "R0uter", "Zeus"), "password"),
    (j("My Apple recovery key is ", "WCQ7-Y9SZ-", "KO51-DAJ1-OVHL-AWN2-XLRI"), "password"),
    (j("Security question answer for the bank (first pet): ", "Bis", "cuit"), "password"),
    (j("My secret answer for the maiden name question is ", "Kowal", "czyk"), "password"),
    (j("The lockbox code for the cabin is 73", "19"), "pin"),
    (j("PUK for my SIM: 8291", "4403"), "pin"),
    (j("Mein Entsperrcode fürs Handy ist 73", "1905"), "pin"),
    (j("Le code d'entrée de l'immeuble est 47", "B12"), "pin"),
    (j("El código de desbloqueo de mi móvil es 91", "8274"), "pin"),
    (j("Portkoden är 41", "96"), "pin"),
    (j("Ovikoodi on 82", "03"), "pin"),
    (j("Kód k trezoru je 83", "1607"), "pin"),
    (j("Код от подъезда 37", "К29"), "pin"),
    (j("Код разблокировки телефона 58", "1904"), "pin"),
    (j("รหัส ATM ของฉันคือ 39", "27"), "pin"),
    (j("Mã két sắt là 60", "18"), "pin"),
    (j("รหัสผ่าน wifi ที่บ้านคือ ", "Mali", "2567!"), "password"),
    (j("支付宝支付密码", "91", "7364"), "password"),
    (j("A jelszavam a netbankhoz ", "Balaton", "2024!"), "password"),
    (j("رمز عبور ایمیل من ", "Tehran", "#1402", " است"), "password"),
]


@pytest.mark.parametrize(("text", "kind"), REFUSED)
def test_the_shape_is_refused(text: str, kind: str) -> None:
    found = STAGE.detect(text)
    assert found is not None and found[0] == kind, (text, found)


KEPT = [
    "The WireGuard peer has PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
    "STRIPE_PUBLISHABLE_KEY=pk_example_is_shown_in_the_docs",
    "אני שומר את כל הסיסמאות ב-1Password.",
    "The kubeconfig's certificate-authority-data is LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t.",
    "The MAC address of the NAS is 3C:52:82:1A:9F:04.",
    "Logs print times like 12:30:45:123 in UTC.",
    "The Wi-Fi QR code on the fridge is for guests.",
    "openssl pkcs12 -export -passout pass:$P12_PASS reads the password from the environment.",
    "7z a -p backup.7z docs asks for the password.",
    "Mail me as user: jam pass: see 1Password",
    "My recovery key is stored in my Microsoft account.",
    "Backup codes: regenerated after the phone swap.",
    "My security answers are fake and kept in Bitwarden.",
    "The secret answer is stored with the other passwords.",
    "Portkoden byts varje år.",
    "The lockbox is on the left of the door.",
    "My password for work is different from the one for Gmail2024",
    "I reset my password on the iPhone15Pro yesterday",
    "Mein Passwort ist lang und zufällig.",
    "setx PATH C:\\tools;%PATH%",
    "setx API_URL https://api.example.org",
    "<passwordPolicy>strong</passwordPolicy>",
    "define('DB_HOST', 'db.internal');",
    "os.environ[\"API_KEY_FILE\"] = \"/run/secrets/api\"",
    "requests.get(url, auth=(\"jam\", os.environ[\"PW\"]))",
    "The Dropbox folder is sl.example in the docs.",
    "The key-value store holds 3f9c2e1a keys.",
    "live_stream_url is documented in the Twitch dashboard.",
]


@pytest.mark.parametrize("text", KEPT)
def test_the_look_alike_beside_it_passes(text: str) -> None:
    assert STAGE.detect(text) is None, STAGE.detect(text)


NEW_SHAPES = [
    j("hv", "s.", BODY),
    j("WIFI:T:WPA;S:Home;P:", "Sunfl0", "wer77", ";;"),
    j("define('DB_PASSWORD', '", "v92juWZ8", "PAas5MxI", "');"),
    j("Security question answer (first pet): ", "Bis", "cuit"),
]


@pytest.mark.parametrize("where", ["text", "subject", "scope", "provenance", "client_name",
                                   "client_version"])
@pytest.mark.parametrize("secret", NEW_SHAPES, ids=["vault", "wifi-qr", "php", "answer"])
def test_a_new_shape_never_reaches_the_gate_log(
        secret: str, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    log = tmp_path / "gate.log"
    monkeypatch.setenv("JAMGATE_GATE_LOG", str(log))
    fact = "Jam likes figs and lives in Athens."
    fields: dict[str, Any] = {
        "text": {"text": secret}, "subject": {"text": fact, "subject": secret},
        "scope": {"text": fact, "scope": secret},
        "provenance": {"text": fact, "provenance": secret},
        "client_name": {"text": fact, "client": ClientInfo(name=secret)},
        "client_version": {"text": fact, "client": ClientInfo(name="cli", version=secret)},
    }[where]
    app = open_app(load_settings())
    try:
        verdict = app.save(SaveRequest(**fields))
    finally:
        app.close()
    assert verdict.decision == "rejected" and (verdict.reason_code or "").startswith("secret.")
    needle = secret[-12:].lower()
    assert needle not in verdict.message.lower()
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines and all(needle not in line.lower() for line in lines)
