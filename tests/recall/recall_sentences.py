"""Evaluation sentences of the embeddings note's appendix (written for that study; free to use).

`ANCHORS`: (anchor, paraphrase = duplicate, same-topic different fact, is-a-value-swap).
`FACTS`: the eight facts in English, Greek, Persian, Chinese and German.
`GREEK_DUPLICATES` / `GREEK_DIFFERENT`: Greek pairs that are / are not the same fact.
"""

from __future__ import annotations

ANCHORS: list[tuple[str, str, str, bool]] = [
    ("jam's favourite programming language is Python", "Python is the language jam likes best",
     "jam's favourite programming language is Rust", True),
    ("The CI pipeline runs on GitHub Actions", "We use GitHub Actions for continuous integration",
     "The CI pipeline runs on GitLab CI", True),
    ("jam wakes up at 6am on weekdays", "On weekdays jam gets up at six in the morning",
     "jam wakes up at 9am on weekends", True),
    ("jam is vegetarian", "jam doesn't eat meat", "jam is lactose intolerant", False),
    ("The staging database is PostgreSQL 15", "Staging uses Postgres version 15",
     "The production database is MySQL 8", True),
    ("jam's laptop is a Lenovo ThinkPad X1", "jam works on a ThinkPad X1 from Lenovo",
     "jam's desktop is a custom AMD build", False),
    ("Always run the tests before pushing to main",
     "Tests must pass locally before anything is pushed to main",
     "Always run the linter before opening a pull request", False),
    ("jam's wife is called Maria", "Maria is jam's wife", "jam's sister is called Elena", True),
    ("jam prefers tabs over spaces for indentation",
     "For indentation jam likes tabs rather than spaces",
     "jam prefers single quotes over double quotes", False),
    ("The API rate limit is 100 requests per minute",
     "The API allows at most 100 requests each minute", "The API timeout is 30 seconds", False),
    ("jam is allergic to cats", "Cats give jam an allergic reaction", "jam has two dogs", False),
    ("jam commutes to work by bike", "jam cycles to the office", "jam works from home on Fridays",
     False),
    ("Deploys happen every Tuesday afternoon", "We ship to production on Tuesday afternoons",
     "Code freeze starts every Thursday evening", False),
    ("jam dislikes long meetings", "jam can't stand meetings that drag on",
     "jam enjoys pair programming sessions", False),
    ("The project uses semantic versioning", "Releases follow semver",
     "The project uses the MIT licence", False),
    ("jam speaks Greek and English", "jam is fluent in English and Greek",
     "jam speaks French and Italian", True),
    ("jam's birthday is on 12 March", "jam was born on March 12th",
     "jam's birthday is on 3 June", True),
    ("Never commit secrets to the repository",
     "API keys and passwords must not be checked into git",
     "Never force-push to the main branch", False),
    ("jam uses Neovim as his main editor", "jam's primary code editor is Neovim",
     "jam uses VS Code as his main editor", True),
    ("jam wants short answers without preamble",
     "jam prefers concise replies that get straight to the point",
     "jam wants code examples in TypeScript", False),
]

OLD_PAIRS: list[tuple[str, str, bool]] = [
    ("Jamgate is a quality gate for agent memory", "Jamgate gates what AI agents save to memory",
     True),
    ("jam prefers dark theme in editors", "jam likes dark colour schemes in his editor", True),
    ("jam lives in Athens", "jam's home city is Athens", True),
    ("jam uses Windows", "jam uses Linux", False),
    ("ThinkBook savings 5/10, €640", "ThinkBook savings 7/10, €768", False),
]

