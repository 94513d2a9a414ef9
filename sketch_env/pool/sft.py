"""Export the reference pool as supervised pairs for a warm start (``sketch-env pool export-sft``).

Before RL, a policy that has never written p5.brush code earns the gate's -1 on nearly every
reply, and GRPO learns little from a group that scores alike. A few steps of supervised
fine-tuning on the pool's good paintings first teach it the reply format and the drawing API.
Each row pairs exactly what the policy sees during RL with exactly what it is asked to answer:

- **the prompt**: the policy instructions as the system message and the user turn, built by
  `sketch_env.catalog.instructions.build_messages`, as `sketch_env.trl.make_dataset` builds
  them for `trl.GRPOTrainer`;
- **the reply**: one ```javascript fenced block holding the reference's sketch, the format
  `POLICY_INSTRUCTIONS` asks for. Every reply is run through `sketch_env.gate.gate_reply` on
  export, and the export stops if one fails or if the gate extracts anything other than the
  sketch.

Which scene the user turn asks for (``prompts``):

- ``"task"``: the reference's task prompt, the exact text the policy gets in RL. The task
  prompts are what the references were painted to, so this row is the RL distribution itself;
  but a task has one prompt and several references, so these rows alone teach one prompt many
  answers.
- ``"reference"``: the reference's own prompt, which describes what that sketch actually
  paints (its composition, palette, paper). This row ties the words to the picture, so the
  model learns to follow a prompt rather than a task id.

Both are exported by default (two rows per reference; one where the two texts are equal), and
``prompt_source`` says which a row is. The sketch's leading comment is dropped from the reply:
it is the pool's description of the painting, written for the people rating it (weak ones
begin "Weak on purpose: ..."), and a policy trained on it would learn to announce its tier.
Comments inside the sketch stay.

Rows are shuffled with a seed, so that a trainer reading them in order still mixes tasks and
tiers; the same pool, tiers and seed give byte-identical files. Written into the output folder:

- ``sft.jsonl``: one JSON object a line, the columns below;
- ``dataset/``: the same rows as a `datasets.Dataset` (`datasets.Dataset.save_to_disk`; load it
  with `datasets.load_from_disk`).

Columns: ``messages`` (system, user, assistant: TRL's conversational language-modelling form),
``prompt`` (system, user) and ``completion`` (assistant: the conversational prompt-completion
form, where only the reply is trained on), ``task_id``, ``tier``, ``reference_id``,
``prompt_source`` and ``prompt_text`` (the scene, as the reward scores it). `trl.SFTTrainer`
reads ``prompt``/``completion`` when both are present; for the ``messages`` form drop them
first (``dataset.remove_columns(["prompt", "completion"])``).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sketch_env.catalog.instructions import POLICY_INSTRUCTIONS, build_messages
from sketch_env.catalog.references import TIERS, Reference, load_reference_pool
from sketch_env.catalog.tasks import get_task
from sketch_env.errors import SketchEnvError
from sketch_env.gate import GateConfig, gate_reply
from sketch_env.install import TRL_INSTALL

__all__ = [
    "DATASETS_INSTALL_HINT",
    "DATASET_DIR",
    "DEFAULT_TIERS",
    "PROMPT_SOURCES",
    "SFT_FILE",
    "SFTExport",
    "SFTExportError",
    "export_sft",
    "sft_reply",
    "sft_rows",
]

#: The JSONL file inside the output folder.
SFT_FILE = "sft.jsonl"
#: The `datasets.Dataset.save_to_disk` folder inside the output folder.
DATASET_DIR = "dataset"
#: Which scene a row's user turn asks for: the task's prompt, or the reference's own.
PROMPT_SOURCES: tuple[str, ...] = ("task", "reference")
#: Tiers exported by default: the paintings a policy should imitate.
DEFAULT_TIERS: tuple[str, ...] = ("love", "ok")
#: What to install when ``datasets`` is missing. It is the one package the dataset needs
#: (no torch); the ``trl`` extra brings it along with the trainer that reads it.
DATASETS_INSTALL_HINT = (
    f"pip install 'datasets>=3' (or the training stack that reads it: {TRL_INSTALL})"
)


class SFTExportError(SketchEnvError, ValueError):
    """A reference cannot be exported as a valid reply (says which and why)."""


@dataclass(frozen=True)
class SFTExport:
    """What `export_sft` wrote.

    Args:
        out_dir: The output folder.
        jsonl_path: ``sft.jsonl``.
        dataset_path: The saved dataset's folder, or ``None`` when it was not written.
        rows: The rows, in file order.
        seed: The shuffle seed.
        tiers: The tiers exported.
        prompts: The prompt sources exported.
    """

    out_dir: Path
    jsonl_path: Path
    dataset_path: Path | None
    rows: tuple[dict[str, Any], ...] = field(repr=False)
    seed: int
    tiers: tuple[str, ...]
    prompts: tuple[str, ...]

    def counts(self) -> dict[str, dict[str, int]]:
        """Rows per tier and per prompt source."""
        return {
            "tier": dict(Counter(row["tier"] for row in self.rows)),
            "prompt_source": dict(Counter(row["prompt_source"] for row in self.rows)),
        }

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-serialisable summary (no rows)."""
        return {
            "out_dir": str(self.out_dir),
            "jsonl": str(self.jsonl_path),
            "dataset": None if self.dataset_path is None else str(self.dataset_path),
            "rows": len(self.rows),
            "references": len({row["reference_id"] for row in self.rows}),
            "seed": self.seed,
            "tiers": list(self.tiers),
            "prompts": list(self.prompts),
            **self.counts(),
        }


