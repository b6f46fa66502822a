"""Text helpers shared by every stage: safe Markdown to HTML, plain text, cloze marks, and the command a message tells the author to run (`prog`)."""
