"""What a run is set up with, read once at the command line: `pipeline.toml` (`project`, its TOML syntax
errors in `tomlhints`) and the one reader of the inputs (`reader`: the environment, the clock, the locks),
which hands `pipeline.inputs.value.ExamInputs` down to the stages."""
