"""Text helpers shared by every stage: safe Markdown to HTML, plain text, and cloze marks."""
