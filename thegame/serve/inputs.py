"""What a client sends, checked before any work: every malformed field is an
``InvalidInputError`` whose one line becomes the 400 answer's ``error``."""

from __future__ import annotations

import math
from typing import Any

from ..models import InvalidInputError
from ..models.jsonio import item, load_json
from ..models.seeds import MAX_SEED
from ..models.the_game import Deal, Play, Record, Turn, get_rules, pile_index, variants
from ..models.the_game.record import turns_from_list
from ..puzzles.the_game.files import game_from_json, parse_game_text

# The variants the pages and the searches here serve (the variant registry's).
SERVED = variants.names(served=True)


def obj(data: Any, where: str = "body") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidInputError("must be a JSON object", where)
    return data


def body_json(raw: bytes) -> dict[str, Any]:
    """A request body that must be one JSON object."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError("not UTF-8 text", "body") from None
    if not text.strip():
        raise InvalidInputError("empty; send a JSON object", "body")
    return obj(load_json(text, "body"))


def integer(
    data: dict[str, Any], key: str, low: int, high: int, default: int | None, where: str = ""
) -> int | None:
    """``data[key]``, a whole number from ``low`` to ``high`` (``default``
    when absent; an explicit null is refused)."""
    where = where or key
    if key in data and data[key] is None:
        raise InvalidInputError("must be an integer, not null", where)
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInputError("must be an integer", where)
    if not low <= value <= high:
        shown = str(value) if len(str(value)) <= 24 else str(value)[:24] + "…"
        raise InvalidInputError(f"must be from {low} to {high}, not {shown}", where)
    return value


def seconds(data: dict[str, Any], key: str, default: float, cap: float) -> float:
    """A time budget: a finite positive number of seconds, at most ``cap``
    (the server's cap wins over the request's)."""
    value = data.get(key, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise InvalidInputError("must be a number of seconds", key)
    if isinstance(value, int) and value > 10**9:
        value = float("inf")  # a budget of more digits than a float holds: capped below
    if not math.isfinite(value) or value <= 0:
        raise InvalidInputError(f"must be a finite positive number of seconds, not {value}", key)
    return float(min(value, cap))


def flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise InvalidInputError("must be true or false", key)
    return value


def text(data: dict[str, Any], key: str, default: str | None = None) -> str | None:
    """``data[key]``, a string (``default`` when absent or null)."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidInputError("must be a string", key)
    return value


def variant_name(name: str | None) -> str:
    """A served variant's name (none given: the default one)."""
    name = name or variants.DEFAULT
    rules = get_rules(name)
    if rules.name not in SERVED:
        raise InvalidInputError(
            f"the server plays {', '.join(SERVED)}, not {name}; use the command line", "variant"
        )
    return rules.name


def served(deal: Deal) -> Deal:
    """The deal, unless the registry says the server does not play its variant."""
    variant_name(deal.rules.name)
    return deal


def game(data: dict[str, Any]) -> Record:
    """The deal (and turns played) a request names: ``deal`` (a deal,
    record or puzzle as JSON, or a file's text), ``deck``, or ``seed`` with
    ``variant``, ``players`` and ``first``; exactly one source."""
    sources = [k for k in ("deal", "deck", "seed") if data.get(k) is not None]
    if len(sources) > 1:
        raise InvalidInputError(f"give one deal source, not {' and '.join(sources)}", "body")
    if not sources:
        raise InvalidInputError('no deal given: send "seed", "deck" or "deal"', "body")
    first = integer(data, "first", 1, 5, None)
    players = integer(data, "players", 1, 5, None)
    source = sources[0]
    if source == "deal":
        raw = data["deal"]
        record = (
            parse_game_text(raw, "deal") if isinstance(raw, str) else game_from_json(raw, "deal")
        )
        if data.get("variant") is not None and data["variant"] != record.deal.rules.name:
            raise InvalidInputError(
                f"variant {data['variant']} contradicts the deal's {record.deal.rules.name}",
                "variant",
            )
        if players is not None and players != record.deal.players:
            raise InvalidInputError(
                f"players {players} contradicts the deal's {record.deal.players}", "players"
            )
    else:
        rules = get_rules(variant_name(text(data, "variant")))
        if source == "seed":
            seed = integer(data, "seed", 0, MAX_SEED, None)
            assert seed is not None
            deal = Deal.from_seed(seed, rules, players)
        else:
            deck = text(data, "deck")
            assert deck is not None
            deal = Deal.from_text(f"{rules.name} {players or rules.min_players}p : {deck}", "deck")
        record = Record(deal)
    if first is not None:
        if record.turns and first != record.first:
            raise InvalidInputError(
                f"first {first} contradicts the turns (player {record.first} started)", "first"
            )
        record = Record(record.deal.with_first(first), record.turns)
    served(record.deal)
    return record


def record(data: dict[str, Any], key: str = "record") -> Record:
    """A game record under ``key`` (an object, or a file's text)."""
    raw = data.get(key)
    if raw is None:
        raise InvalidInputError(f'missing "{key}"', "body")
    rec = parse_game_text(raw, key) if isinstance(raw, str) else game_from_json(raw, key)
    served(rec.deal)
    return rec


def plays(deal: Deal, raw: Any, where: str = "plays") -> tuple[Play, ...]:
    """The plays of the turn in progress: ``[{"card": 37, "pile": "A1"}, ...]``."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InvalidInputError("must be a list of plays", where)
    return tuple(one_play(deal, p, item(where, i)) for i, p in enumerate(raw))


def one_play(deal: Deal, raw: Any, where: str) -> Play:
    if not isinstance(raw, dict) or set(raw) != {"card", "pile"}:
        raise InvalidInputError('a play must be {"card": N, "pile": "A1"}', where)
    card, pile = raw["card"], raw["pile"]
    if not isinstance(card, int) or isinstance(card, bool):
        raise InvalidInputError("card must be an integer", f"{where}.card")
    if not isinstance(pile, str):
        raise InvalidInputError("pile must be a name like A1 or D2", f"{where}.pile")
    try:
        return Play(card, pile_index(deal.rules, pile))
    except InvalidInputError as e:
        raise InvalidInputError(e.message, f"{where}.pile") from None


def turns(deal: Deal, raw: Any, where: str = "turns") -> tuple[Turn, ...]:
    """Turns in the record format, checked by the record reader."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InvalidInputError("must be a list of turns", where)
    return turns_from_list(deal, raw, where)  # paths from ``where``: turns[2], not turns.turns[2]
