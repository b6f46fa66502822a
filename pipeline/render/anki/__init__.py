"""The Anki deck's parts: frozen note types, the notes made from the content, the HTML of their fields,
the .apkg writer and reader, the comparison with the previous build, and the package timestamp.
`deck.py` is the renderer that puts them together."""
