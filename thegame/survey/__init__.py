"""The survey: decide every deal of a seed range, keep each result in SQLite, report the table.

A layer above ``puzzles`` and below ``cli``: ``store`` (the SQLite file),
``work`` (one deal decided, or played blind, as a plain row), ``runner``
(local processes or Ray, one writer), ``report`` and ``svg`` (the findings).
"""
