"""The request guard (ASGI middleware): the Host allow-list, requests from other origins
refused, JSON-only POSTs."""

from __future__ import annotations

from typing import Any, Optional

from starlette.responses import JSONResponse


class RequestGuard:
    """ASGI middleware: the ``Host`` allow-list, no ``/api/`` request from another origin,
    JSON-only POSTs (see the module's threat model)."""

    def __init__(self, app: Any, allowed_hosts: frozenset[str]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message = refusal
        await JSONResponse({"error": message}, status_code=status)(scope, receive, send)

    def refusal(self, scope: dict[str, Any], headers: dict[str, str]) -> Optional[tuple[int, str]]:
        host = headers.get("host", "")
        if _hostname(host) not in self.allowed_hosts:
            return 403, f"host {host[:100]!r} is not served here"
        if not scope["path"].startswith("/api/"):
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, "requests from other sites are refused"
        origin = headers.get("origin")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return 403, "requests from other origins are refused"
        if scope["method"] == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "the API takes application/json only"
        return None


def _hostname(host: str) -> str:
    """The name of a ``Host`` header without its port: ``[::1]:8000`` → ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
