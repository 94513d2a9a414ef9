"""Reference paintings for the pairwise judge: pictures, their tasks, and a seeded draw.

The reference pool (`sketch_env.catalog.references`) holds sketch *sources*; the judge needs
*pictures*. `render_reference_images` renders the pool once with a `SketchRenderer`,
`save_reference_images` / `load_reference_images` keep the pictures in a folder (PNG files
plus a ``references.json`` manifest) so a training run renders them once, not per process, and
a spec can name the folder (``judge+http://...?mode=pairwise&refs=DIR``).

`draw_references` chooses which references one rollout is compared with. The draw is seeded by
`rollout_seed` (a hash of the prompt and the picture's pixels) unless the caller gives a seed,
so the same rollout is always compared with the same references: re-scoring a picture gives
the same win-rate, and two rollouts of a GRPO group that painted the same picture get the
same reward.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

if TYPE_CHECKING:
    from sketch_env.render.renderer import SketchRenderer

__all__ = [
    "MANIFEST_FILE",
    "ReferenceImage",
    "draw_references",
    "encode_png",
    "load_reference_images",
    "png_data_url",
    "render_reference_images",
    "rollout_seed",
    "save_reference_images",
]

#: The manifest inside a folder of saved reference pictures.
MANIFEST_FILE = "references.json"
_MANIFEST_VERSION = 1
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def encode_png(image: Image.Image) -> bytes:
    """Encodes a picture as RGB PNG bytes (fast compression: the bytes only travel once)."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    buffer = io.BytesIO()
    # Level 1: several times faster than Pillow's default and only slightly larger.
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def png_data_url(png: bytes) -> str:
    """Returns PNG bytes as a ``data:image/png;base64,...`` URL (the chat API's image input)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@dataclass(frozen=True)
class ReferenceImage:
    """One rendered reference painting.

    Args:
        id: The reference's id (unique within a set), e.g. ``"flowers-watercolour-hibiscus"``.
        task_id: The task it belongs to, ``"{subject}/{medium}"``; the judge compares a
            rollout only with references of its own task.
        png: The picture as PNG bytes.
        prompt: The prompt the reference was painted for (informational).
        tier: The pool tier (``love``/``ok``/``weak``), or ``""``.
        source: Where the picture came from, e.g. ``"pool:llvmpipe:seed0"`` (informational).
    """

    id: str
    task_id: str
    png: bytes = field(repr=False)
    prompt: str = ""
    tier: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        if not self.id or not self.task_id:
            raise ValueError("a ReferenceImage needs a non-empty id and task_id")
        if not self.png.startswith(b"\x89PNG\r\n\x1a\n"):
            raise ValueError(f"reference {self.id!r}: png is not PNG data")

    @classmethod
    def from_image(
        cls,
        id: str,
        task_id: str,
        image: Image.Image,
        *,
        prompt: str = "",
        tier: str = "",
        source: str = "",
    ) -> ReferenceImage:
        """Builds a reference from a PIL picture (encoded to PNG once, here).

        Args:
            id: The reference's id.
            task_id: Its task.
            image: The picture (converted to RGB).
            prompt: Its prompt.
            tier: Its tier.
            source: Where it came from.

        Returns:
            The reference.

        Examples:
            >>> ref = ReferenceImage.from_image("r1", "flowers/watercolour",
            ...                                 Image.new("RGB", (8, 8), "white"))
            >>> ref.image().size
            (8, 8)
        """
        return cls(id, task_id, encode_png(image), prompt=prompt, tier=tier, source=source)

    def image(self) -> Image.Image:
        """Decodes the picture (RGB)."""
        return Image.open(io.BytesIO(self.png)).convert("RGB")

    def data_url(self) -> str:
        """The picture as a PNG data URL."""
        return png_data_url(self.png)


def rollout_seed(prompt: str, image: Image.Image) -> int:
    """A seed that identifies one rollout: a hash of its prompt and its picture's pixels.

    Hashes the decoded RGB pixels (not an encoded file), so the same picture gives the same
    seed whatever PNG encoder or compression level produced it.

    Args:
        prompt: The rollout's prompt.
        image: Its picture.

    Returns:
        A non-negative 63-bit integer.

    Examples:
        >>> white = Image.new("RGB", (4, 4), "white")
        >>> rollout_seed("a pear", white) == rollout_seed("a pear", white.copy())
        True
        >>> rollout_seed("a pear", white) == rollout_seed("an apple", white)
        False
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    digest = hashlib.sha256()
    digest.update(prompt.encode("utf-8"))
    digest.update(f"\0{rgb.width}x{rgb.height}\0".encode())
    digest.update(rgb.tobytes())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def draw_references(
    references: Sequence[ReferenceImage], task_id: str, k: int, seed: int
) -> list[ReferenceImage]:
    """Chooses up to ``k`` references of one task, deterministically from ``seed``.

    Args:
        references: All references (any tasks).
        task_id: The rollout's task.
        k: How many to draw; all of the task's references when it has ``k`` or fewer.
        seed: The draw's seed (e.g. `rollout_seed`).

    Returns:
        The drawn references, in a seed-determined order.

    Raises:
        ValueError: If ``k`` < 1 or no reference belongs to ``task_id``.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    # Sorted by id so the draw depends on the set of references, not on the order given.
    candidates = sorted((r for r in references if r.task_id == task_id), key=lambda r: r.id)
    if not candidates:
        known = sorted({r.task_id for r in references})
        raise ValueError(
            f"no reference painting for task {task_id!r}; tasks with references: {known}"
        )
    return random.Random(seed).sample(candidates, min(k, len(candidates)))


def render_reference_images(
    renderer: SketchRenderer,
    *,
    path: str | os.PathLike[str] | None = None,
    task_ids: Iterable[str] | None = None,
    tiers: str | Iterable[str] | None = None,
    seed: int | None = None,
) -> list[ReferenceImage]:
    """Renders reference-pool sketches into pictures for the pairwise judge.

    All sketches are rendered in one concurrent batch on the renderer's pool.

    Args:
        renderer: A `SketchRenderer` (started or not).
        path: Pool folder; ``None`` finds the shipped pool.
        task_ids: Only these tasks (``None``: all).
        tiers: Only this tier or these tiers (``None``: all).
        seed: Render seed; ``None`` uses the pool's measurement seed, so the pictures are the
            ones whose metadata the pool records.

    Returns:
        One `ReferenceImage` per reference that rendered a picture, in pool order.

    Raises:
        RuntimeError: If a reference rendered no picture (the pool is meant to render; a
            failure here is an installation problem worth stopping for), naming it.
        sketch_env.catalog.references.ReferencePoolError: If the pool is missing or malformed.
    """
    # Imported here: the pool module is only needed by this helper, and importing the
    # environment package from the scoring package at import time would be circular.
    from sketch_env.catalog.references import MEASURE_SEED, load_reference_pool

    refs = load_reference_pool(path, tier=tiers)
    if task_ids is not None:
        wanted = set(task_ids)
        refs = [ref for ref in refs if ref.task_id in wanted]
    render_seed = MEASURE_SEED if seed is None else seed
    renders = renderer.render_many_sync([ref.source for ref in refs], render_seed)
    out = []
    for ref, render in zip(refs, renders, strict=True):
        if render.png is None or not render.status.has_picture:
            errors = "; ".join(render.errors) or render.status.value
            raise RuntimeError(f"reference {ref.id!r} rendered no picture: {errors}")
        out.append(
            ReferenceImage(
                ref.id,
                ref.task_id,
                render.png,
                prompt=ref.prompt,
                tier=ref.tier,
                source=f"pool:{render.backend or renderer.backend}:seed{render_seed}",
            )
        )
    return out


def save_reference_images(references: Sequence[ReferenceImage], folder: str | Path) -> Path:
    """Writes reference pictures to a folder: ``ID.png`` files and a manifest.

    Args:
        references: The references; ids must be unique and file-name safe.
        folder: Target folder (created if missing; existing files of the same names are
            replaced).

    Returns:
        The manifest's path.

    Raises:
        ValueError: On a duplicate or unsafe id.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    for ref in references:
        if not _SAFE_ID.match(ref.id) or ref.id in seen:
            raise ValueError(f"reference id {ref.id!r} is duplicated or not file-name safe")
        seen.add(ref.id)
        name = f"{ref.id}.png"
        (folder / name).write_bytes(ref.png)
        entries.append(
            {
                "id": ref.id,
                "task_id": ref.task_id,
                "file": name,
                "sha256": hashlib.sha256(ref.png).hexdigest(),
                "prompt": ref.prompt,
                "tier": ref.tier,
                "source": ref.source,
            }
        )
    manifest = folder / MANIFEST_FILE
    text = json.dumps({"version": _MANIFEST_VERSION, "references": entries}, indent=2)
    manifest.write_text(text + "\n", encoding="utf-8")
    return manifest


