"""Every offline check's stable code, with what it finds: printed after each message as `[code]`.

An exam's `exam.yaml` may set any configurable code to `error`, `warning` or `off` under `checks:`
(`pipeline/check/severity.py` applies it); `--strict` then still turns every remaining warning into
an error. Problems that make a file unreadable or invalid against the schema are always errors.
"""

from __future__ import annotations

# code -> what the check finds (and its default severity)
CODES: dict[str, str] = {
    "yaml": "the file cannot be read as YAML (error, always)",
    "schema": "a key or value the schema does not allow (error, always)",
    "citation-lock": "the citation lock cannot be read (error, always)",
    "duplicate-id": "an id, term or section number used twice (error)",
    "duplicate-stem": "two questions with the same stem (warning)",
    "question-options": "options, pairs or items of the wrong number, repeated, or not taken by the type (error)",
    "question-answer": "an answer that is not of the form its type needs, or not among the options (error)",
    "question-ref": "a question naming a key point that does not exist (error)",
    "section-unknown": "an objective in a section exam.yaml does not declare (error)",
    "section-weights": "section weights adding up to more than 100 (error)",
    "review-future": "a review date after today (error)",
    "review-stale": "a review older than the review policy allows (warning)",
    "uncited-key-point": "a key point without a citation (warning)",
    "cloze": "a malformed cloze mark (error)",
    "citation-drifted": "a quote not on its page at the last audit, with a close passage (error)",
    "citation-missing": "a quote not on its page at the last audit (error)",
    "citation-dead": "a cited page gone at the last audit (error)",
    "citation-unsupported": "a cited page that cannot be checked (warning)",
    "citation-stale": "a quote checked longer ago than the review policy allows (warning)",
    "citation-unchecked": "a quote never checked against its page (warning)",
    "citation-archived": "a cited page gone or changed, the quote standing on an archived copy (warning)",
    "citation-moved": "a cited page moved for good (permanent redirect): audit --fix-moves (warning)",
    "citation-changed": "the page's text around a found quote changed since the objective was reviewed (warning)",
    "example-drifted": "a worked example that printed something else at its last run than its `output` records (error)",
    "example-failed": "a worked example that failed at its last run: an exit status, a limit, or past the output cap (error)",
    "example-timeout": "a worked example still running at its time limit at its last run (error)",
    "example-not-run": "a worked example never run by `examples`, or changed since its last run (warning)",
    "example-needs-device": "a worked example needing a device (cuda) that its last run's machine lacked (warning)",
    "example-requirements": "an examples requirements file that is missing or holds a line that is not a requirement (error)",
    "check-config": "an unknown code under `checks:` in exam.yaml (error, always)",
    "exam-missing": "objective files in a folder without an exam file (error, always)",
    "exam-twice": "exam.yaml and exam.yml in one folder (error, always)",
    "exam-duplicate-id": "two exams with one id, which would write over each other's outputs (error, always)",
    "exam-empty": "an exam without objective files (error)",
    "see-unknown": "a cross-reference (see:) to an objective its exam does not have (error)",
    "see-exam-absent": "a cross-reference (see:) to an exam not in the sources, so not checked (warning)",
    "placeholder": "a TODO, an example.com/.org/.net address or a section weight of 0 left in the sources (warning)",
    "example-language": "an example's `language` that the highlighter (Pygments) does not know (warning)",
    "formula": "a $...$ or $$...$$ formula the renderer cannot typeset, or holding markup or links (error, always)",
    "link": "a Markdown link to anything but an http(s) or mailto: address; outputs drop it (error, always)",
    # images (pipeline/load/media.py, pipeline/load/image_files.py)
    "image-alt": "an image without alt text (WCAG 1.1.1) (error, always)",
    "image-remote": "an image at an http(s) address: the build never fetches; download it and cite its page (error, always)",
    "image-path": "an image path that is not a file in the exam's folder (absolute, .., a link out, another scheme) (error, always)",
    "image-missing": "an image path naming no readable regular file (error, always)",
    "image-format": "an image file that is not the PNG, JPEG, GIF, WebP or SVG its name says, read from its bytes (error, always)",
    "image-pixels": "a raster image over the pixel limit, refused from its header before decoding (error, always)",
    "image-size": "an image file over the size limit, or an exam's images over the total (error, always)",
    "image-svg": "an SVG outside the safe subset: script, on* attributes, foreignObject, external references, DTD or entities (error, always)",
    # the item-writing lint (pipeline/check/item_lint.py; Haladyna, Downing & Rodriguez 2002)
    "item-long-answer": "a correct option much longer than the wrong ones, G24 (warning)",
    "item-all-none-above": "an 'all/none of the above' option, G25/G26 (warning)",
    "item-negative-stem": "a negative stem (not, except...) neither in capitals nor emphasised, G17 (warning)",
    "item-overlapping-options": "two options where one's words are all in the other, G22 (warning)",
    "item-answer-in-stem": "single choice: a stem word repeated in the correct option and no wrong one, G28b (warning)",
    "item-tf-all-true": "an objective whose true/false questions (2+) are all true, G20 (warning)",
    "cloze-gap-long": "a cloze mark hiding more than four words (warning)",
    "cloze-gap-given": "a cloze card whose sentences hold a form of the gap's answer (warning)",
    "item-points-elsewhere": "a stem or explanation pointing 'above', 'below', at 'the example' or 'the CPU run' (warning)",
    "numeric-precision": "a numeric stem asking for a precision (two decimal places) its tolerance does not enforce (warning)",
    "item-answer-in-context": "an authored question or cloze mark whose answer the page heading, section title, deck name or card context line shows (warning)",
    # what learners' answers say (sources/<exam>/item-stats.json, written by `stats`; thresholds in pipeline/check/thresholds.py)
    "item-negative-discrimination": "an item the stronger learners get wrong more often (corrected point-biserial < 0): likely mis-keyed (warning)",
    "item-too-easy": "an item nearly everyone gets right (facility > 0.95) (warning)",
    "item-too-hard": "an item few get right (facility < 0.30) (warning)",
    "item-dead-distractor": "a wrong option chosen by fewer than 5% of learners (warning)",
    "item-stats-stale": "an item edited since its answers were gathered: its statistics are not applied (warning)",
}
ALWAYS_ERRORS = frozenset({"yaml", "schema", "citation-lock", "check-config", "link", "formula", *(c for c in CODES if c.startswith("image-")), "exam-missing", "exam-twice", "exam-duplicate-id"})
CONFIGURABLE = frozenset(CODES) - ALWAYS_ERRORS
