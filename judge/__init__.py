"""A judge for the MENACE challenge: plays a submission and checks SPEC section 7."""
