"""`claude`: the memory Claude shows under Settings → Capabilities → "View and edit your
memory", copied into a file (headings such as "**Work context**" and bullets are handled), or
that file inside Claude's account-data export (`.zip` or folder; its `conversations.json`,
`projects.json` and `users.json` are recognised and never read). See `_vendor` and D-035."""

from __future__ import annotations

from typing import ClassVar

from jamgate_adapters.formats._vendor import VendorFormat


class ClaudeFormat(VendorFormat):
    name: ClassVar[str] = "claude"
    vendor: ClassVar[str] = "Claude"
    where_to_copy: ClassVar[str] = 'Settings → Capabilities → "View and edit your memory"'
    description: ClassVar[str] = "Claude's memory, copied out (file, folder or export .zip)"
