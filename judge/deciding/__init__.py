"""Deciding: the 304 boxes, the checks of SPEC section 7, the statistical tests, the opponents,
the referee that plays and checks, and the verdict in its order of decision."""
