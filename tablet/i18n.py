"""The tablet's words in French, English and Italian, and how cards and calls are written.

``Translator(language)`` returns the text of a key with its fields filled in
(``tr("auction.turn", seat=...)``); a key missing in a language falls back to English, an
unknown key to the key itself (logged), never an exception in front of a player.

Cards and calls are written the way each country's players read them: honours K Q J are
R D V in French and R D F in Italian, the ten is ``10``, no trump is ``SA`` (sans-atout,
senza atout) in French and Italian. Suits are the symbols, in two colours (spades and clubs
black, hearts and diamonds red) or four (spades black, hearts red, diamonds blue, clubs
green). Pure Python: the Kivy layer and the presenter both use it.
"""

from __future__ import annotations

import logging
import string
from typing import Any

__all__ = [
    "LANGUAGES", "STRINGS", "SUIT_SYMBOLS", "Translator", "call_label", "card_label",
    "rank_label", "reply_key", "seat_letter", "strain_label", "suit_colour",
]

log = logging.getLogger(__name__)

# Language code -> its own name (the language switch shows these).
LANGUAGES: dict[str, str] = {"fr": "Français", "en": "English", "it": "Italiano"}

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

Colour = tuple[float, float, float, float]
_BLACK: Colour = (0.08, 0.08, 0.10, 1.0)
_RED: Colour = (0.80, 0.05, 0.10, 1.0)
_BLUE: Colour = (0.05, 0.30, 0.80, 1.0)
_GREEN: Colour = (0.0, 0.52, 0.18, 1.0)
_TWO = {"S": _BLACK, "H": _RED, "D": _RED, "C": _BLACK}
_FOUR = {"S": _BLACK, "H": _RED, "D": _BLUE, "C": _GREEN}

# Rank letter as bridgecore writes it -> how it is shown, per language.
_RANKS = {
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"},
    "fr": {"A": "A", "K": "R", "Q": "D", "J": "V", "T": "10"},
    "it": {"A": "A", "K": "R", "Q": "D", "J": "F", "T": "10"},
}
_NOTRUMP = {"en": "NT", "fr": "SA", "it": "SA"}
_SEAT_LETTERS = {"en": "NESW", "fr": "NESO", "it": "NESO"}

