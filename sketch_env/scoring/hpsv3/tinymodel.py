"""Builds a tiny, randomly initialised HPSv3 model that runs through the real ``hpsv3`` code.

The real HPSv3 is Qwen2-VL-7B-Instruct plus a head: ~17 GB of weights that no test machine can
download. This script makes a stand-in with the same *architecture* and the same files — a
Qwen2-VL config, weights, a tokenizer with the Qwen2-VL special tokens and chat template, an
image processor, and an HPSv3 checkpoint — at ~1.3 MB, offline, in about ten seconds. The
service loads it exactly as it loads the real model, so the whole path (YAML config →
``create_model_and_processor`` → ``load_state_dict(strict=True)`` → ``reward()``) is tested on
a CPU. Its scores are meaningless numbers; only their shapes, determinism and plumbing are.

Runs **inside the HPSv3 venv** (it needs ``transformers==4.45.2`` and ``hpsv3``); the main
environment calls it as ``<venv>/bin/python -I tinymodel.py --out DIR`` through
``sketch-env hpsv3 make-tiny``. Output layout::

    DIR/model/                    Qwen2-VL directory: config.json, model.safetensors,
                                  tokenizer.json (+ configs), preprocessor_config.json,
                                  chat_template.json
    DIR/hpsv3_tiny.safetensors    the HPSv3 checkpoint (base + <|Reward|> row + rm_head)
    DIR/hpsv3_tiny.yaml           hpsv3's own config with model_name_or_path = DIR/model
    DIR/manifest.json             sizes, ids, seed, versions, and a smoke score
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

#: The 14 special tokens of Qwen2-VL's tokenizer, in its order.
QWEN2VL_SPECIAL_TOKENS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
)

#: A chat template producing Qwen2-VL's conversation format: a default system turn, then
#: ``<|im_start|>role\n ... <|im_end|>\n`` turns where an image part becomes
#: ``<|vision_start|><|image_pad|><|vision_end|>`` (the processor widens ``<|image_pad|>`` to
#: one token per merged patch), and an assistant header when a generation prompt is asked for.
CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{%- if loop.first and message['role'] != 'system' -%}"
    "{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}"
    "{{- message['content'] -}}"
    "{%- else -%}"
    "{%- for part in message['content'] -%}"
    "{%- if part['type'] == 'image' or 'image' in part or 'image_url' in part -%}"
    "{{- '<|vision_start|><|image_pad|><|vision_end|>' -}}"
    "{%- elif part['type'] == 'video' or 'video' in part -%}"
    "{{- '<|vision_start|><|video_pad|><|vision_end|>' -}}"
    "{%- elif 'text' in part -%}"
    "{{- part['text'] -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}"
    "{{- '<|im_start|>assistant\\n' -}}"
    "{%- endif -%}"
)

#: The lines the tokenizer learns its merges from. Words of HPSv3's instruction and of our
#: prompts, so its prompts tokenize to a few hundred tokens rather than one per byte.
TRAINING_LINES = (
    "You are tasked with evaluating a generated image based on Visual Quality and Text Alignment.",
    "Please provide a rating from 0 to 10, with 0 being the worst and 10 being the best.",
    "Evaluate the overall visual quality of the image: reasonableness, clarity, detail richness.",
    "Aesthetic and creativity: the color scheme, composition, atmosphere and depth of field.",
    "Assess how well the image matches the textual prompt: subject, style and context.",
    "Attribute fidelity and semantic coherence of the original description.",
    "Please provide the overall ratings of this image:",
    "a peach hibiscus in loose watercolour, soft washes and pencil lines on paper",
    "a quiet harbour at dusk painted with charcoal and crayon strokes",
    "You are a helpful assistant. The user asks, the assistant answers.",
)

#: Sizes of the stand-in. Hidden 64 with 2 heads gives head_dim 32, so the multimodal rotary
#: sections must sum to 16. The vision tower's output size (``hidden_size``) must equal the
#: text hidden size: its merger writes image embeddings into the text embedding sequence.
TEXT_HIDDEN = 64
NUM_HEADS = 2
MROPE_SECTION = (4, 6, 6)


def _load_service() -> Any:
    """Loads the sibling ``service.py`` by path, under a private module name.

    This script runs with ``python -I`` (its directory is not on ``sys.path``, so sibling
    names such as ``client`` can never shadow a third-party module); ``service.py`` holds the
    helpers both scripts need (offline mode, the torchvision shim, the config writer).
    """
    path = Path(__file__).with_name("service.py")
    spec = importlib.util.spec_from_file_location("_sketch_env_hpsv3_service", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def build_tokenizer(vocab_size: int = 600) -> Any:
    """Trains a byte-level BPE tokenizer locally and wraps it as ``Qwen2TokenizerFast``.

    Args:
        vocab_size: Target vocabulary, including the 256 byte symbols and 14 special tokens.

    Returns:
        A ``Qwen2TokenizerFast`` with Qwen2-VL's special tokens, ``<|endoftext|>`` as the pad
        token and ``<|im_end|>`` as the end-of-sequence token, padding on the right.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import Qwen2TokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    core.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=1,
        special_tokens=list(QWEN2VL_SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(TRAINING_LINES, trainer=trainer)
    tokenizer = Qwen2TokenizerFast(
        tokenizer_object=core,
        unk_token=None,
        bos_token=None,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=[t for t in QWEN2VL_SPECIAL_TOKENS if t != "<|endoftext|>"],
        model_max_length=32768,
        padding_side="right",
    )
    return tokenizer


def build_processor(tokenizer: Any) -> Any:
    """Returns a ``Qwen2VLProcessor`` with the default image processor and the chat template.

    The template lives on the *processor*: hpsv3 calls ``processor.apply_chat_template``.
    """
    from transformers import Qwen2VLImageProcessor, Qwen2VLProcessor

    return Qwen2VLProcessor(
        image_processor=Qwen2VLImageProcessor(), tokenizer=tokenizer, chat_template=CHAT_TEMPLATE
    )


def build_config(tokenizer: Any) -> Any:
    """Returns a tiny ``Qwen2VLConfig`` whose token ids match ``tokenizer``.

    Args:
        tokenizer: The tokenizer from `build_tokenizer`.

    Returns:
        The config: 2 text layers of width 64 with 2 heads, a 1-block vision tower.
    """
    from transformers import Qwen2VLConfig

    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in QWEN2VL_SPECIAL_TOKENS}
    head_dim = TEXT_HIDDEN // NUM_HEADS
    if sum(MROPE_SECTION) * 2 != head_dim:
        raise ValueError(f"mrope_section {MROPE_SECTION} must sum to head_dim/2 = {head_dim // 2}")
    return Qwen2VLConfig(
        vocab_size=len(tokenizer),
        hidden_size=TEXT_HIDDEN,
        intermediate_size=2 * TEXT_HIDDEN,
        num_hidden_layers=2,
        num_attention_heads=NUM_HEADS,
        num_key_value_heads=NUM_HEADS,
        max_position_embeddings=32768,
        rope_theta=1_000_000.0,
        rms_norm_eps=1e-6,
        tie_word_embeddings=False,
        rope_scaling={"type": "mrope", "mrope_section": list(MROPE_SECTION)},
        vision_config={
            "depth": 1,
            "embed_dim": 32,
            "hidden_size": TEXT_HIDDEN,
            "num_heads": 2,
            "mlp_ratio": 2,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "in_channels": 3,
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        vision_token_id=ids["<|vision_pad|>"],
        eos_token_id=ids["<|im_end|>"],
        pad_token_id=ids["<|endoftext|>"],
        torch_dtype="bfloat16",
    )


def _smoke_images() -> list[Any]:
    from PIL import Image, ImageDraw

    images = []
    for i, colour in enumerate(((240, 236, 226), (30, 60, 120))):
        image = Image.new("RGB", (96, 80), colour)
        ImageDraw.Draw(image).ellipse((10 + 20 * i, 10, 60, 70), fill=(200, 80 + 60 * i, 40))
        images.append(image)
    return images


def build(out: str | Path, seed: int = 0) -> dict[str, Any]:
    """Builds the tiny model under ``out`` and checks that hpsv3 loads and scores it.

    Args:
        out: Output directory (created; existing files are overwritten).
        seed: Seed for every random initialisation; the same seed gives the same weights.

    Returns:
        The manifest (also written to ``out/manifest.json``).

    Raises:
        RuntimeError: If the built model does not load strictly or scores with a wrong shape.
    """
    started = time.perf_counter()
    service = _load_service()
    service.configure_offline()
    shim = service.install_torchvision_shim()

    import safetensors.torch
    import torch
    from transformers import Qwen2VLForConditionalGeneration

    out = Path(out).resolve()
    model_dir = out / "model"
    model_dir.mkdir(parents=True, exist_ok=True)

    tokenizer = build_tokenizer()
    processor = build_processor(tokenizer)
    config = build_config(tokenizer)
    torch.manual_seed(seed)
    base = Qwen2VLForConditionalGeneration(config)
    base.save_pretrained(model_dir, safe_serialization=True)
    processor.save_pretrained(model_dir)

    # The checkpoint comes from hpsv3's own model builder, with hpsv3's own config pointed at
    # the directory above: it adds the <|Reward|> token (one more embedding and lm_head row)
    # and the rm_head, so the state dict has exactly the keys and shapes that
    # HPSv3RewardInferencer's load_state_dict(strict=True) expects.
    from hpsv3.train import create_model_and_processor
    from hpsv3.utils.parser import (
        DataConfig,
        ModelConfig,
        PEFTLoraConfig,
        TrainingConfig,
        parse_args_with_yaml,
    )

    config_path = service.write_local_config(model_dir, out / "hpsv3_tiny.yaml")
    (_data, training_args, model_config, lora_config), _ = parse_args_with_yaml(
        (DataConfig, TrainingConfig, ModelConfig, PEFTLoraConfig), str(config_path), is_train=False
    )
    torch.manual_seed(seed + 1)
    model, _processor, _peft = create_model_and_processor(
        model_config=model_config, peft_lora_config=lora_config, training_args=training_args
    )
    state = {name: tensor.detach().contiguous() for name, tensor in model.state_dict().items()}
    checkpoint = out / "hpsv3_tiny.safetensors"
    safetensors.torch.save_file(state, str(checkpoint))
    del model, base

    engine = service.Engine(config_path, checkpoint, device="cpu", model_dir=str(model_dir))
    smoke = engine.score(_smoke_images(), ["a red circle", "a watercolour flower"])
    if len(smoke) != 2:
        raise RuntimeError(f"the tiny model scored {len(smoke)} results for 2 images")

    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "manifest.json")
    manifest = {
        "kind": "sketch_env tiny HPSv3 (random weights; for tests only)",
        "model_dir": str(model_dir),
        "checkpoint": str(checkpoint),
        "config": str(config_path),
        "seed": seed,
        "vocab_size": len(tokenizer),
        "reward_token_id": _processor.tokenizer.convert_tokens_to_ids("<|Reward|>"),
        "image_token_id": config.image_token_id,
        "parameters": engine.info.parameters,
        "dtype": engine.info.dtype,
        "bytes": sum(p.stat().st_size for p in files),
        "files": [str(p.relative_to(out)) for p in files],
        "torchvision_shim": shim,
        "smoke_scores": [{"mu": mu, "log_sigma": ls} for mu, ls in smoke],
        "versions": service.package_versions(),
        "build_seconds": round(time.perf_counter() - started, 2),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: ``python -I tinymodel.py --out DIR [--seed N]``."""
    parser = argparse.ArgumentParser(prog="tinymodel.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    manifest = build(args.out, seed=args.seed)
    print(json.dumps(manifest, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
