"""hub: the room's truth over MQTT (``tenace hub``): tables, detection, the director, scoring.

::

    event.py          EventSetup: sections, movements, pairs, boards and their markings, edition
                      (section_setup.py: a section's set-up, its [[section]] table read;
                      event_boards.py: the deals of [boards], read from a file or generated;
                      event_values.py: the tables' values checked one by one)
    section.py        a section of the room: its movement, tables and pairs
    room.py           Room: every table, the movement, the round clock, the alert book
                      (seen.py: the accepted events' ids, compact; room_context.py: what a
                      table reads of its room, the round clock; room_order.py: a table's
                      events applied in the order of its record, held ones released)
    ordering.py       a table's events in the order of its record, whichever device sent them
    roles.py          a device's role from its id, and the seats it may act for
    table.py          TableState: one table's events applied, irregularities detected as they
                      happen (sitting.py what its parts share, table_seating.py check-in,
                      rounds and boards, pockets.py the card readers' pockets,
                      reads.py what a card read means: readers that err, the table asked;
                      table_views.py what the four and each seat see; table_results.py
                      claims, results and their confirmation)
    alerts.py         Alert and AlertBook: one fact, one alert, updated as evidence comes
    clock.py          device clocks: the clock check, each device's offset (ClockBook)
    dealing.py        the dealing machines' reports checked against the hand record
    director.py       the director's commands (acknowledge, rule, resolve, score rulings,
                      late changes)
    late_changes.py   late pairs (an individual's players), withdrawals and the boards they left
                      unplayed, names corrected, the round clock paused or resized
    scoring.py        live scoring: results, rankings and travellers as they arrive
                      (rulings.py: the director's rulings checked before they are logged;
                      section_score.py: a section scored, its ranking and travellers' JSON;
                      one_side.py: a ruling's adjusted score, Law 15B's for one side alone)
    swiss.py          Swiss sections: each round drawn from the standings, logged; the standings
                      the section's ranking everywhere (console_swiss.py)
    corrections.py    results the director corrects (result_correct), with their history
    substitutes.py    substitutes for some rounds; names typed at check-in accepted
    traveller.py      what a table sees after a board (Law 16), double dummy on a worker
    store.py          EventLog: the append-only SQLite log the room is rebuilt from
                      (log_records.py: a record, its checks and its chain hash)
    logfile.py        the log's files read as bytes: truncation, a torn -wal, the noted head
    logcheck.py       tenace log verify | backup | salvage
                      (logpages.py: the rows of the leaf pages, read without SQLite;
                      docs/log.md)
    setup_facts.py    the kinds of set-up fact the log holds
    service.py        Hub: the asyncio loop that takes events, logs, replies and publishes
                      (device_events.py: a device's events, hello and replies in;
                      publishing.py: the views, alerts and live scores published, paced;
                      log_startup.py: the log at start, its chain and damage checked, the
                      room rebuilt from it; director_service.py: the director's and the
                      scorer's commands taken, counted, applied and published)
    presence.py       OfflineGrace: a device's last will held a grace before device_offline
    shards.py         an event's sections shared among several hub processes: which a shard
                      holds, its set-up and account (sharding.py: a shard's topics and the
                      commands it lets pass or sends on; field.py: the ranking across every
                      section; shard_views.py: the other shards' tables, alerts and results
                      on any shard's console and results pages)
    broker.py         the embedded amqtt broker; mosquitto.py a Mosquitto for tests/benchmarks
    tls.py            the club's certificate authority and the broker's certificate
    deploy.py         ``tenace deploy init``: certificates, Mosquitto, systemd units
    accounts.py       the MQTT accounts of an event (hashed passwords, Mosquitto's files)
    access.py         the one table of topic rules per role, for both brokers
    webserver.py      the one HTTP layer (aiohttp on the hub's loop), its Host/Origin guard
    console.py        the director's console (console_views.py: what it shows; console_table.py:
                      a table's board live; console_http.py: its refusals, unknown paths,
                      headers, static files), results_pages.py (console_results.py: its
                      routes)
    console_devices.py  the console's Devices page and the devices' POST /api/pair
    console_setup.py  the console's set-up page and its JSON API (docs/console-api.md)
    roster.py         the club's members from a CSV file; check-in names matched to them
    console_session.py  the director's evening: late changes page, device check, table and
                      guide cards, the room screen, results files (session_export.py); the
                      club's BridgeWebs account and upload (bridgewebs_account.py)
    series.py         sessions that add up: the sessions stored in the log (session_scored),
                      an event's total over them, the club's ladder; series_api.py serves
                      them (docs/sessions.md); series_players.py: who played which boards,
                      with member numbers (the ladder's credit); series_replay.py: the
                      sessions of a log written before session_scored, replayed read-only;
                      series_import.py: an earlier data directory's sessions stored here;
                      series_ladder.py: the ladder, its form kept (ladder_form), its players
                      of one name told apart (ladder_player)
    console_i18n.py   the console's words: the gettext catalogs locale/*/LC_MESSAGES/console.po
                      (docs/translating.md)
    pairing.py        one-time pairing codes (hashed, throttled), redeemed into accounts.py
    tempo.py          every call and card timed from the log (console_tempo.py: the director's
                      timelines, slow play, timed exports; docs/tempo.md)
    users.py          the console's users (argon2 hashes), sessions and login throttle
    bridgemate/       the Bridgemate Data Connector a scoring program talks to

It speaks to devices through :mod:`wire` and plays by :mod:`bridgecore`; it never imports
``tablet``, ``firmware_bridge`` or ``tenace``.

Errors (hub.errors)::

    HubError                       every error of the hub
    ├── ConfigError (ValueError)   a room that cannot be
    ├── AlertError (ValueError)    an unknown alert, a status change out of order
    ├── StoreError (hub.store)     the event log cannot be opened, read or written
    │   └── SchemaVersionError     a log of a schema this hub does not read
    ├── BrokerError (hub.broker)   the embedded broker cannot start
    ├── TlsError (hub.tls)         a certificate that cannot be made, read or written
    ├── DeployError (hub.deploy)   a deploy directory that cannot be written as asked
    ├── AccountError (hub.accounts)            an unknown account or role
    ├── RulingError (hub.scoring, ValueError)   a score ruling that cannot be applied
    ├── HttpError (hub.webserver)  an HTTP request refused, with its status
    ├── UserError (hub.users, ValueError)       a console account refused or unreadable
    ├── RosterError (hub.roster, ValueError)    a roster file refused, every line's problem
    ├── PairingError (hub.pairing, ValueError)  a pairing code refused (unknown, expired,
    │                                           used, throttled)
    └── BridgemateError (hub.bridgemate)        a Data Connector request refused

An error a person reads (a director's command refused, a set-up's problem) is raised with a
``bridgecore.text.Text``: ``err.text``, worded in the reader's language where the reader is
known; ``str(err)`` its English words, for the log.
"""