# key -> {language: text}. English is complete; the test checks every key has all three
# and the same fields in each.
STRINGS: dict[str, dict[str, str]] = {
    # Seats, sides, vulnerability (Law 2)
    "seat.N": {"en": "North", "fr": "Nord", "it": "Nord"},
    "seat.E": {"en": "East", "fr": "Est", "it": "Est"},
    "seat.S": {"en": "South", "fr": "Sud", "it": "Sud"},
    "seat.W": {"en": "West", "fr": "Ouest", "it": "Ovest"},
    "side.NS": {"en": "North-South", "fr": "Nord-Sud", "it": "Nord-Sud"},
    "side.EW": {"en": "East-West", "fr": "Est-Ouest", "it": "Est-Ovest"},
    "vul.None": {"en": "Nobody vulnerable", "fr": "Personne vulnérable",
                 "it": "Nessuno in zona"},
    "vul.NS": {"en": "North-South vulnerable", "fr": "Nord-Sud vulnérables",
               "it": "Nord-Sud in zona"},
    "vul.EW": {"en": "East-West vulnerable", "fr": "Est-Ouest vulnérables",
               "it": "Est-Ovest in zona"},
    "vul.All": {"en": "All vulnerable", "fr": "Tous vulnérables", "it": "Tutti in zona"},
    # Header
    "header.table": {"en": "Table {table}", "fr": "Table {table}", "it": "Tavolo {table}"},
    "header.board": {"en": "Board {board}", "fr": "Donne {board}", "it": "Smazzata {board}"},
    "header.dealer": {"en": "Dealer {seat}", "fr": "Donneur {seat}", "it": "Mazziere {seat}"},
    "header.round": {"en": "Round {round}", "fr": "Tour {round}", "it": "Turno {round}"},
    "header.seat": {"en": "You: {seat}", "fr": "Vous : {seat}", "it": "Voi: {seat}"},
    "clock.left": {"en": "{time} left", "fr": "Reste {time}", "it": "Restano {time}"},
    "clock.over": {"en": "Time is up", "fr": "Temps écoulé", "it": "Tempo scaduto"},
    "conn.online": {"en": "Connected", "fr": "Connecté", "it": "Connesso"},
    "link.cut_off": {"en": "CUT OFF FROM THE HUB: play on, {count} entries wait and will be "
                           "sent in order",
                     "fr": "COUPÉ DU SERVEUR : continuez à jouer, {count} saisies attendent "
                           "et partiront dans l'ordre",
                     "it": "SCOLLEGATO DAL SERVER: continuate a giocare, {count} voci "
                           "attendono e partiranno in ordine"},
    "link.waiting_cards": {"en": "Waiting for the hub: {cards}",
                           "fr": "En attente du serveur : {cards}",
                           "it": "In attesa del server: {cards}"},
    "conn.offline": {"en": "Not connected", "fr": "Non connecté", "it": "Non connesso"},
    "conn.connecting": {"en": "Connecting", "fr": "Connexion", "it": "Connessione"},
    "director.button": {"en": "Director", "fr": "Arbitre", "it": "Arbitro"},
    "director.confirm": {"en": "Call? Tap", "fr": "Appeler ? Touchez", "it": "Chiamare? Tocca"},
    "director.called": {"en": "The director has been called", "fr": "L'arbitre est appelé",
                        "it": "L'arbitro è stato chiamato"},
    # Kiosk mode (tablet.kiosk): leaving with the exit PIN
    "kiosk.pin": {"en": "Exit PIN", "fr": "Code de sortie", "it": "Codice di uscita"},
    "kiosk.wrong": {"en": "Wrong PIN", "fr": "Code faux", "it": "Codice errato"},
    "kiosk.cancel": {"en": "Cancel", "fr": "Annuler", "it": "Annulla"},
    "kiosk.leave": {"en": "Leave", "fr": "Quitter", "it": "Esci"},
    # Check-in (Law 5)
    "checkin.title": {"en": "Check in", "fr": "Enregistrement", "it": "Registrazione"},
    "checkin.pair": {"en": "Pair", "fr": "Paire", "it": "Coppia"},
    "checkin.players": {"en": "Player numbers", "fr": "Numéros des joueurs",
                        "it": "Numeri dei giocatori"},
    "checkin.name": {"en": "Name", "fr": "Nom", "it": "Nome"},
    "checkin.send": {"en": "Check in", "fr": "Valider", "it": "Conferma"},
    "checkin.expected": {"en": "The movement gives pair {pair} for {side} here",
                         "fr": "Le mouvement place ici la paire {pair} en {side}",
                         "it": "Il movimento prevede qui la coppia {pair} in {side}"},
    "checkin.mismatch": {
        "en": "Pair {pair} is not the pair the movement gives for {side} at this table "
              "(pair {expected}): check the table number and direction, or call the director",
        "fr": "La paire {pair} n'est pas celle que le mouvement place en {side} à cette "
              "table (paire {expected}) : vérifiez la table et l'orientation, ou appelez "
              "l'arbitre",
        "it": "La coppia {pair} non è quella che il movimento prevede in {side} a questo "
              "tavolo (coppia {expected}): controllate tavolo e linea, o chiamate l'arbitro"},
    "checkin.missing_pair": {"en": "Enter the pair number", "fr": "Entrez le numéro de paire",
                             "it": "Inserite il numero della coppia"},
    # Board start
    "board.title": {"en": "Board to play", "fr": "Donne à jouer", "it": "Smazzata da giocare"},
    "board.number": {"en": "Board number", "fr": "Numéro de donne",
                     "it": "Numero della smazzata"},
    "board.start": {"en": "Start the board", "fr": "Commencer la donne",
                    "it": "Inizia la smazzata"},
    "board.pairs": {"en": "NS pair {ns}  -  EW pair {ew}", "fr": "NS paire {ns}  -  EO paire {ew}",
                    "it": "NS coppia {ns}  -  EO coppia {ew}"},
    "board.next": {"en": "Next round: {moves}", "fr": "Tour suivant : {moves}",
                   "it": "Turno seguente: {moves}"},
    "board.next_pair": {"en": "pair {pair} to table {table} {side}",
                        "fr": "paire {pair} à la table {table} {side}",
                        "it": "coppia {pair} al tavolo {table} {side}"},
    "board.next_boards": {"en": "boards to table {tables}", "fr": "étuis à la table {tables}",
                          "it": "astucci al tavolo {tables}"},
    "board.new_round": {"en": "New round: check in", "fr": "Nouveau tour : enregistrement",
                        "it": "Nuovo turno: registrazione"},
    "board.missing": {"en": "Enter the board number", "fr": "Entrez le numéro de la donne",
                      "it": "Inserite il numero della smazzata"},
    "board.wrong": {
        "en": "Board {board} is not one of this table's boards in this round: do not play "
              "it, call the director (Law 15)",
        "fr": "La donne {board} n'est pas prévue à cette table pour ce tour : ne la jouez "
              "pas, appelez l'arbitre (Loi 15)",
        "it": "La smazzata {board} non è prevista a questo tavolo in questo turno: non "
              "giocatela, chiamate l'arbitro (Legge 15)"},
    "board.scheduled": {"en": "Boards of this round", "fr": "Donnes de ce tour",
                        "it": "Smazzate di questo turno"},
    # Auction
    "auction.turn": {"en": "{seat} to call", "fr": "À {seat} de parler",
                     "it": "Dichiara {seat}"},
    "auction.your_turn": {"en": "Your turn to call", "fr": "À vous de parler",
                          "it": "Tocca a voi dichiarare"},
    "auction.over": {"en": "The auction is over", "fr": "Les enchères sont terminées",
                     "it": "La licita è terminata"},
    "auction.passed_out": {"en": "Passed out", "fr": "Donne passée", "it": "Smazzata passata"},
    "call.pass": {"en": "Pass", "fr": "Passe", "it": "Passo"},
    "pad.alert": {"en": "Alert", "fr": "Alerte", "it": "Alert"},
    "pad.alert_armed": {"en": "\u2713 Alert", "fr": "\u2713 Alerte", "it": "\u2713 Alert"},
    "pad.stop": {"en": "STOP", "fr": "STOP", "it": "STOP"},
    "pad.undo": {"en": "Undo", "fr": "Annuler", "it": "Annulla"},
    "pad.explanation": {"en": "Explanation for the opponents (optional)",
                        "fr": "Explication pour les adversaires (facultative)",
                        "it": "Spiegazione per gli avversari (facoltativa)"},
    # Explanations of calls (Laws 16, 20F)
    "explain.for": {"en": "for {side}: {text}", "fr": "pour {side} : {text}",
                    "it": "per {side}: {text}"},
    "explain.ask_title": {"en": "Ask what a call means:",
                          "fr": "Demander le sens d'une enchère :",
                          "it": "Chiedere il significato di una dichiarazione:"},
    "explain.ask": {"en": "? {call} ({seat})", "fr": "? {call} ({seat})",
                    "it": "? {call} ({seat})"},
    "explain.asked": {"en": "{seat} asks what {call} by {caller} means",
                      "fr": "{seat} demande le sens de {call} de {caller}",
                      "it": "{seat} chiede il significato di {call} di {caller}"},
    "explain.hint": {"en": "Your explanation for the opponents",
                     "fr": "Votre explication pour les adversaires",
                     "it": "La vostra spiegazione per gli avversari"},
    "explain.send": {"en": "Explain", "fr": "Expliquer", "it": "Spiega"},
    "explain.sent": {"en": "Question sent: the other side will answer on its tablet",
                     "fr": "Question envoyée : l'autre camp répond sur sa tablette",
                     "it": "Domanda inviata: l'altra linea risponde sul suo tablet"},
    # Irregularities the table saw (Laws 9, 27-57): the director is called
    "irr.insufficient_bid": {"en": "Insufficient bid by {seat} (Law {law})",
                             "fr": "Enchère insuffisante de {seat} (Loi {law})",
                             "it": "Dichiarazione insufficiente di {seat} (Legge {law})"},
    "irr.call_out_of_rotation": {"en": "{seat} called out of turn (Law {law})",
                                 "fr": "{seat} a parlé hors tour (Loi {law})",
                                 "it": "{seat} ha dichiarato fuori turno (Legge {law})"},
    "irr.call_after_final_pass": {"en": "{seat} called after the final pass (Law {law})",
                                  "fr": "{seat} a parlé après la dernière passe (Loi {law})",
                                  "it": "{seat} ha dichiarato dopo l'ultimo passo "
                                        "(Legge {law})"},
    "irr.lead_out_of_turn": {"en": "Lead out of turn by {seat} (Law {law})",
                             "fr": "Entame hors tour de {seat} (Loi {law})",
                             "it": "Attacco fuori turno di {seat} (Legge {law})"},
    "irr.play_out_of_turn": {"en": "{seat} played out of turn (Law {law})",
                             "fr": "{seat} a joué hors tour (Loi {law})",
                             "it": "{seat} ha giocato fuori turno (Legge {law})"},
    "irr.card_exposed": {"en": "Card exposed by {seat} (Law {law})",
                         "fr": "Carte exposée par {seat} (Loi {law})",
                         "it": "Carta esposta da {seat} (Legge {law})"},
    "irr.director_called": {"en": "the director is called", "fr": "l'arbitre est appelé",
                            "it": "l'arbitro è chiamato"},
    "irr.accepted": {"en": "accepted by {seat}", "fr": "acceptée par {seat}",
                     "it": "accettata da {seat}"},
    "irr.ruled": {"en": "Director ({law}): {text}", "fr": "Arbitre ({law}) : {text}",
                  "it": "Arbitro ({law}): {text}"},
    "irr.accept": {"en": "Accept it (Law {law})", "fr": "L'accepter (Loi {law})",
                   "it": "Accettarla (Legge {law})"},
    "irr.accept_for": {"en": "{seat} accepts (Law {law})", "fr": "{seat} accepte (Loi {law})",
                       "it": "{seat} accetta (Legge {law})"},
    "stop.wait": {"en": "STOP: wait {seconds} s", "fr": "STOP : attendez {seconds} s",
                  "it": "STOP: attendete {seconds} s"},
    "stop.shown": {"en": "STOP: jump bid by {seat}", "fr": "STOP : saut de {seat}",
                   "it": "STOP: salto di {seat}"},
    "contract.by": {"en": "{contract} by {seat}", "fr": "{contract} par {seat}",
                    "it": "{contract} da {seat}"},
    # Play
    "play.turn": {"en": "{seat} to play", "fr": "À {seat} de jouer", "it": "Gioca {seat}"},
    "play.lead": {"en": "{seat} to lead", "fr": "Entame : {seat}", "it": "Attacca {seat}"},
    "play.your_turn": {"en": "Your turn to play", "fr": "À vous de jouer",
                       "it": "Tocca a voi giocare"},
    "play.your_lead": {"en": "Your lead", "fr": "À vous d'entamer", "it": "Tocca a voi attaccare"},
    "play.dummy_turn": {"en": "Play from dummy", "fr": "Jouez du mort",
                        "it": "Giocate dal morto"},
    "play.from_dummy": {"en": "{seat} plays from dummy", "fr": "{seat} joue du mort",
                        "it": "{seat} gioca dal morto"},
    "play.you_are_dummy": {"en": "You are dummy", "fr": "Vous êtes le mort",
                           "it": "Siete il morto"},
    "play.dummy": {"en": "Dummy: {seat}", "fr": "Mort : {seat}", "it": "Morto: {seat}"},
    "play.tricks": {"en": "Tricks NS {ns} - EW {ew}", "fr": "Levées NS {ns} - EO {ew}",
                    "it": "Prese NS {ns} - EO {ew}"},
    "play.trick": {"en": "Trick {number}", "fr": "Levée {number}", "it": "Presa {number}"},
    "play.trick_won": {"en": "Trick {number}\nwon by {seat}",
                       "fr": "Levée {number}\nfaite par {seat}",
                       "it": "Presa {number}\nvinta da {seat}"},
    "play.last_trick": {"en": "Last trick", "fr": "Dernière levée", "it": "Ultima presa"},
    "play.leave": {"en": "Next board", "fr": "Donne suivante", "it": "Smazzata seguente"},
    "play.readers_keep": {"en": "Not connected: the card readers record the play. Play on; "
                                "at the end, go on to the next board.",
                          "fr": "Pas de connexion : les lecteurs enregistrent le jeu de la "
                                "carte. Jouez ; à la fin, passez à la donne suivante.",
                          "it": "Non connesso: i lettori registrano il gioco. Giocate; alla "
                                "fine, passate alla smazzata seguente."},
    "play.back_to_trick": {"en": "Back to the trick", "fr": "Retour à la levée",
                           "it": "Torna alla presa"},
    "play.your_hand": {"en": "Your hand", "fr": "Votre main", "it": "La vostra mano"},
    "play.picker": {"en": "Card played by {seat}", "fr": "Carte jouée par {seat}",
                    "it": "Carta giocata da {seat}"},
    # Claims (Laws 68-70)
    "prompt.card": {"en": "The card reader missed a card: tap the card {seat} played to trick "
                    "{trick}",
                    "fr": "Le lecteur n'a pas lu une carte : touchez la carte jouée par {seat} "
                    "à la levée {trick}",
                    "it": "Il lettore non ha letto una carta: toccate la carta giocata da "
                    "{seat} alla presa {trick}"},
    "prompt.not_yet": {"en": "{seat} had not played when {after} did",
                       "fr": "{seat} n'avait pas joué quand {after} a joué",
                       "it": "{seat} non aveva giocato quando ha giocato {after}"},
    "prompt.sweep": {"en": "The reader missed {count} card(s) of {seat}'s hand: sweep it over "
                     "the reader again",
                     "fr": "Le lecteur a manqué {count} carte(s) de la main de {seat} : "
                     "repassez-la sur le lecteur",
                     "it": "Il lettore non ha letto {count} carta/e della mano di {seat}: "
                     "ripassatela sul lettore"},
    "claim.button": {"en": "Claim", "fr": "Revendiquer", "it": "Claim"},
    "claim.ask": {"en": "How many tricks in all do you claim? (your side has {won})",
                  "fr": "Combien de levées revendiquez-vous en tout ? (votre camp en a {won})",
                  "it": "Quante prese reclamate in tutto? (la vostra linea ne ha {won})"},
    "claim.all": {"en": "All the rest", "fr": "Toutes les autres", "it": "Tutte le altre"},
    "claim.concede": {"en": "Concede the rest", "fr": "Abandonner le reste",
                      "it": "Concedere il resto"},
    "claim.total": {"en": "{seat} claims {total} tricks", "fr": "{seat} revendique {total} levées",
                    "it": "{seat} reclama {total} prese"},
    "claim.concedes": {"en": "{seat} concedes the remaining tricks",
                       "fr": "{seat} abandonne les levées restantes",
                       "it": "{seat} concede le prese restanti"},
    "claim.cards": {"en": "{seat}'s cards", "fr": "Cartes de {seat}", "it": "Carte di {seat}"},
    "claim.statement": {"en": "Your line of play (optional)",
                        "fr": "Votre ligne de jeu (facultative)",
                        "it": "La vostra linea di gioco (facoltativa)"},
    "claim.cancel": {"en": "Cancel", "fr": "Annuler", "it": "Annulla"},
    "claim.open": {"en": "{seat} claims {tricks} of the {remaining} remaining tricks",
                   "fr": "{seat} revendique {tricks} des {remaining} levées restantes",
                   "it": "{seat} reclama {tricks} delle {remaining} prese restanti"},
    "claim.accept": {"en": "Accept", "fr": "J'accepte", "it": "Accetto"},
    "claim.dispute": {"en": "Dispute", "fr": "Je conteste", "it": "Contesto"},
    "claim.answer_for": {"en": "{seat}, do you accept?", "fr": "{seat}, acceptez-vous ?",
                         "it": "{seat}, accettate?"},
    "claim.waiting": {"en": "Waiting for the opponents' answer",
                      "fr": "En attente de la réponse des adversaires",
                      "it": "In attesa della risposta degli avversari"},
    "claim.disputed": {"en": "The claim is disputed: the director is called (Law 68D)",
                       "fr": "La revendication est contestée : l'arbitre est appelé (Loi 68D)",
                       "it": "Il claim è contestato: è chiamato l'arbitro (Legge 68D)"},
    # Result (Law 79A)
    "result.title": {"en": "Result", "fr": "Résultat", "it": "Risultato"},
    "result.line": {"en": "{contract} by {seat}: {tricks} tricks",
                    "fr": "{contract} par {seat} : {tricks} levées",
                    "it": "{contract} da {seat}: {tricks} prese"},
    "result.made": {"en": "Made", "fr": "Réussi", "it": "Mantenuto"},
    "result.over": {"en": "Made +{n}", "fr": "Réussi +{n}", "it": "Mantenuto +{n}"},
    "result.down": {"en": "Down {n}", "fr": "Chute de {n}", "it": "Sotto di {n}"},
    "result.passed_out": {"en": "Passed out", "fr": "Donne passée", "it": "Smazzata passata"},
    "result.score": {"en": "NS {ns}   EW {ew}", "fr": "NS {ns}   EO {ew}",
                     "it": "NS {ns}   EO {ew}"},
    "result.confirm_ask": {"en": "{side}: do you agree with this result?",
                           "fr": "{side} : êtes-vous d'accord avec ce résultat ?",
                           "it": "{side}: siete d'accordo con questo risultato?"},
    "result.agree": {"en": "Agree", "fr": "D'accord", "it": "D'accordo"},
    "result.disagree": {"en": "Disagree", "fr": "Pas d'accord", "it": "Non d'accordo"},
    "result.confirmed": {"en": "Result confirmed", "fr": "Résultat confirmé",
                         "it": "Risultato confermato"},
    "result.waiting": {"en": "Waiting for {side} to confirm",
                       "fr": "En attente de la confirmation de {side}",
                       "it": "In attesa della conferma di {side}"},
    "result.disagreed": {"en": "Result disputed: the director is called (Law 79B)",
                         "fr": "Résultat contesté : l'arbitre est appelé (Loi 79B)",
                         "it": "Risultato contestato: è chiamato l'arbitro (Legge 79B)"},
    "result.next": {"en": "Next board", "fr": "Donne suivante", "it": "Smazzata successiva"},
    "result.hand_record": {"en": "Hand record", "fr": "Diagramme", "it": "Diagramma"},
    # Refusals by the tablet itself
    "err.not_now": {"en": "Not possible now", "fr": "Pas possible maintenant",
                    "it": "Non possibile ora"},
    "err.not_your_turn": {"en": "It is {seat}'s turn", "fr": "C'est au tour de {seat}",
                          "it": "È il turno di {seat}"},
    "err.illegal_call": {"en": "This call is not allowed now",
                         "fr": "Cette enchère n'est pas permise maintenant",
                         "it": "Questa dichiarazione non è permessa ora"},
    "err.stop_wait": {"en": "STOP: wait before calling", "fr": "STOP : attendez avant de parler",
                      "it": "STOP: attendete prima di dichiarare"},
    "err.illegal_card": {"en": "You must follow suit", "fr": "Vous devez fournir",
                         "it": "Dovete rispondere al colore"},
    "err.no_card": {"en": "This card is not in the hand",
                    "fr": "Cette carte n'est pas dans la main",
                    "it": "Questa carta non è nella mano"},
    "err.undo_late": {"en": "Too late to change the call: partner has called (Law 25A)",
                      "fr": "Trop tard pour changer d'enchère : le partenaire a parlé (Loi 25A)",
                      "it": "Troppo tardi per cambiare la dichiarazione: il compagno ha "
                            "dichiarato (Legge 25A)"},
    "err.undo_none": {"en": "No call to take back", "fr": "Aucune enchère à reprendre",
                      "it": "Nessuna dichiarazione da ritirare"},
    "err.claim": {"en": "A claim is not possible now", "fr": "Revendication impossible maintenant",
                  "it": "Claim non possibile ora"},
    "err.claim_tricks": {"en": "Claim between 0 and {remaining} tricks",
                         "fr": "Revendiquez entre 0 et {remaining} levées",
                         "it": "Reclamate tra 0 e {remaining} prese"},
    # Replies from the hub (docs/protocol.md codes)
    "reply.not_your_turn": {"en": "Refused: it is {seat}'s turn",
                            "fr": "Refusé : c'est au tour de {seat}",
                            "it": "Rifiutato: è il turno di {seat}"},
    "reply.not_your_turn_plain": {"en": "Refused: it is not your turn",
                                  "fr": "Refusé : ce n'est pas votre tour",
                                  "it": "Rifiutato: non è il vostro turno"},
    "reply.illegal_call": {"en": "Refused: this call is not allowed now (insufficient bid or "
                                 "double not allowed)",
                           "fr": "Refusé : cette enchère n'est pas permise maintenant "
                                 "(enchère insuffisante ou contre non permis)",
                           "it": "Rifiutato: questa dichiarazione non è permessa ora "
                                 "(dichiarazione insufficiente o contro non permesso)"},
    "reply.illegal_play": {"en": "Refused: this card cannot be played now (follow suit)",
                           "fr": "Refusé : cette carte ne peut pas être jouée (fournissez "
                                 "à la couleur)",
                           "it": "Rifiutato: questa carta non può essere giocata (rispondete "
                                 "al colore)"},
    "reply.wrong_state": {"en": "Refused: not possible at this stage of the board",
                          "fr": "Refusé : impossible à ce stade de la donne",
                          "it": "Rifiutato: non possibile in questa fase della smazzata"},
    "reply.clock_skew": {"en": "Refused: the tablet's clock is wrong, call the director",
                         "fr": "Refusé : l'horloge de la tablette est fausse, appelez l'arbitre",
                         "it": "Rifiutato: l'orologio del tablet è sbagliato, chiamate "
                               "l'arbitro"},
    "reply.wrong_table": {"en": "Refused: this tablet is set for another table, call the "
                                "director",
                          "fr": "Refusé : cette tablette est réglée pour une autre table, "
                                "appelez l'arbitre",
                          "it": "Rifiutato: questo tablet è impostato per un altro tavolo, "
                                "chiamate l'arbitro"},
    "reply.out_of_order": {"en": "Refused: message out of order, the tablet catches up",
                           "fr": "Refusé : message hors d'ordre, la tablette se resynchronise",
                           "it": "Rifiutato: messaggio fuori ordine, il tablet si "
                                 "risincronizza"},
    "reply.storage": {"en": "The hub could not record it: please do it again",
                      "fr": "Le serveur n'a pas pu l'enregistrer : recommencez",
                      "it": "Il server non ha potuto registrarlo: rifatelo"},
    "reply.rate_limited": {"en": "Too fast: the hub takes this tablet's actions more slowly. "
                                 "Do it again in a moment",
                           "fr": "Trop rapide : le serveur ralentit cette tablette. "
                                 "Recommencez dans un instant",
                           "it": "Troppo veloce: il server rallenta questo tablet. "
                                 "Rifatelo tra un momento"},
    "reply.no_event": {"en": "No event yet: the director is setting the evening up. Check in "
                              "again in a moment",
                       "fr": "Pas encore de tournoi : l'arbitre le prépare. Réessayez dans "
                             "un instant",
                       "it": "Nessun torneo ancora: l'arbitro lo sta preparando. Riprovate "
                             "tra un momento"},
    "reply.malformed": {"en": "Refused: the hub did not understand the tablet ({code}), call "
                              "the director",
                        "fr": "Refusé : le serveur n'a pas compris la tablette ({code}), "
                              "appelez l'arbitre",
                        "it": "Rifiutato: il server non ha capito il tablet ({code}), "
                              "chiamate l'arbitro"},
    # Notices the hub adds to a reply (docs/protocol.md)
    "notice.wrong_board": {
        "en": "This is not the board for this table and round: call the director (Law 15)",
        "fr": "Ce n'est pas la donne prévue à cette table pour ce tour : appelez l'arbitre "
              "(Loi 15)",
        "it": "Non è la smazzata prevista a questo tavolo in questo turno: chiamate "
              "l'arbitro (Legge 15)"},
    "notice.wrong_seating": {
        "en": "These players are not the ones expected here: check the table and direction, "
              "or call the director (Law 5B)",
        "fr": "Ces joueurs ne sont pas ceux attendus ici : vérifiez la table et "
              "l'orientation, ou appelez l'arbitre (Loi 5B)",
        "it": "Questi giocatori non sono quelli attesi qui: controllate tavolo e linea, o "
              "chiamate l'arbitro (Legge 5B)"},
    "notice.board_already_played": {
        "en": "One of the pairs has already played this board: call the director (Law 15B)",
        "fr": "Une des paires a déjà joué cette donne : appelez l'arbitre (Loi 15B)",
        "it": "Una delle coppie ha già giocato questa smazzata: chiamate l'arbitro "
              "(Legge 15B)"},
}

