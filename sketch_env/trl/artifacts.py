"""Training-time pictures: every logged step's rollouts as files, a gallery, and the logger.

`ArtifactConfig` says where and how much; `ArtifactWriter` writes. Each writer is one training
run with a folder of its own, ``DIR/run-YYYYmmdd-HHMMSS-xxxx/`` (or the ``run`` named in the
config, to resume one). For each logged step (every ``every_n_steps``-th) it writes at most
``max_per_step`` rollouts into ``DIR/RUN/step-NNNNNN/``, in the layout of a ``sketch-env
rollout`` folder (``images/``, ``sketches/``, ``results.jsonl`` with a ``run``, a ``step`` and
a ``group`` per record), so that ``sketch-env gallery DIR``
(`sketch_env.rollout.gallery.write_runs_gallery`) shows each run's steps side by side and the
runs apart. Two runs into one directory once shared ``DIR/step-NNNNNN/``: the second appended
to the first one's steps under the same group numbers, and the gallery showed them as one
group. It also sends a few pictures per step to Weights & Biases or trackio when the
training process already uses them (never importing either), and returns each picture's path
for TRL's completions table.

Bounded on purpose: a 600x600 PNG is 50-300 kB, and a run of 1,000 steps x 64 completions
would otherwise write gigabytes.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sketch_env.evaluation.rollout import Rollout
from sketch_env.evaluation.runs import (
    RESULTS_FILE,
    append_records,
    check_run_name,
    new_run_name,
    prepare_run_folder,
    step_dir_name,
    write_rollout,
)

__all__ = ["ArtifactConfig", "ArtifactWriter"]

logger = logging.getLogger(__name__)

#: Steps whose group numbering is remembered (a step's rollouts may arrive in several calls).
_STEPS_REMEMBERED = 8


@dataclass(frozen=True)
class ArtifactConfig:
    """Where training-time pictures go, and how many.

    Args:
        directory: The artifacts directory (created on first write).
        every_n_steps: Write steps 0, N, 2N...; other steps write nothing.
        max_per_step: Rollouts written per logged step at most (the first ones of the batch:
            TRL's batches hold whole groups in order, so whole groups are kept).
        log_images: Pictures per logged step sent to an active Weights & Biases or trackio
            run (0: none).
        run: The training run's folder inside ``directory``. ``None`` (the default) gives
            every writer, i.e. every training run, a fresh ``run-YYYYmmdd-HHMMSS-xxxx``.
            Naming an existing run resumes it: its steps already on disk are kept as they
            are, and only steps it does not have yet are written (a resumed trainer generates
            a step again; adding the new batch to the old one's pictures would mix two
            generations under the same group numbers).

    Raises:
        ValueError: On a count below its minimum, or a run name that is not a folder name.

    Examples:
        ```python
        reward = SketchReward(artifacts=ArtifactConfig("runs/grpo/pictures", every_n_steps=10))
        # later, or while it trains:  sketch-env gallery runs/grpo/pictures
        # resume the run reward.artifacts.run names:
        ArtifactConfig("runs/grpo/pictures", every_n_steps=10, run="run-20261202-051500-3f9a")
        ```
    """

    directory: str | Path
    every_n_steps: int = 1
    max_per_step: int = 16
    log_images: int = 4
    run: str | None = None

    def __post_init__(self) -> None:
        if self.run is not None:
            check_run_name(self.run)
        if self.every_n_steps < 1:
            raise ValueError(f"every_n_steps must be at least 1, got {self.every_n_steps}")
        if self.max_per_step < 1:
            raise ValueError(f"max_per_step must be at least 1, got {self.max_per_step}")
        if self.log_images < 0:
            raise ValueError(f"log_images must be at least 0, got {self.log_images}")


class ArtifactWriter:
    """Writes rollouts into an artifacts directory under an `ArtifactConfig`'s bounds.

    Thread-safe; a step's rollouts may come in several calls (one per episode from
    `sketch_env.trl.SketchToolEnv`), and the bound holds across them. The writer is one
    training run: `run` names its folder, chosen when the writer is made (it travels with it
    when pickled, so a spawned reward process writes the same run). A step that the run's
    folder already holds when this writer first sees it (a resumed run) is left as it is.

    Args:
        config: The configuration, or just the directory.
    """

    def __init__(self, config: ArtifactConfig | str | Path) -> None:
        self.config = config if isinstance(config, ArtifactConfig) else ArtifactConfig(config)
        self.directory = Path(self.config.directory)
        #: The training run's folder name inside `directory`.
        self.run = self.config.run if self.config.run is not None else new_run_name()
        self._kept: set[int] = set()
        self._lock = threading.Lock()
        self._written: dict[int, int] = {}
        self._groups: dict[int, dict[Hashable, int]] = {}
        self._logged_images: dict[int, int] = {}

    @property
    def run_dir(self) -> Path:
        """The training run's folder: ``directory / run``."""
        return self.directory / self.run

    def __getstate__(self) -> dict[str, Any]:
        # The config and the run's name travel; the counts restart empty, and the copy leaves
        # alone any step it finds already on disk.
        return {"config": self.config, "run": self.run}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"])  # type: ignore[misc]
        self.run = state["run"]

    def wants(self, step: int) -> bool:
        """Whether ``step`` is one that is written."""
        return step % self.config.every_n_steps == 0

    def add(
        self,
        step: int,
        rollouts: Sequence[Rollout],
        groups: Sequence[Hashable] | None = None,
        task_ids: Sequence[str | None] | None = None,
    ) -> list[str | None]:
        """Writes a step's rollouts (as many as the bound leaves room for).

        Args:
            step: The training step.
            rollouts: Rollouts of that step, in batch order.
            groups: Their GRPO groups (any hashable id); ``(prompt, seed)`` when ``None``.
            task_ids: Their task ids, when known.

        Returns:
            Per rollout, its picture's path relative to the artifacts directory, or ``None``
            when it was not written (not a logged step, over the bound, or no picture).
        """
        paths: list[str | None] = [None] * len(rollouts)
        if not self.wants(step) or not rollouts:
            return paths
        keys = list(groups) if groups is not None else [(r.prompt, r.seed) for r in rollouts]
        folder = self.run_dir / step_dir_name(step)
        records = []
        with self._lock:
            if step in self._kept:
                return paths
            done = self._written.get(step)
            if done is None:
                if self._on_disk(folder):
                    # Written before this writer existed: a resumed run generating this step
                    # again. The pictures on disk are the batch that step trained on first.
                    self._kept.add(step)
                    logger.info(
                        "run %s already holds step %d; kept as it is, not added to",
                        self.run,
                        step,
                    )
                    return paths
                done = 0
            room = max(0, self.config.max_per_step - done)
            if room == 0:
                return paths
            prepare_run_folder(folder)
            numbers = self._groups.setdefault(step, {})
            for index, rollout in enumerate(rollouts[:room]):
                group = numbers.setdefault(keys[index], len(numbers))
                n = done + index
                record = write_rollout(
                    folder,
                    n,
                    f"g{group:02d}-{n:03d}",
                    rollout,
                    task_id=task_ids[index] if task_ids is not None else None,
                    origin=f"step {step}",
                )
                record.update(run=self.run, step=step, group=group)
                records.append(record)
                if record["image"]:
                    paths[index] = f"{self.run}/{folder.name}/{record['image']}"
            append_records(folder, records)
            self._written[step] = done + len(records)
            for old in sorted(self._groups)[:-_STEPS_REMEMBERED]:
                self._groups.pop(old, None)
                self._written.pop(old, None)
                self._logged_images.pop(old, None)
            image_room = self.config.log_images - self._logged_images.get(step, 0)
            chosen = [r for r in rollouts[:room] if r.render is not None and r.render.png][
                : max(0, image_room)
            ]
            self._logged_images[step] = self._logged_images.get(step, 0) + len(chosen)
        if chosen:
            self._log_images(step, chosen)
        return paths

    @staticmethod
    def _on_disk(folder: Path) -> int:
        results = folder / RESULTS_FILE
        if not results.is_file():
            return 0
        return sum(1 for line in results.read_text("utf-8").splitlines() if line.strip())

    def _log_images(self, step: int, rollouts: list[Rollout]) -> None:
        # Only loggers the process already imported and started: neither is a dependency, and
        # importing wandb unasked would start nothing anyway (it needs wandb.init).
        for name in ("wandb", "trackio"):
            module: Any = sys.modules.get(name)
            if module is None or (name == "wandb" and getattr(module, "run", None) is None):
                continue
            try:
                pictures = [
                    module.Image(r.render.image(), caption=_caption(r))
                    for r in rollouts
                    if r.render is not None
                ]
                if name == "wandb":
                    # commit=False: the trainer's own log call for this step commits it.
                    module.log({"sketch/pictures": pictures}, commit=False)
                else:
                    # trackio (0.43) logs one image per key; a list is refused as not JSON.
                    module.log({f"sketch/picture_{i}": p for i, p in enumerate(pictures)})
            except Exception as exc:  # A logger's failure must not stop training.
                logger.warning("could not log pictures of step %d to %s: %s", step, name, exc)


def _caption(rollout: Rollout) -> str:
    reward = rollout.reward.reward
    shown = f"{reward:.3f}" if reward is not None else "none"
    return f"reward {shown} ({rollout.status.value}): {rollout.prompt[:80]}"
