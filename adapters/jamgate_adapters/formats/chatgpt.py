"""`chatgpt`: ChatGPT's saved memories from Settings → Personalization → Memory → "Manage
memories", copied into a file (one per line; bullets, numbering and dates handled), or that
file inside ChatGPT's data export (`.zip` or folder; `conversations.json`, `chat.html`,
`message_feedback.json`, `shared_conversations.json`, `model_comparisons.json` and `user.json`
are recognised and never read). See `_vendor` and D-035."""

from __future__ import annotations

from typing import ClassVar

from jamgate_adapters.formats._vendor import VendorFormat


class ChatGPTFormat(VendorFormat):
    name: ClassVar[str] = "chatgpt"
    vendor: ClassVar[str] = "ChatGPT"
    where_to_copy: ClassVar[str] = 'Settings → Personalization → Memory → "Manage memories"'
    description: ClassVar[str] = "ChatGPT's saved memories, copied out (file, folder or .zip)"