def load_reference_images(folder: str | Path) -> list[ReferenceImage]:
    """Reads reference pictures written by `save_reference_images`.

    Args:
        folder: The folder holding ``references.json``.

    Returns:
        The references, in manifest order.

    Raises:
        ValueError: If the manifest is missing or malformed, a file is missing, lies outside
            the folder, or does not match its recorded checksum.
    """
    folder = Path(folder)
    manifest = folder / MANIFEST_FILE
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            f"no {MANIFEST_FILE} in {folder}: write one with save_reference_images()"
        ) from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{manifest} is not valid JSON: {err}") from err
    if not isinstance(data, dict) or not isinstance(data.get("references"), list):
        raise ValueError(f"{manifest} must be an object with a 'references' list")
    out = []
    for i, entry in enumerate(data["references"]):
        where = f"{manifest}, entry {i}"
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), str) and entry[k] for k in ("id", "task_id", "file")
        ):
            raise ValueError(f"{where}: needs non-empty 'id', 'task_id' and 'file' strings")
        target = (folder / entry["file"]).resolve()
        # The manifest is data: it must not make us read files outside its own folder.
        if target.parent != folder.resolve() or not target.is_file():
            raise ValueError(f"{where}: file {entry['file']!r} not found in {folder}")
        png = target.read_bytes()
        expected = entry.get("sha256")
        if expected is not None and hashlib.sha256(png).hexdigest() != expected:
            raise ValueError(f"{where}: {entry['file']} does not match its sha256")
        out.append(
            ReferenceImage(
                entry["id"],
                entry["task_id"],
                png,
                prompt=str(entry.get("prompt", "")),
                tier=str(entry.get("tier", "")),
                source=str(entry.get("source", "")),
            )
        )
    if not out:
        raise ValueError(f"{manifest} lists no references")
    return out
