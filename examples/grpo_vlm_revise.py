"""Look and revise: GRPO for a vision-language policy that sees its own paintings.

A real run for a GPU machine (not run in CI; ``tests/trl/test_trl_vlm.py`` checks the same wiring
on CPU with a tiny random Qwen2.5-VL). The policy writes a p5.brush sketch and calls the
``render`` tool of `sketch_env.trl.SketchToolEnv`; the tool answers with the rendered picture
(``--image-size`` px square) and a report or a critique, never the score; the policy revises
and renders again, up to ``--max-renders`` times. The reward is that of the last sketch
rendered (HPSv3 when a service URL is given, else the embedded vision scorer, plus paint
coverage); the scorer's measured adversarial gap is printed at start. ``sketch/*`` and
``sketch/revision/*`` metrics (first and last render's reward, improvement) are logged
through `SketchToolEnv.metrics`.

Qwen2.5-VL's own chat template cannot render a tool call, so TRL refuses it for tools; this
script then uses TRL's Qwen3-VL template, whose conversation format (``<|im_start|>`` turns,
``<tool_call>`` blocks, ``<|vision_start|><|image_pad|><|vision_end|>`` for an image) is the
one Qwen2.5-VL's tokenizer was built for. A Qwen3-VL model (``--model
Qwen/Qwen3-VL-2B-Instruct``) ships that template itself.

Setup on the training machine, with sketch_env installed from its clone or a built wheel
(README.md, "Install")::

    pip install torch==2.13.0 torchvision     # the CUDA build your driver needs, FIRST
    pip install 'trl==1.16.*' 'datasets>=3' 'peft>=0.17'   # the [trl] extra
    sudo apt-get install -y chromium libegl-mesa0 libgl1-mesa-dri
    sketch-env doctor                         # browser, GL backend, scorer

Then::

    python examples/grpo_vlm_revise.py --model Qwen/Qwen2.5-VL-3B-Instruct \\
        --scorer hpsv3+http://127.0.0.1:8765 --lora --out runs/vlm-revise

Generation uses transformers by default; ``--vllm`` switches to vLLM's colocated mode
(``pip install vllm``): TRL 1.16 hands the tool images to vLLM's ``generate`` with the token
ids. Neither mode has been run with a real model here (no GPU run yet); the CPU test runs the
transformers path.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from sketch_env.scoring.spec import DEFAULT_SCORER


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="Qwen/Qwen2.5-VL-3B-Instruct", help="policy VLM")
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
    parser.add_argument("--out", default="runs/grpo-vlm-revise", help="checkpoints and logs")
    parser.add_argument("--steps", type=int, default=300, help="optimiser steps")
    parser.add_argument("--generations", type=int, default=8, help="completions per prompt")
    parser.add_argument("--batch", type=int, default=8, help="per-device batch (completions)")
    parser.add_argument(
        "--max-completion",
        type=int,
        default=4096,
        help="tokens per episode: every sketch, tool answer and picture counts",
    )
    parser.add_argument("--max-renders", type=int, default=3, help="render calls per episode")
    parser.add_argument(
        "--image-size", type=int, default=256, help="side of the picture the policy sees (px)"
    )
    parser.add_argument(
        "--feedback",
        choices=("report", "critique"),
        default="critique",
        help="what the tool says besides the picture (never the score)",
    )
    parser.add_argument("--lr", type=float, default=1e-6, help="learning rate")
    parser.add_argument("--lora", action="store_true", help="train LoRA adapters (peft)")
    parser.add_argument("--vllm", action="store_true", help="generate with vLLM (colocated)")
    parser.add_argument("--pool-size", type=int, default=8, help="browsers rendering at once")
    parser.add_argument("--report-to", default="none", help="wandb, tensorboard or none")
    return parser.parse_args(argv)


def load_processor(model: str, image_size: int) -> Any:
    """The model's processor, sized for ``image_size`` pictures, with a tool-calling template.

    Args:
        model: The model id or folder.
        image_size: Side of the pictures the tool returns; the processor keeps them at that
            size (its pixel bounds would otherwise rescale them).

    Returns:
        The processor, with TRL's response parser attached.
    """
    from transformers import AutoProcessor
    from trl.chat_template_utils import (
        add_response_schema,
        qwen3_vl_chat_template,
        supports_tool_calling,
    )

    pixels = image_size * image_size
    processor = AutoProcessor.from_pretrained(model, min_pixels=pixels, max_pixels=pixels)
    if not supports_tool_calling(processor):
        print(f"{model}'s chat template cannot render tool calls: using TRL's Qwen3-VL template")
        processor.chat_template = qwen3_vl_chat_template
        processor.tokenizer.chat_template = qwen3_vl_chat_template
    return add_response_schema(processor)


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
    from sketch_env.trl import SketchToolEnv, make_dataset

    # One pool for the whole run: a generation batch's renders run at once across the pool.
    renderer = shared_renderer(pool_size=args.pool_size, deadline_s=30)
    env_cls = SketchToolEnv.configured(
        scorer=args.scorer,
        renderer=renderer,
        images=True,
        image_size=args.image_size,
        max_renders=args.max_renders,
        feedback=args.feedback,
    )
    config = GRPOConfig(
        output_dir=args.out,
        max_steps=args.steps,
        learning_rate=args.lr,
        per_device_train_batch_size=args.batch,
        num_generations=args.generations,
        max_completion_length=args.max_completion,
        max_tool_calling_iterations=args.max_renders,
        temperature=1.0,
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
            r=16, lora_alpha=32, lora_dropout=0.05, target_modules="all-linear"
        )
    trainer = GRPOTrainer(
        model=args.model,
        # Logs sketch/* and sketch/revision/*; it returns None, so the reward is the
        # environment's own (get_reward: the last sketch rendered).
        reward_funcs=[env_cls.metrics()],
        args=config,
        train_dataset=make_dataset(repeats=max(1, args.steps // 3)),
        processing_class=load_processor(args.model, args.image_size),
        environment_factory=env_cls,
        peft_config=peft_config,
    )
    trainer.train()
    trainer.save_model(args.out)


if __name__ == "__main__":
    main()