FACTS: dict[str, list[str]] = {
    "en": [
        "jam lives in Athens.",
        "jam prefers a dark theme in his editors.",
        "jam is allergic to peanuts.",
        "jam's project deadline is next Friday.",
        "jam's daughter plays the piano.",
        "jam drinks his coffee without sugar every morning.",
        "jam's backup server runs on a Raspberry Pi.",
        "jam is learning Japanese.",
    ],
    "el": [
        "Ο jam μένει στην Αθήνα.",
        "Ο jam προτιμά σκούρο θέμα στους επεξεργαστές του.",
        "Ο jam είναι αλλεργικός στα φιστίκια.",
        "Η προθεσμία του έργου του jam είναι την επόμενη Παρασκευή.",
        "Η κόρη του jam παίζει πιάνο.",
        "Ο jam πίνει τον καφέ του χωρίς ζάχαρη κάθε πρωί.",
        "Ο διακομιστής αντιγράφων ασφαλείας του jam τρέχει σε ένα Raspberry Pi.",
        "Ο jam μαθαίνει ιαπωνικά.",
    ],
    "fa": [
        "jam در آتن زندگی می‌کند.",
        "jam در ویرایشگرهایش تم تیره را ترجیح می‌دهد.",
        "jam به بادام زمینی حساسیت دارد.",
        "مهلت پروژه jam جمعه آینده است.",
        "دختر jam پیانو می‌نوازد.",
        "jam هر روز صبح قهوه‌اش را بدون شکر می‌نوشد.",
        "سرور پشتیبان jam روی یک Raspberry Pi اجرا می‌شود.",
        "jam در حال یادگیری زبان ژاپنی است.",
    ],
    "zh": [
        "jam 住在雅典。",
        "jam 在编辑器里喜欢用深色主题。",
        "jam 对花生过敏。",
        "jam 的项目截止日期是下周五。",
        "jam 的女儿弹钢琴。",
        "jam 每天早上喝不加糖的咖啡。",
        "jam 的备份服务器运行在树莓派上。",
        "jam 正在学日语。",
    ],
    "de": [
        "jam wohnt in Athen.",
        "jam bevorzugt in seinen Editoren ein dunkles Theme.",
        "jam ist allergisch gegen Erdnüsse.",
        "jams Projektfrist ist nächsten Freitag.",
        "jams Tochter spielt Klavier.",
        "jam trinkt jeden Morgen seinen Kaffee ohne Zucker.",
        "jams Backup-Server läuft auf einem Raspberry Pi.",
        "jam lernt Japanisch.",
    ],
}

GREEK_DUPLICATES: list[tuple[str, str]] = [
    ("Ο jam μένει στην Αθήνα.", "Η Αθήνα είναι η πόλη όπου ζει ο jam."),
    ("Ο jam προτιμά σκούρο θέμα στον επεξεργαστή.",
     "Ο jam θέλει σκούρα χρώματα στον επεξεργαστή του."),
    ("Ο jam είναι χορτοφάγος.", "Ο jam δεν τρώει κρέας."),
    ("Η προθεσμία του έργου είναι την Παρασκευή.",
     "Το έργο πρέπει να παραδοθεί μέχρι την Παρασκευή."),
    ("Ο jam πηγαίνει στη δουλειά με ποδήλατο.", "Ο jam κάνει ποδήλατο μέχρι το γραφείο."),
    ("Ο jam δεν αντέχει τις μεγάλες συσκέψεις.", "Ο jam αντιπαθεί τις πολύωρες συναντήσεις."),
]

GREEK_DIFFERENT: list[tuple[str, str]] = [
    ("Ο jam χρησιμοποιεί Windows.", "Ο jam χρησιμοποιεί Linux."),
    ("Ο jam μένει στην Αθήνα.", "Ο jam δουλεύει στη Θεσσαλονίκη."),
    ("Ο jam είναι χορτοφάγος.", "Ο jam έχει αλλεργία στις γάτες."),
    ("Η προθεσμία του έργου είναι την Παρασκευή.", "Η συνάντηση της ομάδας είναι τη Δευτέρα."),
    ("Ο jam πηγαίνει στη δουλειά με ποδήλατο.", "Ο jam δουλεύει από το σπίτι την Παρασκευή."),
    ("Ο jam πίνει καφέ χωρίς ζάχαρη.", "Ο διακομιστής του jam τρέχει σε ένα Raspberry Pi."),
]
