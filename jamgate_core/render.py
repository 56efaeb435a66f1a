"""The readable text block of every tool result (D-041): each id stands alone on its own
line as `id: <id>`, with nothing glued to it, and the main id comes last."""

from __future__ import annotations

from jamgate_core.models import ForgetResult, ListResult, RecallResult, Verdict


def verdict_text(verdict: Verdict) -> str:
    lines = [verdict.message]
    lines += [f"Note — {notice}" for notice in verdict.notices]
    if verdict.related:
        lines.append("Related memories:")
        for related in verdict.related[:3]:
            subject = f' (subject "{related.subject}")' if related.subject else ""
            lines += [f'- "{related.text}"{subject} ~{related.similarity:.2f}',
                      f"  id: {related.id}"]
    if verdict.superseded_ids:
        lines.append("Retired:")
        lines += [f"  id: {retired}" for retired in verdict.superseded_ids]
    if verdict.id:
        lines.append(f"id: {verdict.id}")
    return "\n".join(lines)


def recall_text(result: RecallResult) -> str:
    if not result.memories:
        return "No matching memories."
    lines: list[str] = []
    for memory in result.memories:
        subject = f" ({memory.subject})" if memory.subject else ""
        lines += [f"- [{memory.type or 'untyped'}] {memory.text}{subject}",
                  f"  created {memory.created_at}",
                  f"  id: {memory.id}"]
    return "\n".join(lines)


def list_text(result: ListResult) -> str:
    if not result.memories:
        return "No memories."
    lines: list[str] = []
    for memory in result.memories:
        extra = "" if memory.status == "active" else f" [{memory.status}]"
        lines += [f"- [{memory.type or 'untyped'}] {memory.text}{extra}",
                  f"  {memory.source} · created {memory.created_at}",
                  f"  id: {memory.id}"]
    if result.next_cursor:
        lines.append(f"More: pass cursor {result.next_cursor}")
    return "\n".join(lines)


def forget_text(result: ForgetResult) -> str:
    return f"Forgotten.\nid: {result.forgotten}"
