"""What an image file must be before any output carries it: images are hostile input like any source.

- Size: at most MAX_FILE_BYTES a file (checked on the file's size before it is read) and MAX_EXAM_BYTES for
  all of an exam's files (`pipeline.load.media` counts).
- Raster images (PNG, JPEG, GIF, WebP): Pillow reads the format from the bytes, never from the name, and the
  width and height from the header alone (`Image.open` is lazy); a picture over MAX_PIXELS is refused before
  anything is decoded, so a 30,000 x 30,000 PNG of 100 KB (a decompression bomb: 3.6 GB once decoded) costs
  only its header. `verify()` then reads the file's structure (chunks and checksums) without decoding it.
- SVG: parsed with defusedxml, which refuses a DTD, an entity (billion laughs) and an external reference
  (XXE) outright, then held to an allow list of elements and attributes: shapes, paths, text, gradients,
  markers and internal `#id` references; no script, no event attribute (`on*`), no `foreignObject`, no
  `style` (CSS can fetch), no `href` but `#id`, no `url()` but `url(#id)`. A file outside it is refused
  with what it holds, never cleaned in silence (the author learns, and every output shows the same file).

Each problem comes back as an `ImageProblem` with its check code; the loader reports it at the image's line.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException
from PIL import Image, UnidentifiedImageError

MAX_FILE_BYTES = 5_000_000  # a screenshot at 2x is well under 2 MB; a diagram as SVG a few KB
MAX_EXAM_BYTES = 50_000_000
MAX_PIXELS = 25_000_000  # 5,000 x 5,000: printed at 300 dpi that is 42 cm wide
MAX_SVG_ELEMENTS = 20_000

# The format Pillow reads from the bytes -> (media type, the file name endings that say it)
RASTER = {"PNG": ("image/png", (".png",)), "JPEG": ("image/jpeg", (".jpg", ".jpeg")), "GIF": ("image/gif", (".gif",)),
          "WEBP": ("image/webp", (".webp",))}
SVG_TYPE = "image/svg+xml"
ENDINGS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
SVG_ELEMENTS = frozenset({"svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
                          "text", "tspan", "linearGradient", "radialGradient", "stop", "marker", "clipPath", "mask", "pattern",
                          "symbol", "use", "metadata"})
SVG_ATTRIBUTES = frozenset({
    "id", "class", "version", "viewBox", "preserveAspectRatio", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
    "rx", "ry", "d", "points", "transform", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
    "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "opacity", "color",
    "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline", "alignment-baseline",
    "letter-spacing", "word-spacing", "text-decoration", "dx", "dy", "rotate", "textLength", "lengthAdjust", "offset",
    "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod", "fx", "fy", "markerWidth",
    "markerHeight", "markerUnits", "refX", "refY", "orient", "marker-start", "marker-mid", "marker-end", "clip-path",
    "clip-rule", "clipPathUnits", "mask", "maskUnits", "maskContentUnits", "patternUnits", "patternContentUnits",
    "patternTransform", "visibility", "display", "vector-effect", "shape-rendering", "text-rendering", "role",
    "aria-label", "aria-hidden", "aria-labelledby", "aria-describedby", "lang", "space", "href"})
_LOCAL_URL = re.compile(r"url\(\s*#[A-Za-z_][\w.-]*\s*\)")
_ANY_URL = re.compile(r"url\s*\(", re.IGNORECASE)


class ImageProblem(ValueError):
    """Why a file cannot be shown, with the check code its error is printed with."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ImageFacts:
    media_type: str
    width: int | None  # pixels for a raster image; None for an SVG (it scales)
    height: int | None


def inspect(name: str, data: bytes, real_name: str | None = None) -> ImageFacts:
    """The facts of an image file called `name` (as the source writes it; `real_name` where a link leads,
    whose ending counts) holding `data`; ImageProblem when it cannot be shown."""
    real_name = real_name or name
    ending = "." + real_name.rsplit(".", 1)[-1].lower() if "." in real_name else ""
    if ending not in ENDINGS:
        raise ImageProblem(f"'{name}' is not an image file the outputs can show: use PNG, JPEG, GIF, WebP or SVG "
                           f"(a name ending {', '.join(ENDINGS)})", "image-format")
    if ending == ".svg":
        check_svg(name, data)
        return ImageFacts(SVG_TYPE, None, None)
    return _raster(name, ending, data)


