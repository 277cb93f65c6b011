"""tablet: the players' app, one per table or one per seat (the bidding-box replacement).

The Kivy layer is a thin view over plain Python objects that are unit-tested without a
window (tests/tablet/)::

    state.py       the hub's views as the tablet reads them (wire.views, decoded at its edge)
    offline.py     the optimistic view: the hub's state with the events still in the outbox
                   applied on top, so that the table plays on while the network is down
    model.py       TableModel: what the tablet knows of its table (the hub's state, its seat's
                   hand, the waiting events, language and settings)
    presenters/    one presenter per screen over the model: check-in, board, auction, play,
                   result (the Laws the tablet applies, each with its test)
    presenter.py   TabletPresenter: feeds the model what the hub says, picks the screen,
                   the top bar and the silent director call
    results.py     the traveller, the score so far and the double-dummy table, worded
    i18n.py        French, English and Italian, and how cards and calls are written
    app.py         the Kivy window and ``tenace tablet`` (``main``); widgets.py and ui_*.py,
                   one file per screen, draw what their presenter says and call its commands

It reaches the hub through :mod:`wire.link` (the outbox and the device link) and plays by
:mod:`bridgecore`; nothing here imports ``hub``. Kivy is imported by app.py, widgets.py and
ui_*.py only.

Errors::

    PresenterError (ValueError)   a command the tablet does not offer now; its message key
                                  (tablet.i18n) is what the players read
"""
