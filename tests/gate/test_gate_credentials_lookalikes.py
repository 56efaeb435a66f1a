"""Benign look-alikes of credentials: every one must pass the credentials stage.

Written from the definitions (CATEGORIES.md `credential-lookalike`), not copied from the corpus:
ids, digests, codes and versions that look random; prose about passwords, keys and 2FA in many
languages; variable names without values, placeholders, references and metadata; commands and
URLs without a password; number sequences that are not cards; word lists that are not seeds;
password rules ("Passwort: mindestens zwölf Zeichen") and code that reads a secret.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import load_corpus
from jamgate_stages.credentials import CredentialsStage

S19 = Path(__file__).resolve().parents[1] / "corpus" / "gate2" / "s19.jsonl"

IDS_AND_DIGESTS = [
    "The release commit for v2.3 is 9f2c1e7.",
    "Hotfix landed in a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 on main.",
    "Bisect says the regression started at commit 5e8a0c2b.",
    "The tenant id of the staging org is 3fa85f64-5717-4562-b3fc-2c963f66afa6.",
    "Jam's device UUID is 123e4567-e89b-12d3-a456-426614174000; support asks for it.",
    "The API image is pinned to node:20-alpine@sha256:4f7d2a9b1c3e5f60718293a4b5c6d7e8f9012345678"
    "9abcdef0123456789abcd.",
    "The tarball's SHA-256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
    "MD5 of the dataset archive: 9e107d9d372bb6826bd81d3542a419d6.",
    "My SSH key fingerprint is SHA256:Wq3vX8LmZp4Rt2Yb7Nc9Vd6Kp1Hs5Jg0FtQe3Ua8Io.",
    "The host key fingerprint reads MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48.",
    "My PGP key fingerprint: 3AA5 C343 7151 2AD7 B68F  8E2B 9C2D 4E1F 6A7B 8C9D.",
    "Jam's GPG signing key id is 0x4AA4767BBC9C4B1D.",
    "The GitHub App id for our CI bot is 912345 and the installation id is 48213377.",
    "Our AWS account id is 123456789012; it shows up in every ARN.",
    "The S3 bucket arn is arn:aws:s3:::jam-backups-eu-central-1.",
    "The Sentry project DSN host is o450123.ingest.sentry.io.",
    "MLflow run 5c1d9e0a7b2f4c3d8e6a1b9f0c2d4e6a is the baseline model.",
    "Build ids look like build-20240611.4-7c2e1f9a in our pipeline.",
    "The Kubernetes namespace is jam-prod-eu and the pod label app.kubernetes.io/name=api.",
    "Google Analytics measurement ids have the form G-XXXXXXXXXX.",
]

CODES_AND_NUMBERS = [
    "Jam's ORCID iD is 0000-0002-1825-0097.",
    "The thesis DOI is 10.1145/3368089.3409741.",
    "Our dataset is archived as DOI 10.5281/zenodo.7654321.",
    "The handbook's ISBN is 978-0-306-40615-7.",
    "Her ISNI is 0000 0001 2103 2683.",
    "The single's ISRC code is USRC17607839.",
    "The standing desk order number is 4716-2039-5512-8840 (not a card, a shop order).",
    "Amazon order 114-3941689-8772232 is the stroller; keep it for the warranty.",
    "Invoice INV-2024-000817 is the last one for the Hetzner contract.",
    "The warehouse SKU for the blue mug is MUG-BLU-350-0042.",
    "The laptop serial number is PF2XK9QZ and its model is 21HD.",
    "Jam's frequent flyer number is 4455667788.",
    "The flight is LH 1234 on 12/27 from Munich.",
    "Call the office at +49 30 1234 5678 or +1 415 555 0132.",
    "Booking reference QX7K2M, confirmation code HMX4Q8Z2PA.",
    "The parcel tracking number is 1Z999AA10123456784.",
    "The 16-digit customer number 1234 5678 9012 3456 is printed on the energy bill.",
    "Jam's employee number is 20481 and the cost centre is 4410.",
    "The project runs on grant 2004321 from the Academy of Finland.",
    "Scopus author id 57219483306.",
    "Our postcode is 10115 and the building has 12 floors.",
    "The EAN barcode on the box reads 4006381333931.",
]

VERSIONS = [
    "The API is at v2.4.1 and the spec is OpenAPI 3.1.0.",
    "Node is pinned to 20.11.1 in .nvmrc across all projects.",
    "The cluster runs k3s v1.29.4+k3s1 on three nodes.",
    "We depend on Shopware 6.5.8.7 and PHP 8.2.",
    "Release tag v1.8.2 maps to image ghcr.io/jam/gateway:1.8.2.",
    "The mobile app is build 2024.06.11-rc3.",
]

PROSE_ABOUT_SECRETS = [
    "My password manager is 1Password.",
    "I use Bitwarden as my password manager, self-hosted.",
    "I changed my password yesterday.",
    "I rotate API keys every 90 days.",
    "Use a strong password for every account.",
    "Passwords must be at least 14 characters long.",
    "The Wi-Fi password is on the sticker under the router.",
    "Jam's database password is in 1Password under 'prod-db'.",
    "Never paste tokens into chat; they live in Vault.",
    "Secrets go into Doppler, never into .env files committed to git.",
    "Jam turns on 2FA with an authenticator app for every account.",
    "Jam keeps the 2FA backup codes printed in a drawer at home.",
    "Recovery codes for GitHub are stored in the password manager.",
    "Jam's bank PIN is in 1Password, not in notes.",
    "The PIN pad by the door was installed in 2019.",
    "Change the SIM PIN every 90 days.",
    "The secret to good ramen is a long-simmered broth.",
    "Jam writes her secret santa list in December.",
    "Jam's crypto wallet seed phrase is on a steel plate in the safe.",
    "The office safe combination is known only to the facilities team.",
    "Our password policy requires a passphrase of four random words.",
    "Jam's API key naming convention is TEAM_SERVICE_KEY.",
    "The token endpoint is https://auth.example.com/oauth2/token.",
    "Private keys never leave the HSM.",
    "Jam logs in with a passkey on her phone, not a password.",
    "Credit card payments go through Stripe; we never store card numbers.",
    "Jam's card ends in 4242 and expires next year.",
    "Mein Passwort-Manager ist KeePassXC.",
    "Ich habe mein Passwort gestern geändert.",
    "Mon gestionnaire de mots de passe est Bitwarden.",
    "Je change mes mots de passe tous les six mois.",
    "Uso un gestor de contraseñas y la verificación en dos pasos.",
    "La contraseña del wifi está en la nevera.",
    "A senha do banco está guardada no cofre de casa.",
    "La password del router è scritta sull'etichetta.",
    "Mijn wachtwoordbeheerder is Bitwarden.",
    "Zmieniam hasło co miesiąc.",
    "Пароли я храню в KeePass.",
    "Ο κωδικός ISBN του βιβλίου είναι 978-960-03-1234-5.",
    "Şifremi her ay değiştiririm.",
    "我每三个月换一次密码。",
    "パスワードは定期的に変更しています。",
    "비밀번호는 매달 바꿔요.",
    "أغير كلمة المرور كل شهر.",
    "אני מחליף סיסמה כל חודש.",
    "मैं हर महीने पासवर्ड बदलता हूँ।",
]

NAMES_PLACEHOLDERS_METADATA = [
    "The app reads STRIPE_SECRET_KEY, DATABASE_URL and REDIS_URL from the environment.",
    "Required env vars: OPENAI_API_KEY, ANTHROPIC_API_KEY and JWT_SECRET (values in Vault).",
    "In the README the key is shown as OPENAI_API_KEY=<YOUR_API_KEY>.",
    "Our .env.example has JWT_SECRET=<change-me> and POSTGRES_PASSWORD=<change-me>.",
    "Placeholders look like sk-... or sk_live_... in the docs.",
    "CI sets GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }} for the release job.",
    "The compose file uses DB_PASSWORD=${DB_PASSWORD:-} from the host.",
    "Set API_KEY=your-key-here before running the demo.",
    "API_KEY=xxx is the value in the sample config.",
    "TOKEN_TTL=3600 and REFRESH_TOKEN_TTL=86400 in production.",
    "PASSWORD_MIN_LENGTH=12 is enforced by the signup form.",
    "AUTH_ENABLED=true and AUTH_PROVIDER=github in staging.",
    "MAX_TOKENS=4096 for the summarizer.",
    "JWT_SECRET_FILE=/run/secrets/jwt is mounted by Docker.",
    "SECRET_NAME=prod-db-password is the name in Secret Manager.",
    "TOKENIZERS_PARALLELISM=false silences the warning.",
    "In settings.py, SECRET_KEY = os.environ['DJANGO_SECRET_KEY'].",
    "The client calls api_key = os.getenv('OPENAI_API_KEY') at startup.",
    "secretKeyRef: DB_PASSWORD points the pod at the Kubernetes secret.",
    "password: changeme is the vendor default and must be replaced on first boot.",
    "Keep PRIMARY_KEY=id and SORT_KEY=created_at in the table definition.",
    "The reset link looks like https://app.example.com/reset?token=<token>.",
]

COMMANDS_AND_URLS = [
    "Connect with mysql -u root -p and type the password when asked.",
    "Deploy with ssh deploy@203.0.113.24 'cd /srv/app && ./deploy.sh'.",
    "Use sshpass -f ~/.ssh/pass.txt ssh deploy@host for the old box.",
    "curl -u jam https://api.example.com prompts for the password.",
    "Log in with docker login -u jam --password-stdin < token.txt.",
    "The database is at postgres://db.internal:5432/app.",
    "Use postgres://app@db.internal/app with a password from Vault.",
    "Redis runs at redis://localhost:6379/0.",
    "The template is postgres://user:<password>@localhost/app.",
    "Clone with git clone https://github.com/jam/notes.git.",
    "Run psql -h db.internal -U app -d app to open a shell.",
    "The mirror is https://jam@git.example.org/jam/core.git.",
]

WORD_LISTS = [
    "Jam likes hiking, cooking, chess, jazz and long train rides along the coast.",
    "Jam's favourite fruits are apple, banana and orange; she dislikes melon.",
    "Weekly routine: swim on Monday, run on Wednesday, climb on Friday.",
    "The team names are falcon, tiger, river, ocean and forest.",
    "I usually walk the dog in the park after work and then cook dinner with my family.",
]

TECH_AND_POLICY_NOTES = [
    'The token bucket rate limiter allows 100 requests per second.',
    'JWT tokens expire after 15 minutes; refresh tokens after 30 days.',
    'passcode: use Face ID instead',
    'Auth: OAuth2 via Keycloak',
    'API key header: X-Api-Key',
    "token: see 1Password entry 'prod'",
    'Password: stored in Vault at secret/prod/db',
    'password hashing: argon2id with m=64MiB',
    'The key: value pairs live in config.yaml.',
    'SECRET_KEY_BASE is generated by rails secret on deploy.',
    'Use curl -u $USER:$TOKEN https://api.example.org for the smoke test.',
    'sshpass -p "$PASS" ssh deploy@host runs in CI.',
    'mysql -p$MYSQL_PWD -u app reads the password from the environment.',
    'docker login -p $(cat token.txt) registry.example.org',
    'Mein Passwort hat 12 Zeichen.',
    'Passwort: mindestens zwölf Zeichen und eine Ziffer.',
    'Le mot de passe doit contenir 8 caractères.',
    'Mot de passe : obligatoire pour tous les comptes.',
    'La contraseña expira en 90 días.',
    'Пароль должен быть не короче 12 символов.',
    'Şifre en az 8 karakter olmalı.',
    '密码至少8位。',
    'パスワードは8文字以上にしてください。',
    '비밀번호는 8자 이상이어야 해요.',
    'Backup codes: generated 2024-01-05, 10 codes, 3 used.',
    'MAX_TOKENS=4096 and TOKEN_LIMIT=100000 for the batch job.',
    'SESSION_TOKEN_LENGTH=64',
    'AUTH_TIMEOUT=30s',
    'API_KEY_ROTATION=90d',
    'auth: true',
    'auth_mode: oidc',
    'token_type: bearer',
    'access_token: <redacted>',
    'secret: !vault |',
    'password: !secret db_password',
    'ssh -p 2222 deploy@host',
    'mysql -p -u root opens a prompt.',
    'psql -p 5432 -h localhost',
    'curl -u user:password https://example.org is the docs example.',
    '--token $GITHUB_TOKEN is passed by the workflow.',
    'docker build --secret id=npmrc,src=$HOME/.npmrc .',
    'gh auth login --with-token < token.txt',
    'The CLI flag --api-key YOUR_KEY goes last.',
    'https://user:${TOKEN}@github.com/jam/repo.git',
    'postgres://user:pass@host/db is the example in the docs.',
    'http://localhost:3000 serves the dashboard.',
    'The Stripe publishable key starts with pk_live_ and the secret key with sk_live_.',
    'My GitHub username is jam-dev and my email is jam@example.org.',
    'The PIN of my SIM card is stored in the password manager.',
    'Use the PIN pad at the door.',
    'I need to reset my PIN at the bank.',
    'The secret is to preheat the oven.',
    'The password field must be masked in the UI.',
    'The wifi password changed last month.',
    'Contraseña segura: mínimo doce caracteres.',
    'Hasło: co najmniej 12 znaków.',
    'Пароль: не менее 12 символов.',
    'Wi-Fi: Jam-Home-5G (password on the router).',
    'Recovery phrase: written on paper, kept in the safe.',
    'Seed phrase stored in a steel capsule; never typed into a computer.',
    'The ISBN 978-3-16-148410-0 belongs to the textbook.',
    "Jam's cat is called Pixel2 and the dog is called R2D2.",
    "Jam's bike lock is a Kryptonite New York 3000.",
    "The alarm code is managed by the building's security company.",
    "Jam's locker number is 4821 at the gym.",
    "Jam's apartment is number 1204 on the twelfth floor.",
    "login: SSO via Okta / Google for every internal tool.",
    "Credentials: in Vault / 1Password, never in the repo.",
    "Sign-in: email/password or passkey.",
    "Jam's boarding pass: seat 12A, gate B22.",
    "The release token a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 is on main.",
    "The best combination of skills is rare.",
    "The PIN pad was replaced on 2024-05-01.",
    'The door code changes every month; ask the concierge.',
    'Set `PIN_MEMORY=true` in the DataLoader.',
    'In YAML: password: ${DB_PASSWORD}',
    'password = getpass.getpass()',
    'api_key = None',
    'token = request.headers["Authorization"]',
    'secret = settings.SECRET_KEY',
]

BENIGN = (IDS_AND_DIGESTS + CODES_AND_NUMBERS + VERSIONS + PROSE_ABOUT_SECRETS
          + NAMES_PLACEHOLDERS_METADATA + COMMANDS_AND_URLS + WORD_LISTS
          + TECH_AND_POLICY_NOTES)


def test_the_set_is_large_and_distinct() -> None:
    assert len(BENIGN) >= 100
    assert len(set(BENIGN)) == len(BENIGN)


@pytest.mark.parametrize("text", BENIGN)
def test_benign_look_alike_passes(text: str) -> None:
    assert CredentialsStage().detect(text) is None


# s19's look-alikes (D-254): public keys and key material that is not secret, tracking numbers,
# ISBNs, phone numbers, VINs, IMEIs, IBANs, where a secret is kept, in 24 languages.
S19_LOOKALIKES = [c.text for c in load_corpus(S19) if c.category == "credential-lookalike"]


def test_s19_adds_sixty_new_look_alikes() -> None:
    assert len(set(S19_LOOKALIKES) - set(BENIGN)) >= 60


@pytest.mark.parametrize("text", S19_LOOKALIKES)
def test_s19_look_alike_passes(text: str) -> None:
    assert CredentialsStage().detect(text) is None


@pytest.mark.parametrize("text", BENIGN[::7])
def test_benign_look_alike_passes_in_every_field(judge: Any, text: str) -> None:
    stage = judge(CredentialsStage())
    result = stage("Jam likes figs.", subject=text[:60], provenance=text,
                   annotations={"raw_subject": text, "raw_scope": text})
    assert result.decision is None
