"""Two GRPO steps on CPU with a tiny, randomly initialised model: nothing is downloaded.

This checks the whole TRL integration end to end in about a minute: `make_dataset` prompts,
`GRPOTrainer` generation, `sketch_env.trl.SketchReward` (and two component reward functions
over the same evaluation) called with TRL's keyword contract, metrics logged through
``log_metric``, and an optimiser step. The model is a 2-layer Qwen2 with random weights and a
byte-level BPE tokenizer trained here on a few lines, so its "sketches" are noise that the gate
refuses: the point is the plumbing, not the painting. `examples/grpo_trl.py` is the real run.

Run it with::

    # first, a CPU torch (PyPI's plain torch==2.13.0 is the multi-GB CUDA build):
    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    pip install 'trl==1.16.*' 'datasets>=3' 'peft>=0.17'   # the [trl] extra
    python examples/grpo_trl_smoke.py

A test (``tests/trl/test_trl.py``) runs `run_smoke` so the integration cannot rot.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# TRL warns that environment_factory is experimental; unused here, but keep the log clean.
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

#: A minimal ChatML template: enough for TRL to build prompts and cut completions.
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{{ message['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def build_tokenizer(
    texts: Sequence[str], special_tokens: Sequence[str] = SPECIAL_TOKENS, vocab_size: int = 600
) -> Any:
    """Trains a small byte-level BPE tokenizer on ``texts`` and wraps it for transformers.

    Args:
        texts: Training lines (the task prompts and a sketch are plenty).
        special_tokens: Its special tokens (they must include ``<|endoftext|>`` and
            ``<|im_end|>``, the pad and end tokens).
        vocab_size: Vocabulary size to train to.

    Returns:
        A `transformers.PreTrainedTokenizerFast` with a pad token and a chat template.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(special_tokens),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token=None,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
    )
    wrapped.chat_template = CHAT_TEMPLATE
    return wrapped


def build_model(tokenizer: Any, seed: int = 0) -> Any:
    """A 2-layer Qwen2 causal LM with random weights, sized for CPU seconds.

    Args:
        tokenizer: The tokenizer (its vocabulary and special tokens size the model).
        seed: Seed for the random weights.

    Returns:
        A `transformers.Qwen2ForCausalLM`.
    """
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = Qwen2ForCausalLM(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    return model


class RecordingReward:
    """Wraps a reward function and records how TRL called it (what the smoke test checks).

    Args:
        inner: The reward function.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.__name__ = inner.__name__
        self.calls: list[dict[str, Any]] = []

    def __call__(self, prompts: Any, completions: Any, **kwargs: Any) -> list[float | None]:
        """Records the call's shape, then delegates."""
        values = self.inner(prompts=prompts, completions=completions, **kwargs)
        self.calls.append(
            {
                "prompts": len(prompts),
                "completions": len(completions),
                "conversational": isinstance(completions[0], list),
                "kwargs": sorted(kwargs),
                "task_id": list(kwargs.get("task_id") or []),
                "values": len(values),
            }
        )
        return values


def cpu_grpo_config(output_dir: str | Path, **settings: Any) -> Any:
    """A `GRPOConfig` for a short run on the CPU: no saving, no reporting, seeded, logging every
    step; ``settings`` set the batch, generation and reward options of the run.

    Args:
        output_dir: The trainer's output folder.
        **settings: Further `GRPOConfig` fields (``max_steps``, ``num_generations``, ...).

    Returns:
        The configuration.
    """
    from trl import GRPOConfig

    base: dict[str, Any] = {
        "learning_rate": 1e-4,
        "logging_steps": 1,
        "save_strategy": "no",
        "report_to": "none",
        "use_cpu": True,
        "bf16": False,
        "seed": 0,
        "dataloader_num_workers": 0,
    }
    return GRPOConfig(output_dir=str(output_dir), **(base | settings))


def run_smoke(output_dir: str | Path, steps: int = 2, pool_size: int = 1) -> dict[str, Any]:
    """Runs ``steps`` GRPO steps with the tiny model and the default (vision) scorer.

    Args:
        output_dir: Where the trainer writes (nothing large: saving is off).
        steps: Optimiser steps.
        pool_size: Browsers in the renderer's pool.

    Returns:
        ``{"global_step", "calls" (one record per reward call), "log_history"}``.
    """
    from trl import GRPOTrainer

    from sketch_env import SketchRenderer
    from sketch_env.catalog.instructions import EXAMPLE_SKETCH
    from sketch_env.catalog.tasks import load_tasks
    from sketch_env.rewardcheck.gaps import gap_notice
    from sketch_env.scoring.spec import DEFAULT_SCORER
    from sketch_env.trl import SketchReward, make_dataset

    print(gap_notice(DEFAULT_SCORER), flush=True)

    tasks = load_tasks()[:2]
    # A short system prompt keeps the sequences (and the CPU time) small.
    dataset = make_dataset(tasks, repeats=4, system_prompt="Reply with a p5.brush sketch.")
    tokenizer = build_tokenizer([t.prompt for t in load_tasks()] + EXAMPLE_SKETCH.splitlines())
    model = build_model(tokenizer)

    with SketchRenderer(pool_size=pool_size, deadline_s=10) as renderer:
        reward = SketchReward(scorer=DEFAULT_SCORER, renderer=renderer)
        funcs = [RecordingReward(f) for f in reward.components("reward", "coverage", "gate")]
        args = cpu_grpo_config(
            output_dir,
            max_steps=steps,
            per_device_train_batch_size=4,
            num_generations=4,
            max_completion_length=24,
            reward_weights=[1.0, 0.5, 0.5],
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=funcs,
            args=args,
            train_dataset=dataset,
            processing_class=tokenizer,
        )
        trainer.train()
        return {
            "global_step": trainer.state.global_step,
            "calls": {f.__name__: f.calls for f in funcs},
            "evaluations": reward.evaluation.evaluations,
            "log_history": trainer.state.log_history,
        }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the smoke training and print a summary as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2, help="GRPO steps (default 2)")
    parser.add_argument("--out", default=None, help="trainer output folder (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        result = run_smoke(args.out or tmp, steps=args.steps)
    summary = {
        "global_step": result["global_step"],
        "reward_calls": {name: len(calls) for name, calls in result["calls"].items()},
        "logged": [
            {k: v for k, v in row.items() if k.startswith(("sketch/", "rewards/", "loss"))}
            for row in result["log_history"]
        ],
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
