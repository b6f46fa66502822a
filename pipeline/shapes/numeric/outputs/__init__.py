"""The numeric shape's writers, one module per output (the renderers' layer: they import each format's shared
helpers; each output calls them through pipeline/shapes/registry.py). Stats use the shared readers of a typed
answer (pipeline/stats/match.py:no_fields, pipeline/stats/responses.py:read_as_given).

- bank.json: the value as written, its tolerance and [low, high];
- the guide's answer key and Anki's back: the part's answer text ("3.14 GB (± 0.01)"); Anki's front: the unit;
- moodle.xml: numerical (absolute tolerance, optional ungraded unit); qti21.zip: a float textEntry within
  [low, high]; canvas-qti.zip: numerical_question; questions.gift: {#=value:tolerance}.
"""
