"""A build's inputs as one value (`value.ExamInputs`: an exam's content, its locks, its item statistics, the
sources' newest time and the run's dates) and what "today" may be (`clock`). Read by the one reader,
pipeline/settings/reader.py, which only `pipeline.cli` calls; every stage below is handed the value, and
tests/test_inputs.py checks that no other module reads the environment, the clock or a lock file itself.

This package sits low (it imports nothing of the stages at run time), so every stage can take the value.
"""
