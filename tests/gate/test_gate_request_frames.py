"""Requests for this turn in the languages the verb lists lacked, and the rules beside them
(D-422)."""

from __future__ import annotations

import pytest

from jamgate_stages.junk import is_one_off

REQUESTS = [
    "Napiš mi krátký e-mail pro souseda",
    "Pošli tu fakturu účetní",
    "Vytvor tabuľku z týchto čísel",
    "Надішли клієнту рахунок",
    "Перезапусти воркер на третьем сервере",
    "Wystaw rachunek dla pani Kowalskiej",
    "תשלח לי את הקובץ במייל",
    "احسب لي مجموع الفواتير الآن",
    "این گزارش رو برام خلاصه کن",
    "आज की रिपोर्ट भेज दो",
    "Dịch email này sang tiếng Anh",
    "Sửa giúp mình đoạn văn",
    "ช่วยจองโต๊ะให้หน่อย",
    "Tolong kirimkan invoice ke klien",
    "Niandikie barua kwa mwenye nyumba",
    "帮我订一张明天去杭州的票",
    "この資料を英語にしてください",
    "오늘 일정 정리해 줘",
    "Plan een route voor vanavond",
    "Γράψε μου ένα σύντομο μήνυμα για τη γιαγιά",
]
RULES = [
    "Piš mi odpovědi vždycky česky",
    "Завжди відповідай українською",
    "תמיד תכתוב לי בעברית",
    "همیشه جواب‌ها رو کوتاه بنویس",
    "Luôn trả lời tôi bằng tiếng Việt nhé",
    "ตอบเป็นภาษาไทยเสมอ ช่วยใช้คำสุภาพ",
    "Setiap kali menulis kode, tolong pakai TypeScript",
    "Nijibu kwa Kiingereza kila wakati",
    "帮我写邮件的时候，不要用太正式的词",
    "Ikan di kolam kami adalah koi",
    "Em gái mình giúp mình quản lý cửa hàng",
]


@pytest.mark.parametrize("text", REQUESTS)
def test_requests(text: str) -> None:
    assert is_one_off(text)


@pytest.mark.parametrize("text", RULES)
def test_rules_and_facts(text: str) -> None:
    assert not is_one_off(text)
