"""What the program tells the person at the terminal: problems, progress and summaries (`say`), and a failure
that is not the content's fault (`crash`). Below both the command line and the author's preview (serve), so
neither reaches into the other for them."""