def _without_leading_comment(source: str) -> str:
    lines = source.splitlines()
    start = 0
    while start < len(lines) and lines[start].lstrip().startswith("//"):
        start += 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    return "\n".join(lines[start:]).rstrip() + "\n"


def sft_reply(source: str) -> str:
    """The reply a policy is asked for, holding this sketch.

    Args:
        source: A reference sketch.

    Returns:
        One ```javascript fenced block with the sketch, its leading comment (the pool's
        description for raters) removed.

    Examples:
        >>> print(sft_reply("// Weak on purpose: a dot.\\n\\nfunction setup() {}\\n"), end="")
        ```javascript
        function setup() {}
        ```
    """
    return f"```javascript\n{_without_leading_comment(source)}```"


def _checked_reply(ref: Reference, gate: GateConfig) -> str:
    reply = sft_reply(ref.source)
    sketch = _without_leading_comment(ref.source)
    verdict = gate_reply(reply, gate)
    # Raised rather than asserted: an export must never write a reply the gate refuses, even
    # under ``python -O``.
    if not verdict.passed:
        raise SFTExportError(
            f"reference {ref.id}: its reply fails the gate: {'; '.join(verdict.reasons)}"
        )
    if verdict.source is None or verdict.source.strip() != sketch.strip():
        raise SFTExportError(
            f"reference {ref.id}: the gate extracts something other than the sketch from its "
            "reply (a fence inside the sketch?)"
        )
    return reply


def _check_choice(values: Iterable[str], allowed: Sequence[str], what: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(values))
    unknown = [v for v in chosen if v not in allowed]
    if unknown or not chosen:
        raise ValueError(
            f"{what} must be one or more of {', '.join(allowed)}; got {', '.join(chosen) or 'none'}"
        )
    return chosen


