"""Discord's limits on a message body, for the fake Discord (tests/fakediscord.py): a body that
breaks them is answered with HTTP 400 (code 50035), as Discord does, so a test sees the player
get no answer where the real Discord would refuse one."""

from __future__ import annotations

from typing import Any

import discord

from tests.fakediscord_records import walk_components


class _BadRequest:
    """The response half of the HTTP 400 Discord answers a message that breaks its limits."""

    status = 400
    reason = "Bad Request"


def limit_errors(body: dict[str, Any] | None) -> list[str]:
    """What Discord would refuse in a message body (HTTP 400, code 50035): the text limits of
    content, embeds and components. Empty when the body is acceptable."""
    if not body:
        return []
    out = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > 2000:
        out.append(f"content: {len(content)} > 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        out.append("more than 10 embeds")
    total = 0
    for e in embeds:
        for key, top in (("title", 256), ("description", 4096)):
            n = len(str(e.get(key) or ""))
            total += n
            if n > top:
                out.append(f"embed {key}: {n} > {top}")
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append("more than 25 embed fields")
        for f in fields:
            name, value = str(f.get("name", "")), str(f.get("value", ""))
            total += len(name) + len(value)
            if len(name) > 256 or len(value) > 1024:
                out.append(f"embed field {name[:20]!r}: {len(name)}/{len(value)} > 256/1024")
        footer = str((e.get("footer") or {}).get("text", ""))
        total += len(footer)
        if len(footer) > 2048:
            out.append(f"embed footer: {len(footer)} > 2048")
    if total > 6000:
        out.append(f"embeds: {total} > 6000 characters in all")
    for c in walk_components(body.get("components") or []):
        if len(c["custom_id"]) > 100:
            out.append(f"custom_id longer than 100: {c['custom_id']!r}")
        if len(str(c.get("label") or "")) > 80:
            out.append(f"label longer than 80: {c.get('label')!r}")
        for o in c.get("options") or []:
            if len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100:
                out.append(f"select option longer than 100: {o!r}")
    return out


def refuse_oversized(req: Any, body: dict[str, Any] | None) -> None:
    """Raise the HTTP 400 Discord answers a body that breaks its limits (``req`` is marked)."""
    errors = limit_errors(body)
    if errors:
        req.refused = True
        raise discord.HTTPException(
            _BadRequest(),  # type: ignore[arg-type]
            {"code": 50035, "message": "Invalid Form Body: " + "; ".join(errors)},
        )
