"""Old home of the Cento referee, kept so callers still import; the referee
(``check``, ``CheckResult``) now lives in :mod:`.record`."""

from .record import CheckResult, check

__all__ = ["CheckResult", "check"]
