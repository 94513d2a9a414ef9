"""GRPO on the painting tasks with TRL: a small instruct model learns to paint with p5.brush.

A real run for a GPU machine (not run in CI; `grpo_trl_smoke.py` checks the same wiring on CPU).
The policy writes a sketch per prompt; `sketch_env.trl.SketchReward` renders each generation
batch concurrently in headless Chromium and scores it with HPSv3 (when a service URL is given)
or the embedded vision scorer (the reference pool's judgement of the picture through a small
image network), plus paint coverage. It prints the scorer's measured resolution and adversarial
gap at start, and refuses a scorer that a blind search is measured to beat (the heuristic)
unless told otherwise.

Setup on the training machine, with sketch_env installed from its clone or a built wheel
(README.md, "Install")::

    pip install torch==2.13.0                 # FIRST: PyPI's wheel is the CUDA build
    pip install 'trl==1.16.*' 'datasets>=3' 'peft>=0.17'   # the [trl] extra
    pip install vllm                          # optional: --vllm (fast generation)
    sudo apt-get install -y chromium libegl-mesa0 libgl1-mesa-dri
    sketch-env doctor                         # browser, GL backend, scorer

HPSv3 runs as its own service (its pins clash with TRL's; see docs/hpsv3.md), e.g. on the
same GPU or another box::

    sketch-env hpsv3 setup --cuda && sketch-env hpsv3 serve --port 8765

Then::

    python examples/grpo_trl.py --scorer hpsv3+http://127.0.0.1:8765 --lora --out runs/grpo
    python examples/grpo_trl.py --tools        # multi-turn: render tool + feedback + revise

The HPSv3 service holds about 18-20 GB of GPU memory (docs/design.md section 4): on one GPU, leave
it that much room (vLLM's colocated mode takes a share of memory set by its own settings).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from sketch_env.scoring.spec import DEFAULT_SCORER


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct", help="policy model")
    parser.add_argument(
        "--scorer",
        default=DEFAULT_SCORER,
        help="vision (embedded, the default), anchored, hpsv3+http://HOST:PORT or judge+...; "
        "heuristic only with --accept-positive-gap",
    )
    parser.add_argument(
        "--accept-positive-gap",
        action="store_true",
        help="train on a scorer a blind search is measured to beat (the heuristic)",
    )
    parser.add_argument("--out", default="runs/grpo-sketch", help="checkpoints and logs")
    parser.add_argument("--steps", type=int, default=500, help="optimiser steps")
    parser.add_argument("--generations", type=int, default=8, help="completions per prompt")
    parser.add_argument("--batch", type=int, default=8, help="per-device batch (completions)")
    parser.add_argument("--max-completion", type=int, default=1024, help="tokens per sketch")
    parser.add_argument("--lr", type=float, default=1e-5, help="learning rate")
    parser.add_argument("--lora", action="store_true", help="train LoRA adapters (peft)")
    parser.add_argument("--vllm", action="store_true", help="generate with vLLM (colocated)")
    parser.add_argument("--tools", action="store_true", help="multi-turn with the render tool")
    parser.add_argument("--pool-size", type=int, default=8, help="browsers rendering at once")
    parser.add_argument(
        "--coverage-weight",
        type=float,
        default=0.0,
        help="extra weight on the coverage component (0: the combined reward only)",
    )
    parser.add_argument("--report-to", default="none", help="wandb, tensorboard or none")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Builds the trainer and trains."""
    args = parse_args(argv)
    # Say what the reward is before spending GPU hours on it: the scorer and what a search
    # found against it (docs/reward.md, "What search finds").
    from sketch_env.rewardcheck.gaps import gap_notice, positive_gap

    print(gap_notice(args.scorer), flush=True)
    if positive_gap(args.scorer) and not args.accept_positive_gap:
        raise SystemExit(
            f"refusing to train on {args.scorer}: a blind search out-earns its references; "
            "pass --accept-positive-gap to train on it anyway"
        )
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from trl import GRPOConfig, GRPOTrainer

    from sketch_env import shared_renderer
    from sketch_env.trl import SketchReward, SketchToolEnv, make_dataset

    # One pool for the whole run: a GRPO group of 8 renders at once across 8 browsers.
    renderer = shared_renderer(pool_size=args.pool_size, deadline_s=30)
    reward = SketchReward(scorer=args.scorer, renderer=renderer)
    reward_funcs = [reward]
    reward_weights: list[float] | None = [1.0]
    if args.coverage_weight > 0:
        # Same evaluation: the coverage component costs no extra render.
        reward_funcs.append(reward.component("coverage"))
        reward_weights.append(args.coverage_weight)
    extra = {}
    if args.tools:
        # The policy calls render(sketch) for feedback; the environment owns the reward of
        # the last sketch rendered (get_reward), so no separate reward function is needed.
        extra["environment_factory"] = SketchToolEnv.configured(
            scorer=args.scorer, renderer=renderer, max_renders=3
        )
        reward_funcs, reward_weights = [], None

    config = GRPOConfig(
        output_dir=args.out,
        max_steps=args.steps,
        learning_rate=args.lr,
        per_device_train_batch_size=args.batch,
        num_generations=args.generations,
        max_completion_length=args.max_completion,
        temperature=1.0,
        reward_weights=reward_weights,
        logging_steps=1,
        save_steps=50,
        bf16=True,
        gradient_checkpointing=True,
        use_vllm=args.vllm,
        vllm_mode="colocate",
        report_to=args.report_to,
        log_completions=True,
    )
    peft_config = None
    if args.lora:
        from peft import LoraConfig

        peft_config = LoraConfig(
            r=16,
            lora_alpha=32,
            lora_dropout=0.05,
            target_modules="all-linear",
            task_type="CAUSAL_LM",
        )

    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=reward_funcs,
        args=config,
        train_dataset=make_dataset(repeats=max(1, args.steps // 3)),
        peft_config=peft_config,
        **extra,
    )
    trainer.train()
    trainer.save_model(args.out)


if __name__ == "__main__":
    main()
