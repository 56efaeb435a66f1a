"""Placeholders are not secrets: a template's slot holding a placeholder passes, the same slot
holding a real value is refused.

Written from the `credential-lookalike` definition ("example placeholders (`sk-...` /
`<YOUR_KEY>`)") before the rule changed (D-360): the family of stand-ins a template puts where a
secret would go — angle brackets of every kind (<…>, ‹…›, «…», 〈…〉, ＜…＞), braces and shell
variables ({password}, {{ secret }}, ${DB_PASS}, $PASSWORD, %s, %(password)s, :password), masks
(****, xxxx, •••), words that name the slot rather than fill it in many languages, and
changeme/example/dummy/placeholder/redacted — in every shape the stage reads: URLs with
userinfo, `.env` lines, command-line flags, YAML/JSON keys and "my password is …" wording.
Each look-alike has a counterpart of the same shape with a real-looking value, which must stay
refused, so the rule cannot pass by refusing less.
"""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.credentials import CredentialsStage

# (template with a placeholder: passes, the same shape with a real value: refused)
PAIRS: list[tuple[str, str]] = [
    # URLs and connection strings with userinfo
    ("mysql://‹账号>:‹口令>@db.example.com:3306/app",
     "mysql://app_rw:Qz7!mK2vR9pL@db.example.com:3306/app"),
    ("The template is mysql://<user>:<password>@db.example.com:3306/app.",
     "The DSN is mysql://jam:Hv8#wQ3zLm2x@db.example.com:3306/app."),
    ("postgresql://«benutzer»:«passwort»@db.internal/shop",
     "postgresql://shop:Tr4$nB7qXw1e@db.internal/shop"),
    ("amqp://〈用户〉:〈密码〉@mq.example.com:5672/",
     "amqp://svc:Lp3%vN8kQz6r@mq.example.com:5672/"),
    ("mongodb://＜ユーザー＞:＜パスワード＞@mongo.example.com/app",
     "mongodb://app:Zw5&jR2mTq9v@mongo.example.com/app"),
    ("redis://:{{ redis_password }}@cache:6379/0",
     "redis://:Gx2!cV7nWp4s@cache:6379/0"),
    ("settings.py builds postgres://{user}:{password}@db:5432/app from the environment.",
     "settings.py holds postgres://app:Kd9^mF3wQz1t@db:5432/app for now."),
    ("amqp://guest:${RABBIT_PASS}@rabbit:5672 is the broker URL in compose.",
     "amqp://guest:Wm6*hT1rXq8b@rabbit:5672 is the broker URL in compose."),
    ("ftp://usuario:contraseña@ftp.example.es/pub",
     "ftp://usuario:Pb4!yK9wMz2n@ftp.example.es/pub"),
    ("smtp://utilisateur:mot_de_passe@mail.example.fr:587",
     "smtp://utilisateur:Jf7#qL3vRx5k@mail.example.fr:587"),
    ("postgres://пользователь:пароль@db.example.ru/app",
     "postgres://app:Ns2&vX8kPq4w@db.example.ru/app"),
    ("mysql://kullanıcı:şifre@db.example.com.tr/app",
     "mysql://kullanici:Yh5!tB2mKw7q@db.example.com.tr/app"),
    ("postgres://usuario:senha@db.example.com.br/app",
     "postgres://usuario:Cw8#pM3zRv6k@db.example.com.br/app"),
    ("mysql://gebruiker:wachtwoord@db.example.nl/app",
     "mysql://gebruiker:Vn4!qT9wLx2m@db.example.nl/app"),
    ("postgres://użytkownik:hasło@db.example.pl/app",
     "postgres://uzytkownik:Fq6$kW2mZr8v@db.example.pl/app"),
    ("mysql://χρήστης:κωδικός@db.example.gr/app",
     "mysql://xristis:Mz3!rV8wKq5t@db.example.gr/app"),
    ("postgres://사용자:비밀번호@db.example.kr/app",
     "postgres://app:Tk7#wQ2mXv9r@db.example.kr/app"),
    ("mysql://pengguna:kata_sandi@db.example.id/app",
     "mysql://pengguna:Rb5&mK8zWq3n@db.example.id/app"),
    ("postgres://المستخدم:كلمة_المرور@db.example.sa/app",
     "postgres://app:Xw9!tN4vMq7k@db.example.sa/app"),
    ("The docs write it as postgres://app:%(password)s@db/app.",
     "The worker uses postgres://app:Lm2#qR7zVk4w@db/app."),
    ("psycopg formats postgres://app:%s@db/app with the password.",
     "psycopg connects to postgres://app:Hz8!wK3mQv6r@db/app."),
    ("Jenkins is at https://admin:xxxxxxxx@jenkins.example.com in the runbook.",
     "Jenkins is at https://admin:Pq4$vM9wRz2k@jenkins.example.com in the runbook."),
    ("The log prints postgres://app:•••••••@db.example.com/app.",
     "The log printed postgres://app:Gv7#kT2wMx8q@db.example.com/app."),
    ("postgres://app:****@db.example.com/app is how the dashboard shows the DSN.",
     "postgres://app:Wr3!zQ8mKv5t@db.example.com/app is the DSN of the dashboard."),
    ("The local dev DSN is mysql://root:changeme@localhost/dev until setup runs.",
     "The local dev DSN is mysql://root:Nx6^qW2vLk9m@localhost/dev."),
    ("Support tickets show postgres://app:REDACTED@db.example.com/app.",
     "Support tickets showed postgres://app:Bt5#mV8wQz3k@db.example.com/app."),
    ("mongodb://app:your_password_here@mongo:27017 in the quickstart.",
     "mongodb://app:Kz2!vR7mWq4x@mongo:27017 in the quickstart."),
    ("postgres://jam:mot-de-passe@localhost/app dans le README.",
     "postgres://jam:Qm9$tX4wRv2k@localhost/app dans le README."),
    # .env and config lines
    ("DB_PASSWORD=<пароль>", "DB_PASSWORD=Rq8!zM3vKx6p"),
    ("In .env.example: REDIS_PASSWORD=«mot_de_passe»", "In .env: REDIS_PASSWORD=Vw4#kN7qMz2t"),
    ("JWT_SECRET={{ jwt_secret }} in the Jinja template.",
     "JWT_SECRET=Tq6!mW9zKx3vRb5n in the .env file."),
    ("API_TOKEN=%(api_token)s in the config template.",
     "API_TOKEN=Zr7kP2mQ9vLw4tX8nB3c in the config."),
    ("SMTP_PASSWORD=•••••••• as the dashboard shows it.",
     "SMTP_PASSWORD=Mk3!wQ8vZr5t as the dashboard set it."),
    ("MYSQL_PASSWORD=dummy in the test compose file.",
     "MYSQL_PASSWORD=Hx9#qV4mWk2r in the compose file."),
    ("ADMIN_PASSWORD=placeholder until the installer runs.",
     "ADMIN_PASSWORD=Yw5$kR8zMq3v since the installer ran."),
    ("DB_PASS=dein_passwort steht in der Beispieldatei.",
     "DB_PASS=Lq2!vT7mXw9k steht in der Datei."),
    ("DATABASE_PASSWORD=contraseña en el archivo de ejemplo.",
     "DATABASE_PASSWORD=Pv8#mW3zKq6t en el archivo."),
    ("POSTGRES_PASSWORD=senha_aqui no arquivo de exemplo.",
     "POSTGRES_PASSWORD=Wk4!qZ9mRv2x no arquivo."),
    ("PGPASSWORD=<密码> psql -h db -U app", "PGPASSWORD=Vb3#tK8wMq5z psql -h db -U app"),
    ("export PGPASSWORD='${DB_PASS}' before the backup.",
     "export PGPASSWORD='Qr6!mX2vWk8t' before the backup."),
    ("API_KEY=＜APIキー＞ をサンプルに書く。", "API_KEY=Xr7kP2mQ9vLw4tZ8nB3c をサンプルに書く。"),
    ("SECRET_KEY=example in settings.example.py.",
     "SECRET_KEY=Nq5#wK8zTv3mRx7p in settings.py."),
    ("DB_PASSWORD=$PASSWORD in the systemd unit.", "DB_PASSWORD=Fz9!kQ4wMv7r in the unit."),
    # command lines
    ("sshpass -p '<password>' ssh deploy@host", "sshpass -p 'Mt6!wQ2zXk9r' ssh deploy@host"),
    ("sshpass -p 'ваш_пароль' ssh root@server", "sshpass -p 'Gq3#vW8mKz5t' ssh root@server"),
    ("mysql -u root -p'<密码>' app", "mysql -u root -p'Hc5^rN8vLq2w' app"),
    ("mycli --password=＜パスワード＞ app", "mycli --password=Wv2!kT9mQx6r app"),
    ("docker login -u jam -p '${REGISTRY_TOKEN}' registry.example.com",
     "docker login -u jam -p 'Rk7#mQ3wVz8t' registry.example.com"),
    ("redis-cli -a «senha» ping", "redis-cli -a Tz4!wM9kQv2r ping"),
    ("curl -u admin:<비밀번호> https://api.example.com",
     "curl -u admin:Fz8&kW3qPm6x https://api.example.com"),
    ("mongosh --password '{{ mongo_password }}' app", "mongosh --password 'Kx3!vQ8mWz5r' app"),
    ("htpasswd -b .htpasswd admin <hasło>", "htpasswd -b .htpasswd admin Qw7#mZ2vKr9t"),
    ("zip -P %PASSWORD% backup.zip docs/", "zip -P Vr5!kW8mQz3t backup.zip docs/"),
    # YAML / JSON keys
    ('password: "<YOUR_PASSWORD>"', 'password: "Gk4!pV9wRz2m"'),
    ('{"user": "<usuario>", "password": "<contraseña>"}',
     '{"user": "ana", "password": "Mq8#tW3zRv6k"}'),
    ("db:\n  password: '****'", "db:\n  password: 'Zt6!qK9wMv3r'"),
    ('"apiKey": "<API_KEY>"', '"apiKey": "pXr7kQ2mZ9vLw4tB8nC3"'),
    ("secret: '{{ .Values.secret }}'", "secret: 'Wq2#vM7kZr5tXn8p'"),
    ("password: :password in the Laravel fixture.", "password: Kv4!mQ9wZx2t in the fixture."),
    ('password: "%s"', 'password: "Rz8!kW3mVq6t"'),
    # wording
    ("The welcome e-mail template says: your password is {password}.",
     "The welcome e-mail said: your password is Qm3#vT8zLk5w."),
    ("Die Vorlage sagt: Ihr Passwort ist <Passwort>.", "Mein Passwort ist Wz7!hR2mKq9v."),
    ("La plantilla dice: tu contraseña es {contraseña}.", "Mi contraseña es Np6$tX3wRk8m."),
    ("Le modèle d'e-mail dit : votre mot de passe est <mot_de_passe>.",
     "Mon mot de passe est Jq4!vW8mTz2k."),
    ("Шаблон письма: ваш пароль: {пароль}.", "Мой пароль: Bv9!kM4wQz2t."),
    ("邮件模板写着：您的密码是<密码>。", "我的密码是Lx5#rT8vWq3m。"),
    ("テンプレートには「パスワード：＜パスワード＞」と書く。", "パスワード：Rk2!wN7zMq4v"),
    ("템플릿: 비밀번호: <비밀번호>", "비밀번호: Hq8#mV3zTk6w"),
    ("Şablonda şifre: <şifre> yazıyor.", "Şifrem: Mp4!xK9wRv2q"),
    ("O modelo diz: senha: {senha}", "Minha senha é Tz3$kQ8mWv5n."),
    ("Το πρότυπο γράφει: κωδικός: <κωδικός>", "Ο κωδικός μου είναι Jv7!nR2wXq8k."),
    ("النموذج يقول: كلمة المرور: <كلمة_المرور>", "كلمة المرور: Wf5#mK9zTq3v"),
    ("W szablonie jest: hasło: <hasło>", "hasło: Qd2!vX7mLk4w"),
    ("In het sjabloon staat: wachtwoord: [wachtwoord]", "wachtwoord: Zk6#tQ3vMw8r"),
    ("Templatnya berbunyi: kata sandi: <kata_sandi>", "kata sandi: Vx9!mR4wKq2t"),
    ("Im Screenshot steht Passwort: xxxxxxxx (geschwärzt).", "Passwort: Rk8!zW3mQv6t"),
    ("The guest Wi-Fi password is shown as •••••••• on the card.",
     "The guest Wi-Fi password is Bx4#qN9wKm2v."),
    ("The docs' example is password = \"redacted\".", "password = \"Tm7!qW2zKv9r\""),
]

