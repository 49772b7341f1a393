"""``thegame serve``: the daily puzzle, real games, the solver and the review in a browser.

A thin web face on the same library the command line uses: ``app`` routes
requests, ``inputs`` validates what a client sends, ``jobs`` runs the
library's searches in the worker processes of ``pool``, ``views`` turns the
library's results into the API's JSON and ``board`` keeps a game on a page
going through the rules engine.
"""
