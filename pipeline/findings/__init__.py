"""What an audit found, told to authors and CI: the blast radius of every citation not found (asked of
the output registry: where each output puts an item), the Markdown/JSON report and the terminal summary.

It sits above the renderers' registry and the view's derivation, which the citation checks themselves
never import.
"""
