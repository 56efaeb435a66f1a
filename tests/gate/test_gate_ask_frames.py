"""Frames that ask in every language, interrogatives in place and yes/no endings (D-421)."""

from __future__ import annotations

import pytest

from jamgate_stages._question import is_question

QUESTIONS = [
    "I'd like to know which of the two offers expires first",
    "Me gustaría saber si la tienda abre el domingo",
    "Gostaria de saber quando chega a encomenda",
    "Vorrei sapere chi ha prenotato la sala",
    "Chciałabym wiedzieć, ile kosztuje przegląd",
    "Zajímalo by mě, kdy přijde technik",
    "Zaujímalo by ma, kto to objednal",
    "Θέλω να μάθω αν ήρθε το δέμα",
    "أود أن أعرف متى يفتح المكتب",
    "می‌خوام بدونم جلسه کی شروع میشه",
    "מעניין אותי מתי מגיע החשמלאי",
    "Ningependa kujua mkutano unaanza lini",
    "Saya ingin tahu kapan paketnya dikirim",
    "Tôi muốn biết ai đã sửa file này",
    "我想知道明天谁值班",
    "会议纪要发了没有",
    "这个颜色好不好看",
    "회의실 예약됐나요",
    "발표 자료 다 보냈는지 궁금해요",
    "請求書を送ったかどうか知りたいです",
    "次の打ち合わせ、いつだっけ",
    "Laporannya sudah dikirim belum",
    "Hóa đơn này thanh toán chưa",
    "Mteja amelipa au bado",
    "چه ساعتی جلسه داریم",
    "คืนนี้กินข้าวที่ไหน",
    "Rapat besok jam berapa ya",
    "Máš ten dokument ještě u sebe",
    "The invoice went out on Monday, right",
    "Das Paket kam gestern an, oder",
    "whats the plan for the release",
    "Combien de places restent pour jeudi",
    "Toplantı saat kaçta",
]
KEEPS = [
    "I'd like to know Italian well enough to read novels one day",
    "Me gustaría saber tocar el piano",
    "Why I moved to Lisbon: the light and the sea",
    "چرا فروشگاه رو بستیم: اجاره خیلی بالا رفت",
    "Saya suka kopi tanpa gula",
    "Tôi làm kế toán ở Đà Nẵng",
    "Mimi ni daktari wa meno Mombasa",
    "Cite sources in APA style in my essays",
    "J'ai commencé à l'hôpital en 2019",
    "ผมไม่ชอบอะไรที่หวานเกินไป",
    "ใครก็ได้ที่โทรมาช่วงเช้า ให้ส่งต่อให้ผม",
    "Mình thích ai cũng được gọi bằng tên",
    "Siempre quiero saber si un vuelo se retrasa, avísame",
    "パウダースノーが好きなの",
    "우리 어머니는 부산에 사세요",
    "我家里没有车",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_asks(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize("text", KEEPS)
def test_states(text: str) -> None:
    assert not is_question(text)
