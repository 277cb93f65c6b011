"""The console's words in French, English and Italian (the tablet's languages, tablet/i18n.py,
which the console does not import).

The pages mark each text to translate with ``data-i18n="key"`` (``data-i18n-title`` for a
tooltip, ``data-i18n-placeholder`` for a field's hint); static/i18n.js fetches ``GET
/api/i18n`` once (the user's language and its catalogue: :func:`catalogue`) and puts each
text in through ``textContent``. What the scripts build (the alert feed, an alert's kind and
explanation, the table panels, the set-up page's sections, messages) goes through
``tenaceI18n.t(key, params)``, which fills the text's ``{name}`` fields; a page draws its own
texts again on the ``tenace-language`` event. A key missing in a language would fall back to
English, an unknown key to the key itself: tests/hub/test_console_i18n.py makes both a test
failure. Texts that come from the hub itself (an alert's detail, the Laws' rectifications,
an error) stay as the hub writes them.

The language is chosen with the switch on each page (``POST /api/i18n {"language"}``:
hub.console_session) and remembered for the user (:class:`Languages`, for every session of
that user while the hub runs) and in the browser (cookie ``tenace_lang``, read when no user is
logged in: the public results pages and the room screen). The default is the browser's
``Accept-Language`` when it names one of :data:`LANGUAGES`, else English.
"""

from __future__ import annotations

import threading

from hub.console_alert_words import ALERT_WORDS
from hub.console_words import EVENING_WORDS

__all__ = ["COOKIE", "LANGUAGES", "STRINGS", "Languages", "catalogue", "choose"]

COOKIE = "tenace_lang"
LANGUAGES: dict[str, str] = {"fr": "Français", "en": "English", "it": "Italiano"}

