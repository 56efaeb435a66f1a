"""The vendor secret table: one row per credential format the credentials stage refuses.

A row is a vendor's format: its reason-code `kind`, a `label` for the refusal, the literal
`prefixes` the secret starts with, the body `alphabet` and its `min_len`/`max_len`. Formats
without a plain prefix give a full `pattern` and the `anchors` (literal substrings) it needs.
`anchors` are the cheap prefilter: the row's regex only runs on a text that contains one of
them (`fold` rows compare against the lowercased text). A row with a `context` only counts
when the text also matches it (formats with no prefix of their own: AWS secret keys near
"aws", classic Cloudflare and Vercel tokens near their vendor's name), and a row with a
`check` only when the matched token passes it.

To add a vendor, add a row here and a positive case to tests/gate/test_gate_credentials.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jamgate_stages._lazy_re import lazy_compile

B = r"(?<![A-Za-z0-9_])"  # leading boundary: the prefix must not be glued to a word
E = r"(?![A-Za-z0-9_-])"  # trailing boundary for bounded bodies

_ALNUM = "A-Za-z0-9"
_URLSAFE = "A-Za-z0-9_-"
_HEX = "a-f0-9"


def mixed(token: str) -> bool:
    """Upper case, lower case and a digit: a random token, not a word, a digest or an id."""
    return (any(c.isupper() for c in token) and any(c.islower() for c in token)
            and any(c.isdigit() for c in token))


@dataclass(frozen=True)
class SecretShape:
    """One vendor format (see the module docstring)."""

    kind: str
    label: str
    prefixes: tuple[str, ...] = ()
    alphabet: str = _ALNUM
    min_len: int = 20
    max_len: int | None = None
    pattern: str | None = None
    anchors: tuple[str, ...] = ()
    tail: str = E
    flags: int = 0
    fold: bool = False
    context: re.Pattern[str] | None = None
    check: Callable[[str], bool] | None = None
    min_token: int | None = None
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pattern is None:
            heads = "|".join(re.escape(p) for p in self.prefixes)
            upper = "" if self.max_len is None else str(self.max_len)
            source = rf"{B}(?:{heads})[{self.alphabet}]{{{self.min_len},{upper}}}{self.tail}"
        else:
            source = self.pattern
        object.__setattr__(self, "regex", lazy_compile(source, self.flags))
        if not self.anchors:
            object.__setattr__(self, "anchors", self.prefixes)
        if self.min_token is None:
            shortest = min(map(len, self.prefixes)) + self.min_len if self.prefixes else 0
            object.__setattr__(self, "min_token", shortest)

    def find(self, text: str, lowered: str, longest: int) -> bool:
        """Whether `text` holds this format (`lowered` is `text.lower()`, `longest` the length
        of its longest whitespace-free run: no secret is longer than the run it sits in)."""
        if longest < (self.min_token or 0):
            return False
        haystack = lowered if self.fold else text
        if self.anchors and not any(a in haystack for a in self.anchors):
            return False
        if self.context is not None and not self.context.search(text):
            return False
        for match in self.regex.finditer(text):
            if self.check is None or self.check(match.group()):
                return True
        return False


_AWS_CONTEXT = lazy_compile(r"\baws\b|secret[\s_-]?access[\s_-]?key", re.IGNORECASE)
_CLOUDFLARE_CONTEXT = lazy_compile(r"cloudflare|\bcf[_-]?(?:api|token|key)", re.IGNORECASE)
_VERCEL_CONTEXT = lazy_compile(r"vercel", re.IGNORECASE)
_SAS_CONTEXT = lazy_compile(r"[?&](?:sv|se|sp|spr|srt|ss)=")


def _row(kind: str, label: str, *prefixes: str, **options: Any) -> SecretShape:
    return SecretShape(kind, label, prefixes, **options)


# Most specific first: the first row that matches names the refusal.
SHAPES: tuple[SecretShape, ...] = (
    _row("private_key", "a private key",
         pattern=r"-{2,}\s*BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?\s*-{2,}|PuTTY-User-Key-File-\d|"
                 rf"{B}AGE-SECRET-KEY-1[0-9A-Z]{{50,}}",
         anchors=("PRIVATE KEY", "PuTTY-User-Key-File-", "AGE-SECRET-KEY-1"), min_token=0),
    _row("private_key", "a private key's body without its armour",
         pattern=r"(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAAS|"
                 r"MII[A-Za-z0-9+/]{2,3}IBAAKC|MHcCAQEEI|MIGkAgEBBDA|MC4CAQAwBQYDK2VwBCIEI|"
                 r"MIGHAgEAMBMGByqGSM49AgEG|b3BlbnNzaC1rZXktdjE|LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,40}?"
                 r"(?:UFJJVkFURSBLRVk|UklWQVRFIEtFW|SSVZBVEUgS0VZ))[A-Za-z0-9+/]{20,}",
         anchors=("MII", "MHcCAQEEI", "MIGkAgEBBDA", "MC4CAQAw", "b3BlbnNzaC1rZXktdjE",
                  "LS0tLS1CRUdJTi"), min_token=40),
    _row("anthropic_key", "an Anthropic API key",
         pattern=rf"{B}sk-ant-(?:api|admin|oat)\d{{2}}-[{_URLSAFE}]{{20,}}", anchors=("sk-ant-",),
         min_token=33),
    _row("openai_key", "an OpenAI API key",
         pattern=rf"{B}sk-(?:proj|svcacct|admin|None)-[{_URLSAFE}]{{20,}}|"
                 rf"{B}sk-[{_ALNUM}]{{20}}T3BlbkFJ[{_ALNUM}]{{20}}", anchors=("sk-",),
         min_token=28),
    _row("api_key", "an API key (sk-… format)", "sk-", alphabet=_URLSAFE, min_len=16, tail=""),
    _row("stripe_key", "a Stripe key", pattern=rf"{B}(?:sk|rk|pk)_(?:live|test)_[{_ALNUM}]{{10,}}",
         anchors=("_live_", "_test_"), min_token=18),
    _row("stripe_key", "a Stripe webhook secret", "whsec_", min_len=24),
    _row("aws_key", "an AWS access key id",
         pattern=rf"{B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}\b",
         anchors=("AKIA", "ASIA", "ABIA", "ACCA"), min_token=20),
    _row("aws_secret_key", "an AWS secret access key",
         pattern=r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
         anchors=("aws", "secret"), fold=True, context=_AWS_CONTEXT, check=mixed, min_token=40),
    _row("github_token", "a GitHub token", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", tail=""),
    _row("github_token", "a GitHub token", "github_pat_", alphabet=_ALNUM + "_", tail=""),
    _row("gitlab_token", "a GitLab token", "glpat-", "gldt-", "glrt-", "glptt-", "glft-",
         "glsoat-", "glcbt-", "glimt-", "gloas-", "glagent-", alphabet=_URLSAFE, min_len=16,
         tail=""),
    _row("npm_token", "an npm token", "npm_", min_len=30, tail=""),
    _row("pypi_token", "a PyPI API token", "pypi-AgE", alphabet=_URLSAFE, min_len=16, tail=""),
    _row("docker_token", "a Docker Hub access token", "dckr_pat_", "dckr_oat_",
         alphabet=_URLSAFE, tail=""),
    _row("slack_token", "a Slack token", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-",
         "xoxe-", "xapp-", alphabet=_ALNUM + "-", min_len=10, tail=""),
    _row("slack_webhook", "a Slack webhook URL",
         pattern=r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{16,}",
         anchors=("hooks.slack.com/",), min_token=40),
    _row("discord_webhook", "a Discord webhook URL",
         pattern=r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{40,}",
         anchors=("/api/webhooks/",), min_token=40),
    _row("google_api_key", "a Google API key", "AIza", alphabet=_URLSAFE, min_len=35, max_len=40),
    _row("google_oauth_secret", "a Google OAuth client secret", "GOCSPX-", alphabet=_URLSAFE,
         min_len=24, tail=""),
    _row("google_oauth_secret", "a Google OAuth access token", "ya29.", alphabet=_URLSAFE,
         min_len=30, tail=""),
    _row("huggingface_token", "a Hugging Face token", "hf_", "api_org_", alphabet="A-Za-z",
         min_len=30),
    _row("sendgrid_key", "a SendGrid API key",
         pattern=rf"{B}SG\.[{_URLSAFE}]{{16,}}\.[{_URLSAFE}]{{16,}}", anchors=("SG.",),
         min_token=36),
    _row("mailchimp_key", "a Mailchimp API key", pattern=rf"{B}[{_HEX}]{{32}}-us\d{{1,2}}\b",
         anchors=("-us",), min_token=36),
    _row("twilio_key", "a Twilio key or account SID", pattern=rf"{B}(?:SK|AC)[{_HEX}]{{32}}\b",
         anchors=("SK", "AC"), min_token=34),
    _row("mem0_key", "a Mem0 API key", "m0-", min_len=20, tail=""),
    _row("azure_sas", "an Azure shared access signature",
         pattern=r"[?&]sig=[A-Za-z0-9%+/=]{16,}", anchors=("sig=",), context=_SAS_CONTEXT,
         min_token=21),
    _row("azure_key", "an Azure key",
         pattern=r"AccountKey=[A-Za-z0-9+/]{40,}={0,2}|SharedAccessKey=[A-Za-z0-9+/]{20,}={0,2}|"
                 rf"{B}[A-Za-z0-9_~.-]{{3}}\dQ~[A-Za-z0-9_~.-]{{31,34}}{E}",
         anchors=("AccountKey=", "SharedAccessKey=", "Q~"), min_token=36),
    _row("cloudflare_token", "a Cloudflare Origin CA key",
         pattern=rf"{B}v1\.0-[{_HEX}]{{24}}-[{_HEX}]{{146}}", anchors=("v1.0-",), min_token=100),
    _row("cloudflare_token", "a Cloudflare API token", pattern=rf"{B}[{_URLSAFE}]{{40}}{E}",
         anchors=("cloudflare", "cf_", "cf-", "cfapi", "cftoken", "cfkey"), fold=True,
         context=_CLOUDFLARE_CONTEXT, check=mixed, min_token=40),
    _row("digitalocean_token", "a DigitalOcean token", "dop_v1_", "doo_v1_", "dor_v1_",
         alphabet=_HEX, min_len=40),
    _row("shopify_token", "a Shopify access token", "shpat_", "shpca_", "shppa_", "shpss_",
         alphabet="a-fA-F0-9", min_len=24),
    _row("vercel_token", "a Vercel token", "vcp_", "vci_", "vca_", "vcr_", "vck_", min_len=24),
    _row("vercel_token", "a Vercel token", pattern=rf"{B}[{_ALNUM}]{{24}}{E}", anchors=("vercel",),
         fold=True, context=_VERCEL_CONTEXT, check=mixed, min_token=24),
    _row("supabase_key", "a Supabase secret key", "sb_secret_", alphabet=_URLSAFE, tail=""),
    _row("supabase_key", "a Supabase access token", "sbp_", alphabet=_HEX, min_len=32),
    _row("telegram_token", "a Telegram bot token",
         pattern=rf"{B}\d{{8,10}}:AA[{_URLSAFE}]{{30,40}}{E}", anchors=(":AA",), min_token=41),
    _row("discord_token", "a Discord bot token",
         pattern=rf"{B}[MNO][{_URLSAFE}]{{23,25}}\.[{_URLSAFE}]{{6}}\.[{_URLSAFE}]{{27,38}}{E}",
         min_token=59),
    _row("notion_token", "a Notion integration token", "secret_", min_len=40, max_len=50,
         check=mixed),
    _row("notion_token", "a Notion integration token", "ntn_", min_len=40),
    _row("linear_key", "a Linear API key", "lin_api_", "lin_oauth_", min_len=32),
    _row("onepassword_token", "a 1Password service account token", "ops_eyJ",
         alphabet="A-Za-z0-9+/=_-", min_len=50, tail=""),
    _row("jwt", "a JWT",
         pattern=rf"{B}eyJ[{_URLSAFE}]{{8,}}\.[{_URLSAFE}]{{8,}}\.[{_URLSAFE}]{{8,}}",
         anchors=("eyJ",), min_token=29),
    _row("databricks_token", "a Databricks token", "dapi", alphabet=_HEX, min_len=32,
         max_len=40, tail=rf"(?:-\d)?{E}"),
    _row("netlify_token", "a Netlify token", "nfp_", min_len=36),
    _row("overleaf_token", "an Overleaf token", "olp_", min_len=36),
    _row("deepl_key", "a DeepL API key",
         pattern=rf"{B}[{_HEX}]{{8}}-[{_HEX}]{{4}}-[{_HEX}]{{4}}-[{_HEX}]{{4}}-[{_HEX}]{{12}}:fx\b",
         anchors=(":fx",), min_token=39),
    _row("doppler_token", "a Doppler token", "dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.",
         "dp.audit.", min_len=40),
    _row("postman_key", "a Postman API key", pattern=rf"PMAK-[{_HEX}]{{24}}-[{_HEX}]{{34}}",
         anchors=("PMAK-",), min_token=64),
    _row("atlassian_token", "an Atlassian API token", "ATATT3", alphabet="A-Za-z0-9_=-",
         min_len=50, tail=""),
    _row("sentry_token", "a Sentry token", "sntrys_", "sntryu_", alphabet="A-Za-z0-9+/=_-",
         min_len=30, tail=""),
    _row("grafana_token", "a Grafana token", "glsa_", alphabet=_ALNUM + "_", min_len=32,
         tail=""),
    _row("grafana_token", "a Grafana Cloud token", "glc_", alphabet="A-Za-z0-9+/=", min_len=32,
         tail=""),
    _row("tailscale_key", "a Tailscale key", pattern=rf"{B}tskey-[a-z]+-[{_ALNUM}-]{{20,}}",
         anchors=("tskey-",), min_token=28),
    _row("groq_key", "a Groq API key", "gsk_", min_len=40),
    _row("replicate_token", "a Replicate API token", "r8_", min_len=30),
    _row("perplexity_key", "a Perplexity API key", "pplx-", min_len=40),
    _row("xai_key", "an xAI API key", "xai-", min_len=60),
    _row("heroku_key", "a Heroku API key", "HRKU-", alphabet=_URLSAFE, min_len=30, tail=""),
    _row("figma_token", "a Figma token", "figd_", alphabet=_URLSAFE, min_len=30, tail=""),
    _row("newrelic_key", "a New Relic key", "NRAK-", alphabet="A-Z0-9", min_len=20),
    _row("square_token", "a Square token", "sq0atp-", "sq0csp-", alphabet=_URLSAFE, min_len=22,
         tail=""),
    _row("mapbox_token", "a Mapbox secret token", "sk.eyJ", alphabet="A-Za-z0-9_.-",
         min_len=40, tail=""),
    _row("planetscale_token", "a PlanetScale token", "pscale_tkn_", "pscale_pw_",
         "pscale_oauth_", alphabet="A-Za-z0-9_.-", min_len=30, tail=""),
    _row("pulumi_token", "a Pulumi token", "pul-", alphabet=_HEX, min_len=32),
    _row("terraform_token", "a Terraform Cloud token",
         pattern=rf"{B}[{_ALNUM}]{{14}}\.atlasv1\.[{_URLSAFE}]{{60,}}", anchors=(".atlasv1.",),
         min_token=83),
    _row("fly_token", "a Fly.io token", "fo1_", "fm2_", alphabet=_URLSAFE, min_len=30, tail=""),
    _row("buildkite_token", "a Buildkite token", "bkua_", alphabet=_HEX, min_len=32),
    _row("airtable_token", "an Airtable token", pattern=rf"{B}pat[{_ALNUM}]{{14}}\.[{_HEX}]{{64}}",
         anchors=("pat",), min_token=82),
    _row("onepassword_token", "a 1Password account secret key",
         pattern=rf"{B}A3-[A-Z0-9]{{6}}-(?:[A-Z0-9]{{11}}|[A-Z0-9]{{6}}-[A-Z0-9]{{5}})"
                 rf"(?:-[A-Z0-9]{{5}}){{3}}\b", anchors=("A3-",), min_token=34),
    _row("recovery_key", "a BitLocker recovery key",
         pattern=r"(?<![\d-])(?:\d{6}-){7}\d{6}(?![\d-])", anchors=("-",), min_token=55),
    _row("vault_token", "a HashiCorp Vault token", "hvs.", "hvb.", "hvr.", alphabet=_URLSAFE,
         min_len=24, tail=""),
    _row("okta_token", "an Okta API token", pattern=rf"\bSSWS\s+00[{_URLSAFE}]{{38,}}",
         anchors=("SSWS",), min_token=40),
    _row("firebase_key", "a Firebase Cloud Messaging server key",
         pattern=rf"{B}AAAA[{_URLSAFE}]{{7}}:APA91b[{_URLSAFE}]{{100,}}", anchors=(":APA91b",),
         min_token=110),
    _row("google_oauth_secret", "a Google OAuth refresh token", "1//0", alphabet=_URLSAFE,
         min_len=40, tail=""),
    _row("teams_webhook", "a Microsoft Teams webhook URL",
         pattern=r"\.webhook\.office\.com/webhookb2/[\w@-]{40,}/IncomingWebhook/[\w-]{20,}",
         anchors=("/webhookb2/",), min_token=60),
    _row("dropbox_token", "a Dropbox access token", "sl.", "sl.u.", alphabet=_URLSAFE,
         min_len=120, tail=""),
    _row("bitbucket_token", "a Bitbucket app password", "ATBB", alphabet="A-Za-z0-9_=.-",
         min_len=32, tail=""),
    _row("facebook_token", "a Facebook access token", "EAA", min_len=90, check=mixed),
    _row("alibaba_key", "an Alibaba Cloud AccessKey id", "LTAI", min_len=12, max_len=24,
         check=mixed),
    _row("salesforce_token", "a Salesforce session token",
         pattern=rf"{B}00D[{_ALNUM}]{{12,15}}![{_ALNUM}._]{{80,}}", anchors=("00D",),
         min_token=96),
    _row("twitch_key", "a Twitch stream key", pattern=rf"{B}live_\d{{6,12}}_[{_ALNUM}]{{25,}}{E}",
         anchors=("live_",), min_token=36),
    _row("mailgun_key", "a Mailgun API key", "key-", alphabet=_HEX, min_len=32, max_len=32),
    _row("bearer_token", "a bearer token", pattern=r"\bbearer\s+[A-Za-z0-9_\-.=+/~]{20,}",
         flags=re.IGNORECASE, anchors=("bearer",), fold=True, min_token=0),
    _row("basic_auth", "a basic-auth header",
         pattern=r"\bauthorization:\s*basic\s+[A-Za-z0-9+/]{12,}={0,2}", flags=re.IGNORECASE,
         anchors=("basic",), fold=True, min_token=0),
)


def find_shape(text: str, lowered: str | None = None,
               longest: int | None = None) -> SecretShape | None:
    """The first row of `SHAPES` found in `text`, or None."""
    lowered = text.lower() if lowered is None else lowered
    longest = max(map(len, text.split()), default=0) if longest is None else longest
    for shape in SHAPES:
        if shape.find(text, lowered, longest):
            return shape
    return None