def _raster(name: str, ending: str, data: bytes) -> ImageFacts:
    limit = Image.MAX_IMAGE_PIXELS
    try:
        # Pillow's own bomb check refuses without the size; ours below says how big and what the limit is.
        # Open is lazy either way (the header only); the build is one thread, so the setting is put back unseen.
        Image.MAX_IMAGE_PIXELS = None
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=list(RASTER))  # reads the header only
            width, height = image.size
            Image.MAX_IMAGE_PIXELS = limit
            if width * height > MAX_PIXELS:
                raise ImageProblem(f"'{name}' is {width} x {height} pixels, over the limit of {MAX_PIXELS:,} pixels "
                                   f"(a picture this big is refused before it is decoded): scale it down", "image-pixels")
            kind = image.format
            image.verify()  # the file's structure and checksums, without decoding the pixels
    except ImageProblem:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        sniffed = "an SVG or XML file" if data.lstrip()[:5] in (b"<?xml", b"<svg ") else \
            "HTML or text" if data.lstrip()[:1] == b"<" else "no image format the outputs show"
        raise ImageProblem(f"'{name}' is not a PNG, JPEG, GIF or WebP image: its bytes are {sniffed} "
                           f"(the format is read from the bytes, not the name){_why(exc)}", "image-format") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageProblem(f"'{name}' is a damaged image file ({exc}); export it again", "image-format") from None
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    media_type, endings = RASTER[kind]
    if ending not in endings:
        raise ImageProblem(f"'{name}' holds a {kind} image, not what its name says: rename it to end in {endings[0]}", "image-format")
    return ImageFacts(media_type, width, height)


def _why(exc: Exception) -> str:
    return f" ({exc})" if isinstance(exc, Image.DecompressionBombError) else ""


def check_svg(name: str, data: bytes) -> None:
    """ImageProblem unless `data` is an SVG document inside the safe subset (module docstring)."""
    try:
        root = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ImageProblem(f"'{name}' declares a DTD or an entity ({type(exc).__name__}); an SVG here may not: "
                           "remove the <!DOCTYPE ...> and write the text itself", "image-svg") from None
    except SafeET.ParseError as exc:
        raise ImageProblem(f"'{name}' is not well-formed XML ({exc}); export it again as plain SVG", "image-format") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ImageProblem(f"'{name}' is not an SVG image: its root element is <{_local(root.tag)}>, expected <svg "
                           f'xmlns="{SVG_NS}">', "image-format")
    for count, element in enumerate(root.iter(), start=1):
        if count > MAX_SVG_ELEMENTS:
            raise ImageProblem(f"'{name}' holds over {MAX_SVG_ELEMENTS:,} elements; simplify the drawing", "image-svg")
        _check_element(name, element)


def _local(tag: object) -> str:
    return str(tag).rpartition("}")[2]


def _check_element(name: str, element) -> None:
    if not isinstance(element.tag, str):
        return  # a comment or processing instruction: not drawn
    namespace, _, tag = element.tag[1:].partition("}") if element.tag.startswith("{") else ("", "", element.tag)
    if namespace != SVG_NS or tag not in SVG_ELEMENTS:
        raise ImageProblem(f"'{name}' holds <{tag}>, which an SVG here may not hold (script, foreignObject, style, images and "
                           "elements of other namespaces are refused, never removed): delete it and draw with shapes, "
                           "paths and text", "image-svg")
    for key, value in element.attrib.items():
        namespace, _, attribute = key[1:].partition("}") if key.startswith("{") else ("", "", key)
        if attribute.lower().startswith("on"):
            raise ImageProblem(f"'{name}' has an event attribute {attribute}= on <{tag}>: an SVG here may not run script; "
                               "delete it", "image-svg")
        if attribute == "href" and namespace in ("", XLINK_NS):
            if not value.startswith("#"):
                raise ImageProblem(f"'{name}' refers to {value[:80]!r} from <{tag}>: an SVG here may refer only to its "
                                   "own parts (#id); draw the part in the file", "image-svg")
            continue
        if namespace not in ("", "http://www.w3.org/XML/1998/namespace") or attribute not in SVG_ATTRIBUTES:
            raise ImageProblem(f"'{name}' has the attribute {attribute}= on <{tag}>, outside the attributes an SVG here may use "
                               "(presentation attributes only: no style=, no other namespaces)", "image-svg")
        if _ANY_URL.search(_LOCAL_URL.sub("", value)):
            raise ImageProblem(f"'{name}' refers to {value[:80]!r} in {attribute}= on <{tag}>: only url(#id) of the file's "
                               "own parts is allowed", "image-svg")
