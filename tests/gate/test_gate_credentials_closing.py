"""Secret wording the table lacked (a Ukrainian PIN, Turkish forms of "parola") and backup
codes written in letters (D-200); wording with no value stays a fact."""

from __future__ import annotations

import pytest

from jamgate_stages.credentials import CredentialsStage

STAGE = CredentialsStage()


@pytest.mark.parametrize("text", [
    "ПІН-код моєї банківської картки 4417",
    "Bu hesabın parolası Deniz2024",
    "Recovery codes for my GitHub: abcd-efgh ijkl-mnop qrst-uvwx yzab-cdef",
])
def test_the_new_wording_and_letter_codes_are_refused(text: str) -> None:
    assert STAGE.detect(text) is not None


@pytest.mark.parametrize("text", [
    "My password for GitHub is in 1Password",
    "Kata sandi saya selalu panjang dan unik",
    "Пароль від пошти я змінюю щомісяця",
    "I changed the PIN of my card in 2021",
    "The recovery codes are printed and kept in the safe",
    "Parolamı her ay değiştiririm",
    "My Wi-Fi password changed after the router upgrade to the TP-Link AX55",
])
def test_wording_without_a_value_is_kept(text: str) -> None:
    assert STAGE.detect(text) is None
