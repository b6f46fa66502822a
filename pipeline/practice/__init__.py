"""The practice bank's parts: authored questions as bank items, questions generated from the glossary and
cloze marks (with their distractors), and the coverage table. `pipeline/render/bank.py` writes the file."""