# key -> (English, French, Italian). Bridge words as the tablet says them (tablet/i18n.py):
# donne/donneur/vulnérable/entame/renonce/arbitre/étui; board/mazziere/zona/attacco/
# renonce (revoca)/arbitro. tests/hub/test_console_i18n.py checks that every key the pages use
# is here and that each has its three texts with the same {fields}.
_WORDS: dict[str, tuple[str, str, str]] = {
    "nav.room": ("Room", "Salle", "Sala"),
    "nav.devices": ("Devices", "Appareils", "Dispositivi"),
    "nav.evening": ("Evening", "Soirée", "Serata"),
    "nav.check": ("Device check", "Vérification", "Verifica"),
    "nav.cards": ("Table cards", "Cartes de table", "Cartellini"),
    "nav.screen": ("Room screen", "Écran de salle", "Schermo di sala"),
    "nav.results": ("Results", "Résultats", "Risultati"),
    "nav.tempo": ("Slow play", "Jeu lent", "Gioco lento"),
    "nav.logout": ("Log out", "Déconnexion", "Esci"),
    "console.start_round": ("Start round", "Lancer le tour", "Avvia il turno"),
    "console.sound": ("Sound", "Son", "Suono"),
    "console.room": ("Room", "Salle", "Sala"),
    "console.alerts": ("Alerts", "Alertes", "Avvisi"),
    "console.public": ("Public results", "Résultats publics", "Risultati pubblici"),
    "console.public.rankings": ("rankings", "classements", "classifiche"),
    "console.public.names": ("names", "noms", "nomi"),
    "console.public.boards": (
        "boards every table has finished",
        "donnes finies à toutes les tables",
        "smazzate finite a tutti i tavoli"),
    "evening.title": ("The evening", "La soirée", "La serata"),
    "evening.pairs": ("Pairs", "Paires", "Coppie"),
    "evening.section": ("Section", "Section", "Sezione"),
    "evening.pair": ("Pair", "Paire", "Coppia"),
    "evening.names": ("Names", "Noms", "Nomi"),
    "evening.state": ("State", "État", "Stato"),
    "evening.late": ("late", "retardataire", "ritardataria"),
    "evening.withdrawn": ("withdrawn", "retirée", "ritirata"),
    "evening.add": (
        "Add a late pair",
        "Ajouter une paire retardataire",
        "Aggiungi una coppia ritardataria"),
    "evening.rename": ("Correct the names", "Corriger les noms", "Correggi i nomi"),
    "evening.withdraw": ("Withdraw", "Retirer", "Ritira"),
    "evening.reason": ("Reason", "Motif", "Motivo"),
    "evening.player1": ("First player", "Premier joueur", "Primo giocatore"),
    "evening.player2": ("Second player", "Second joueur", "Secondo giocatore"),
    "evening.clock": ("Round clock", "Horloge du tour", "Orologio del turno"),
    "evening.round": ("Round", "Tour", "Turno"),
    "evening.start": ("Start round", "Lancer le tour", "Avvia il turno"),
    "evening.pause": ("Pause", "Pause", "Pausa"),
    "evening.resume": ("Resume", "Reprendre", "Riprendi"),
    "evening.minutes": ("Minutes per round", "Minutes par tour", "Minuti per turno"),
    "evening.set_minutes": ("Set the time", "Changer la durée", "Cambia la durata"),
    "evening.cancel": (
        "Cancel a board at a table",
        "Annuler une donne à une table",
        "Annulla una smazzata a un tavolo"),
    "evening.table": ("Table", "Table", "Tavolo"),
    "evening.board": ("Board", "Donne", "Smazzata"),
    "evening.ns": ("NS", "NS", "NS"),
    "evening.ew": ("EW", "EO", "EO"),
    "evening.cancel_go": (
        "Give the artificial score",
        "Donner la marque artificielle",
        "Assegna il punteggio artificiale"),
    "evening.visibility": ("What the room sees", "Ce que voit la salle", "Cosa vede la sala"),
    "evening.hide_last": (
        "Hide the ranking for the last rounds",
        "Cacher le classement pendant les derniers tours",
        "Nascondi la classifica negli ultimi turni"),
    "evening.apply": ("Apply", "Appliquer", "Applica"),
    "evening.exports": ("Results files", "Fichiers de résultats", "File dei risultati"),
    "evening.spare": (
        "A table on a spare device: pair the spare on the Devices page (the old device stops at "
        "once).",
        "Une table sur un appareil de secours : appairez-le sur la page Appareils (l'ancien "
        "s'arrête aussitôt).",
        "Un tavolo su un dispositivo di riserva: abbinalo nella pagina Dispositivi (il vecchio si"
        " ferma subito)."),
    "evening.done": ("Done.", "Fait.", "Fatto."),
    "check.title": ("Device check", "Vérification des appareils", "Verifica dei dispositivi"),
    "check.table": ("Table", "Table", "Tavolo"),
    "check.device": ("Device", "Appareil", "Dispositivo"),
    "check.paired": ("Paired", "Appairé", "Abbinato"),
    "check.online": ("Online", "En ligne", "In linea"),
    "check.battery": ("Battery", "Batterie", "Batteria"),
    "check.signal": ("Signal", "Signal", "Segnale"),
    "check.reader": ("Reader", "Lecteur", "Lettore"),
    "check.seen": ("Last seen", "Vu à", "Visto alle"),
    "check.yes": ("yes", "oui", "sì"),
    "check.no": ("no", "non", "no"),
    "check.unknown": ("–", "–", "–"),
    "cards.title": (
        "Table cards and guide cards",
        "Cartes de table et cartes de guidage",
        "Cartellini dei tavoli e di guida"),
    "cards.print": ("Print", "Imprimer", "Stampa"),
    "cards.draw": (
        "Draw the pairing codes for the table cards",
        "Tirer les codes d'appairage des cartes de table",
        "Genera i codici di abbinamento dei cartellini"),
    "cards.table": ("Table", "Table", "Tavolo"),
    "cards.guide": ("Guide card", "Carte de guidage", "Cartellino di guida"),
    "cards.pair": ("Pair", "Paire", "Coppia"),
    "cards.round": ("Round", "Tour", "Turno"),
    "cards.goes": ("Table", "Table", "Tavolo"),
    "cards.sits": ("Sits", "Place", "Posto"),
    "cards.boards": ("Boards", "Donnes", "Smazzate"),
    "cards.sitout": ("sit-out", "relais", "riposo"),
    "screen.title": ("Results", "Résultats", "Risultati"),
    "screen.hidden": (
        "The ranking will be shown at the end.",
        "Le classement sera affiché à la fin.",
        "La classifica sarà mostrata alla fine."),
    "screen.section": ("Section", "Section", "Sezione"),
    "screen.waiting": ("No results yet.", "Pas encore de résultats.", "Ancora nessun risultato."),
    "lang.choose": ("Language", "Langue", "Lingua"),
    "nav.setup": ("Set-up", "Préparation", "Preparazione"),
    "console.title": ("Tenace director", "Tenace arbitre", "Tenace arbitro"),
    "console.start_round_n": (
        "Start round {round}",
        "Lancer le tour {round}",
        "Avvia il turno {round}"),
    "console.confirm_round": (
        "Confirm: start round {round}",
        "Confirmer : lancer le tour {round}",
        "Conferma: avvia il turno {round}"),
    "console.round_refused": (
        "Round {round} not started: {error}",
        "Tour {round} non lancé : {error}",
        "Turno {round} non avviato: {error}"),
    "console.round": ("Round {round}", "Tour {round}", "Turno {round}"),
    "console.round_none": ("Round –", "Tour –", "Turno –"),
    "console.not_started": ("not started", "pas lancé", "non avviato"),
    "console.over": ("+{time} over", "+{time} de dépassement", "+{time} oltre il tempo"),
    "console.sound_on": ("Sound on", "Son activé", "Suono attivo"),
    "console.sound_off": ("Sound off: click", "Son coupé : cliquez", "Suono spento: clicca"),
    "console.sound_title": (
        "Sound for new alerts",
        "Son pour les nouvelles alertes",
        "Suono per i nuovi avvisi"),
    "console.connecting": ("connecting…", "connexion…", "connessione…"),
    "console.live": ("live", "en direct", "in diretta"),
    "console.reconnecting": ("reconnecting…", "reconnexion…", "riconnessione…"),
    "console.all_tables": ("show all tables", "toutes les tables", "tutti i tavoli"),
    "console.public.what": (
        "what the room sees on /results",
        "ce que la salle voit sur /results",
        "cosa vede la sala su /results"),
    "console.board": ("Board {board}", "Donne {board}", "Smazzata {board}"),
    "console.pairs": ("NS {ns} · EW {ew}", "NS {ns} · EO {ew}", "NS {ns} · EO {ew}"),
    "console.boards_done": (
        "{done}/{total} boards",
        "{done}/{total} donnes",
        "{done}/{total} smazzate"),
    "console.offline": ("offline: {devices}", "hors ligne : {devices}", "non in linea: {devices}"),
    "console.alerts_open": ("alerts open", "alertes ouvertes", "avvisi aperti"),
    "console.table": ("Table {table}", "Table {table}", "Tavolo {table}"),
    "console.close": ("Close", "Fermer", "Chiudi"),
    "console.allow_board": ("Show board {board} at this table", "Montrer l'étui {board} à "
                            "cette table", "Mostrare il board {board} a questo tavolo"),
    "console.table_line": (
        "{done}/{total} boards finished · {online} device(s) online",
        "{done}/{total} donnes finies · {online} appareil(s) en ligne",
        "{done}/{total} smazzate finite · {online} dispositivo/i in linea"),
    "console.mode": ("Mode: {mode}", "Mode : {mode}", "Modalità: {mode}"),
    "console.mode_strict": (
        "strict (illegal calls and cards refused)",
        "strict (enchères et cartes irrégulières refusées)",
        "rigorosa (dichiarazioni e carte irregolari rifiutate)"),
    "console.mode_box": (
        "bidding box (everything recorded, irregularities alerted)",
        "boîte à enchères (tout est enregistré, les irrégularités signalées)",
        "bidding box (tutto registrato, irregolarità segnalate)"),
    "console.to_box": (
        "Switch to bidding box",
        "Passer en boîte à enchères",
        "Passa al bidding box"),
    "console.to_strict": (
        "Switch to strict",
        "Passer en mode strict",
        "Passa alla modalità rigorosa"),
    "console.readers": (
        "Card readers: {errors}",
        "Lecteurs de cartes : {errors}",
        "Lettori di carte: {errors}"),
    "console.no_error": ("no error", "aucune erreur", "nessun errore"),
    "console.tapping_note": (
        " (tapping only: reader cards not played)",
        " (saisie tactile seule : les cartes lues ne sont pas jouées)",
        " (solo tocco: le carte lette non sono giocate)"),
    "console.use_readers": (
        "Use the card readers",
        "Utiliser les lecteurs de cartes",
        "Usa i lettori di carte"),
    "console.tapping_only": ("Tapping only", "Saisie tactile seule", "Solo tocco"),
    "console.no_alert": ("No alert.", "Aucune alerte.", "Nessun avviso."),
    "console.open": ("{n} open", "{n} ouverte(s)", "{n} aperti"),
    "console.feed_table": ("table {table}", "table {table}", "tavolo {table}"),
    "console.at_board": ("board {board}", "donne {board}", "smazzata {board}"),
    "console.at_round": ("round {round}", "tour {round}", "turno {round}"),
    "console.at_call": ("call {call}", "enchère {call}", "dichiarazione {call}"),
    "console.at_trick": ("trick {trick}", "levée {trick}", "presa {trick}"),
    "console.detected": ("detected {time}", "détectée {time}", "rilevato {time}"),
    "console.occurred": ("occurred {time}", "survenue {time}", "avvenuto {time}"),
    "console.acknowledged": ("acknowledged {time}", "vue {time}", "preso visione {time}"),
    "console.ruled": ("ruled {time}", "décision {time}", "decisione {time}"),
    "console.resolved": ("resolved {time}", "close {time}", "chiuso {time}"),
    "console.version": ("version {version}", "version {version}", "versione {version}"),
    "console.law": ("Law {law}", "Loi {law}", "Legge {law}"),
    "console.ruling_placeholder": (
        "Ruling (law, rectification, adjusted score…)",
        "Décision (loi, rectification, score ajusté…)",
        "Decisione (legge, rettifica, punteggio rettificato…)"),
    "console.note_placeholder": ("Note (optional)", "Note (facultative)", "Nota (facoltativa)"),
    "console.h_board": ("Board", "Donne", "Smazzata"),
    "console.h_auction": ("Auction", "Enchères", "Licitazione"),
    "console.h_play": ("Play", "Jeu de la carte", "Gioco della carta"),
    "console.h_options": (
        "What the Laws give the director",
        "Ce que le Code donne à l'arbitre",
        "Cosa il Codice dà all'arbitro"),
    "console.ruling_is": ("Ruling: {text}", "Décision : {text}", "Decisione: {text}"),
    "console.acknowledge": ("Acknowledge", "Vu", "Presa visione"),
    "console.attention": (
        "attention drawn {time}",
        "arbitre appelé à {time}",
        "arbitro chiamato alle {time}"),
    "console.records_time": (
        "records the time you saw it",
        "enregistre l'heure où vous l'avez vue",
        "registra l'ora in cui l'avete visto"),
    "console.ruling": ("Ruling", "Décision", "Decisione"),
    "console.write_first": (
        "Write the ruling first.",
        "Écrivez d'abord la décision.",
        "Scrivete prima la decisione."),
    "console.rule": ("Rule", "Décider", "Decidi"),
    "console.resolve": ("Resolve", "Clore", "Chiudi l'avviso"),
    "console.no_options": (
        "No rectification listed.",
        "Aucune rectification prévue.",
        "Nessuna rettifica prevista."),
    "console.hand_record": ("hand record", "diagramme des donnes", "diagramma delle smazzate"),
    "console.cards_read": ("cards read", "cartes lues", "carte lette"),
    "console.no_board": (
        "No board in play.",
        "Aucune donne en jeu.",
        "Nessuna smazzata in gioco."),
    "console.not_known": ("not known", "inconnue", "sconosciuta"),
    "console.read": ("read: {cards}", "lu : {cards}", "letto: {cards}"),
    "console.dealer": ("Dealer {seat}", "Donneur {seat}", "Mazziere {seat}"),
    "console.vul": ("Vul {vul}", "Vulnérable : {vul}", "Zona: {vul}"),
    "console.pair": ("pair {pair}", "paire {pair}", "coppia {pair}"),
    "console.contract": ("Contract", "Contrat", "Contratto"),
    "console.by": ("by {seat}", "par {seat}", "giocato da {seat}"),
    "console.passed_out": ("Passed out", "Donne passée", "Smazzata passata"),
    "console.auction_running": (
        "Auction in progress",
        "Enchères en cours",
        "Licitazione in corso"),
    "console.no_call": ("No call yet.", "Aucune enchère encore.", "Ancora nessuna dichiarazione."),
    "console.alerted": ("alerted", "alertée", "alertata"),
    "console.no_card": (
        "No card played yet.",
        "Aucune carte jouée encore.",
        "Ancora nessuna carta giocata."),
    "console.lead": ("lead", "entame", "attacco"),
    "console.won": ("won", "gagnée", "vinta"),
    "console.sending": ("sending…", "envoi…", "invio…"),
    "console.saved": ("saved", "enregistré", "salvato"),
    "console.done": ("done", "fait", "fatto"),
    "console.refused": ("refused", "refusé", "rifiutato"),
    "console.timeline": (
        "Tempo timeline of board {board}",
        "Chronologie du tempo de la donne {board}",
        "Cronologia dei tempi della smazzata {board}"),
    "hub.line": ("Hub: {parts}", "Hub : {parts}", "Hub: {parts}"),
    "hub.events": ("events {n}", "événements {n}", "eventi {n}"),
    "hub.duplicates": ("duplicates {n}", "doublons {n}", "duplicati {n}"),
    "hub.refused": ("refused {n}", "refusés {n}", "rifiutati {n}"),
    "hub.gaps": ("gaps {n}", "trous {n}", "lacune {n}"),
    "hub.queue": ("queue {n}", "file {n}", "coda {n}"),
    "hub.devices": ("devices online {n}", "appareils en ligne {n}", "dispositivi in linea {n}"),
    "hub.chain_broken": (
        "LOG CHAIN BROKEN at {at}",
        "CHAÎNE DU JOURNAL ROMPUE à {at}",
        "CATENA DEL REGISTRO INTERROTTA a {at}"),
    "hub.set_aside": (
        "LOG RECORDS SET ASIDE: {records}",
        "ENREGISTREMENTS DU JOURNAL MIS DE CÔTÉ : {records}",
        "RECORD DEL REGISTRO MESSI DA PARTE: {records}"),
    "hub.log_lost": (
        "LOG LOST {n} RECORDS",
        "LE JOURNAL A PERDU {n} ENREGISTREMENTS",
        "IL REGISTRO HA PERSO {n} RECORD"),
    "seat.N": ("North", "Nord", "Nord"),
    "seat.E": ("East", "Est", "Est"),
    "seat.S": ("South", "Sud", "Sud"),
    "seat.W": ("West", "Ouest", "Ovest"),
    "letter.N": ("N", "N", "N"),
    "letter.E": ("E", "E", "E"),
    "letter.S": ("S", "S", "S"),
    "letter.W": ("W", "O", "O"),
    "strain.NT": ("NT", "SA", "SA"),
    "vul.None": ("None", "Personne", "Nessuno"),
    "vul.NS": ("NS", "NS", "NS"),
    "vul.EW": ("EW", "EO", "EO"),
    "vul.All": ("All", "Tous", "Tutti"),
    "status.waiting": ("waiting", "en attente", "in attesa"),
    "status.bidding": ("bidding", "enchères", "licitazione"),
    "status.playing": ("playing", "jeu de la carte", "gioco"),
    "status.finished": ("finished", "terminée", "finito"),
    "status.late": ("late", "en retard", "in ritardo"),
    "status.alert": ("alert", "alerte", "avviso"),
    "status.offline": ("offline", "hors ligne", "non in linea"),
    "alert.open": ("open", "ouverte", "aperto"),
    "alert.acknowledged": ("acknowledged", "vue", "preso visione"),
    "alert.ruled": ("ruled", "décidée", "deciso"),
    "alert.resolved": ("resolved", "close", "chiuso"),
    "chooser.lho": ("the next player", "le joueur suivant", "il giocatore successivo"),
    "chooser.declarer": ("declarer", "le déclarant", "il giocante"),
    "chooser.director": ("director", "l'arbitre", "l'arbitro"),
    "chooser.defenders": ("the defenders", "les défenseurs", "i difensori"),
    "chooser.opponents": ("the opponents", "les adversaires", "gli avversari"),
    "reader.missed": ("missed", "manquées", "mancate"),
    "reader.cross": ("cross", "croisées", "incrociate"),
    "reader.late": ("late", "tardives", "tardive"),
    "reader.repeat": ("repeat", "répétées", "ripetute"),
    "reader.sweep": ("sweep", "balayages", "passaggi"),
    "reader.unreadable": ("unreadable", "illisibles", "illeggibili"),
    "reader.ignored": ("ignored", "ignorées", "ignorate"),
    "chooser.rho": ("the previous player", "le joueur précédent", "il giocatore precedente"),
    "setup.title": ("Tenace set-up", "Tenace préparation", "Tenace preparazione"),
    "setup.waiting": (
        "No event yet: the tablets wait for it. Set the evening up below.",
        "Pas encore de tournoi : les tablettes l'attendent. Préparez la soirée ci-dessous.",
        "Ancora nessun torneo: i tablet lo attendono. Preparate la serata qui sotto."),
    "setup.now": ("The event now", "Le tournoi actuel", "Il torneo attuale"),
    "setup.checkins": (
        "Names typed at check-in",
        "Noms saisis à l'enregistrement",
        "Nomi inseriti alla registrazione"),
    "setup.checkins_match": (
        "and the club's members they match",
        "et les membres du club correspondants",
        "e i soci del circolo corrispondenti"),
    "setup.table": ("Table", "Table", "Tavolo"),
    "setup.pair": ("Pair", "Paire", "Coppia"),
    "setup.typed": ("Typed", "Saisi", "Inserito"),
    "setup.roster": ("Roster", "Membres", "Soci"),
    "setup.accept": ("Accept these names", "Accepter ces noms", "Accetta questi nomi"),
    "setup.accepted": ("Names accepted", "Noms acceptés", "Nomi accettati"),
    "setup.event": ("Event", "Tournoi", "Torneo"),
    "setup.name": ("Name", "Nom", "Nome"),
    "setup.date": ("Date", "Date", "Data"),
    "setup.laws": ("Laws", "Code", "Codice"),
    "setup.scoring": ("Scoring", "Marque", "Punteggio"),
    "setup.minutes": ("Minutes a round", "Minutes par tour", "Minuti per turno"),
    "setup.add_section": ("Add a section", "Ajouter une section", "Aggiungi una sezione"),
    "setup.boards": ("Boards", "Donnes", "Smazzate"),
    "setup.dealt": ("Dealt by the hub", "Distribuées par le hub", "Distribuiti dall'hub"),
    "setup.from_file": (
        "From the dealing machine's file",
        "Du fichier de la machine à distribuer",
        "Dal file della macchina smazzatrice"),
    "setup.file": ("File", "Fichier", "File"),
    "setup.players": ("Players", "Joueurs", "Giocatori"),
    "setup.roster_title": ("the club's roster", "les membres du club", "i soci del circolo"),
    "setup.import": ("Import members (CSV)", "Importer les membres (CSV)", "Importa i soci (CSV)"),
    "setup.check": ("Check", "Vérifier", "Verifica"),
    "setup.submit": ("Set up the event", "Créer le tournoi", "Crea il torneo"),
    "setup.set_up": ("Event set up", "Tournoi créé", "Torneo creato"),
    "setup.to_room": ("To the room", "Vers la salle", "Alla sala"),
    "setup.pair_devices": ("Pair the devices", "Appairer les appareils", "Abbina i dispositivi"),
    "setup.player": ("player", "joueur", "giocatore"),
    "setup.partner": ("partner", "partenaire", "compagno"),
    "setup.player_label": (
        "pair {pair} player {player}",
        "paire {pair} joueur {player}",
        "coppia {pair} giocatore {player}"),
    "setup.none": ("none", "aucune", "nessuna"),
    "setup.teams": ("Teams", "Équipes", "Squadre"),
    "setup.tables": ("Tables", "Tables", "Tavoli"),
    "setup.all": ("all", "tous", "tutti"),
    "setup.rounds": ("Rounds", "Tours", "Turni"),
    "setup.skip": ("skip", "saut", "salto"),
    "setup.relay": (
        "relay and bye-stand",
        "relais et table de repos",
        "relais e tavolo di riposo"),
    "setup.even": ("Even tables", "Nombre pair de tables", "Numero pari di tavoli"),
    "setup.arrow": (
        "arrow-switch the last round",
        "changer les orientations au dernier tour",
        "cambio di linea all'ultimo turno"),
    "setup.missing": ("Sit-out: pair absent", "Relais : paire absente", "Riposo: coppia assente"),
    "setup.remove": ("Remove", "Supprimer", "Rimuovi"),
    "setup.section": ("Section", "Section", "Sezione"),
    "setup.movement": ("Movement", "Mouvement", "Movimento"),
    "setup.bpr": ("Boards a round", "Donnes par tour", "Smazzate per turno"),
    "setup.pairs": ("Pairs and players", "Paires et joueurs", "Coppie e giocatori"),
    "setup.checking": ("checking…", "vérification…", "verifica…"),
    "setup.setting_up": ("setting up…", "création…", "creazione…"),
    "setup.good": (
        "the set-up is good",
        "la préparation est correcte",
        "la preparazione è corretta"),
    "setup.done": ("event set up", "tournoi créé", "torneo creato"),
    "setup.problems": ("{n} problem(s)", "{n} problème(s)", "{n} problema/i"),
    "setup.refused": ("refused", "refusé", "rifiutato"),
    "setup.members": ("{n} members", "{n} membres", "{n} soci"),
    "setup.imported": ("{n} members imported", "{n} membres importés", "{n} soci importati"),
    "setup.not_imported": (
        "the roster was not imported",
        "la liste des membres n'a pas été importée",
        "l'elenco dei soci non è stato importato"),
    "setup.line": ("line {line}", "ligne {line}", "riga {line}"),
    "setup.not_member": (
        "not in the roster",
        "pas dans la liste des membres",
        "non nell'elenco dei soci"),
    "setup.started": (
        "Play has started ({sections}): the evening is changed with director commands, not a new "
        "set-up.",
        "Le jeu a commencé ({sections}) : la soirée se modifie par les commandes de l'arbitre, "
        "pas par une nouvelle préparation.",
        "Il gioco è iniziato ({sections}): la serata si modifica con i comandi dell'arbitro, non "
        "con una nuova preparazione."),
    "setup.no_setup": (
        "This hub takes no set-up from the console.",
        "Ce hub n'accepte pas de préparation depuis la console.",
        "Questo hub non accetta preparazioni dalla console."),
    "side.NS": ("NS", "NS", "NS"),
    "side.EW": ("EW", "EO", "EO"),
    "movement.mitchell": ("Mitchell", "Mitchell", "Mitchell"),
    "movement.howell": ("Howell", "Howell", "Howell"),
    "movement.teams": ("Teams", "Équipes", "Squadre"),
    "scoring.matchpoints": ("matchpoints", "points de match (top)", "punti match (top)"),
    "scoring.imps": ("IMPs", "IMP", "IMP"),
    "scoring.butler": ("Butler", "Butler", "Butler"),
    "scoring.cross-imps": ("cross-IMPs", "IMP croisés", "IMP incrociati"),
    "scoring.total": ("total points", "total des points", "punti totali"),
    "setup.name_example": (
        "Monday pairs",
        "Tournoi par paires du lundi",
        "Torneo a coppie del lunedì"),
    "devices.title": ("Tenace devices", "Tenace appareils", "Tenace dispositivi"),
    "devices.help": (
        "Pair: a one-time code (15 minutes) and its QR code for the device",
        "Appairer : un code à usage unique (15 minutes) et son QR code pour l'appareil",
        "Abbina: un codice monouso (15 minuti) e il suo codice QR per il dispositivo"),
    "devices.help_spare": (
        "Pairing again gives a spare the account: the old device's password stops working. "
        "Revoke: the account can no longer connect, and its connection is cut.",
        "Appairer à nouveau donne le compte à un appareil de secours : le mot de passe de "
        "l'ancien ne marche plus. Révoquer : le compte ne peut plus se connecter, et sa connexion"
        " est coupée.",
        "Abbinare di nuovo dà l'account a un dispositivo di riserva: la password del vecchio non "
        "funziona più. Revoca: l'account non può più collegarsi e la sua connessione è "
        "interrotta."),
    "devices.account": ("Account", "Compte", "Account"),
    "devices.code": ("Code", "Code", "Codice"),
    "devices.pair": ("Pair", "Appairer", "Abbina"),
    "devices.valid_until": ("valid until", "valable jusqu'à", "valido fino alle"),
    "devices.drawing": (
        "drawing a code for {account}…",
        "tirage d'un code pour {account}…",
        "generazione di un codice per {account}…"),
    "devices.code_for": (
        "code for {account}: give it to the device",
        "code pour {account} : donnez-le à l'appareil",
        "codice per {account}: datelo al dispositivo"),
    "devices.refused": ("refused", "refusé", "rifiutato"),
    "devices.confirm_revoke": ("Confirm revoke", "Confirmer la révocation", "Conferma la revoca"),
    "devices.revoking": (
        "revoking {account}…",
        "révocation de {account}…",
        "revoca di {account}…"),
    "devices.revoked": ("{account} revoked", "{account} révoqué", "{account} revocato"),
    "devices.revoke": ("Revoke", "Révoquer", "Revoca"),
    "devices.tablet": ("table tablet", "tablette de table", "tablet del tavolo"),
    "devices.readers": ("card readers", "lecteurs de cartes", "lettori di carte"),
    "devices.never": ("never seen", "jamais vu", "mai visto"),
    "devices.online": ("online", "en ligne", "in linea"),
    "devices.offline": ("offline", "hors ligne", "non in linea"),
    "devices.until": ("until {time}", "jusqu'à {time}", "fino alle {time}"),
    "devices.none": ("no devices", "aucun appareil", "nessun dispositivo"),
    "devices.summary": (
        "{accounts} accounts, {online} online",
        "{accounts} comptes, {online} en ligne",
        "{accounts} account, {online} in linea"),
    "tempo.title": ("Tenace director · tempo", "Tenace arbitre · tempo", "Tenace arbitro · tempi"),
    "tempo.tempo": ("tempo", "tempo", "tempi"),
    "tempo.pbn": ("PBN with times", "PBN avec les temps", "PBN con i tempi"),
    "tempo.lin": ("LIN with times", "LIN avec les temps", "LIN con i tempi"),
    "tempo.note": (
        "The system marks, the director judges: a mark is a think time above the rule of "
        "docs/tempo.md, never an accusation. Players see none of this.",
        "Le système marque, l'arbitre juge : une marque est un temps de réflexion au-delà de la "
        "règle de docs/tempo.md, jamais une accusation. Les joueurs ne voient rien de tout cela.",
        "Il sistema segnala, l'arbitro giudica: un segno è un tempo di riflessione oltre la "
        "regola di docs/tempo.md, mai un'accusa. I giocatori non vedono nulla di tutto ciò."),
    "tempo.stop_wait": ("STOP wait", "attente après STOP", "attesa dopo lo STOP"),
    "tempo.by": ("(by {seat})", "(par {seat})", "(da {seat})"),
    "tempo.stop": ("+{time} stop", "+{time} stop", "+{time} stop"),
    "tempo.seat": ("Seat", "Place", "Posto"),
    "tempo.item": ("Call / card", "Enchère / carte", "Dichiarazione / carta"),
    "tempo.at": ("At", "À", "Alle"),
    "tempo.think": ("Think", "Réflexion", "Riflessione"),
    "tempo.precision": ("Precision", "Précision", "Precisione"),
    "tempo.time": ("Time", "Temps", "Tempo"),
    "tempo.ruling_placeholder": (
        "Ruling (the timeline's reference is added)",
        "Décision (la référence de la chronologie est ajoutée)",
        "Decisione (il riferimento della cronologia è aggiunto)"),
    "tempo.attached": (
        "Attached to the ruling of {alert}: {reference}",
        "Joint à la décision de {alert} : {reference}",
        "Allegato alla decisione di {alert}: {reference}"),
    "tempo.refused": ("Refused: {error}", "Refusé : {error}", "Rifiutato: {error}"),
    "tempo.attach": ("Attach to the ruling", "Joindre à la décision", "Allega alla decisione"),
    "tempo.attach_to": (
        "Attach to the ruling of {alert}",
        "Joindre à la décision de {alert}",
        "Allega alla decisione di {alert}"),
    "tempo.no_timeline": ("No timeline", "Pas de chronologie", "Nessuna cronologia"),
    "tempo.at_table": (
        "{time} at the table (NS {ns}, EW {ew})",
        "{time} à la table (NS {ns}, EO {ew})",
        "{time} al tavolo (NS {ns}, EO {ew})"),
    "tempo.marks": ("{n} mark(s)", "{n} marque(s)", "{n} segno/i"),
    "tempo.no_data": ("No data", "Pas de données", "Nessun dato"),
    "tempo.ns": ("NS {pair}", "NS {pair}", "NS {pair}"),
    "tempo.ew": ("EW {pair}", "EO {pair}", "EO {pair}"),
    "tempo.pair": ("Pair {pair}", "Paire {pair}", "Coppia {pair}"),
    "tempo.slow_line": (
        "{minutes} minutes a round · slow tables: {tables}",
        "{minutes} minutes par tour · tables lentes : {tables}",
        "{minutes} minuti per turno · tavoli lenti: {tables}"),
    "tempo.none": ("none", "aucune", "nessuno"),
    "tempo.allowance": ("Allowance", "Temps alloué", "Tempo concesso"),
    "tempo.over_share": ("Over their share", "Au-delà de leur part", "Oltre la loro parte"),
    "tempo.share": ("Share", "Part", "Quota"),
    "results.title": ("Results · Tenace", "Résultats · Tenace", "Risultati · Tenace"),
    "results.loading": ("Loading…", "Chargement…", "Caricamento…"),
    "results.imps": ("IMPs", "IMP", "IMP"),
    "results.mp": ("MP", "PM", "PM"),
    "results.points": ("points", "points", "punti"),
    "results.pass": ("Pass", "Passe", "Passo"),
    "results.team_n": ("Team {team}", "Équipe {team}", "Squadra {team}"),
    "results.north_south": ("North-South", "Nord-Sud", "Nord-Sud"),
    "results.east_west": ("East-West", "Est-Ouest", "Est-Ovest"),
    "results.rank": ("Rank", "Place", "Posizione"),
    "results.team": ("Team", "Équipe", "Squadra"),
    "results.players": ("Players", "Joueurs", "Giocatori"),
    "results.section": ("Section {section}", "Section {section}", "Sezione {section}"),
    "results.penalties": (
        "Procedural penalties (Law 90):",
        "Pénalités de procédure (Loi 90) :",
        "Penalità procedurali (Legge 90):"),
    "results.hidden_ranking": (
        "The rankings are not shown during the session.",
        "Les classements ne sont pas affichés pendant la séance.",
        "Le classifiche non sono mostrate durante la sessione."),
    "results.hidden_boards": (
        "The boards are not shown during the session.",
        "Les donnes ne sont pas affichées pendant la séance.",
        "Le smazzate non sono mostrate durante la sessione."),
    "results.board_when_finished": (
        "A board is shown once every table has finished it.",
        "Une donne est affichée quand toutes les tables l'ont finie.",
        "Una smazzata è mostrata quando tutti i tavoli l'hanno finita."),
    "results.rulings": ("Rulings", "Décisions", "Decisioni"),
    "results.no_hands": ("No hand record.", "Pas de diagramme.", "Nessun diagramma."),
    "results.dd_pending": (
        "Double-dummy table being solved…",
        "Table à quatre jeux en cours de calcul…",
        "Tabella a carte viste in calcolo…"),
    "results.no_dd": (
        "No double-dummy table.",
        "Pas de table à quatre jeux.",
        "Nessuna tabella a carte viste."),
    "results.par": (
        "Par: {par} (NS {score})",
        "Par : {par} (NS {score})",
        "Par: {par} (NS {score})"),
    "results.plot": (
        "Board {board}: North-South scores, {n} result(s)",
        "Donne {board} : marques de Nord-Sud, {n} résultat(s)",
        "Smazzata {board}: punteggi di Nord-Sud, {n} risultato/i"),
    "results.form": ("(form {form})", "(forme {form})", "(forma {form})"),
    "results.not_scored": ("not scored yet", "pas encore marquée", "non ancora calcolato"),
    "results.cancelled": ("not scored", "non marquée", "non calcolato"),
    "results.correct_title": (
        "Correct a result of board {board}",
        "Corriger un résultat de la donne {board}",
        "Correggere un risultato della smazzata {board}"),
    "results.correct": ("Correct", "Corriger", "Correggi"),
    "results.corrected": (
        "Corrected: the traveller shows the result as it was.",
        "Corrigé : la feuille ambulante montre le résultat tel qu'il était.",
        "Corretto: il viaggiatore mostra il risultato com'era."),
    "results.correct_note": ("Note", "Note", "Nota"),
    "results.sub_title": (
        "A substitute for pair {pair}",
        "Un remplaçant pour la paire {pair}",
        "Un sostituto per la coppia {pair}"),
    "results.sub_for": ("In place of", "À la place de", "Al posto di"),
    "results.sub_name": ("Substitute", "Remplaçant", "Sostituto"),
    "results.sub_rounds": ("Rounds", "Tours", "Turni"),
    "results.sub_do": ("Record", "Enregistrer", "Registra"),
    "results.sub_done": (
        "Recorded: the substitute is named for those rounds.",
        "Enregistré : le remplaçant est nommé pour ses tours.",
        "Registrato: il sostituto è indicato per i suoi turni."),
    "results.corrected_mark": ("corrected ({id})", "corrigé ({id})", "corretto ({id})"),
    "results.lead": ("Lead", "Entame", "Attacco"),
    "results.of": (
        "{n} of {expected} results",
        "{n} résultats sur {expected}",
        "{n} risultati su {expected}"),
    "results.top": ("top {top}", "top {top}", "top {top}"),
    "results.fouled": (
        "fouled board (Law 87)",
        "donne faussée (Loi 87)",
        "board alterato (Legge 87)"),
    "results.by": ("By", "Par", "Da"),
    "results.tricks": ("Tricks", "Levées", "Prese"),
    "results.score_ns": ("Score NS", "Marque NS", "Punteggio NS"),
    "results.rankings": ("Rankings", "Classements", "Classifiche"),
    "results.dealer": ("dealer {seat}", "donneur {seat}", "mazziere {seat}"),
    "results.vulnerable": ("vulnerable {vul}", "vulnérable {vul}", "in zona {vul}"),
    "results.card_title": (
        "Pair {pair} · section {section}",
        "Paire {pair} · section {section}",
        "Coppia {pair} · sezione {section}"),
    "results.team_of": ("team {team}", "équipe {team}", "squadra {team}"),
    "results.rank_n": ("Rank {rank}", "Place {rank}", "Posizione {rank}"),
    "results.sat": ("Sat", "Orientation", "Linea"),
    "results.opponents": ("Opponents", "Adversaires", "Avversari"),
    "results.not_found": ("not found", "introuvable", "non trovato"),
    "results.updated": ("updated {time}", "mis à jour à {time}", "aggiornato alle {time}"),
    "units.MP": ("MP", "PM", "PM"),
    "units.IMPs": ("IMPs", "IMP", "IMP"),
    "units.VP": ("VP", "PV", "PV"),
    "field.one-winner": ("one-winner", "un seul classement", "classifica unica"),
    "field.two-winner": ("two-winner", "deux classements", "due classifiche"),
    "ruling.status.in_force": ("in force", "en vigueur", "in vigore"),
    "ruling.status.withdrawn": ("withdrawn", "retirée", "ritirata"),
    "ruling.status.replaced": ("replaced", "remplacée", "sostituita"),
    "login.title": (
        "Tenace director · log in",
        "Tenace arbitre · connexion",
        "Tenace arbitro · accesso"),
    "login.director": ("director", "arbitre", "arbitro"),
    "login.password": ("Password", "Mot de passe", "Password"),
    "login.submit": ("Log in", "Se connecter", "Accedi"),
    "login.no_director": (
        "No director's account yet",
        "Pas encore de compte arbitre",
        "Ancora nessun account arbitro"),
    "login.create": (
        "On the hub's computer, create one (it asks for the password):",
        "Sur l'ordinateur du hub, créez-en un (il demande le mot de passe) :",
        "Sul computer dell'hub, createne uno (chiede la password):"),
    "login.then": ("then log in here.", "puis connectez-vous ici.", "poi accedete qui."),
    "login.users": (
        "lists, removes and changes accounts (roles: director, scorer, viewer).",
        "liste, supprime et modifie les comptes (rôles : director, scorer, viewer).",
        "elenca, rimuove e modifica gli account (ruoli: director, scorer, viewer)."),
    "login.no_answer": ("the hub does not answer", "le hub ne répond pas", "l'hub non risponde"),
    "login.checking": ("checking…", "vérification…", "verifica…"),
    "cards.page": (
        "Tenace table and guide cards",
        "Tenace cartes de table et de guidage",
        "Tenace cartellini dei tavoli e di guida"),
    "check.page": (
        "Tenace device check",
        "Tenace vérification des appareils",
        "Tenace verifica dei dispositivi"),
    "evening.page": ("Tenace evening", "Tenace soirée", "Tenace serata"),
    "screen.page": ("Tenace results", "Tenace résultats", "Tenace risultati"),
    "devices.seat_tablet": ("seat tablet", "tablette de place", "tablet del posto"),
}

_WORDS.update(ALERT_WORDS)      # the alerts and rulings (hub.console_alert_words)
_WORDS.update(EVENING_WORDS)    # the director's evening (hub.console_words)

STRINGS: dict[str, dict[str, str]] = {
    language: {key: texts[i] for key, texts in _WORDS.items()}
    for i, language in enumerate(("en", "fr", "it"))
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
