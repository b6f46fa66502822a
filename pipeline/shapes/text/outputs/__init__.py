"""The text shape's writers, one module per output (the renderers' layer: they import each format's shared
helpers; each output calls them through pipeline/shapes/registry.py). A text part with accepted answers is
a fill-in; without them, a self-graded essay judged against its model answer. Stats use the shared readers
of a typed answer (pipeline/stats/match.py:no_fields, pipeline/stats/responses.py:read_as_given).

- bank.json: accepted answers, the model answer and its HTML; the guide's key: "a / b" or the model answer;
- Anki: nothing but the stem on the front, the accepted answers on the back;
- moodle.xml: shortanswer or essay; qti21.zip: textEntry or extendedText; canvas-qti.zip: short_answer_question
  or essay_question; questions.gift: {=a =b} or {}.
"""
