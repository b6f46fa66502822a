"""Publishing: incremental rebuild decisions and atomic, all-or-nothing writes of outputs."""
