"""Deciding: the checks of SPEC section 7 and its statistical tests, the opponents, the referee
that plays and checks, one judged run start to verdict, and the verdict with its hints."""
