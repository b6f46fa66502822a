"""The cloze shape's writers, one module per output, for every output that can carry it (the renderers' layer: it imports their
helpers; each output calls these through pipeline/shapes/registry.py). GIFT has none (the registry says why).

- bank.json: the segments, their HTML and each gap's accepted answers (bank.py's model);
- the guide's answer key: "1. model; 2. batch" (its look is guide.html.j2 beside this file);
- Anki: the passage with numbered blanks on the front, filled (answers in bold) on the back;
- moodle.xml: a Cloze question (qtype multianswer), each gap a {n:SHORTANSWER:=a~=b} in its text, equal weights;
- qti21.zip: one string textEntryInteraction per gap, each with its own mapped declaration, SCORE their mean;
- canvas-qti.zip: fill_in_multiple_blanks_question, [g1] [g2] in the text, one response per blank, each
  adding an equal share of 100.
"""

