"""The console's words for the director's evening (the device sheet, the room's rounds, the
live table, the room screen by direction), in English, French and Italian: merged into
hub.console_i18n's catalogue, which stays the one mechanism (this file only keeps that module
a readable size)."""

from __future__ import annotations

__all__ = ["EVENING_WORDS"]

# key -> (English, French, Italian), as in hub.console_i18n.
EVENING_WORDS: dict[str, tuple[str, str, str]] = {
    # The device sheet (static/cards.*): a card per device, each with its own code.
    "cards.seat_N": ("North", "Nord", "Nord"),
    "cards.seat_E": ("East", "Est", "Est"),
    "cards.seat_S": ("South", "Sud", "Sud"),
    "cards.seat_W": ("West", "Ouest", "Ovest"),
    "cards.seat_card": (
        "Table {table} · {seat} tablet",
        "Table {table} · tablette {seat}",
        "Tavolo {table} · tablet {seat}"),
    "cards.tab_card": (
        "Table {table} · table tablet",
        "Table {table} · tablette de table",
        "Tavolo {table} · tablet del tavolo"),
    "cards.rdr_card": (
        "Table {table} · card readers",
        "Table {table} · lecteurs de cartes",
        "Tavolo {table} · lettori di carte"),
    "cards.only_this": (
        "This code pairs this device only. Scan it on this device, then tear the card up.",
        "Ce code n'appaire que cet appareil. Scannez-le sur cet appareil, puis déchirez la "
        "carte.",
        "Questo codice abbina solo questo dispositivo. Scansionatelo su questo dispositivo, "
        "poi strappate il cartellino."),
    "cards.expires": ("valid until {time}", "valable jusqu'à {time}", "valido fino alle {time}"),
    "cards.drawn": (
        "{n} pairing codes drawn: one card per device.",
        "{n} codes d'appairage tirés : une carte par appareil.",
        "{n} codici di abbinamento generati: un cartellino per dispositivo."),
    "cards.sheet": (
        "Device cards (cut along the lines; each card to its own device)",
        "Cartes des appareils (découpez ; chaque carte à son appareil)",
        "Cartellini dei dispositivi (ritagliate; ogni cartellino al suo dispositivo)"),
    "cards.refused": ("Refused: {error}", "Refusé : {error}", "Rifiutato: {error}"),
    # The room's rounds (the console's header) and the round button.
    "rounds.one": ("Round {round} in play", "Tour {round} en cours", "Turno {round} in corso"),
    "rounds.many": (
        "Rounds {first}-{last} in play",
        "Tours {first} à {last} en cours",
        "Turni {first}-{last} in corso"),
    "rounds.finished": (
        "round {round} finished",
        "tour {round} terminé",
        "turno {round} finito"),
    "rounds.all_finished": (
        "Round {round} finished",
        "Tour {round} terminé",
        "Turno {round} finito"),
    "rounds.clock": ("clock of round {round}", "pendule du tour {round}",
                     "orologio del turno {round}"),
    "rounds.confirm": (
        "{n} table(s) have not finished round {round}: start round {next} anyway? They will "
        "be reported late.",
        "{n} table(s) n'ont pas fini le tour {round} : lancer quand même le tour {next} ? "
        "Elles seront signalées en retard.",
        "{n} tavolo/i non hanno finito il turno {round}: avviare comunque il turno {next}? "
        "Saranno segnalati in ritardo."),
    "rounds.started": ("Round {round} started.", "Tour {round} lancé.",
                       "Turno {round} avviato."),
    # The live table (the console's table panel).
    "live.title": ("At the table", "À la table", "Al tavolo"),
    "live.none": ("No board on the table.", "Aucune donne sur la table.",
                  "Nessuna smazzata sul tavolo."),
    "live.board": ("Board {board} · dealer {dealer} · vulnerable: {vul}",
                   "Donne {board} · donneur {dealer} · vulnérable : {vul}",
                   "Board {board} · mazziere {dealer} · in zona: {vul}"),
    "live.turn": ("{seat} to {what}", "À {seat} de {what}", "Tocca a {seat} ({what})"),
    "live.to_call": ("call", "parler", "dichiarare"),
    "live.to_play": ("play", "jouer", "giocare"),
    "live.over": ("The board is over.", "La donne est finie.", "La smazzata è finita."),
    "live.tricks": ("Tricks: NS {ns} · EW {ew}", "Levées : NS {ns} · EO {ew}",
                    "Prese: NS {ns} · EO {ew}"),
    "live.trick": ("Trick {n}", "Levée {n}", "Presa {n}"),
    "live.alerted": ("alerted", "alertée", "allertata"),
    "live.lead": ("lead", "entame", "attacco"),
    "live.won": ("won by {seat}", "gagnée par {seat}", "vinta da {seat}"),
    # What the evening page says once a command is done (never the command's name).
    "done.pair_add": ("Pair {pair} of section {section} added.",
                      "Paire {pair} de la section {section} ajoutée.",
                      "Coppia {pair} della sezione {section} aggiunta."),
    "done.pair_names": ("Names of pair {pair} of section {section} corrected.",
                        "Noms de la paire {pair} de la section {section} corrigés.",
                        "Nomi della coppia {pair} della sezione {section} corretti."),
    "done.pair_withdraw": ("Pair {pair} of section {section} withdrawn; its results stay.",
                           "Paire {pair} de la section {section} retirée ; ses résultats "
                           "restent.",
                           "Coppia {pair} della sezione {section} ritirata; i suoi risultati "
                           "restano."),
    "done.round_start": ("Round {round} started.", "Tour {round} lancé.",
                         "Turno {round} avviato."),
    "done.round_pause": ("The clock is paused.", "La pendule est arrêtée.",
                         "L'orologio è fermo."),
    "done.round_resume": ("The clock runs again.", "La pendule repart.",
                          "L'orologio riparte."),
    "done.round_time": ("A round now lasts {minutes} minutes.",
                        "Un tour dure maintenant {minutes} minutes.",
                        "Un turno ora dura {minutes} minuti."),
    "done.ruling": ("Board {board} at table {table}: the score is assigned.",
                    "Donne {board} à la table {table} : le score est attribué.",
                    "Board {board} al tavolo {table}: il punteggio è assegnato."),
    "done.public_results": ("What the room sees is changed.",
                            "Ce que voit la salle est changé.",
                            "Ciò che vede la sala è cambiato."),
    # The room screen by direction.
    "screen.ns": ("North-South", "Nord-Sud", "Nord-Sud"),
    "screen.ew": ("East-West", "Est-Ouest", "Est-Ovest"),
    # The check summary.
    "check.all_good": ("Every device is paired and online.",
                       "Tous les appareils sont appairés et en ligne.",
                       "Tutti i dispositivi sono abbinati e in linea."),
}