# Reply codes with a message of their own; the rest share reply.malformed.
_REPLY_KEYS = {"not_your_turn", "illegal_call", "illegal_play", "wrong_state", "clock_skew",
               "wrong_table", "out_of_order", "storage", "no_event"}


def reply_key(code: str) -> str | None:
    """The message key for a rejection code (None for ``ok`` and ``duplicate``)."""
    if code in ("ok", "duplicate"):
        return None
    return f"reply.{code}" if code in _REPLY_KEYS else "reply.malformed"


class _Fields(string.Formatter):
    """Leaves ``{name}`` in place when a field is missing rather than raising."""

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str) and key not in kwargs:
            log.warning("translation field %r missing", key)
            return "{" + key + "}"
        return super().get_value(key, args, kwargs)


_FORMATTER = _Fields()


class Translator:
    """``tr = Translator("fr"); tr("auction.turn", seat=tr.seat("W"))``."""

    def __init__(self, language: str = "en"):
        if language not in LANGUAGES:
            raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
        self.language = language

    def __call__(self, key: str, **fields: Any) -> str:
        texts = STRINGS.get(key)
        if texts is None:
            log.warning("no text for %r", key)
            return key
        text = texts.get(self.language) or texts["en"]
        return _FORMATTER.format(text, **fields) if fields or "{" in text else text

    def seat(self, letter: str) -> str:
        """A seat's name: ``"W"`` -> West, Ouest, Ovest."""
        return self(f"seat.{letter}")

    def seat_letter(self, letter: str) -> str:
        return seat_letter(letter, self.language)

    def side(self, side: str) -> str:
        return self(f"side.{side}")

    def call(self, call: str) -> str:
        return call_label(call, self.language)

    def card(self, card: str) -> str:
        return card_label(card, self.language)

    def rank(self, rank: str) -> str:
        return rank_label(rank, self.language)

    def strain(self, strain: str) -> str:
        return strain_label(strain, self.language)


