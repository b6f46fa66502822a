"""The pairs shape's writers, one module per output (the renderers' layer: they import each format's shared
helpers; each output calls them through pipeline/shapes/registry.py).

- bank.json: prompts and answers with their HTML; the guide's key: "1–B, 2–A";
- Anki: prompts numbered, answers lettered; a matching of more than CARD_PAIRS pairs split over cards (`cards`);
- moodle.xml: matching; qti21.zip: matchInteraction (each pair 1/n); canvas-qti.zip: matching_question;
  questions.gift: {=prompt -> answer};
- stats: the prompts' and answers' texts a report is read against, and the reader of a response.
"""
