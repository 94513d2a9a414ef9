"""Look and revise with TRL: two GRPO steps where a vision-language policy sees its renders.

Everything is real except the policy's *choices*: real `trl.GRPOTrainer` with
``environment_factory``, real Chromium renders, the real heuristic scorer, and a real
Qwen2.5-VL architecture (2 layers, random weights, built here offline: nothing is downloaded)
that really runs its vision tower on the rendered pictures during generation and training.

A random model never writes a tool call, so its generation is steered: `ScriptedToolCalls`, a
logits processor added to ``generate``, masks every token but the next one of a fixed script
(first turn: call ``render`` with a bare sketch; after the first tool answer: call it again with
a real painting; after the second: stop). The model still computes every forward pass, and
GRPO still trains on the log-probabilities of those tokens; only sampling is constrained. This
is named here because it is the one thing in the test that is not the real thing.

The chat template is TRL's Qwen3-VL template (shipped with TRL): Qwen2.5-VL's own template
cannot render a tool call, so TRL refuses it for tools; the conversation format of images
(``<|vision_start|><|image_pad|><|vision_end|>``) is the same in both.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sketch_env.catalog.tasks import load_tasks
from sketch_env.trl import TRL_INSTALL_HINT, SketchToolEnv, make_dataset
from tests.conftest import BARE_SKETCH, GOOD_SKETCH, smoke_example

pytestmark = pytest.mark.trl

#: Side of the picture the policy sees: 56 px is 4x4 patches of 14 px, 2x2 merged = 4 tokens.
IMAGE_SIZE = 56

SPECIAL_TOKENS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
#: Added as ordinary (non-special) tokens, as in Qwen's tokenizers: the response parser reads
#: them from the decoded text.
TOOL_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def _require(*modules: str) -> None:
    for module in modules:
        if importlib.util.find_spec(module) is None:
            pytest.fail(f"this test needs {module!r}: {TRL_INSTALL_HINT}")


def _tool_call(sketch: str) -> str:
    payload = json.dumps({"name": "render", "arguments": {"sketch": sketch}})
    return f"<tool_call>\n{payload}\n</tool_call><|im_end|>"


def build_processor(texts: list[str]) -> Any:
    """A Qwen2.5-VL processor: a BPE tokenizer trained on ``texts`` (the smoke example's
    builder, with Qwen2-VL's vision tokens), the PIL image processor.

    Args:
        texts: Lines to train the tokenizer on.

    Returns:
        A `transformers.Qwen2_5_VLProcessor` with TRL's Qwen3-VL chat template.
    """
    from transformers import Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import (
        Qwen2VLImageProcessorPil,
    )
    from trl.chat_template_utils import qwen3_vl_chat_template

    wrapped = smoke_example().build_tokenizer(texts, SPECIAL_TOKENS, vocab_size=800)
    wrapped.add_tokens(TOOL_TOKENS)
    wrapped.chat_template = qwen3_vl_chat_template
    # Pictures stay IMAGE_SIZE x IMAGE_SIZE (the processor would rescale outside this range).
    image_processor = Qwen2VLImageProcessorPil(
        min_pixels=IMAGE_SIZE * IMAGE_SIZE, max_pixels=IMAGE_SIZE * IMAGE_SIZE
    )

    class ImageProcessorOnly(Qwen2_5_VLProcessor):  # type: ignore[misc, valid-type]
        # Video processors need torchvision, which the CPU test stack does not install; the
        # policy never sees video.
        @classmethod
        def get_attributes(cls) -> list[str]:
            return ["image_processor", "tokenizer"]

    return ImageProcessorOnly(
        image_processor=image_processor,
        tokenizer=wrapped,
        chat_template=qwen3_vl_chat_template,
    )


class ScriptedToolCalls:
    """A logits processor that makes generation follow a script (see the module docstring).

    Turn *n* of the script is chosen by how many ``<tool_response>`` tokens the context holds;
    within a turn, the position is counted from the length of the input ``generate`` got.

    Args:
        turns: Token ids of each turn, the last ending with the end-of-turn token.
        response_id: The ``<tool_response>`` token id.
        eos_id: The end-of-turn token id (forced once a turn's script is spent).
    """

    def __init__(self, turns: list[list[int]], response_id: int, eos_id: int) -> None:
        self.turns = turns
        self.response_id = response_id
        self.eos_id = eos_id
        self.start: int | None = None

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        """Masks all but the scripted token of each row."""
        import torch

        if self.start is None:
            self.start = int(input_ids.shape[1])
        position = int(input_ids.shape[1]) - self.start
        forced = torch.full_like(scores, -math.inf)
        for row in range(input_ids.shape[0]):
            turn = int((input_ids[row] == self.response_id).sum())
            script = self.turns[min(turn, len(self.turns) - 1)]
            token = script[position] if position < len(script) else self.eos_id
            forced[row, token] = 0.0
        return forced


def build_model(processor: Any, turns: list[list[int]]) -> Any:
    """A 2-layer Qwen2.5-VL with random weights whose ``generate`` follows ``turns``.

    Args:
        processor: The processor (its tokenizer sizes the model).
        turns: The script (`ScriptedToolCalls`).

    Returns:
        The model; ``model.vision_inputs`` collects the pixel values its vision tower saw.
    """
    import torch
    from transformers import LogitsProcessorList, Qwen2_5_VLConfig
    from transformers import Qwen2_5_VLForConditionalGeneration as Base

    tokenizer = processor.tokenizer
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in [*SPECIAL_TOKENS, *TOOL_TOKENS]}

    class ScriptedVLM(Base):  # type: ignore[misc, valid-type]
        def generate(self, *args: Any, **kwargs: Any) -> Any:
            processors = kwargs.pop("logits_processor", None) or LogitsProcessorList()
            processors.append(ScriptedToolCalls(turns, ids["<tool_response>"], ids["<|im_end|>"]))
            return super().generate(*args, logits_processor=processors, **kwargs)

    torch.manual_seed(0)
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": len(tokenizer),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": 4096,
            "rope_parameters": {
                "rope_type": "default",
                "rope_theta": 10000.0,
                "mrope_section": [2, 3, 3],
            },
            "pad_token_id": ids["<|endoftext|>"],
            "eos_token_id": ids["<|im_end|>"],
            "bos_token_id": None,
            "tie_word_embeddings": True,
        },
        vision_config={
            "depth": 1,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": 64,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "window_size": 56,
            "fullatt_block_indexes": [0],
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=True,
    )
    model = ScriptedVLM(config)
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.vision_inputs = []

    def record(module: Any, args: Any, kwargs: Any) -> None:
        pixels = args[0] if args else kwargs["hidden_states"]
        model.vision_inputs.append(pixels.detach().clone())

    model.model.visual.register_forward_pre_hook(record, with_kwargs=True)
    return model


# About 3 minutes on 2 shared cores (8 renders, 3 generation turns per rollout, 2 optimiser
# steps); the suite's 300 s default left no margin under load.
@pytest.mark.timeout(900)
def test_grpo_two_steps_with_a_vlm_that_sees_its_renders(tmp_path: Path, renderer) -> None:
    _require("trl", "torch", "datasets", "transformers", "tokenizers")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    import torch
    from trl import GRPOTrainer
    from trl.chat_template_utils import add_response_schema

    tasks = load_tasks()[:2]
    texts = [t.prompt for t in load_tasks()] + GOOD_SKETCH.splitlines()
    texts += [_tool_call(GOOD_SKETCH), _tool_call(BARE_SKETCH)]
    processor = add_response_schema(build_processor(texts))
    tokenizer = processor.tokenizer
    turns = [
        tokenizer.encode(_tool_call(BARE_SKETCH), add_special_tokens=False),
        tokenizer.encode(_tool_call(GOOD_SKETCH), add_special_tokens=False),
        tokenizer.encode("Done.<|im_end|>", add_special_tokens=False),
    ]
    model = build_model(processor, turns)

    env_cls = SketchToolEnv.configured(
        renderer=renderer, images=True, image_size=IMAGE_SIZE, max_renders=3, seed=5
    )
    created: list[SketchToolEnv] = []

    def factory() -> SketchToolEnv:
        env = env_cls()
        created.append(env)
        return env

    metrics = env_cls.metrics()
    seen_episodes: list[tuple] = []

    def tool_metrics(**kwargs: Any) -> list[float | None]:
        values = metrics(**kwargs)
        seen_episodes.extend(metrics.last_episodes)
        return values

    tool_metrics.__name__ = metrics.__name__
    dataset = make_dataset(tasks, repeats=2, system_prompt="Paint; use the render tool.")
    args = smoke_example().cpu_grpo_config(
        tmp_path,
        max_steps=2,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=1024,
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[tool_metrics],
        args=args,
        train_dataset=dataset,
        processing_class=processor,
        environment_factory=factory,
    )
    trainer.train()
    assert trainer.state.global_step == 2

    # Every rollout called the tool twice and got the picture back; the second render (the
    # painting) is the one scored.
    assert len(seen_episodes) == 4
    for episode in seen_episodes:
        assert [r.status.value for r in episode] == ["ok", "ok"]
        assert episode[-1].reward.reward > episode[0].reward.reward

    # The rendered pictures reached the model: the vision tower's input holds exactly the
    # pixel values the processor makes of a render at IMAGE_SIZE.
    pictures = [r.render.image((IMAGE_SIZE, IMAGE_SIZE)) for e in seen_episodes for r in e]
    expected = [
        processor.image_processor(images=[p], return_tensors="pt")["pixel_values"] for p in pictures
    ]
    assert model.vision_inputs, "the vision tower never ran"
    seen_rows = torch.cat(model.vision_inputs).float()
    for pixels in expected:
        rows = pixels.float()
        assert any(
            bool(torch.allclose(rows, seen_rows[i : i + len(rows)], atol=1e-4))
            for i in range(0, len(seen_rows) - len(rows) + 1, len(rows))
        ), "a rendered picture never reached the vision tower"

    logged = [row for row in trainer.state.log_history if "sketch/revision/improvement" in row]
    assert len(logged) == 2
    for row in logged:
        rewards = [v for k, v in row.items() if k.startswith("rewards/SketchToolEnv")]
        assert rewards and all(math.isfinite(v) for v in rewards)
        assert row["sketch/revision/improvement"] > 0 and row["sketch/revision/renders"] == 2
        for name in ("sketch/paint_fraction", "sketch/coverage_term", "sketch/gate_pass_rate"):
            assert math.isfinite(row[name])
    assert np.isfinite([r.reward.reward for e in seen_episodes for r in e]).all()
    assert created  # TRL built its environments through the factory
