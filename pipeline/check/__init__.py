"""Offline checks of the loaded content: the rules, their diagnostics, and `validate`, which runs them all."""
