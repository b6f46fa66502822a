"""A build's inputs, gathered in one place: the settings file (`settings`, its TOML hints in `tomlhints`),
what "today" is (`clock`), and the value every stage below the command line is handed (`value.ExamInputs`:
the content, its locks, the item statistics and the pinned date), read by the one loader (`loader`).

Only `pipeline.cli` (and `serve`, a command with a server) calls the loader; every other module gets its
inputs passed down, and tests/test_inputs.py checks that no other module reads the environment, the clock
or a lock file itself.
"""
