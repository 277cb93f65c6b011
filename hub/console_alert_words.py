"""The console's words for the alerts: each alert kind's name (``kind.*``), what it means
(``explain.*``) and the director's ruling form (``ruling.*``), in English, French and
Italian: merged into hub.console_i18n's catalogue, which stays the one mechanism (this file
only keeps that module a readable size)."""

from __future__ import annotations

__all__ = ["ALERT_WORDS"]

# key -> (English, French, Italian), as in hub.console_i18n.
ALERT_WORDS: dict[str, tuple[str, str, str]] = {
    "kind.wrong_card_count": (
        "Wrong card count",
        "Nombre de cartes erroné",
        "Numero di carte errato"),
    "kind.duplicate_card": ("Duplicate card", "Carte en double", "Carta doppia"),
    "kind.missing_card": ("Missing card", "Carte manquante", "Carta mancante"),
    "kind.call_out_of_rotation": (
        "Call out of rotation",
        "Enchère hors tour",
        "Dichiarazione fuori turno"),
    "kind.insufficient_bid": (
        "Insufficient bid",
        "Enchère insuffisante",
        "Dichiarazione insufficiente"),
    "kind.inadmissible_double": (
        "Inadmissible double",
        "Contre inadmissible",
        "Contro inammissibile"),
    "kind.inadmissible_redouble": (
        "Inadmissible redouble",
        "Surcontre inadmissible",
        "Surcontro inammissibile"),
    "kind.bid_above_seven": (
        "Bid above seven",
        "Enchère au-delà de sept",
        "Dichiarazione oltre sette"),
    "kind.call_in_breach_of_pass_obligation": (
        "Call in breach of an obligation to pass",
        "Enchère malgré l'obligation de passer",
        "Dichiarazione malgrado l'obbligo di passare"),
    "kind.call_after_final_pass": (
        "Call after the final pass",
        "Enchère après le passe final",
        "Dichiarazione dopo il passo finale"),
    "kind.change_of_call": ("Change of call", "Changement d'enchère", "Cambio di dichiarazione"),
    "kind.lead_out_of_turn": ("Lead out of turn", "Entame hors tour", "Attacco fuori turno"),
    "kind.play_out_of_turn": (
        "Play out of turn",
        "Carte jouée hors tour",
        "Carta giocata fuori turno"),
    "kind.card_not_in_hand": (
        "Card not in the hand",
        "Carte absente de la main",
        "Carta non presente nella mano"),
    "kind.card_played_twice": (
        "Card played twice",
        "Carte jouée deux fois",
        "Carta giocata due volte"),
    "kind.revoke": ("Revoke", "Renonce", "Renonce (revoca)"),
    "kind.disputed_claim": ("Disputed claim", "Revendication contestée", "Reclamo contestato"),
    "kind.wrong_board": ("Wrong board", "Mauvais étui", "Board sbagliato"),
    "kind.wrong_table": ("Wrong table", "Mauvaise table", "Tavolo sbagliato"),
    "kind.wrong_direction": ("Wrong direction", "Mauvaise orientation", "Linea sbagliata"),
    "kind.wrong_pair": ("Wrong pair", "Mauvaise paire", "Coppia sbagliata"),
    "kind.board_already_played": (
        "Board already played",
        "Donne déjà jouée",
        "Smazzata già giocata"),
    "kind.hand_not_dealt": (
        "Hand of another board",
        "Main d'un autre étui",
        "Mano di un altro board"),
    "kind.rotated_board": ("Board turned round", "Étui tourné", "Board ruotato"),
    "kind.hands_exchanged": ("Hands exchanged", "Mains échangées", "Mani scambiate"),
    "kind.hand_differs": (
        "Hand differs from the record",
        "Main différente du diagramme",
        "Mano diversa dal diagramma"),
    "kind.foreign_card": (
        "Card of another pack",
        "Carte d'un autre jeu",
        "Carta di un altro mazzo"),
    "kind.cards_returned_wrong": (
        "Cards returned wrongly",
        "Cartes mal remises dans l'étui",
        "Carte rimesse male nel board"),
    "kind.card_exposed": (
        "Card exposed during the auction",
        "Carte exposée pendant les enchères",
        "Carta esposta durante la licitazione"),
    "kind.result_disagrees": (
        "Results disagree",
        "Résultats en désaccord",
        "Risultati discordanti"),
    "kind.result_unconfirmed": (
        "Result not confirmed",
        "Résultat non confirmé",
        "Risultato non confermato"),
    "kind.late_table": ("Table late", "Table en retard", "Tavolo in ritardo"),
    "kind.device_offline": ("Device offline", "Appareil hors ligne", "Dispositivo non in linea"),
    "kind.director_call": ("Director called", "Appel à l'arbitre", "Chiamata all'arbitro"),
    "kind.misdealt_board": ("Board dealt wrongly", "Étui mal distribué", "Board distribuito male"),
    "kind.dealer_fault": (
        "Dealing machine fault",
        "Panne de la machine à distribuer",
        "Guasto della macchina smazzatrice"),
    "kind.board_markings": ("Board markings", "Marquages de l'étui", "Indicazioni del board"),
    "kind.device_overreach": (
        "Device beyond its role",
        "Appareil hors de son rôle",
        "Dispositivo oltre il suo ruolo"),
    "kind.pairing_failures": ("Pairing failures", "Échecs d'appairage", "Abbinamenti falliti"),
    "kind.log_damage": ("Event log damaged", "Journal endommagé", "Registro danneggiato"),
    "kind.reads_unresolved": (
        "Card reads unresolved",
        "Lectures de cartes non résolues",
        "Letture di carte non risolte"),
    "explain.wrong_card_count": (
        "A hand does not hold thirteen cards (Laws 7, 13).",
        "Une main n'a pas treize cartes (Lois 7, 13).",
        "Una mano non ha tredici carte (Leggi 7, 13)."),
    "explain.duplicate_card": (
        "The same card was found twice in the board (Law 13F).",
        "La même carte se trouve deux fois dans l'étui (Loi 13F).",
        "La stessa carta è stata trovata due volte nel board (Legge 13F)."),
    "explain.missing_card": (
        "A card of the pack is missing (Law 14).",
        "Une carte du jeu manque (Loi 14).",
        "Manca una carta del mazzo (Legge 14)."),
    "explain.call_out_of_rotation": (
        "A player called when it was not his turn (Laws 28-32).",
        "Un joueur a parlé hors de son tour (Lois 28-32).",
        "Un giocatore ha dichiarato fuori turno (Leggi 28-32)."),
    "explain.insufficient_bid": (
        "A bid not higher than the last bid (Law 27).",
        "Une enchère pas plus haute que la précédente (Loi 27).",
        "Una dichiarazione non superiore all'ultima (Legge 27)."),
    "explain.inadmissible_double": (
        "A double the rules do not allow (Law 36).",
        "Un contre que le Code n'autorise pas (Loi 36).",
        "Un contro non consentito (Legge 36)."),
    "explain.inadmissible_redouble": (
        "A redouble the rules do not allow (Law 36).",
        "Un surcontre que le Code n'autorise pas (Loi 36).",
        "Un surcontro non consentito (Legge 36)."),
    "explain.bid_above_seven": (
        "A bid of more than seven (Law 38).",
        "Une enchère au-delà du palier de sept (Loi 38).",
        "Una dichiarazione oltre il livello sette (Legge 38)."),
    "explain.call_in_breach_of_pass_obligation": (
        "A call by a player obliged to pass (Law 37).",
        "Une enchère d'un joueur obligé de passer (Loi 37).",
        "Una dichiarazione di un giocatore obbligato a passare (Legge 37)."),
    "explain.call_after_final_pass": (
        "A call after the auction was over (Law 39).",
        "Une enchère après la fin des enchères (Loi 39).",
        "Una dichiarazione a licitazione chiusa (Legge 39)."),
    "explain.change_of_call": (
        "A player changed a call (Law 25).",
        "Un joueur a changé d'enchère (Loi 25).",
        "Un giocatore ha cambiato dichiarazione (Legge 25)."),
    "explain.lead_out_of_turn": (
        "The opening lead from the wrong hand (Laws 54, 56).",
        "L'entame faite par la mauvaise main (Lois 54, 56).",
        "L'attacco dalla mano sbagliata (Leggi 54, 56)."),
    "explain.play_out_of_turn": (
        "A card played when it was not that hand's turn (Laws 53, 55, 57).",
        "Une carte jouée hors de son tour (Lois 53, 55, 57).",
        "Una carta giocata fuori turno (Leggi 53, 55, 57)."),
    "explain.card_not_in_hand": (
        "A card played that the hand does not hold.",
        "Une carte jouée que la main ne contient pas.",
        "Una carta giocata che la mano non contiene."),
    "explain.card_played_twice": (
        "A card already played was played again.",
        "Une carte déjà jouée a été rejouée.",
        "Una carta già giocata è stata rigiocata."),
    "explain.revoke": (
        "A player did not follow suit though able to (Laws 61-64).",
        "Un joueur n'a pas fourni alors qu'il le pouvait (Lois 61-64).",
        "Un giocatore non ha risposto al colore pur potendo (Leggi 61-64)."),
    "explain.disputed_claim": (
        "A claim or concession was disputed (Laws 68-71).",
        "Une revendication ou une concession est contestée (Lois 68-71).",
        "Un reclamo o una concessione è contestato (Leggi 68-71)."),
    "explain.wrong_board": (
        "A board not scheduled at this table this round (Law 15).",
        "Un étui qui n'est pas prévu à cette table à ce tour (Loi 15).",
        "Un board non previsto a questo tavolo in questo turno (Legge 15)."),
    "explain.wrong_table": (
        "A pair scheduled at another table (Law 5B).",
        "Une paire attendue à une autre table (Loi 5B).",
        "Una coppia prevista a un altro tavolo (Legge 5B)."),
    "explain.wrong_direction": (
        "A pair sits the wrong way round (Law 5B).",
        "Une paire est assise dans la mauvaise orientation (Loi 5B).",
        "Una coppia siede nella linea sbagliata (Legge 5B)."),
    "explain.wrong_pair": (
        "A pair not scheduled to play now (Law 5B).",
        "Une paire qui ne doit pas jouer maintenant (Loi 5B).",
        "Una coppia che non deve giocare ora (Legge 5B)."),
    "explain.board_already_played": (
        "One of the pairs has already played this board (Law 15B).",
        "L'une des paires a déjà joué cette donne (Loi 15B).",
        "Una delle coppie ha già giocato questa smazzata (Legge 15B)."),
    "explain.hand_not_dealt": (
        "A hand of another board was taken (Law 17D).",
        "Une main d'un autre étui a été prise (Loi 17D).",
        "È stata presa una mano di un altro board (Legge 17D)."),
    "explain.rotated_board": (
        "The hands are at the wrong seats: the board was turned (Law 7).",
        "Les mains ne sont pas aux bonnes places : l'étui a été tourné (Loi 7).",
        "Le mani sono ai posti sbagliati: il board è stato ruotato (Legge 7)."),
    "explain.hands_exchanged": (
        "Some hands were swapped (Laws 7, 87).",
        "Des mains ont été échangées (Lois 7, 87).",
        "Alcune mani sono state scambiate (Leggi 7, 87)."),
    "explain.hand_differs": (
        "Cards were displaced in the board (Law 87).",
        "Des cartes ont été déplacées dans l'étui (Loi 87).",
        "Alcune carte sono state spostate nel board (Legge 87)."),
    "explain.foreign_card": (
        "A card that is not of this pack (Law 1).",
        "Une carte qui n'est pas de ce jeu (Loi 1).",
        "Una carta che non è di questo mazzo (Legge 1)."),
    "explain.cards_returned_wrong": (
        "The cards read back into the board differ (Law 7C).",
        "Les cartes remises dans l'étui diffèrent (Loi 7C).",
        "Le carte rimesse nel board sono diverse (Legge 7C)."),
    "explain.card_exposed": (
        "A card was faced during the auction (Law 24).",
        "Une carte a été exposée pendant les enchères (Loi 24).",
        "Una carta è stata esposta durante la licitazione (Legge 24)."),
    "explain.result_disagrees": (
        "The two sides entered different results (Law 79).",
        "Les deux camps ont saisi des résultats différents (Loi 79).",
        "Le due linee hanno inserito risultati diversi (Legge 79)."),
    "explain.result_unconfirmed": (
        "The result was not confirmed by the opponents (Laws 8C, 79A).",
        "Le résultat n'a pas été confirmé par les adversaires (Lois 8C, 79A).",
        "Il risultato non è stato confermato dagli avversari (Leggi 8C, 79A)."),
    "explain.late_table": (
        "The table has gone past the round's time (Laws 8, 90B2).",
        "La table a dépassé le temps du tour (Lois 8, 90B2).",
        "Il tavolo ha superato il tempo del turno (Leggi 8, 90B2)."),
    "explain.device_offline": (
        "A tablet or card reader stopped answering.",
        "Une tablette ou un lecteur de cartes ne répond plus.",
        "Un tablet o un lettore di carte non risponde più."),
    "explain.director_call": (
        "A player called the director (Law 9B1).",
        "Un joueur a appelé l'arbitre (Loi 9B1).",
        "Un giocatore ha chiamato l'arbitro (Legge 9B1)."),
    "explain.misdealt_board": (
        "A board out of the dealing machine is not the hand record (Laws 6D1, 87).",
        "Un étui sorti de la machine ne correspond pas au diagramme (Lois 6D1, 87).",
        "Un board uscito dalla macchina non corrisponde al diagramma (Leggi 6D1, 87)."),
    "explain.dealer_fault": (
        "The dealing machine stopped (Law 6).",
        "La machine à distribuer s'est arrêtée (Loi 6).",
        "La macchina smazzatrice si è fermata (Legge 6)."),
    "explain.board_markings": (
        "The hand record's dealer or vulnerability is not Law 2's.",
        "Le donneur ou la vulnérabilité du diagramme ne sont pas ceux de la Loi 2.",
        "Il mazziere o la zona del diagramma non sono quelli della Legge 2."),
    "explain.device_overreach": (
        "A device acted beyond its role.",
        "Un appareil a agi au-delà de son rôle.",
        "Un dispositivo ha agito oltre il suo ruolo."),
    "explain.pairing_failures": (
        "Wrong pairing codes were tried.",
        "Des codes d'appairage erronés ont été essayés.",
        "Sono stati provati codici di abbinamento errati."),
    "explain.log_damage": (
        "The event log set a record aside or lost records.",
        "Le journal a mis de côté ou perdu des enregistrements.",
        "Il registro ha messo da parte o perso dei record."),
    "explain.reads_unresolved": (
        "A card was not read and the table does not answer.",
        "Une carte n'a pas été lue et la table ne répond pas.",
        "Una carta non è stata letta e il tavolo non risponde."),
    "ruling.hint.artificial": (
        "NS EW: A+ A- (12C2: 60/50/40%, ±3 IMPs)",
        "NS EO : A+ A- (12C2 : 60/50/40 %, ±3 IMP)",
        "NS EO: A+ A- (12C2: 60/50/40%, ±3 IMP)"),
    "ruling.hint.assigned": (
        "NS score: 420 (12C1(a))",
        "marque NS : 420 (12C1(a))",
        "punteggio NS: 420 (12C1(a))"),
    "ruling.hint.weighted": (
        "60% 420, 40% -100 (12C1(c))",
        "60% 420, 40% -100 (12C1(c))",
        "60% 420, 40% -100 (12C1(c))"),
    "ruling.hint.split": (
        "NS / EW, each A+ A= A-, a score or weights: 420 / A- (12C1(f))",
        "NS / EO, chacun A+ A= A-, une marque ou des pondérations : 420 / A- (12C1(f))",
        "NS / EO, ciascuno A+ A= A-, un punteggio o dei pesi: 420 / A- (12C1(f))"),
    "ruling.hint.penalty": (
        "NS 1.5 mp, or pair 3 10 percent (Law 90; mp, percent, imp, vp)",
        "NS 1.5 mp, ou pair 3 10 percent (Loi 90 ; mp, percent, imp, vp)",
        "NS 1.5 mp, o pair 3 10 percent (Legge 90; mp, percent, imp, vp)"),
    "ruling.hint.fouled": (
        "tables of each changed form: A3 A4; A5 (Law 87)",
        "tables de chaque forme modifiée : A3 A4; A5 (Loi 87)",
        "tavoli di ogni forma modificata: A3 A4; A5 (Legge 87)"),
    "ruling.not_score": (
        "'{text}' is not a score",
        "« {text} » n'est pas une marque",
        "«{text}» non è un punteggio"),
    "ruling.not_weight": (
        "'{text}' is not 'percent% score'",
        "« {text} » n'est pas « pourcentage% marque »",
        "«{text}» non è «percentuale% punteggio»"),
    "ruling.give_board": ("give the board", "indiquez la donne", "indicate la smazzata"),
    "ruling.give_groups": (
        "give the tables of each changed form",
        "indiquez les tables de chaque forme modifiée",
        "indicate i tavoli di ogni forma modificata"),
    "ruling.give_penalty": (
        "write the side (NS, EW or pair N), the amount and the unit",
        "écrivez le camp (NS, EW ou pair N), le montant et l'unité",
        "scrivete la linea (NS, EW o pair N), l'importo e l'unità"),
    "ruling.give_table": ("give the table", "indiquez la table", "indicate il tavolo"),
    "ruling.give_artificial": (
        "write the NS and EW scores: A+ A-",
        "écrivez les marques NS et EO : A+ A-",
        "scrivete i punteggi NS ed EO: A+ A-"),
    "ruling.give_split": ("write NS / EW", "écrivez NS / EO", "scrivete NS / EO"),
    "ruling.kind": ("Kind of ruling", "Type de décision", "Tipo di decisione"),
    "ruling.kind.artificial": ("artificial", "artificielle", "artificiale"),
    "ruling.kind.assigned": ("assigned", "attribuée", "assegnato"),
    "ruling.kind.weighted": ("weighted", "pondérée", "ponderato"),
    "ruling.kind.split": ("split", "scindée", "diviso"),
    "ruling.kind.penalty": ("penalty", "pénalité", "penalità"),
    "ruling.kind.fouled": ("fouled", "donne faussée", "board alterato"),
    "ruling.score": ("Score", "Marque", "Punteggio"),
    "ruling.reason_hint": (
        "law and reason (optional)",
        "loi et motif (facultatif)",
        "legge e motivo (facoltativo)"),
    "ruling.to_withdraw": ("Ruling to withdraw", "Décision à retirer", "Decisione da ritirare"),
    "ruling.apply": ("Apply ruling", "Appliquer la décision", "Applica la decisione"),
    "ruling.applied": (
        "ruling {id} applied: rescored",
        "décision {id} appliquée : marques recalculées",
        "decisione {id} applicata: punteggi ricalcolati"),
    "ruling.give_id": (
        "give the ruling's id (R1, R2…)",
        "indiquez le numéro de la décision (R1, R2…)",
        "indicate il numero della decisione (R1, R2…)"),
    "ruling.withdrawn": (
        "ruling {id} withdrawn: rescored",
        "décision {id} retirée : marques recalculées",
        "decisione {id} ritirata: punteggi ricalcolati"),
    "ruling.legend": (
        "Score ruling (rescores at once)",
        "Décision sur la marque (recalcul immédiat)",
        "Decisione sul punteggio (ricalcolo immediato)"),
    "ruling.withdraw": ("withdraw", "retirer", "ritira"),
    "ruling.results": ("results", "résultats", "risultati"),
}
