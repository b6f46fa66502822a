"""The study guide's parts before weasyprint: the reader-facing view of an exam (`context`), its HTML
(`html`), and the fetcher that keeps weasyprint inside `templates/` (`fetcher`). `pipeline/render/guide/pdf.py`
puts them together."""
