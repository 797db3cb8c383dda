"""Pictures of a few runs' answers for the HTML page (bench/views/html.py), drawn by
bench/views/pictures.py.

Drawing every run would cost seconds and megabytes, so the page draws only each config's best
answer on each ladder (:func:`best_runs`): among its runs with a checked solution, the highest
fraction of ``max_score`` (families with partial scores), then the highest rung, then the first
instance id, so the choice does not depend on timing. Two configs that return the same answer
to the same instance share one picture (a unique Sudoku grid is drawn once, not once a solver),
and each instance is generated (or read) once however many pictures it has.

:func:`draw_pictures` returns one :class:`Picture` a distinct (instance, solution): an image
(lossless WebP, :data:`WEBP`: the pixels of a PNG in fewer bytes; a board has many small
shapes, and as SVG it would be bigger and slower still) and the runs it shows. An instance that
cannot be built again (a file moved away) gives a picture with the reason in ``error`` and no
image, so the page says why instead of failing.
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

#: At most this many pictures a page (configs x ladders beyond it go undrawn).
MAX_PICTURES = 40
#: Pillow's settings for lossless WebP: the least effort (``method``, ``quality``) that still
#: compresses well, since the page is built while someone waits.
WEBP = {"lossless": True, "method": 1, "quality": 20}


@dataclass
class Picture:
    """One drawn answer: the image (WebP, base64) with its size, or why it was not drawn, and
    the runs it shows, as (run id, ladder, config) triples."""

    family: str
    webp_base64: str = ""
    width: int = 0
    height: int = 0
    error: str = ""
    runs: list[tuple[int, str, str]] = field(default_factory=list)


def best_runs(data: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, config) of a normalised frame, its best checked answer (see the
    module docstring), with ``run_id`` holding the run's position; at most :data:`MAX_PICTURES`.
    """
    data = data.assign(run_id=range(len(data)))
    if "solution" not in data or "source" not in data:  # a table without answers to draw
        return data.iloc[:0]
    verified = data["verified"].fillna(False).astype(bool) & data["solution"].notna()
    answers = data[verified.to_numpy(dtype=bool)]
    if answers.empty:
        return answers
    fraction = (answers["score"] / answers["max_score"]).where(answers["max_score"] > 0)
    ranked = answers.assign(_fraction=fraction.fillna(0.0)).sort_values(
        ["_fraction", "rung_index", "instance_id"], ascending=[False, False, True],
        kind="stable", na_position="last")
    best = ranked.drop_duplicates(subset=["family", "ladder", "config"], keep="first")
    best = best.sort_values(["family", "ladder", "config"], kind="stable")
    return best.head(MAX_PICTURES).drop(columns="_fraction")


def compact_image(png: bytes) -> tuple[bytes, int, int]:
    """A PNG as lossless WebP (:data:`WEBP`: identical pixels, fewer bytes), with its width
    and height."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        out = io.BytesIO()
        image.save(out, format="WEBP", **WEBP)
        return out.getvalue(), image.width, image.height


def webp_size(data: bytes) -> tuple[int, int]:
    """Width and height of a lossless WebP (its VP8L header: 14-bit sizes minus one)."""
    if data[12:16] != b"VP8L":
        raise ValueError("not a lossless WebP")
    bits = int.from_bytes(data[21:25], "little")
    return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1


class _Instances:
    """Instances built again from their ``source``, each source resolved once."""

    def __init__(self) -> None:
        self.by_source: dict[str, dict[str, Any]] = {}

    def get(self, source: str, instance_id: str) -> Any:
        from bench.plan.specs import resolve

        if source not in self.by_source:
            self.by_source[source] = {r.instance_id: r.instance for r in resolve(source)}
        found = self.by_source[source].get(instance_id)
        if found is None:
            raise LookupError(f"{source} no longer gives instance {instance_id[:12]}")
        return found


def _draw(row: Any, cache: _Instances) -> Picture:
    """The picture of one run's answer (or the reason it could not be drawn)."""
    import instances
    from bench.views.pictures import draw_figure

    picture = Picture(family=row.family)
    try:
        instance = cache.get(row.source, row.instance_id)
        family = instances.family(row.family)
        solution = family.solution_from_json(json.loads(row.solution), instance)
        figure = draw_figure(instance, solution, family=row.family)
        buffer = io.BytesIO()
        dpi = family.picture_dpi
        figure.savefig(buffer, format="webp", dpi=dpi, pil_kwargs=WEBP)
        data = buffer.getvalue()
    except Exception as exc:  # a picture that cannot be drawn is explained, not fatal
        picture.error = f"{type(exc).__name__}: {exc}"
        return picture
    picture.width, picture.height = webp_size(data)
    picture.webp_base64 = base64.b64encode(data).decode("ascii")
    return picture


def draw_pictures(data: pd.DataFrame) -> list[Picture]:
    """The pictures of :func:`best_runs`, one per distinct (instance, solution), in order."""
    cache = _Instances()
    pictures: dict[tuple[str, str], Picture] = {}
    for row in best_runs(data).itertuples(index=False):
        key = (str(row.instance_id), str(row.solution))
        if key not in pictures:
            pictures[key] = _draw(row, cache)
        pictures[key].runs.append((int(row.run_id), str(row.ladder), str(row.config)))
    return list(pictures.values())
