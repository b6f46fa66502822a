"""The sequence shape's writers, one module per output that can carry an ordering (the renderers' layer: they
import each format's shared helpers; each output calls them through pipeline/shapes/registry.py). Canvas and
GIFT have none (the shape's Reason says why).

- bank.json: the items and the right order; the guide's key: "B, A, C"; Anki: the items lettered, the order;
- moodle.xml: ordering (Moodle 4.4+); qti21.zip: orderInteraction;
- stats: the items' texts a report is read against, and the reader of a response.
"""
