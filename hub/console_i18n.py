"""The console's words in French, English and Italian (the tablet's languages, tablet/i18n.py,
which the console does not import).

The pages mark each text to translate with ``data-i18n="key"`` (and ``data-i18n-title`` for a
tooltip); static/i18n.js fetches ``GET /api/i18n`` once (the user's language and its
catalogue: :func:`catalogue`) and puts each text in through ``textContent``. A key missing in
a language falls back to English, an unknown key to the key itself.

The language is chosen with the switch on each page (``POST /api/i18n {"language"}``:
hub.console_session) and remembered for the user (:class:`Languages`, for every session of
that user while the hub runs) and in the browser (cookie ``tenace_lang``, read when no user is
logged in: the public results pages and the room screen). The default is the browser's
``Accept-Language`` when it names one of :data:`LANGUAGES`, else English.
"""

from __future__ import annotations

import threading

__all__ = ["COOKIE", "LANGUAGES", "STRINGS", "Languages", "catalogue", "choose"]

COOKIE = "tenace_lang"
LANGUAGES: dict[str, str] = {"fr": "Français", "en": "English", "it": "Italiano"}

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "nav.room": "Room", "nav.devices": "Devices", "nav.evening": "Evening",
        "nav.check": "Device check", "nav.cards": "Table cards", "nav.screen": "Room screen",
        "nav.results": "Results", "nav.tempo": "Slow play", "nav.logout": "Log out",
        "console.start_round": "Start round", "console.sound": "Sound",
        "console.room": "Room", "console.alerts": "Alerts",
        "console.public": "Public results", "console.public.rankings": "rankings",
        "console.public.names": "names",
        "console.public.boards": "boards every table has finished",
        "evening.title": "The evening", "evening.pairs": "Pairs",
        "evening.section": "Section", "evening.pair": "Pair", "evening.names": "Names",
        "evening.state": "State", "evening.late": "late", "evening.withdrawn": "withdrawn",
        "evening.add": "Add a late pair", "evening.rename": "Correct the names",
        "evening.withdraw": "Withdraw", "evening.reason": "Reason",
        "evening.player1": "First player", "evening.player2": "Second player",
        "evening.clock": "Round clock", "evening.round": "Round",
        "evening.start": "Start round", "evening.pause": "Pause", "evening.resume": "Resume",
        "evening.minutes": "Minutes per round", "evening.set_minutes": "Set the time",
        "evening.cancel": "Cancel a board at a table", "evening.table": "Table",
        "evening.board": "Board", "evening.ns": "NS", "evening.ew": "EW",
        "evening.cancel_go": "Give the artificial score",
        "evening.visibility": "What the room sees", "evening.hide_last": "Hide the ranking "
        "for the last rounds", "evening.apply": "Apply",
        "evening.exports": "Results files", "evening.spare": "A table on a spare device: "
        "pair the spare on the Devices page (the old device stops at once).",
        "evening.done": "Done.",
        "check.title": "Device check", "check.table": "Table", "check.device": "Device",
        "check.paired": "Paired", "check.online": "Online", "check.battery": "Battery",
        "check.signal": "Signal", "check.reader": "Reader", "check.seen": "Last seen",
        "check.yes": "yes", "check.no": "no", "check.unknown": "–",
        "cards.title": "Table cards and guide cards", "cards.print": "Print",
        "cards.draw": "Draw the pairing codes for the table cards",
        "cards.table": "Table", "cards.guide": "Guide card", "cards.pair": "Pair",
        "cards.round": "Round", "cards.goes": "Table", "cards.sits": "Sits",
        "cards.boards": "Boards", "cards.sitout": "sit-out",
        "screen.title": "Results", "screen.hidden": "The ranking will be shown at the end.",
        "screen.section": "Section", "screen.waiting": "No results yet.",
        "lang.choose": "Language",
    },
    "fr": {
        "nav.room": "Salle", "nav.devices": "Appareils", "nav.evening": "Soirée",
        "nav.check": "Vérification", "nav.cards": "Cartes de table",
        "nav.screen": "Écran de salle", "nav.results": "Résultats",
        "nav.tempo": "Jeu lent", "nav.logout": "Déconnexion",
        "console.start_round": "Lancer le tour", "console.sound": "Son",
        "console.room": "Salle", "console.alerts": "Alertes",
        "console.public": "Résultats publics", "console.public.rankings": "classements",
        "console.public.names": "noms",
        "console.public.boards": "donnes finies à toutes les tables",
        "evening.title": "La soirée", "evening.pairs": "Paires",
        "evening.section": "Section", "evening.pair": "Paire", "evening.names": "Noms",
        "evening.state": "État", "evening.late": "retardataire", "evening.withdrawn": "retirée",
        "evening.add": "Ajouter une paire retardataire", "evening.rename": "Corriger les noms",
        "evening.withdraw": "Retirer", "evening.reason": "Motif",
        "evening.player1": "Premier joueur", "evening.player2": "Second joueur",
        "evening.clock": "Horloge du tour", "evening.round": "Tour",
        "evening.start": "Lancer le tour", "evening.pause": "Pause",
        "evening.resume": "Reprendre", "evening.minutes": "Minutes par tour",
        "evening.set_minutes": "Changer la durée",
        "evening.cancel": "Annuler une donne à une table", "evening.table": "Table",
        "evening.board": "Donne", "evening.ns": "NS", "evening.ew": "EO",
        "evening.cancel_go": "Donner la marque artificielle",
        "evening.visibility": "Ce que voit la salle", "evening.hide_last": "Cacher le "
        "classement pendant les derniers tours", "evening.apply": "Appliquer",
        "evening.exports": "Fichiers de résultats", "evening.spare": "Une table sur un "
        "appareil de secours : appairez-le sur la page Appareils (l'ancien s'arrête aussitôt).",
        "evening.done": "Fait.",
        "check.title": "Vérification des appareils", "check.table": "Table",
        "check.device": "Appareil", "check.paired": "Appairé", "check.online": "En ligne",
        "check.battery": "Batterie", "check.signal": "Signal", "check.reader": "Lecteur",
        "check.seen": "Vu à", "check.yes": "oui", "check.no": "non", "check.unknown": "–",
        "cards.title": "Cartes de table et cartes de guidage", "cards.print": "Imprimer",
        "cards.draw": "Tirer les codes d'appairage des cartes de table",
        "cards.table": "Table", "cards.guide": "Carte de guidage", "cards.pair": "Paire",
        "cards.round": "Tour", "cards.goes": "Table", "cards.sits": "Place",
        "cards.boards": "Donnes", "cards.sitout": "relais",
        "screen.title": "Résultats", "screen.hidden": "Le classement sera affiché à la fin.",
        "screen.section": "Section", "screen.waiting": "Pas encore de résultats.",
        "lang.choose": "Langue",
    },
    "it": {
        "nav.room": "Sala", "nav.devices": "Dispositivi", "nav.evening": "Serata",
        "nav.check": "Verifica", "nav.cards": "Cartellini", "nav.screen": "Schermo di sala",
        "nav.results": "Risultati", "nav.tempo": "Gioco lento", "nav.logout": "Esci",
        "console.start_round": "Avvia il turno", "console.sound": "Suono",
        "console.room": "Sala", "console.alerts": "Avvisi",
        "console.public": "Risultati pubblici", "console.public.rankings": "classifiche",
        "console.public.names": "nomi",
        "console.public.boards": "smazzate finite a tutti i tavoli",
        "evening.title": "La serata", "evening.pairs": "Coppie",
        "evening.section": "Sezione", "evening.pair": "Coppia", "evening.names": "Nomi",
        "evening.state": "Stato", "evening.late": "ritardataria",
        "evening.withdrawn": "ritirata", "evening.add": "Aggiungi una coppia ritardataria",
        "evening.rename": "Correggi i nomi", "evening.withdraw": "Ritira",
        "evening.reason": "Motivo", "evening.player1": "Primo giocatore",
        "evening.player2": "Secondo giocatore", "evening.clock": "Orologio del turno",
        "evening.round": "Turno", "evening.start": "Avvia il turno",
        "evening.pause": "Pausa", "evening.resume": "Riprendi",
        "evening.minutes": "Minuti per turno", "evening.set_minutes": "Cambia la durata",
        "evening.cancel": "Annulla una smazzata a un tavolo", "evening.table": "Tavolo",
        "evening.board": "Smazzata", "evening.ns": "NS", "evening.ew": "EO",
        "evening.cancel_go": "Assegna il punteggio artificiale",
        "evening.visibility": "Cosa vede la sala", "evening.hide_last": "Nascondi la "
        "classifica negli ultimi turni", "evening.apply": "Applica",
        "evening.exports": "File dei risultati", "evening.spare": "Un tavolo su un "
        "dispositivo di riserva: abbinalo nella pagina Dispositivi (il vecchio si ferma "
        "subito).", "evening.done": "Fatto.",
        "check.title": "Verifica dei dispositivi", "check.table": "Tavolo",
        "check.device": "Dispositivo", "check.paired": "Abbinato", "check.online": "In linea",
        "check.battery": "Batteria", "check.signal": "Segnale", "check.reader": "Lettore",
        "check.seen": "Visto alle", "check.yes": "sì", "check.no": "no",
        "check.unknown": "–",
        "cards.title": "Cartellini dei tavoli e di guida", "cards.print": "Stampa",
        "cards.draw": "Genera i codici di abbinamento dei cartellini",
        "cards.table": "Tavolo", "cards.guide": "Cartellino di guida", "cards.pair": "Coppia",
        "cards.round": "Turno", "cards.goes": "Tavolo", "cards.sits": "Posto",
        "cards.boards": "Smazzate", "cards.sitout": "riposo",
        "screen.title": "Risultati", "screen.hidden": "La classifica sarà mostrata alla fine.",
        "screen.section": "Sezione", "screen.waiting": "Ancora nessun risultato.",
        "lang.choose": "Lingua",
    },
}


def catalogue(language: str) -> dict[str, str]:
    """Every key in ``language`` (English where it has no text of its own)."""
    return {**STRINGS["en"], **STRINGS.get(language, {})}


def choose(*candidates: str | None, accept: str = "") -> str:
    """The first of ``candidates`` that is a language of :data:`LANGUAGES`, else the first of
    the ``Accept-Language`` header that is, else English."""
    for language in candidates:
        if language in LANGUAGES:
            return language
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class Languages:
    """The language each user chose (while the hub runs; any thread)."""

    def __init__(self) -> None:
        self._chosen: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, user: str | None) -> str | None:
        with self._lock:
            return None if user is None else self._chosen.get(user)

    def set(self, user: str, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language {language!r:.20}: one of {', '.join(LANGUAGES)}")
        with self._lock:
            self._chosen[user] = language
