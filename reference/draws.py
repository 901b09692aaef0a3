"""MENACE's chance: whole numbers uniform below n, cut in C from blocks of random bytes.

A number below n < SMALL comes from a stream of its own: blocks of random bytes, each byte
mapped to its remainder by n with `bytes.translate`, which also deletes the bytes at or above
the largest multiple of n below 256. So each such number is exactly uniform, and drawing one
is a single `next` on a stream of small ints. A number below a larger n is drawn as Python's
`random.randrange` draws it: `getrandbits` of n's bit length, again until it is below n. So
every draw is exactly uniform. A stream for n = 1 yields 0 and draws nothing.

Everything that draws with one generator shares one `Draws` (see `draws_from`), so the plain
rules and the game loop take the same numbers in the same order. Blocks are made ahead, so
reseeding the generator does not change the numbers of a block already made.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import chain, repeat
from typing import Final

SMALL: Final = 256
"""The numbers below n < SMALL come from a byte stream of their own; larger n from 64-bit words."""

BLOCK: Final = 1024
"""Random bytes made per call of the generator, for a stream of small numbers."""


def _remainders(n: int) -> tuple[bytes, bytes]:
    """For bytes.translate: each byte's remainder by n, and the bytes to delete (at or above
    the largest multiple of n that is at most 256), which would favour the low remainders."""
    kept = 256 - 256 % n
    return (bytes(range(n)) * (256 // n + 1))[:256], bytes(range(kept, 256))


REMAINDERS: Final = tuple(_remainders(n) if n > 1 else (b"", b"") for n in range(SMALL))
"""For each n from 2 below SMALL: the translation table and the bytes it deletes."""


class Draws:
    """Numbers uniform below n, drawn from one generator's blocks of random bytes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.below_small: list[Iterator[int]] = [iter(()), repeat(0)]
        """For each n below SMALL, an endless stream of numbers uniform below n (none for 0)."""
        blocks = repeat(BLOCK)
        for n in range(2, SMALL):
            table, deleted = REMAINDERS[n]
            cut = map(bytes.translate, map(rng.randbytes, blocks), repeat(table), repeat(deleted))
            self.below_small.append(chain.from_iterable(cut))

    def below(self, n: int) -> int:
        """A number uniform below `n` (n >= 1)."""
        if n < SMALL:
            return next(self.below_small[n])
        width = n.bit_length()
        number = self.rng.getrandbits(width)
        while number >= n:
            number = self.rng.getrandbits(width)
        return number

    def stream(self, n: int) -> Iterator[int]:
        """An endless stream of numbers uniform below `n` (n >= 1), as `below(n)` draws them."""
        return self.below_small[n] if n < SMALL else map(self.below, repeat(n))


_ATTRIBUTE: Final = "_menace_draws"
"""Where a generator keeps its draws: on itself, so they go when it goes."""


def draws_from(rng: random.Random) -> Draws:
    """The draws of `rng`: one for each generator, however many sides draw with it."""
    draws = vars(rng).get(_ATTRIBUTE)
    if not isinstance(draws, Draws):
        draws = Draws(rng)
        setattr(rng, _ATTRIBUTE, draws)
    return draws