def sft_rows(
    references: Sequence[Reference],
    *,
    prompts: Iterable[str] = PROMPT_SOURCES,
    instructions: str = POLICY_INSTRUCTIONS,
    gate: GateConfig | None = None,
) -> list[dict[str, Any]]:
    """The prompt -> reply rows of these references, in reference order (see the module doc).

    Args:
        references: The references.
        prompts: ``"task"``, ``"reference"`` or both (`PROMPT_SOURCES`).
        instructions: The system message; the policy's own instructions by default.
        gate: The gate every reply must pass; the defaults when ``None``.

    Returns:
        One row per reference and prompt source; a reference whose own prompt is its task's
        gives one row (``prompt_source`` ``"task"``).

    Raises:
        SFTExportError: If a reply fails the gate.
        ValueError: If ``prompts`` names an unknown source.
        sketch_env.catalog.tasks.UnknownTaskError: If a reference's task is not in the task set.
    """
    sources = _check_choice(prompts, PROMPT_SOURCES, "prompts")
    gate = gate or GateConfig()
    rows: list[dict[str, Any]] = []
    for ref in references:
        reply = [{"role": "assistant", "content": _checked_reply(ref, gate)}]
        scenes = {"task": get_task(ref.task_id).prompt, "reference": ref.prompt}
        done: set[str] = set()
        # In PROMPT_SOURCES order whatever order they were asked in, so that a reference whose
        # prompt is its task's keeps the "task" row.
        for source in (s for s in PROMPT_SOURCES if s in sources):
            scene = scenes[source]
            if scene in done:
                continue
            done.add(scene)
            prompt = build_messages(scene, instructions)
            rows.append(
                {
                    "messages": prompt + reply,
                    "prompt": prompt,
                    "completion": reply,
                    "task_id": ref.task_id,
                    "tier": ref.tier,
                    "reference_id": ref.id,
                    "prompt_source": source,
                    "prompt_text": scene,
                }
            )
    return rows


def _require_datasets() -> None:
    # Checked before anything is written, so a missing package never leaves half an export.
    try:
        import datasets  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            "export-sft writes a Hugging Face dataset and needs the `datasets` package: "
            f"{DATASETS_INSTALL_HINT}; or write only {SFT_FILE} (--no-dataset, dataset=False)"
        ) from exc


def export_sft(
    out_dir: str | os.PathLike[str],
    *,
    tiers: Iterable[str] = DEFAULT_TIERS,
    prompts: Iterable[str] = PROMPT_SOURCES,
    seed: int = 0,
    path: str | os.PathLike[str] | None = None,
    dataset: bool = True,
) -> SFTExport:
    """Writes the pool's prompt -> reply pairs as ``sft.jsonl`` and a saved `datasets.Dataset`.

    Args:
        out_dir: The output folder (created; existing files of the export are replaced).
        tiers: The tiers to export (`DEFAULT_TIERS`: ``love`` and ``ok``).
        prompts: Which scene the user turn asks for: ``"task"``, ``"reference"`` or both.
        seed: Seed of the row shuffle.
        path: Pool folder; ``None`` finds the shipped pool.
        dataset: Also write ``dataset/`` (needs the ``datasets`` package); ``False`` writes
            only the JSONL.

    Returns:
        An `SFTExport`.

    Raises:
        ImportError: If ``dataset`` is set and ``datasets`` is missing, before anything is
            written (the message says what to install).
        SFTExportError: If a reference's reply fails the gate, or nothing is left to export.
        ValueError: For an unknown tier or prompt source.
        sketch_env.catalog.references.ReferencePoolError: If the pool is missing or malformed.

    Examples:
        >>> export = export_sft("runs/sft", tiers=["love"])  # doctest: +SKIP
        >>> import datasets
        >>> datasets.load_from_disk("runs/sft/dataset")[0]["messages"][-1]["role"]  # doctest: +SKIP
        'assistant'
    """
    chosen_tiers = _check_choice(tiers, TIERS, "tiers")
    chosen_prompts = _check_choice(prompts, PROMPT_SOURCES, "prompts")
    if dataset:
        _require_datasets()
    refs = load_reference_pool(path, tier=chosen_tiers)
    rows = sft_rows(refs, prompts=chosen_prompts)
    if not rows:
        raise SFTExportError(f"no reference of tier(s) {', '.join(chosen_tiers)} in the pool")
    random.Random(seed).shuffle(rows)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / SFT_FILE
    jsonl.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    saved = None
    if dataset:
        import datasets

        saved = out / DATASET_DIR
        datasets.Dataset.from_list(rows).save_to_disk(str(saved))
    return SFTExport(
        out_dir=out,
        jsonl_path=jsonl,
        dataset_path=saved,
        rows=tuple(rows),
        seed=seed,
        tiers=chosen_tiers,
        prompts=chosen_prompts,
    )
