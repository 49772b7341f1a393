"""Deals: who holds which cards in which order, as JSON, as a text line, or by seed.

A deal is the rules preset (with optional generalised overrides, rule C10),
the number of players, the deck in deal order (rule C2; Face to Face has one
deck per player, rule D1), an optional starting player (rule C3) and, for
Extreme, which card carries which command (rule X1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ..errors import InvalidInputError
from ..jsonio import item, load_json, same_game
from ..seeds import SplitMix64
from ..words import plural
from .rules import (
    COMMAND_KINDS,
    COMMANDS_PER_KIND,
    MAX_CARD,
    MAX_MIN_PLAY,
    MAX_PILES,
    OVERRIDABLE,
    Command,
    Rules,
    get_rules,
    overrides_of,
)

GAME = "the-game"  # the "game" of a deal file (older files have none)


@dataclass(frozen=True)
class Deal:
    """A fully known deal. ``decks`` has one deck (classic family) or two (duel)."""

    rules: Rules
    players: int
    decks: tuple[tuple[int, ...], ...]
    first: int | None = None  # 1-based; None = free (rule C3)
    commands: tuple[tuple[int, Command], ...] = ()  # (card, kind), sorted by card
    _command_map: dict[int, Command] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_command_map", dict(self.commands))
        self.validate()

    # -- construction -------------------------------------------------------

    @classmethod
    def create(
        cls,
        rules: Rules,
        players: int,
        decks: list[list[int]] | tuple[tuple[int, ...], ...],
        first: int | None = None,
        commands: Mapping[int, str] | None = None,
    ) -> Deal:
        return cls(
            rules=rules,
            players=players,
            decks=tuple(tuple(d) for d in decks),
            first=first,
            commands=tuple(sorted((c, _command(k)) for c, k in (commands or {}).items())),
        )

    @classmethod
    def from_seed(
        cls, seed: int, rules: Rules, players: int | None = None, first: int | None = None
    ) -> Deal:
        """The deal for ``seed``: documented in the README, stable forever.

        The cards of the rules' range, ascending, are shuffled by
        ``SplitMix64(seed).shuffle``; that order is the deck (rule C2 deals
        from its front). Face to Face shuffles a second copy for player 2
        with the same generator, continued. Extreme then shuffles the card
        range once more with the continued generator and gives the first 4
        cards of that order a stop, the next 4 a skull, and so on in the
        order of ``COMMAND_KINDS``.
        """
        if seed < 0:
            raise InvalidInputError(f"seed must be >= 0, not {seed}", "seed")
        if players is None:
            players = rules.min_players if rules.is_duel else 1
        rng = SplitMix64(seed)
        n_decks = 2 if rules.is_duel else 1
        decks = []
        for _ in range(n_decks):
            deck = list(rules.cards)
            rng.shuffle(deck)
            decks.append(deck)
        commands: dict[int, Command] = {}
        if rules.commands:
            order = list(rules.cards)
            rng.shuffle(order)
            for i, kind in enumerate(COMMAND_KINDS):
                for card in order[i * COMMANDS_PER_KIND : (i + 1) * COMMANDS_PER_KIND]:
                    commands[card] = kind
        return cls.create(rules, players, decks, first, commands)

    # -- queries -------------------------------------------------------------

    @property
    def deck(self) -> tuple[int, ...]:
        return self.decks[0]

    def command(self, card: int) -> Command | None:
        """The Extreme command on ``card`` (rule X1), if any."""
        return self._command_map.get(card)

    def with_first(self, first: int | None) -> Deal:
        return Deal(self.rules, self.players, self.decks, first, self.commands)

    # -- validation ----------------------------------------------------------

    def starting_players(self) -> list[int]:
        """The deal's starting player, or every player when the start is free (C3)."""
        return [self.first] if self.first is not None else list(range(1, self.players + 1))

    def validate(self) -> None:
        rules = self.rules
        rules.check_players(self.players)
        expected_decks = 2 if rules.is_duel else 1
        if len(self.decks) != expected_decks:
            raise InvalidInputError(
                f"{rules.name} needs {plural(expected_decks, 'deck')}, got {len(self.decks)}",
                "decks",
            )
        for i, deck in enumerate(self.decks):
            where = "deck" if expected_decks == 1 else item("decks", i)
            _check_permutation(deck, rules, where)
        if not rules.is_duel and self.players * rules.hand_size(self.players) > rules.n_cards:
            raise InvalidInputError("not enough cards to deal every hand", "deck")
        if self.first is not None and not 1 <= self.first <= self.players:
            raise InvalidInputError(
                f"player {self.first} does not exist (players 1-{self.players})", "first"
            )
        self._validate_commands()

    def _validate_commands(self) -> None:
        rules = self.rules
        if not rules.commands:
            if self.commands:
                raise InvalidInputError(f"{rules.name} has no commands (only extreme)", "commands")
            return
        counts = dict.fromkeys(COMMAND_KINDS, 0)
        for card, kind in self.commands:
            if kind not in counts:
                raise InvalidInputError(
                    f"unknown command {kind!r} on card {card} (kinds: {', '.join(COMMAND_KINDS)})",
                    "commands",
                )
            if card not in rules.cards:
                raise InvalidInputError(
                    f"card {card} is out of range {rules.low}..{rules.high}", "commands"
                )
            counts[kind] += 1
        # Rule X1 fixes 4 cards of each kind for the printed game; X6:
        # generalised games (C10) may carry 0 to 4 of each kind.
        too_many = [f"{k}: {n}" for k, n in counts.items() if n > COMMANDS_PER_KIND]
        if too_many:
            raise InvalidInputError(
                f"at most {COMMANDS_PER_KIND} cards of each command kind (rule X6); "
                f"got {', '.join(too_many)}",
                "commands",
            )
        if not overrides_of(rules):
            wrong = [f"{k}: {n}" for k, n in counts.items() if n != COMMANDS_PER_KIND]
            if wrong:
                raise InvalidInputError(
                    f"need {COMMANDS_PER_KIND} cards of each of the 7 kinds; "
                    f"got {', '.join(wrong)}",
                    "commands",
                )

    # -- JSON ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": GAME,
            "variant": self.rules.name,
            "players": self.players,
        }
        extra = overrides_of(self.rules)
        if extra:
            out["rules"] = extra
        if self.rules.is_duel:
            out["decks"] = [list(d) for d in self.decks]
        else:
            out["deck"] = list(self.deck)
        if self.first is not None:
            out["first"] = self.first
        if self.rules.commands:
            out["commands"] = {str(c): k for c, k in self.commands}
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, where: str = "deal") -> Deal:
        if not isinstance(data, dict):
            raise InvalidInputError("a deal must be a JSON object", where)
        same_game(data, GAME, where)  # "game" is optional: older files have none
        known = {"game", "variant", "players", "deck", "decks", "first", "commands", "rules"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInputError(f"unknown key {unknown[0]!r}", where)
        variant = data.get("variant", "classic")
        if not isinstance(variant, str):
            raise InvalidInputError("variant must be a string", f"{where}.variant")
        rules = _apply_overrides(get_rules(variant), data.get("rules"), f"{where}.rules")
        players = data.get("players", rules.min_players)
        if not _is_int(players):
            raise InvalidInputError("players must be an integer", f"{where}.players")
        if rules.is_duel:
            if "decks" not in data:
                raise InvalidInputError('face-to-face needs "decks": [deck1, deck2]', where)
            raw = data["decks"]
            if not isinstance(raw, list) or len(raw) != 2:
                raise InvalidInputError("decks must be a list of 2 decks", f"{where}.decks")
            decks = [_int_list(d, item(f"{where}.decks", i)) for i, d in enumerate(raw)]
        else:
            if "deck" not in data:
                raise InvalidInputError('missing "deck"', where)
            decks = [_int_list(data["deck"], f"{where}.deck")]
        first = data.get("first")
        if first is not None and not _is_int(first):
            raise InvalidInputError("first must be an integer", f"{where}.first")
        commands = _commands(data.get("commands"), f"{where}.commands")
        try:
            return cls.create(rules, players, decks, first, commands)
        except InvalidInputError as err:
            at = f"{where}.{err.where}" if err.where else where
            raise InvalidInputError(err.message, at) from None

    @classmethod
    def from_json(cls, text: str, where: str = "deal") -> Deal:
        return cls.from_dict(load_json(text, where), where)

    # -- text line ---------------------------------------------------------------

    def to_text(self) -> str:
        """One line: ``VARIANT NP [first=N] [key=value ...] : cards [/ cards]``.

        Extreme cards with a command are written ``37=stop``.
        """
        head = [self.rules.name, f"{self.players}p"]
        if self.first is not None:
            head.append(f"first={self.first}")
        for key, value in overrides_of(self.rules).items():
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            head.append(f"{key}={text}")
        parts = []
        for deck in self.decks:
            cards = []
            for c in deck:
                kind = self.command(c)
                cards.append(f"{c}={kind}" if kind else str(c))
            parts.append(" ".join(cards))
        return " ".join(head) + " : " + " / ".join(parts)

    @classmethod
    def from_text(cls, line: str, where: str = "deal") -> Deal:
        if ":" not in line:
            raise InvalidInputError(
                "a deal line is 'VARIANT NP [first=N] : cards' (no ':' found)", where
            )
        head_text, _, body = line.strip().partition(":")
        head = head_text.split()
        if not head:
            raise InvalidInputError("missing variant before ':'", where)
        data: dict[str, Any] = {"variant": head[0]}
        overrides: dict[str, Any] = {}
        for token in head[1:]:
            if token.endswith("p") and token[:-1].isdigit():
                # isdigit() accepts "²", which int() rejects: parse with a clear error.
                data["players"] = _parse_int(token[:-1], f"{where}: players")
            elif token.startswith("first="):
                data["first"] = _parse_int(token[6:], f"{where}: first")
            elif "=" in token:
                key, _, value = token.partition("=")
                if key in ("hand_sizes", "fire_cards"):
                    overrides[key] = [_parse_int(v, f"{where}: {key}") for v in value.split(",")]
                else:
                    overrides[key] = _parse_int(value, f"{where}: {key}")
            else:
                raise InvalidInputError(f"unexpected word {token!r} before ':'", where)
        if overrides:
            data["rules"] = overrides
        decks: list[list[int]] = []
        commands: dict[str, str] = {}
        for part in body.split("/"):
            deck = []
            for token in part.replace(",", " ").split():
                card_text, _, kind = token.partition("=")
                card = _parse_int(card_text, f"{where}: card")
                if kind:
                    commands[str(card)] = kind
                deck.append(card)
            decks.append(deck)
        if len(decks) == 1:
            data["deck"] = decks[0]
        else:
            data["decks"] = decks
        if commands:
            data["commands"] = commands
        try:
            return cls.from_dict(data, where)
        except InvalidInputError as err:
            # The JSON path of the dict built here ("deck", "rules") means
            # nothing to whoever typed the line: the line itself is the place.
            if err.where and err.where.startswith(f"{where}."):
                raise InvalidInputError(err.message, where) from None
            raise


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInputError(f"{text!r} is not a number", where) from None


def _int_list(raw: object, where: str) -> list[int]:
    if not isinstance(raw, list):
        raise InvalidInputError("must be a list of card numbers", where)
    for i, x in enumerate(raw):
        if not _is_int(x):
            raise InvalidInputError(f"{x!r} is not a card number", item(where, i))
    return list(raw)


def _command(kind: str) -> Command:
    """The command spelt ``kind`` (rule X1); an unknown spelling is kept as
    it is for ``Deal.validate`` to name it in its error."""
    return Command(kind) if kind in _SPELLINGS else cast(Command, kind)


_SPELLINGS = frozenset(c.value for c in Command)


def _commands(raw: object, where: str) -> dict[int, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidInputError('must be an object like {"37": "stop"}', where)
    out: dict[int, str] = {}
    for key, kind in raw.items():
        card = _parse_int(str(key), where)
        if not isinstance(kind, str):
            raise InvalidInputError(f"command of card {card} must be a string", where)
        out[card] = kind
    return out


def _apply_overrides(rules: Rules, raw: object, where: str) -> Rules:
    if raw is None:
        return rules
    if not isinstance(raw, dict):
        raise InvalidInputError("must be an object of rule parameters", where)
    changes: dict[str, object] = {}
    for key, value in raw.items():
        if key not in OVERRIDABLE:
            raise InvalidInputError(
                f"unknown rule parameter {key!r} (known: {', '.join(OVERRIDABLE)})", where
            )
        if key == "hand_sizes":
            sizes = _int_list(value, f"{where}.{key}")
            if len(sizes) != rules.max_players or any(s < 1 for s in sizes):
                raise InvalidInputError(
                    f"hand_sizes needs {rules.max_players} positive numbers", where
                )
            changes[key] = tuple(sizes)
        elif key == "fire_cards":
            changes[key] = frozenset(_int_list(value, f"{where}.{key}"))
        elif not _is_int(value) or value < 0:
            raise InvalidInputError(f"{key} must be a non-negative integer", where)
        else:
            changes[key] = value
    out = rules.with_changes(**changes)
    if out.low < 1 or out.high < out.low or out.high > MAX_CARD:
        raise InvalidInputError(
            f"card range {out.low}..{out.high} must lie within 1..{MAX_CARD}", where
        )
    if out.asc_piles + out.desc_piles < 1 or max(out.asc_piles, out.desc_piles) > MAX_PILES:
        raise InvalidInputError(f"need 1 to {MAX_PILES} piles of each direction", where)
    if not (1 <= out.min_play <= MAX_MIN_PLAY and 1 <= out.min_play_empty <= MAX_MIN_PLAY):
        raise InvalidInputError(f"min_play and min_play_empty must be 1..{MAX_MIN_PLAY}", where)
    if not 1 <= out.step <= MAX_CARD:
        raise InvalidInputError(f"step must be 1..{MAX_CARD}", where)
    if max(out.hand_sizes) > out.n_cards:
        raise InvalidInputError("a hand cannot hold more cards than the game has", where)
    return out


def _check_permutation(deck: tuple[int, ...], rules: Rules, where: str) -> None:
    seen: dict[int, int] = {}
    # Positions count from 1, like everything a user reads.
    for pos, card in enumerate(deck, 1):
        if card not in rules.cards:
            raise InvalidInputError(
                f"card {card} at position {pos} is out of range {rules.low}..{rules.high}", where
            )
        if card in seen:
            raise InvalidInputError(
                f"card {card} appears twice (positions {seen[card]} and {pos})", where
            )
        seen[card] = pos
    if len(deck) != rules.n_cards:
        # Every card is in range and distinct here, so some card is missing;
        # find the first without listing a (possibly huge) card range.
        first_missing = next(c for c in rules.cards if c not in seen)
        n_missing = rules.n_cards - len(seen)
        raise InvalidInputError(
            f"{plural(len(deck), 'card')}, expected {rules.n_cards} (missing {first_missing}"
            + (f" and {n_missing - 1} more)" if n_missing > 1 else ")"),
            where,
        )
