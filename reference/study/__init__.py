"""Tools for studying MENACE: opponents, training, many learners, curves, evaluation, pictures."""
