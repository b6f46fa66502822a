"""The static study site (`OUT/<exam-id>/site/`): pages from `templates/site/`, the practice and search data
as script files, and the site's own CSS and JS copied beside them. `site.py` writes it; `paths.py` is the one
place that knows where an objective or a question lives in it."""
