"""The choices shape's writers, one module per output (the renderers' layer: they import each format's shared
helpers; each output calls them through pipeline/shapes/registry.py).

- bank.json: the options in display order, which are right, multiple / true_false / numeric;
- the guide's key: the right letters, or True / False; Anki: the options lettered, the right ones marked;
- moodle.xml: multichoice or truefalse; qti21.zip: choiceInteraction (several right: mapped +1/right,
  -1/wrong); canvas-qti.zip: multiple_choice, multiple_answers or true_false question; questions.gift;
- stats: the options (id, letter, text, right) a report is read against, and the reader of a response.
"""
