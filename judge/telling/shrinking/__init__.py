"""Shrinking a rejection to the smallest run that still fails the same way: the search
(`search`), hypothesis's shrinker over candidate runs (`by_hypothesis`, loaded only to shrink),
and the shrunk case as a report and a pytest test (`case`)."""
