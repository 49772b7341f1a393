"""Random small deals of The Game family: hypothesis strategies (plain, with
fire cards, solo, Extreme) and seeded deals of many shapes."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from thegame.models.the_game import (
    COMMAND_KINDS,
    Deal,
    Rules,
    get_rules,
    small_rules,
)


@st.composite
def small_deals(draw: st.DrawFn, fire: bool = False) -> Deal:
    high = draw(st.integers(10, 16 if fire else 18))
    asc = draw(st.integers(1, 2))
    desc = draw(st.integers(1, 2))
    hand = draw(st.integers(2, 4))
    min_play = draw(st.integers(1, 3))
    step = draw(st.integers(3, 10))
    players = draw(st.integers(1, 3))
    players = min(players, (high - 1) // hand)  # rule C2: enough cards to deal
    rules: Rules
    if fire:
        fire_cards = draw(st.frozensets(st.integers(2, high), max_size=6))
        rules = get_rules("on-fire").with_changes(
            high=high,
            asc_piles=asc,
            desc_piles=desc,
            hand_sizes=(hand,) * 5,
            min_play=min_play,
            step=step,
            fire_cards=fire_cards,
        )
    else:
        rules = small_rules(
            high=high, asc_piles=asc, desc_piles=desc, hand=hand, min_play=min_play, step=step
        )
    deck = draw(st.permutations(list(rules.cards)))
    first = draw(st.none() | st.integers(1, players))
    return Deal.create(rules, players, [deck], first)


def fire_rules(
    high: int, asc: int, desc: int, hand: int, min_play: int, step: int, fire: set[int]
) -> Rules:
    """A small generalised On Fire game (rules C10, F1) with its own fire cards."""
    return get_rules("on-fire").with_changes(
        high=high,
        asc_piles=asc,
        desc_piles=desc,
        hand_sizes=(hand,) * 5,
        min_play=min_play,
        step=step,
        fire_cards=frozenset(fire),
    )


def random_small_deal(rng: random.Random, fire: bool) -> Deal:
    high = rng.randint(9, 14)
    asc, desc = rng.randint(1, 2), rng.randint(1, 2)
    hand, min_play, step = rng.randint(1, 3), rng.randint(1, 3), rng.randint(2, 10)
    if fire:
        chosen = {c for c in range(2, high + 1) if rng.random() < 0.3}
        rules = fire_rules(high, asc, desc, hand, min_play, step, chosen)
    else:
        rules = small_rules(high, asc, desc, hand, min_play, step)
    players = min(rng.randint(1, 3), (high - 1) // hand)
    deck = list(rules.cards)
    rng.shuffle(deck)
    return Deal.create(rules, players, [deck], rng.randint(1, players))


def random_deal(rng: random.Random, kind: int) -> Deal:
    """Seeded deals of many shapes: small plain, small fire, official presets."""
    if kind == 0:
        return random_small_deal(rng, fire=False)
    if kind == 1:
        return random_small_deal(rng, fire=True)
    name = ["classic", "profi", "on-fire", "profi-hard"][kind - 2]
    players = rng.randint(1, 5)
    return Deal.from_seed(rng.randrange(2**32), get_rules(name), players, rng.randint(1, players))


@st.composite
def solo_deals(draw: st.DrawFn) -> Deal:
    rules = small_rules(
        high=draw(st.integers(10, 16)),
        asc_piles=draw(st.integers(1, 2)),
        desc_piles=draw(st.integers(1, 2)),
        hand=draw(st.integers(2, 4)),
        min_play=draw(st.integers(1, 3)),
        step=draw(st.integers(3, 10)),
    )
    deck = draw(st.permutations(list(rules.cards)))
    return Deal.create(rules, 1, [deck])


@st.composite
def small_extreme_deals(draw: st.DrawFn, players: tuple[int, int] = (1, 1)) -> Deal:
    """Cards 2..high, one pile each way, hand 3-4, 0-2 of each command (X6)."""
    n = draw(st.integers(*players))
    hand = draw(st.integers(3, 4))
    high = draw(st.integers(max(12, 1 + n * hand + 2), 22 if n == 1 else 18))
    step = draw(st.sampled_from([3, 5, 10]))
    min_play = draw(st.sampled_from([2, 2, 3]))  # C10: a Profi-like minimum too
    rules = get_rules("extreme").with_changes(
        high=high,
        asc_piles=1,
        desc_piles=1,
        hand_sizes=(hand,) * 5,
        step=step,
        min_play=min_play,
    )
    deck = draw(st.permutations(list(rules.cards)))
    cards = draw(st.permutations(list(rules.cards)))
    commands: dict[int, str] = {}
    i = 0
    for kind in COMMAND_KINDS:
        # More of the commands that make losses (X3b, X3c, X4a-c) than not.
        most = 1 if kind in ("stop", "no-talk") else 2
        for _ in range(draw(st.integers(0, most))):
            commands[cards[i]] = kind
            i += 1
    first = draw(st.none() | st.integers(1, n))
    return Deal.create(rules, n, [deck], first, commands)


@st.composite
def small_generalised_duels(draw: st.DrawFn) -> Deal:
    """Generalised duels (rule D7) small enough to settle in a few thousand
    visits: cards 2..high for high 8-18, hand 2-4, the step 2-10."""
    hand = draw(st.integers(2, 4))
    rules = get_rules("face-to-face").with_changes(
        high=draw(st.integers(8, 18)), hand_sizes=(hand, hand), step=draw(st.integers(2, 10))
    )
    cards = list(rules.cards)
    decks = [list(draw(st.permutations(cards))), list(draw(st.permutations(cards)))]
    return Deal.create(rules, 2, decks, draw(st.sampled_from([1, 2])))