PLACEHOLDERS = [placeholder for placeholder, _ in PAIRS]
SECRETS = [secret for _, secret in PAIRS]


def test_pairs_are_distinct_and_many() -> None:
    assert len(PAIRS) >= 60
    assert len(set(PLACEHOLDERS)) == len(PLACEHOLDERS) == len(set(SECRETS))


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholder_template_passes(text: str) -> None:
    assert CredentialsStage().detect(text) is None


@pytest.mark.parametrize("text", SECRETS)
def test_real_value_in_the_same_slot_is_refused(text: str) -> None:
    assert CredentialsStage().detect(text) is not None


@pytest.mark.parametrize(("placeholder", "secret"), PAIRS[::9])
def test_in_every_field(judge: Any, placeholder: str, secret: str) -> None:
    stage = judge(CredentialsStage())
    benign = stage("Jam likes figs.", subject=placeholder[:60], provenance=placeholder,
                   annotations={"raw_subject": placeholder, "raw_scope": placeholder})
    assert benign.decision is None
    refused = stage("Jam likes figs.", provenance=secret)
    assert refused.decision is not None


@pytest.mark.parametrize("text", [
    "DB_PASSWORD=secretkey", "ADMIN_PASSWORD=adminpasswort", "password: 'Passwort!'",
    "Mon mot de passe est «Soleil2024»", "Das Feld «Passwort»: Hx8!kQ2mWz5r",
    "DB_PASSWORD=‹Hx8kQ2mWz5r›", "postgres://app:Passwort2024@db/app",
])
def test_a_slot_word_glued_or_inside_a_value_is_not_a_slot(text: str) -> None:
    """Only a value that *is* the slot's name is empty: glued table words with no wrapper
    ("secretkey"), a word with a digit or a symbol, and real values in guillemets stay refused."""
    assert CredentialsStage().detect(text) is not None
