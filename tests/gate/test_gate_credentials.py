"""Credentials: vendor shapes, assignments both ways, entropy near wording; always redacted.

Fake secrets are assembled from pieces (`j(...)`) so this file never holds a literal that a
secret scanner would flag.
"""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.credentials import CredentialsStage


def j(*parts: str) -> str:
    return "".join(parts)


BODY = "Zq8Xw2Lm9Rt4Yb7Nc3Vd6Kp1Hs5Jg0Ft"  # 32 chars, 3 classes, high entropy


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
