"""Check the HPSv3 service with the real 7B weights on a GPU machine.

Starts ``sketch-env hpsv3 serve`` (in the isolated venv made by ``sketch-env hpsv3 setup
--cuda``) on the given local weights, scores a few PNGs through `HPSv3Scorer`, and prints:

- the load time, device, dtype and package versions the service reports;
- ``mu`` and ``sigma`` for every picture (scored one at a time);
- for each batch size, wall time per batch and pictures per second, and the largest
  difference between batched and one-at-a-time scores (bfloat16 kernels may differ in the
  last bits between batch shapes on a GPU; on CPU they were bit-identical);
- the peak GPU memory the service's torch allocated.

Usage (paths are local; nothing is downloaded)::

    sketch-env hpsv3 setup --cuda
    python examples/hpsv3_gpu_check.py \\
        --model-dir ~/models/Qwen2-VL-7B-Instruct --checkpoint ~/models/HPSv3.safetensors \\
        runs/rollouts/*.png

A PNG ``x.png`` is scored against the text in ``x.txt`` when that file exists, else against
``--prompt``. ``--url`` checks an already running service instead of starting one. With
``--device cpu`` and the tiny model (``sketch-env hpsv3 make-tiny``) the same script runs
anywhere, which is how it is tested.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import httpx
from PIL import Image

from sketch_env.scoring.base import Score
from sketch_env.scoring.hpsv3 import HPSv3Scorer, launch_service


def _prompts_for(pngs: list[Path], default: str) -> list[str]:
    prompts = []
    for png in pngs:
        sidecar = png.with_suffix(".txt")
        prompts.append(sidecar.read_text(encoding="utf-8").strip() if sidecar.exists() else default)
    return prompts


async def _check(url: str, pngs: list[Path], prompts: list[str], batch_sizes: list[int]) -> dict:
    images = [Image.open(p).convert("RGB") for p in pngs]
    report: dict = {"url": url, "pictures": [], "batches": []}
    async with HPSv3Scorer(
        url, timeout_s=600.0, max_batch=max(batch_sizes), coalesce_s=0
    ) as scorer:
        # Warm-up: the first forward pass pays for CUDA kernels and allocator growth.
        await scorer.score(images[:1], prompts[:1])
        singles: list[Score] = []
        for image, prompt in zip(images, prompts, strict=True):
            singles.extend(await scorer.score([image], [prompt]))
        for png, prompt, score in zip(pngs, prompts, singles, strict=True):
            report["pictures"].append(
                {"png": str(png), "prompt": prompt, "mu": score.value, "sigma": score.sigma}
            )
        for size in batch_sizes:
            # Repeat the pictures to fill the batch when fewer were given.
            batch = [images[i % len(images)] for i in range(size)]
            batch_prompts = [prompts[i % len(prompts)] for i in range(size)]
            started = time.perf_counter()
            scores = await scorer.score(batch, batch_prompts)
            seconds = time.perf_counter() - started
            diff = max(abs(s.value - singles[i % len(singles)].value) for i, s in enumerate(scores))
            report["batches"].append(
                {
                    "batch_size": size,
                    "seconds": round(seconds, 3),
                    "pictures_per_s": round(size / seconds, 2),
                    "max_abs_diff_vs_single": diff,
                }
            )
        [health] = await scorer.health()
    report["device"] = health.get("device")
    report["model"] = health.get("model")
    report["versions"] = health.get("versions")
    memory = health.get("cuda_memory") or {}
    report["peak_gpu_memory_gib"] = (
        round(memory["max_allocated"] / 2**30, 2) if "max_allocated" in memory else None
    )
    return report


def main(argv: list[str] | None = None) -> int:
    """Runs the check; returns 0 when every picture got a finite score."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pngs", nargs="+", type=Path, help="PNG files to score")
    parser.add_argument("--model-dir", type=Path, help="local Qwen2-VL-7B-Instruct directory")
    parser.add_argument("--checkpoint", type=Path, help="local HPSv3 checkpoint (.safetensors)")
    parser.add_argument("--url", help="use this running service instead of starting one")
    parser.add_argument("--device", default="cuda", help="cuda (default), cuda:N, or cpu")
    parser.add_argument("--venv", type=Path, help="the HPSv3 venv (default: the standard one)")
    parser.add_argument("--prompt", default="a painting", help="prompt for PNGs without a .txt")
    parser.add_argument("--batch-sizes", default="1,2,4,8", help="comma-separated batch sizes")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)

    batch_sizes = [int(b) for b in args.batch_sizes.split(",") if b.strip()]
    prompts = _prompts_for(args.pngs, args.prompt)
    service = None
    if args.url is None:
        if args.model_dir is None or args.checkpoint is None:
            parser.error("--model-dir and --checkpoint are required unless --url is given")
        print(f"starting the HPSv3 service on {args.device} ...", file=sys.stderr, flush=True)
        service = launch_service(
            args.model_dir,
            args.checkpoint,
            venv=args.venv,
            device=args.device,
            port=0,
            extra_args=["--max-batch", str(max(batch_sizes))],
        )
        url = service.url
    else:
        url = args.url
    try:
        report = asyncio.run(_check(url, args.pngs, prompts, batch_sizes))
    except httpx.HTTPError as error:
        print(f"hpsv3_gpu_check: {error}", file=sys.stderr)
        return 1
    finally:
        if service is not None:
            service.stop()

    if args.json:
        print(json.dumps(report, indent=2))
    else:
        model = report["model"] or {}
        print(f"service {report['url']} on {report['device']}, dtype {model.get('dtype')}")
        print(f"loaded in {model.get('load_seconds')} s; versions {report['versions']}")
        for row in report["pictures"]:
            print(f"  mu {row['mu']:9.4f}  sigma {row['sigma']:7.4f}  {row['png']}")
        for row in report["batches"]:
            print(
                f"  batch {row['batch_size']:3d}: {row['seconds']:7.3f} s,"
                f" {row['pictures_per_s']:6.2f} pictures/s,"
                f" max |batched - single| = {row['max_abs_diff_vs_single']:.3g}"
            )
        print(f"peak GPU memory: {report['peak_gpu_memory_gib']} GiB")
    ok = all(isinstance(r["mu"], float) for r in report["pictures"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