def seat_letter(letter: str, language: str) -> str:
    """N E S W in English, N E S O in French and Italian."""
    return _SEAT_LETTERS[language]["NESW".index(letter)]


def rank_label(rank: str, language: str) -> str:
    """A rank letter as bridgecore writes it (``"K"``, ``"T"``) as shown in ``language``."""
    return _RANKS[language].get(rank, rank)


def strain_label(strain: str, language: str) -> str:
    """``"S"`` -> ♠, ``"NT"`` -> NT or SA."""
    if strain == "NT":
        return _NOTRUMP[language]
    return SUIT_SYMBOLS[strain]


def card_label(card: str, language: str) -> str:
    """``"SK"`` -> ♠K, ♠R (French and Italian); ``"HT"`` -> ♥10."""
    return SUIT_SYMBOLS[card[0]] + rank_label(card[1:], language)


def call_label(call: str, language: str) -> str:
    """A call as the hub writes it (``"1NT"``, ``"Pass"``, ``"X"``, ``"XX"``) for players."""
    if call == "Pass":
        return STRINGS["call.pass"][language]
    if call in ("X", "XX"):
        return call
    return call[0] + strain_label(call[1:], language)


def suit_colour(suit: str, four_colour: bool = False) -> Colour:
    """The RGBA colour of a suit's symbol and cards."""
    return (_FOUR if four_colour else _TWO)[suit]
