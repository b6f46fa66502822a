"""The vocabulary of the content model: the base model, text lengths and the checked kinds of value.

Every model in `schema/models.py` and every question type's source model (pipeline/questions/) is built
from these, so a field means the same thing wherever it appears. Nothing here imports the pipeline.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

SCHEMA_BASE = "https://exam-prep.invalid/schema"  # a name, not an address: schemas ship in `schema/`


def _absolute_http_url(value: str) -> str:
    """Accept only absolute http(s) addresses to a host, without credentials, on a valid port: an allow list,
    so a `javascript:`, `file:`, `smb:` or relative link never reaches a reader, and an audit never sends a password."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("must be an absolute http:// or https:// address")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError("must not contain spaces or control characters (percent-encode spaces as %20)")
    if "@" in parts.netloc:
        raise ValueError("must not hold credentials (user:password@); cite a page readers can open")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or not parts.hostname:
        raise ValueError("must name a host and, if any, a port from 1 to 65535")
    return value


def _feedback_template(value: str) -> str:
    """A report address with `{id}` where the question's id goes: http(s) (checked as any address) or mailto."""
    if value.count("{id}") < 1 or any(c in value.replace("{id}", "") for c in "{}"):
        raise ValueError("must hold {id} (where the question's id goes) and no other {...}")
    sample = value.replace("{id}", "6.1-q1")
    if urlsplit(sample).scheme.lower() == "mailto":
        if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in sample) or len(sample) <= len("mailto:"):
            raise ValueError("a mailto: address must not contain spaces or control characters (percent-encode spaces as %20)")
        return value
    _absolute_http_url(sample)
    return value


# Lengths: generous for real content, small enough that a hostile source cannot make a card, a page or a
# report unreadable (a quote is a sentence or two; a stem fits on a page).
SHORT, SENTENCE, PARAGRAPH, PAGE, LISTING = 300, 600, 2000, 3000, 20_000
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=SHORT)]
Paragraph = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=PARAGRAPH)]


def _verbatim(value: str) -> str:
    """Code and program output as written: the first line's leading spaces are kept (a table, psql's header),
    only blank lines before it and whitespace at the very end (YAML's closing newline) are dropped."""
    lines = value.rstrip().splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise ValueError("must not be empty")
    return "\n".join(lines)


Verbatim = Annotated[str, StringConstraints(max_length=LISTING), AfterValidator(_verbatim)]
Markdown = Annotated[str, StringConstraints(min_length=1, max_length=PAGE), Field(description="Markdown, inline markup.")]
FeedbackTemplate = Annotated[
    str,
    StringConstraints(max_length=PARAGRAPH),
    AfterValidator(_feedback_template),
    Field(description="An http(s) or mailto: address with {id} where the question's id goes, e.g. "
                      "https://github.com/ORG/REPO/issues/new?title=Question%20{id} or mailto:notes@example.com?subject=Question%20{id}."),
]


HttpUrl = Annotated[
    str,
    StringConstraints(max_length=PARAGRAPH),
    AfterValidator(_absolute_http_url),
    Field(description="An absolute http:// or https:// address, without credentials.", json_schema_extra={"format": "uri"}),
]
# Ids name files (the output folder and generations, site pages, QTI items): short enough that every
# output's longest file name made from one stays well within the 255 bytes a file system allows.
SLUG_MAX, ITEM_ID_MAX = 64, 100
Slug = Annotated[str, StringConstraints(max_length=SLUG_MAX, pattern=r"^[a-z0-9][a-z0-9-]*$")]
ObjectiveId = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}\.[0-9]{1,3}$")]  # sections go to 999, and so do objectives
ItemId = Annotated[str, StringConstraints(max_length=ITEM_ID_MAX, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


class Strict(BaseModel):
    """Base of every model: unknown keys are errors, and models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)
