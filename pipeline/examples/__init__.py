"""The examples stage: worked examples that are run, not claimed (`python -m pipeline examples`).

The only stage that runs author code, and only in the sandbox (`sandbox`: limits, and bubblewrap's namespaces
as `bubblewrap` builds them, a cgroup from `cgroup`; `launch` is the script that runs first in the child), in environments cached by requirement
set (`environments`). `runner` gives each example a status by comparing what it printed (`compare`),
`lock` keeps the results in `sources/<exam>/examples.lock.json`, which `validate` reads offline
(`lockcheck`) and the view shows; `update` writes a drifted example's output back into its source.
What a learner reads beside a broken example is `pipeline.findings.example_blast` (it asks the outputs).
"""
