"""BridgeWebs' direct results upload, the client shared by ``tenace upload bridgewebs`` and
the console's evening page (hub.bridgewebs_account).

BridgeWebs documents a direct results upload for scoring programs (its user guide,
"Results - API Interface": an HTTP POST of the form a user would submit, instead of FTP):
the fields ``club`` (the club's code), ``password`` (the club's BridgeWebs password),
``type`` ``upload``, ``filename`` and ``data`` (the results file's name and its lines as
one string), ``event_id`` (the calendar's event, when known), ``dealname`` and
``dealdata`` (the hand record: dlm, bri, pbn or dup); the reply carries
``message = ...``, the upload's status. The address to post to is the one the guide's
examples give: the caller's (an option, a saved setting), never assumed here.

The password is a field of the form and nothing else: it is never in an error, a log line
or a reply of :func:`upload`.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["CLUB", "UploadError", "bridgewebs_fields", "check_club", "check_url", "upload"]

CLUB = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_MESSAGE = re.compile(r"message\s*=\s*([^\r\n<]*)", re.IGNORECASE)


class UploadError(Exception):
    """The upload could not be made or was refused by HTTP; the text names why (never the
    password)."""


def check_club(club: str) -> str | None:
    """Why ``club`` is no BridgeWebs club code, or None."""
    return None if CLUB.fullmatch(club) else "a BridgeWebs club code is letters and digits"


def check_url(url: str) -> str | None:
    """Why ``url`` is no address to post to, or None."""
    parts = urllib.parse.urlsplit(url)
    return None if parts.scheme in ("https", "http") and parts.netloc else \
        "an http(s) address is expected"


def bridgewebs_fields(club: str, password: str, results: tuple[str, str],
                      deals: tuple[str, str] | None = None, event_id: int | None = None
                      ) -> dict[str, str]:
    """The form BridgeWebs' upload takes (module docstring)."""
    fields = {"club": club, "password": password, "type": "upload",
              "filename": results[0], "data": results[1]}
    if event_id is not None:
        fields["event_id"] = str(event_id)
    if deals is not None:
        fields["dealname"], fields["dealdata"] = deals
    return fields


def upload(url: str, fields: dict[str, str], *, timeout: float = 60.0
           ) -> tuple[int, str | None]:
    """Post ``fields`` to ``url``: (the HTTP status, the reply's ``message =`` text or None
    when it has none). Blocking (urllib): the hub runs it off its loop. UploadError when the
    site refuses by HTTP or does not answer."""
    body = urllib.parse.urlencode(fields, encoding="utf-8").encode("ascii")
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            status, text = reply.status, reply.read(1024 * 1024).decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        raise UploadError(f"BridgeWebs refused the upload: HTTP {err.code} {err.reason}"
                          ) from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        raise UploadError(f"{urllib.parse.urlsplit(url).netloc}: no reply ({reason})"
                          ) from None
    found = _MESSAGE.search(text)
    return status, None if found is None else found.group(1).strip()
