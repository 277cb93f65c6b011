"""Simultaneous pairs across clubs (issue 28): one field of many club hubs, each club's
Mosquitto bridged to the organiser's (docs/simultaneous.md).

- :mod:`hub.simultaneous.event`: the event (deals, clubs, start times, scoring), the topics,
  the organiser's Ed25519 signature of the deals;
- :mod:`hub.simultaneous.bridging`: the organiser's password and ACL files, each club's
  Mosquitto bridge stanza;
- :mod:`hub.simultaneous.field`: the field's scoring as results arrive (bridgecore.ranking);
- :mod:`hub.simultaneous.organiser`: the organiser's service (releases, results and
  withdrawals, scores; its journal, for a restart);
- :mod:`hub.simultaneous.club`: a club hub's link (checked deals, results out, field in);
- :mod:`hub.simultaneous.relay`: the hub's results (and fouled boards' forms) relayed, a
  line the hub no longer scores withdrawn;
- :mod:`hub.simultaneous.handover`: the organiser's deals into the club hub's set-up;
- :mod:`hub.simultaneous.ecats`: the USEBIO files ECATS exchanges (a club's upload, the
  field's results, a club taking part by file);
- :mod:`hub.simultaneous.kit`: what ``tenace sim-event`` writes and runs.
- :mod:`hub.simultaneous.revocation`: each club's certificate, those revoked, their
  revocation list (``tenace sim-event revoke|reissue``).

Errors::

    HubError (hub.errors)
    └── SimError          a bad event file, a bad or forged message, an unknown club
"""

from hub.simultaneous.event import Club, SimError, SimEvent

__all__ = ["Club", "SimError", "SimEvent"]
