"""Credentials: the vendor table, URLs and command lines, `.env` assignments, assignments
both ways, entropy near wording, every field; always redacted.

Fake secrets are assembled from pieces (`j(...)`, `body(...)`) so this file never holds a
literal that a secret scanner would flag. Wording in many languages, 2FA material, cards and
seed phrases: test_gate_credentials_phrases.py; look-alikes: test_gate_credentials_lookalikes.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from jamgate_core.app import open_app
from jamgate_core.models import ClientInfo, SaveRequest
from jamgate_core.settings import load_settings
from jamgate_stages._secret_shapes import SHAPES, SecretShape
from jamgate_stages.credentials import CredentialsStage


def j(*parts: str) -> str:
    return "".join(parts)


BODY = "Zq8Xw2Lm9Rt4Yb7Nc3Vd6Kp1Hs5Jg0Ft"  # 32 chars, 3 classes, high entropy
_POOL = "Zq8Xw2Lm9Rt4Yb7Nc3Vd6Kp1Hs5Jg0FtAeUiRoPyWnMbQcTs"
_HEX_POOL = "3f9c2e1a7b4d5e6f8a0b"


def body(n: int, alphabet: str = "A-Za-z0-9") -> str:
    """`n` characters of `alphabet` (a regex class body), mixing cases and digits."""
    allowed = re.compile(f"[{alphabet}]")
    pool = [c for c in _POOL + _HEX_POOL if allowed.fullmatch(c)]
    if set(pool) <= set(_HEX_POOL):
        pool = [c for c in _HEX_POOL if allowed.fullmatch(c)]
    return "".join(pool[i % len(pool)] for i in range(n))


def hexs(n: int) -> str:
    return body(n, "a-f0-9")


@pytest.fixture
def detect() -> Any:
    return CredentialsStage().detect


@pytest.mark.parametrize(("text", "kind"), [
    (j("sk-", "ant-api03-", BODY), "anthropic_key"),
    (j("sk-", "proj-", BODY), "openai_key"),
    (j("sk-", "abcdefghijklmnop"), "api_key"),
    (j("sk", "_live_", BODY[:12]), "stripe_key"),
    (j("AK", "IA", "ABCDEFGHIJ234567"), "aws_key"),
    (j("gh", "p_", BODY[:20]), "github_token"),
    (j("github", "_pat_", BODY[:22]), "github_token"),
    (j("gl", "pat-", BODY[:20]), "gitlab_token"),
    (j("np", "m_", BODY[:30]), "npm_token"),
    (j("xo", "xb-", "1234567890"), "slack_token"),
    (j("AI", "za", BODY, "abc"), "google_api_key"),
    (j("GOC", "SPX-", BODY[:28]), "google_oauth_secret"),
    (j("h", "f_", "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"), "huggingface_token"),
    (j("S", "G.", BODY[:22], ".", BODY), "sendgrid_key"),
    (j("S", "K", "0123456789abcdef0123456789abcdef"), "twilio_key"),
    (j("123456789:", "AA", BODY, "x"), "telegram_token"),
    (j("M", BODY[:23], ".", "Ab-1_c", ".", BODY[:30]), "discord_token"),
    (j("Account", "Key=", BODY * 2, "=="), "azure_key"),
    (j("ey", "JhbGciOiJIUzI1NiJ9.", "eyJzdWIiOiJqYW0ifQ.", BODY), "jwt"),
    (j("-----BEGIN OPENSSH PRIV", "ATE KEY-----"), "private_key"),
    (j("-----BEGIN PGP PRIV", "ATE KEY BLOCK-----"), "private_key"),
    (j("Authorization: Bear", "er ", "abcdefghij0123456789"), "bearer_token"),
    (j("postgres://jam:", "Hunter2pw", "@db.example.org/app"), "connection_string"),
    (j("redis://:", "s3cretPass", "@cache:6379"), "connection_string"),
])
def test_vendor_shapes(detect: Any, text: str, kind: str) -> None:
    assert detect(text)[0] == kind


@pytest.mark.parametrize(("text", "clean"), [
    (j("sk-", "abcdefghijklmno"), True),  # 15 after sk-
    (j("sk-", "abcdefghijklmnop"), False),  # 16
    (j("bearer ", "abcdefghij012345678"), True),  # 19
    (j("bearer ", "abcdefghij0123456789"), False),  # 20, case-insensitive
    (j("AK", "IA", "ABCDEFGHIJ23456"), True),  # 15 after AKIA
    (j("gh", "p_", "a" * 19), True),
    (j("xo", "xb-", "123456789"), True),
])
def test_shape_thresholds(detect: Any, text: str, clean: bool) -> None:
    assert (detect(text) is None) is clean


@pytest.mark.parametrize("text", [
    j("password: ", "hunter2"),
    j("password: ", "abcdefghij"),  # 10 characters, one class
    j("pwd=", "abc123"),
    j("api key: ", "sk-abc"),
    j("password: \"", "abcdef\""),  # a quote adds a class
    j("my password is ", "Tr0ub4dor&3"),
    j("the password for jam's postgres database is ", "Hunter2-Correct-Horse"),
    j("hunter2", " is my password"),
    j("Tr0ub4dor&3", " is the password for the router"),
    j("pw: ", "correct-horse-9"),
    j("Mi contraseña es ", "Gato2024!"),
    j("The password for Jam's laptop is '", "correct horse battery staple'"),
    j("Jam's bank card PIN is ", "4821"),
])
def test_assignments_in_either_order(detect: Any, text: str) -> None:
    assert detect(text) is not None, text


@pytest.mark.parametrize("text", [
    "password: changeme", "my password is secret", "the password is required",
    "password = ab1", "jam's password manager is 1Password", "1Password is Jam's password manager",
    "the password for the wifi is printed on the router",
    "my api key for openai is in the .env file",
    "Jam's password is in Bitwarden under 'Acme SSO'.",
    "The password policy requires 16 characters.",
    "The secret to Jam's sourdough is a long cold proof.", "Jam's bank PIN is in 1Password.",
    "token: abcdefghijklmnopqrstuvwxyz",
])
def test_prose_about_passwords_passes(detect: Any, text: str) -> None:
    assert detect(text) is None, text


def test_entropy_rule_needs_wording_length_classes_and_bits(detect: Any) -> None:
    token = "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op"
    assert detect(j("the deploy credential is near ", token))[0] in {"high_entropy", "password"}
    assert detect(j("credential note ", token))[0] == "high_entropy"
    assert detect(j(token, " is the nightly build label")) is None  # no wording
    assert detect(j("credential note ", token[:19])) is None  # 19 characters
    assert detect("credential note abcdefghijklmnopqrstuvwxyz") is None  # one class
    assert detect("credential note aaaaaaaaaaBBBBBBBBBB1111111111") is None  # < 3.5 bits


def test_entropy_threshold_is_configurable(judge: Any) -> None:
    stage = CredentialsStage(CredentialsStage.Options(min_entropy_bits=6.0))
    assert judge(stage)("credential note Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op").decision is None


@pytest.mark.parametrize("text", [
    "The fix landed in commit 3f9c2e1a7b4d5e6f8a9b0c1d2e3f4a5b6c7d8e9f.",
    "The token for staging is 550e8400-e29b-41d4-a716-446655440000.",
    "The secret hash is sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    "My secret photo is iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk.",
    "The token endpoint is https://auth.Example.com/oauth2/Token_v2/callback.",
    "Jam's postgres runs at postgres://db.example.org:5432/app.",
    "postgres://user:<password>@localhost/app is the template Jam copies.",
])
def test_digests_ids_urls_and_images_pass(detect: Any, text: str) -> None:
    assert detect(text) is None, text


def test_refusal_is_redacted_and_never_echoes_the_secret(judge: Any) -> None:
    secret = j("gh", "p_", BODY)
    result = judge(CredentialsStage())(f"my token is {secret}", type="identity")
    assert result.decision == "rejected" and result.redact is True
    assert result.reason_code == "secret.github_token"
    assert secret not in (result.message or "")
    assert "password manager" in (result.message or "")


# -- the vendor table: every row refuses its own shape -------------------------------------------

UUID = j("b8a6ae91-b47a-", "4537-d43e-c65211b94462")
# Rows with a full pattern (no plain prefix): one example each, keyed by (kind, label).
PATTERN_EXAMPLES: dict[tuple[str, str], str] = {
    ("private_key", "a private key"): j("-----BEGIN RSA PRIV", "ATE KEY-----\n", body(64)),
    ("anthropic_key", "an Anthropic API key"): j("sk-", "ant-api03-", body(48, "A-Za-z0-9_-")),
    ("openai_key", "an OpenAI API key"): j("sk-", "proj-", body(48, "A-Za-z0-9_-")),
    ("stripe_key", "a Stripe key"): j("rk", "_live_", body(24)),
    ("aws_key", "an AWS access key id"): j("AS", "IA", body(16, "A-Z0-9")),
    ("aws_secret_key", "an AWS secret access key"): j("aws secret: ", body(38), "/+"),
    ("slack_webhook", "a Slack webhook URL"):
        j("https://hooks.slack", ".com/services/", "T0123ABC/", "B0456DEF/", body(24)),
    ("discord_webhook", "a Discord webhook URL"):
        j("https://discord.com/api/", "webhooks/", "123456789012345678/", body(64)),
    ("sendgrid_key", "a SendGrid API key"): j("S", "G.", body(22), ".", body(43)),
    ("mailchimp_key", "a Mailchimp API key"): j(hexs(32), "-us", "21"),
    ("twilio_key", "a Twilio key or account SID"): j("A", "C", hexs(32)),
    ("azure_sas", "an Azure shared access signature"):
        j("https://jam.blob.core.windows.net/c?sv=2022-11-02&se=2026-01-31&sp=r&", "sig=",
          body(43), "%3D"),
    ("azure_key", "an Azure key"): j("Account", "Key=", body(86), "=="),
    ("cloudflare_token", "a Cloudflare Origin CA key"): j("v1.0-", hexs(24), "-", hexs(146)),
    ("cloudflare_token", "a Cloudflare API token"): j("Cloudflare API token: ", body(40)),
    ("vercel_token", "a Vercel token"): j("our Vercel deploy token is ", body(24)),
    ("telegram_token", "a Telegram bot token"): j("123456789:", "AA", body(33)),
    ("discord_token", "a Discord bot token"): j("M", body(23), ".", "Ab-1_c", ".", body(30)),
    ("jwt", "a JWT"): j("ey", "JhbGciOiJIUzI1NiJ9.", "eyJzdWIiOiJqYW0ifQ.", BODY),
    ("deepl_key", "a DeepL API key"): j(UUID, ":f", "x"),
    ("postman_key", "a Postman API key"): j("PM", "AK-", hexs(24), "-", hexs(34)),
    ("tailscale_key", "a Tailscale key"): j("ts", "key-", "auth-", body(30)),
    ("terraform_token", "a Terraform Cloud token"): j(body(14), ".atlas", "v1.", body(70)),
    ("airtable_token", "an Airtable token"): j("pat", body(14), ".", hexs(64)),
    ("onepassword_token", "a 1Password account secret key"):
        j("A3-", "ABC123-", "DEF456-", "GHI78-", "JKL90-", "MNO12-", "PQR34"),
    ("recovery_key", "a BitLocker recovery key"): "-".join(str(317461 + 11 * i) for i in range(8)),
    ("private_key", "a private key's body without its armour"):
        j("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", body(30)),
    ("okta_token", "an Okta API token"): j("Authorization: SS", "WS 00", body(40)),
    ("firebase_key", "a Firebase Cloud Messaging server key"):
        j("AAAA", body(7), ":APA91b", body(110)),
    ("teams_webhook", "a Microsoft Teams webhook URL"):
        j("https://jam.webhook.office.com/webhookb2/", UUID, "@", UUID, "/IncomingWebhook/",
          hexs(32), "/", UUID),
    ("salesforce_token", "a Salesforce session token"): j("00D", body(12), "!AQ", body(90)),
    ("twitch_key", "a Twitch stream key"): j("live_", "772269343_", body(30)),
    ("bearer_token", "a bearer token"): j("Authorization: Bear", "er ", body(30)),
    ("basic_auth", "a basic-auth header"): j("Authorization: Basic ", "amFtOmh1bnRlcjI="),
}
CONTEXT = {"aws_secret_key": "aws ", "cloudflare_token": "Cloudflare token ",
           "vercel_token": "Vercel token "}


def example(shape: SecretShape) -> str:
    if shape.pattern is not None:
        return PATTERN_EXAMPLES[(shape.kind, shape.label)]
    token = j(shape.prefixes[-1], body(shape.min_len, shape.alphabet))
    return CONTEXT.get(shape.kind, "") + token


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.kind}:{(s.prefixes or ('',))[0]}")
def test_every_vendor_row_refuses_its_shape(detect: Any, shape: SecretShape) -> None:
    text = example(shape)
    assert detect(text)[0] == shape.kind
    assert detect(j("note for later: ", text, " (rotate monthly)"))[0] == shape.kind


@pytest.mark.parametrize("shape", [s for s in SHAPES if s.pattern is None and s.min_len > 1],
                         ids=lambda s: f"{s.kind}:{s.prefixes[0]}")
def test_a_row_needs_its_minimum_length(shape: SecretShape) -> None:
    short = j(CONTEXT.get(shape.kind, ""), shape.prefixes[0],
              body(shape.min_len - 1, shape.alphabet))
    assert not shape.find(short, short.lower(), len(short))


def test_every_pattern_row_has_an_example() -> None:
    rows = {(s.kind, s.label) for s in SHAPES if s.pattern is not None}
    assert rows == set(PATTERN_EXAMPLES)


@pytest.mark.parametrize(("text", "kind"), [
    (j("-----BEGIN EC PRIV", "ATE KEY-----"), "private_key"),
    (j("-----BEGIN ENCRYPTED PRIV", "ATE KEY-----"), "private_key"),
    (j('"private_key": "-----BEGIN PRIV', 'ATE KEY-----\\nMIIEvQ"'), "private_key"),
    (j("PuTTY-User-Key-File-", "3: ssh-ed25519"), "private_key"),
    (j("AGE-SECRET-", "KEY-1", body(58, "A-Z0-9")), "private_key"),
    (j("sk-", body(20), "T3Blbk", "FJ", body(20)), "openai_key"),
    (j("sk", "_test_", body(24)), "stripe_key"),
    (j("x", "app-1-", "A0CJ6ML32DP-", "6446302422645-", hexs(64)), "slack_token"),
    (j("S", "K", hexs(32)), "twilio_key"),
    (j("SharedAccess", "Key=", body(43), "="), "azure_key"),
    (j("abc", "8Q~", body(34, "A-Za-z0-9_~.-")), "azure_key"),
    (j("SUPABASE_SERVICE_ROLE_KEY=", "ey", "JhbGciOiJIUzI1NiJ9.", "eyJyb2xlIjoic2VydmljZSJ9.",
       BODY), "jwt"),
])
def test_more_vendor_variants(detect: Any, text: str, kind: str) -> None:
    assert detect(text)[0] == kind


# -- URLs, connection strings, command lines ------------------------------------------------------

@pytest.mark.parametrize("text", [
    j("postgres://jam:", "Hunter2pw", "@db.example.org/app"),
    j("DATABASE_URL=postgresql://app:", "BvyAr8cDkt", "@db:5432/app?sslmode=require"),
    j("mysql://root:", "s3cretRoot", "@127.0.0.1:3306/shop"),
    j("mongodb+srv://admin:", "q7Lm2xVp9", "@cluster0.example.net/app"),
    j("redis://:", "s3cretPass", "@cache:6379/0"),
    j("amqp://guest:", "Rabbit99x", "@mq.internal:5672/"),
    j("https://deploy-bot:", "UV9IPoEauI1b", "@git.example.org/jam/core.git"),
    j("router admin: http://admin:", "kumaRouter88", "@192.168.0.1"),
    j("ftp://jam:", "Ftp!Pass77", "@files.example.org/pub"),
    j("jdbc:postgresql://db:5432/app?user=app&password=", "Jdbc2024x"),
])
def test_urls_with_a_password_are_refused(detect: Any, text: str) -> None:
    assert detect(text)[0] == "connection_string"


@pytest.mark.parametrize("text", [
    j("sshpass -p '", "r4spberryPi", "' ssh pi@rota.local"),
    j("sshpass -p ", "Kallio2291", " ssh jam@puhti.example.org"),
    j("mysql -u root -p", "S3cretRoot", " shop"),
    j("mysqldump --password=", "x9Y8z7W6", " app > dump.sql"),
    j("curl -u jam:", "hunter22", " https://api.example.org/v1/items"),
    j("curl --user 'api:", "Tok3nValue9", "' https://example.org"),
    j("docker login -u jam -p ", "P4ssw0rd!x", " registry.example.org"),
    j("redis-cli -h cache -a ", "r3disPass", " ping"),
    j("wget --http-password=", "w9etPass", " https://example.org/file.tar"),
    j("sqlcmd -S db -U sa -P ", "Sq1Server!"),
    j("smbclient //nas/share -U jam%", "Sm8Passwd"),
    j("mongosh --username admin --password ", "M0ngoPass", " db.example.org"),
])
def test_passwords_on_command_lines_are_refused(detect: Any, text: str) -> None:
    assert detect(text)[0] == "cli_password"


# -- .env and config assignments ---------------------------------------------------------------

@pytest.mark.parametrize("text", [
    j("REDIS_PASSWORD=", "+tacrSJxK%+Rwmv"),
    j("JWT_SECRET=", hexs(64)),
    j("HEROKU_API_KEY=", UUID),
    j("APP_DB_PASSWORD=", "Dbpass2024"),
    j("FORECAST_CLICKHOUSE_PASSWORD=", "i1YXYpiA4tuc"),
    j("export GH_DEPLOY_TOKEN=", "abc123def456ghi789"),
    j("DJANGO_SECRET_KEY='", "#_J+RGiy_6CXs&OY3B%!UY", "'"),
    j("NEXTAUTH_SECRET=", "k9Xr2LmQ8pZ4wT7v"),
    j("TWILIO_AUTH_TOKEN=", hexs(32)),
    j("WANDB_API_KEY=", hexs(40)),
    j("CLOUDFLARE_API_TOKEN=", "PcPihLOqZFANjf6gQU4f6_s6fX"),
    j("SIM_PIN=", "4821"),
    j("PGPASSWORD=", "pg_secret_99", " psql -h db -U app"),
    j("mysqlPassword=", "Pa55word!"),
    j("DB_PASSWORD: ", "Wint3r!Is"),
    j('smtp_password: "', "hunter22", '"'),
    j('{"username": "jam", "client_secret": "', "Zq8Xw2Lm9Rt4Yb7N", '"}'),
    j('kaggle.json {"username":"jam","key":"', hexs(32), '"}'),
    j("//registry.example.org/:_authToken=", "abcd1234efgh5678ijkl"),
    j("$ cat .env\nDEBUG=False\nSTRIPE_WEBHOOK_SIGNING_SECRET=", "s1gn1ngS3cret", "\nPORT=8000"),
])
def test_env_assignments_with_a_real_value_are_refused(detect: Any, text: str) -> None:
    assert detect(text) is not None, text


# -- every field ---------------------------------------------------------------------------------

SECRET = j("gh", "p_", BODY, "abcd")
FIELD_CASES: list[tuple[str, dict[str, Any]]] = [
    ("subject", {"annotations": {"raw_subject": SECRET}}),
    ("subject", {"subject": j("postgres://jam:", "hunter2pw", "@db/app")}),
    ("scope", {"annotations": {"raw_scope": SECRET}}),
    ("scope", {"scope": j("postgres://jam:", "hunter2pw", "@db/app")}),
    ("client name", {"client": ClientInfo(name=SECRET)}),
    ("client version", {"client": ClientInfo(name="cursor", version=SECRET)}),
    ("provenance", {"provenance": j("imported from notes; token ", SECRET)}),
    ("origin", {"origin": SECRET}),
]


@pytest.mark.parametrize(("field", "fields"), FIELD_CASES)
def test_a_secret_in_any_field_is_refused_and_redacted(judge: Any, field: str,
                                                       fields: dict[str, Any]) -> None:
    result = judge(CredentialsStage())("Jam likes figs.", **fields)
    assert result.decision == "rejected" and result.redact is True
    assert (result.reason_code or "").startswith("secret.")
    assert f"the {field} looks like" in (result.message or "")
    assert SECRET not in (result.message or "") and "hunter2pw" not in (result.message or "")


def test_the_canonical_subject_is_not_judged_when_the_raw_one_is_known(judge: Any) -> None:
    # `sk-..._test_...` folds to `sk-or-sk-test-…`: the caller's own spelling is judged.
    raw = "placeholders like sk-... or sk_test_... in docs"
    result = judge(CredentialsStage())("Jam likes figs.", subject=raw,
                                       annotations={"raw_subject": raw})
    assert result.decision is None


@pytest.mark.parametrize("where", ["subject", "scope", "provenance", "client_version"])
def test_a_secret_in_a_field_never_reaches_the_store_or_the_log(
        where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    log = tmp_path / "gate.log"
    monkeypatch.setenv("JAMGATE_GATE_LOG", str(log))
    secret = j("AK", "IA", "ABCDEFGHIJ234567")
    fields: dict[str, Any] = {"client_version": {"client": ClientInfo(name="cli", version=secret)},
                              "subject": {"subject": secret}, "scope": {"scope": secret},
                              "provenance": {"provenance": secret}}[where]
    app = open_app(load_settings())
    try:
        verdict = app.save(SaveRequest(text="Jam likes figs and lives in Athens.", **fields))
    finally:
        app.close()
    assert verdict.decision == "rejected" and verdict.reason_code == "secret.aws_key"
    assert secret not in verdict.message and secret.lower() not in verdict.message.lower()
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines and all(secret.lower() not in json.dumps(line).lower() for line in lines)
