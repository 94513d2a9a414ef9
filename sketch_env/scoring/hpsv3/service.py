"""The HPSv3 scoring service: a small FastAPI app around ``HPSv3RewardInferencer``.

This file runs **inside the isolated HPSv3 virtual environment** (see ``provision.py``), never in
the main ``sketch_env`` environment: ``hpsv3`` 1.0.0 pins ``transformers==4.45.2`` and installs
top-level packages named ``evaluate`` and ``generate``, so it cannot share an environment with a
current TRL (docs/design.md §4). It is started as a script (``python -I service.py ...``) by
``sketch-env hpsv3 serve``, so it imports only the standard library and what that venv holds,
and of ``sketch_env`` only ``errors.py`` (by its path), so that its exceptions are in the
package's tree. Heavy imports (torch, hpsv3, fastapi) happen inside functions, so
``tinymodel.py`` can load this file for its helpers without starting anything.

Wire protocol (documented in ``docs/hpsv3.md``):

- ``GET /health`` → ``{"status": "ok", "model_loaded": true, "device": ..., "versions": {...},
  "limits": {...}, ...}``.
- ``POST /score`` with a JSON body ``{"prompts": [str, ...], "images": [base64 PNG, ...]}`` →
  ``{"scores": [{"mu": float, "sigma": float, "log_sigma": float}, ...], ...}``, one entry per
  image, in order. Bad input gets a 4xx with ``{"detail": "<message>"}``: 400 for malformed
  input (not JSON, not base64, not a PNG, damaged PNG, count mismatch, empty batch), 413 when a
  size limit is exceeded (body, image bytes, pixels, prompt length, images per request).
"""

import argparse
import asyncio
import base64
import binascii
import contextlib
import importlib.metadata
import importlib.util
import io
import json
import logging
import math
import os
import platform
import socket
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

LOG = logging.getLogger("sketch_env.hpsv3.service")

#: The eight bytes every PNG file starts with.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: ``model_name_or_path`` in hpsv3's packaged config names a hub repository; the service
#: replaces it with a local directory so nothing is ever downloaded.
PACKAGED_CONFIG_NAME = "HPSv3_7B.yaml"


@dataclass(frozen=True)
class Limits:
    """Input limits of one service; every violation is a 4xx with a message.

    Args:
        max_images: Most images in one ``/score`` request.
        max_image_bytes: Most bytes in one decoded PNG.
        max_pixels: Most pixels (width x height) in one image. HPSv3 resizes every image to
            200,704 pixels (448 x 448 for a square) anyway, so anything far larger only costs
            decode and resize time; the cap also stops decompression bombs before decoding.
        max_prompt_chars: Most characters in one prompt.
        max_body_bytes: Most bytes in one request body (base64 adds a third to the PNG bytes).
    """

    max_images: int = 64
    max_image_bytes: int = 16 * 1024 * 1024
    max_pixels: int = 4096 * 4096
    max_prompt_chars: int = 8192
    max_body_bytes: int = 96 * 1024 * 1024


if TYPE_CHECKING:
    from sketch_env.errors import InfrastructureError, SketchEnvError
else:
    try:
        from sketch_env.errors import InfrastructureError, SketchEnvError
    except ImportError:  # The HPSv3 venv (`python -I`): sketch_env's errors.py, by its path.
        _spec = importlib.util.spec_from_file_location(
            "_sketch_env_errors", Path(__file__).resolve().parents[2] / "errors.py"
        )
        _errors = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_errors)
        InfrastructureError, SketchEnvError = _errors.InfrastructureError, _errors.SketchEnvError


class BadRequest(SketchEnvError):
    """Input the service refuses; carries the HTTP status and the message for the caller."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class OverloadedError(InfrastructureError):
    """The model ran out of memory; a retry (maybe on another replica) may succeed. An
    `InfrastructureError` (so also a ``RuntimeError``): the machine failed, not the request."""


# --------------------------------------------------------------------------------------------
# Environment preparation (runs before torch / transformers / hpsv3 are imported)
# --------------------------------------------------------------------------------------------


def configure_offline() -> None:
    """Forbids every hub download in this process.

    The service loads only local files; with these set, a missing file fails at once with a
    clear error instead of trying (and, on machines without network, hanging on) a download.
    """
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ[name] = "1"
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    # tokenizers forks a thread pool per process; with uvicorn's threads this only adds noise.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def install_torchvision_shim() -> bool:
    """Lets ``import torchvision`` succeed when its compiled ops cannot load.

    ``hpsv3`` imports ``torchvision`` for its image transforms only. The CPU torch we install
    (``torch==2.13.0+cpu``) has no CPU ``torchvision`` beside it on PyPI: the ``torchvision``
    0.28.0 wheel there is linked against the CUDA torch (``libtorch_cuda.so``), so its ``_C``
    extension fails to load. torchvision tolerates that, except that ``_meta_registrations``
    then calls ``torch.library.register_fake("torchvision::nms")`` (and ``qnms``) on operators
    that were never defined and the import dies with "operator torchvision::nms does not
    exist". Declaring those two schemas first lets the pure-Python parts import; calling
    ``nms`` would still fail (no kernel), and nothing on hpsv3's inference path calls it.

    Returns:
        ``True`` if the shim was installed, ``False`` if torchvision's ops load normally (or
        torchvision is absent).
    """
    import importlib.util

    import torch

    if _KEEP_ALIVE or "torchvision" in sys.modules:
        # Already installed, or torchvision already imported (so it needs no help): a second
        # "DEF" library for the same namespace would be refused.
        return bool(_KEEP_ALIVE)
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return False
    package_dir = Path(next(iter(spec.submodule_search_locations)))
    candidates = sorted(package_dir.glob("_C*.so")) + sorted(package_dir.glob("_C*.pyd"))
    if candidates:
        try:
            torch.ops.load_library(str(candidates[0]))
            return False
        except (OSError, RuntimeError) as error:
            LOG.info("torchvision's compiled ops do not load here (%s); installing shim", error)
    library = torch.library.Library("torchvision", "DEF")
    library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    library.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    # A Library object deregisters its definitions when garbage-collected: keep it.
    _KEEP_ALIVE.append(library)
    return True


_KEEP_ALIVE: list[Any] = []


def package_versions() -> dict[str, str | None]:
    """Returns the versions of the packages that decide the numbers this service returns."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for name in (
        "hpsv3",
        "torch",
        "torchvision",
        "transformers",
        "tokenizers",
        "safetensors",
        "fastapi",
        "uvicorn",
        "pillow",
    ):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


# --------------------------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------------------------


def packaged_config_path() -> Path:
    """Returns the path of the YAML config that ships inside the installed ``hpsv3`` package.

    Raises:
        FileNotFoundError: If ``hpsv3`` is not installed in this interpreter.
    """
    import importlib.util

    spec = importlib.util.find_spec("hpsv3")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the hpsv3 package is not installed in this Python environment")
    path = Path(next(iter(spec.submodule_search_locations))) / "config" / PACKAGED_CONFIG_NAME
    if not path.is_file():
        raise FileNotFoundError(f"hpsv3 ships no {PACKAGED_CONFIG_NAME} at {path}")
    return path


def write_local_config(
    model_dir: str | Path, out_path: str | Path, base: str | Path | None = None
) -> Path:
    """Writes a copy of an HPSv3 YAML config whose ``model_name_or_path`` is a local directory.

    Args:
        model_dir: Local Qwen2-VL directory (config, weights, tokenizer, processor files).
        out_path: Where to write the YAML.
        base: The config to copy; hpsv3's packaged ``HPSv3_7B.yaml`` when ``None``, so a tiny
            test model and the real 7B model go through exactly the same settings.

    Returns:
        ``out_path`` as a `Path`.

    Raises:
        FileNotFoundError: If ``model_dir`` has no ``config.json``.
    """
    import yaml

    model_dir = Path(model_dir).resolve()
    if not (model_dir / "config.json").is_file():
        raise FileNotFoundError(f"{model_dir} is not a model directory (no config.json in it)")
    base_path = Path(base) if base is not None else packaged_config_path()
    config = yaml.safe_load(base_path.read_text(encoding="utf-8"))
    config["model_name_or_path"] = str(model_dir)
    # Inference never writes here, but hpsv3 builds TrainingArguments from it: keep it out of
    # the working directory of whoever started the service.
    config["output_dir"] = str(Path(tempfile.gettempdir()) / "sketch_env_hpsv3_unused")
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return out_path


def resolve_device(device: str) -> str:
    """Turns ``"auto"`` into ``"cuda"`` when a GPU is visible, else ``"cpu"``.

    Args:
        device: ``"auto"``, ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.

    Returns:
        A torch device string.

    Raises:
        ValueError: If a CUDA device is asked for and none is available.
    """
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"--device {device} was asked for, but torch sees no CUDA device")
    return device


def _head_input_to_float32(_module: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Forward pre-hook for ``rm_head``: casts the hidden states to float32.

    hpsv3 keeps ``rm_head`` in float32 while the rest of the model is bfloat16 and relies on
    ``torch.autocast(device_type="cuda", dtype=torch.float32)`` around the head. On CPU that
    autocast is inactive and the head fails with "mat1 and mat2 must have the same dtype".
    Casting bfloat16 to float32 is exact, so this computes what the CUDA path computes; on
    CUDA it is therefore harmless, and it keeps working if a torch version ever turns that
    float32 autocast into a no-op there too.
    """
    return tuple(a.float() if hasattr(a, "float") and a.is_floating_point() else a for a in args)


@dataclass
class ModelInfo:
    """What was loaded, reported by ``/health``."""

    model_dir: str
    checkpoint: str
    config: str
    device: str
    dtype: str
    parameters: int
    load_seconds: float
    torchvision_shim: bool
    versions: dict[str, str | None] = field(default_factory=dict)


class Engine:
    """One loaded HPSv3 model; `score` is serialised by a lock (one model, one caller at a time).

    Args:
        config_path: YAML config with a local ``model_name_or_path``.
        checkpoint_path: HPSv3 checkpoint (``.safetensors`` or a torch file).
        device: ``"auto"``, ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
        model_dir: Reported by ``/health`` only.

    Raises:
        FileNotFoundError: If the config or the checkpoint is missing.
    """

    def __init__(
        self,
        config_path: str | Path,
        checkpoint_path: str | Path,
        device: str = "auto",
        model_dir: str = "",
    ) -> None:
        configure_offline()
        for path in (config_path, checkpoint_path):
            if not Path(path).is_file():
                raise FileNotFoundError(f"{path} does not exist")
        started = time.perf_counter()
        shim = install_torchvision_shim()
        import torch
        from hpsv3 import HPSv3RewardInferencer

        self._torch = torch
        self.device = resolve_device(device)
        # By keyword: the positional order of this constructor is not a stable API.
        self.inferencer = HPSv3RewardInferencer(
            config_path=str(config_path), checkpoint_path=str(checkpoint_path), device=self.device
        )
        self.inferencer.model.rm_head.register_forward_pre_hook(_head_input_to_float32)
        self._lock = threading.Lock()
        first = next(self.inferencer.model.parameters())
        self.info = ModelInfo(
            model_dir=str(model_dir),
            checkpoint=str(Path(checkpoint_path).resolve()),
            config=str(Path(config_path).resolve()),
            device=self.device,
            dtype=str(first.dtype).removeprefix("torch."),
            parameters=sum(p.numel() for p in self.inferencer.model.parameters()),
            load_seconds=round(time.perf_counter() - started, 3),
            torchvision_shim=shim,
            versions=package_versions(),
        )

    def score(self, images: Sequence[Any], prompts: Sequence[str]) -> list[tuple[float, float]]:
        """Scores one batch.

        Args:
            images: RGB PIL images.
            prompts: One prompt per image.

        Returns:
            ``(mu, log_sigma)`` per image: columns 0 and 1 of the model's output.

        Raises:
            OverloadedError: If the device ran out of memory (the batch can be retried).
            RuntimeError: If the model returned an unexpected shape.
        """
        torch = self._torch
        with self._lock:
            try:
                # inference_mode: hpsv3 1.0.0 keeps autograd state in reward(); batches of 6
                # ran out of GPU memory without it (docs/design.md §4).
                with torch.inference_mode():
                    # By keyword: the argument order of reward() changed between versions.
                    out = self.inferencer.reward(prompts=list(prompts), image_paths=list(images))
                rows = out.detach().float().cpu().tolist()
            except torch.cuda.OutOfMemoryError as error:
                if self.device.startswith("cuda"):
                    torch.cuda.empty_cache()
                raise OverloadedError(
                    f"out of memory on {self.device} for a batch of {len(images)}"
                ) from error
        if len(rows) != len(images) or any(len(r) < 2 for r in rows):
            raise RuntimeError(f"HPSv3 returned shape {tuple(out.shape)} for {len(images)} images")
        return [(float(r[0]), float(r[1])) for r in rows]

    def memory(self) -> dict[str, int] | None:
        """Returns CUDA memory counters in bytes, or ``None`` on CPU."""
        torch = self._torch
        if not self.device.startswith("cuda"):
            return None
        device = torch.device(self.device)
        return {
            "allocated": int(torch.cuda.memory_allocated(device)),
            "max_allocated": int(torch.cuda.max_memory_allocated(device)),
            "reserved": int(torch.cuda.memory_reserved(device)),
        }


# --------------------------------------------------------------------------------------------
# Request decoding
# --------------------------------------------------------------------------------------------


def decode_png(data: str, index: int, limits: Limits) -> Any:
    """Decodes one base64 PNG into an RGB PIL image, checking every limit.

    Args:
        data: Base64 text (standard alphabet, padding required).
        index: Position in the request, for messages.
        limits: The service's limits.

    Returns:
        An RGB ``PIL.Image.Image``, fully loaded.

    Raises:
        BadRequest: 400 if it is not base64, not a PNG, or damaged; 413 if it is too large.
    """
    from PIL import Image

    if not isinstance(data, str):
        raise BadRequest(400, f"images[{index}] must be a base64 string, got {type(data).__name__}")
    # Base64 length bounds the decoded size: refuse before decoding a huge string.
    if len(data) > (limits.max_image_bytes * 4) // 3 + 4:
        raise BadRequest(
            413,
            f"images[{index}] is over the {limits.max_image_bytes}-byte limit"
            f" ({len(data)} base64 characters)",
        )
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as error:
        raise BadRequest(400, f"images[{index}] is not valid base64: {error}") from None
    if len(raw) > limits.max_image_bytes:
        raise BadRequest(
            413,
            f"images[{index}] is {len(raw)} bytes, over the {limits.max_image_bytes}-byte limit",
        )
    if not raw.startswith(PNG_SIGNATURE):
        raise BadRequest(400, f"images[{index}] is not a PNG (it starts with {raw[:8]!r})")
    try:
        image = Image.open(io.BytesIO(raw), formats=["PNG"])
        width, height = image.size
        # The header gives the size before any pixel is decoded: refuse bombs here.
        if width * height > limits.max_pixels:
            raise BadRequest(
                413,
                f"images[{index}] is {width}x{height} pixels,"
                f" over the {limits.max_pixels}-pixel limit",
            )
        image.load()
        return image.convert("RGB")
    except BadRequest:
        raise
    except Exception as error:  # PIL raises many types for damaged files
        raise BadRequest(
            400, f"images[{index}] is a damaged PNG: {type(error).__name__}: {error}"
        ) from None


def parse_score_request(body: bytes, limits: Limits) -> tuple[list[str], list[str]]:
    """Parses and checks the JSON body of ``POST /score`` (not the PNGs themselves).

    Args:
        body: The raw request body.
        limits: The service's limits.

    Returns:
        ``(prompts, base64_images)``.

    Raises:
        BadRequest: With a 4xx status and a message naming the problem.
    """
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadRequest(400, f"the body is not valid JSON: {error}") from None
    if not isinstance(payload, dict):
        raise BadRequest(400, 'the body must be a JSON object {"prompts": [...], "images": [...]}')
    unknown = sorted(set(payload) - {"prompts", "images"})
    if unknown:
        raise BadRequest(400, f"unknown fields {unknown}; expected only 'prompts' and 'images'")
    prompts, images = payload.get("prompts"), payload.get("images")
    if not isinstance(prompts, list) or not isinstance(images, list):
        raise BadRequest(400, "'prompts' and 'images' must both be JSON arrays")
    if not images and not prompts:
        raise BadRequest(400, "empty batch: send at least one image and its prompt")
    if len(images) != len(prompts):
        raise BadRequest(400, f"count mismatch: {len(images)} images but {len(prompts)} prompts")
    if len(images) > limits.max_images:
        raise BadRequest(
            413, f"{len(images)} images in one request, over the limit of {limits.max_images}"
        )
    for i, prompt in enumerate(prompts):
        if not isinstance(prompt, str):
            raise BadRequest(400, f"prompts[{i}] must be a string, got {type(prompt).__name__}")
        if len(prompt) > limits.max_prompt_chars:
            raise BadRequest(
                413, f"prompts[{i}] has {len(prompt)} characters, over {limits.max_prompt_chars}"
            )
    return prompts, images


# --------------------------------------------------------------------------------------------
# Batching: one worker owns the model; concurrent requests are queued and coalesced
# --------------------------------------------------------------------------------------------


@dataclass
class _Job:
    images: list[Any]
    prompts: list[str]
    future: asyncio.Future[list[tuple[float, float]]]
    results: list[tuple[float, float] | None] = field(default_factory=list)


class Batcher:
    """Feeds the model from one queue, merging concurrent requests into batches.

    Only the worker task calls the model, through a one-thread executor, so two requests can
    never be in the model at once and each image's result goes back to the request (and the
    position) it came from. Requests that arrive while a batch runs wait in the queue; the
    next batch takes as many of them as fit in ``max_batch`` images (a larger request is
    split). The event loop never blocks on the model, so ``/health`` answers during a batch.

    Args:
        engine: Anything with ``score(images, prompts) -> list[(mu, log_sigma)]``.
        max_batch: Most images per forward pass.
        coalesce_s: After the first queued request, how long to wait for others to join.
    """

    def __init__(self, engine: Any, max_batch: int = 8, coalesce_s: float = 0.005) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self.engine = engine
        self.max_batch = max_batch
        self.coalesce_s = max(0.0, coalesce_s)
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hpsv3-model")
        self._task: asyncio.Task[None] | None = None
        self.stats = {"requests": 0, "images": 0, "batches": 0, "model_seconds": 0.0}
        self.batch_sizes: list[int] = []

    def start(self) -> None:
        """Starts the worker on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hpsv3-batcher")

    async def stop(self) -> None:
        """Stops the worker and fails whatever is still queued."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        while not self._queue.empty():
            job = self._queue.get_nowait()
            if not job.future.done():
                job.future.set_exception(OverloadedError("the service is shutting down"))
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def submit(self, images: list[Any], prompts: list[str]) -> list[tuple[float, float]]:
        """Queues one request and waits for its scores.

        Args:
            images: RGB PIL images.
            prompts: One prompt per image.

        Returns:
            ``(mu, log_sigma)`` per image, in order.
        """
        job = _Job(
            images, prompts, asyncio.get_running_loop().create_future(), [None] * len(images)
        )
        self.stats["requests"] += 1
        await self._queue.put(job)
        return await job.future

    async def _collect(self) -> list[_Job]:
        jobs = [await self._queue.get()]
        count = len(jobs[0].images)
        deadline = time.monotonic() + self.coalesce_s
        while count < self.max_batch:
            try:
                if self._queue.empty():
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    job = await asyncio.wait_for(self._queue.get(), remaining)
                else:
                    job = self._queue.get_nowait()
            except TimeoutError:
                break
            jobs.append(job)
            count += len(job.images)
        return jobs

    async def _run(self) -> None:
        while True:
            jobs = await self._collect()
            try:
                await self._process(jobs)
            except Exception as error:
                # Never let the worker die: every later request would wait forever.
                LOG.exception("the batch worker failed")
                for job in jobs:
                    if not job.future.done():
                        job.future.set_exception(error)
            for job in jobs:
                if not job.future.done():
                    job.future.set_exception(RuntimeError("a result was lost in the batcher"))

    async def _process(self, jobs: list[_Job]) -> None:
        loop = asyncio.get_running_loop()
        # Flatten to (job, position) slots and run them in chunks of max_batch.
        slots = [(job, i) for job in jobs if not job.future.done() for i in range(len(job.images))]
        for start in range(0, len(slots), self.max_batch):
            chunk = [
                (j, i) for j, i in slots[start : start + self.max_batch] if not j.future.done()
            ]
            if not chunk:
                continue
            images = [job.images[i] for job, i in chunk]
            prompts = [job.prompts[i] for job, i in chunk]
            started = time.perf_counter()
            try:
                results = await loop.run_in_executor(
                    self._executor, self.engine.score, images, prompts
                )
            except Exception as error:
                for job, _ in chunk:
                    if not job.future.done():
                        job.future.set_exception(error)
                continue
            self.stats["batches"] += 1
            self.stats["images"] += len(chunk)
            self.stats["model_seconds"] += time.perf_counter() - started
            self.batch_sizes = [*self.batch_sizes, len(chunk)][-32:]
            for (job, i), result in zip(chunk, results, strict=True):
                job.results[i] = result
        for job in jobs:
            if not job.future.done() and all(r is not None for r in job.results):
                job.future.set_result([r for r in job.results if r is not None])


# --------------------------------------------------------------------------------------------
# HTTP app
# --------------------------------------------------------------------------------------------


def _json_number(value: float) -> float | None:
    """JSON has no NaN or infinity (Starlette refuses to encode them): send ``null``."""
    return value if math.isfinite(value) else None


def create_app(
    engine: Any, limits: Limits | None = None, max_batch: int = 8, coalesce_s: float = 0.005
) -> Any:
    """Builds the FastAPI app around a loaded engine.

    Args:
        engine: An `Engine` (or anything with its ``score``, ``info`` and ``memory``).
        limits: Input limits; the defaults of `Limits` when ``None``.
        max_batch: Most images per forward pass.
        coalesce_s: How long the batcher waits for concurrent requests to join a batch.

    Returns:
        A ``fastapi.FastAPI`` application.
    """
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

    limits = limits or Limits()
    batcher = Batcher(engine, max_batch=max_batch, coalesce_s=coalesce_s)
    started = time.time()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        batcher.start()
        yield
        await batcher.stop()

    app = FastAPI(title="sketch_env HPSv3 service", version="1", lifespan=lifespan)
    app.state.batcher = batcher

    @app.get("/health")
    async def health() -> dict[str, Any]:
        info = asdict(engine.info) if hasattr(engine, "info") else {}
        return {
            "status": "ok",
            "model_loaded": True,
            "device": info.get("device"),
            "versions": info.pop("versions", {}),
            "model": info,
            "max_batch": batcher.max_batch,
            "coalesce_ms": batcher.coalesce_s * 1000,
            "limits": asdict(limits),
            "stats": dict(batcher.stats),
            "recent_batch_sizes": list(batcher.batch_sizes),
            "cuda_memory": engine.memory() if hasattr(engine, "memory") else None,
            "uptime_s": round(time.time() - started, 3),
        }

    @app.post("/score")
    async def score(request: Request) -> JSONResponse:
        started_at = time.perf_counter()
        try:
            declared = request.headers.get("content-length")
            if (
                declared is not None
                and declared.isdigit()
                and int(declared) > limits.max_body_bytes
            ):
                raise BadRequest(
                    413, f"the body is {declared} bytes, over the {limits.max_body_bytes} limit"
                )
            body = bytearray()
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.max_body_bytes:
                    raise BadRequest(
                        413, f"the body is over the {limits.max_body_bytes}-byte limit"
                    )
            prompts, encoded = parse_score_request(bytes(body), limits)
            # Decoding PNGs is CPU work: keep it off the event loop.
            images = await asyncio.to_thread(
                lambda: [decode_png(d, i, limits) for i, d in enumerate(encoded)]
            )
            results = await batcher.submit(images, prompts)
        except BadRequest as error:
            return JSONResponse({"detail": error.message}, status_code=error.status)
        except OverloadedError as error:
            return JSONResponse({"detail": str(error)}, status_code=503)
        except Exception as error:
            LOG.exception("scoring failed")
            return JSONResponse(
                {"detail": f"scoring failed: {type(error).__name__}: {error}"}, status_code=500
            )
        scores = [
            {
                "mu": _json_number(mu),
                "sigma": _json_number(math.exp(min(log_sigma, 700.0))),
                "log_sigma": _json_number(log_sigma),
            }
            for mu, log_sigma in results
        ]
        return JSONResponse(
            {
                "scores": scores,
                "device": getattr(engine, "device", None),
                "elapsed_s": time.perf_counter() - started_at,
            }
        )

    return app


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """Returns the argument parser of this script."""
    defaults = Limits()
    p = argparse.ArgumentParser(prog="service.py", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--model-dir", help="local Qwen2-VL directory (config, weights, tokenizer, processor)"
    )
    p.add_argument("--checkpoint", help="HPSv3 checkpoint file (.safetensors or torch file)")
    p.add_argument(
        "--config", help="HPSv3 YAML config; default: hpsv3's own, pointed at --model-dir"
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765, help="0 picks a free port (see --ready-file)")
    p.add_argument(
        "--device", default="auto", help="auto (cuda if available, else cpu), cpu, cuda, cuda:N"
    )
    p.add_argument("--max-batch", type=int, default=8, help="most images per forward pass")
    p.add_argument(
        "--coalesce-ms",
        type=float,
        default=5.0,
        help="wait for concurrent requests to join a batch",
    )
    p.add_argument("--max-images", type=int, default=defaults.max_images)
    p.add_argument("--max-image-bytes", type=int, default=defaults.max_image_bytes)
    p.add_argument("--max-pixels", type=int, default=defaults.max_pixels)
    p.add_argument("--max-prompt-chars", type=int, default=defaults.max_prompt_chars)
    p.add_argument("--max-body-bytes", type=int, default=defaults.max_body_bytes)
    p.add_argument(
        "--ready-file", help="write {'url': ..., 'pid': ...} here once the port accepts connections"
    )
    p.add_argument("--log-level", default="info")
    p.add_argument(
        "--check", action="store_true", help="only check that hpsv3 imports; print versions as JSON"
    )
    return p


def _check() -> int:
    configure_offline()
    shim = install_torchvision_shim()
    import hpsv3  # noqa: F401
    import torch

    print(
        json.dumps(
            {
                "ok": True,
                "torchvision_shim": shim,
                "cuda_available": torch.cuda.is_available(),
                "torch_cuda": torch.version.cuda,
                "versions": package_versions(),
            }
        )
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Loads the model, binds the port and serves until interrupted.

    The model is loaded *before* the port is bound: a service that accepts connections can
    always score, and a client that reaches it too early gets "connection refused", which it
    already treats as "not up yet".

    Args:
        argv: Arguments without the program name.

    Returns:
        The exit status.
    """
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if args.check:
        return _check()
    if not args.model_dir or not args.checkpoint:
        print("service.py: --model-dir and --checkpoint are required", file=sys.stderr)
        return 2
    configure_offline()
    if args.config:
        config_path = Path(args.config)
    else:
        config_path = Path(tempfile.mkdtemp(prefix="sketch_env_hpsv3_")) / "hpsv3_local.yaml"
        write_local_config(args.model_dir, config_path)
    LOG.info("loading HPSv3 from %s + %s (config %s)", args.model_dir, args.checkpoint, config_path)
    engine = Engine(
        config_path,
        args.checkpoint,
        device=args.device,
        model_dir=str(Path(args.model_dir).resolve()),
    )
    LOG.info(
        "loaded in %.1f s on %s (%s, %d parameters)",
        engine.info.load_seconds,
        engine.device,
        engine.info.dtype,
        engine.info.parameters,
    )
    limits = Limits(
        max_images=args.max_images,
        max_image_bytes=args.max_image_bytes,
        max_pixels=args.max_pixels,
        max_prompt_chars=args.max_prompt_chars,
        max_body_bytes=args.max_body_bytes,
    )
    app = create_app(engine, limits, max_batch=args.max_batch, coalesce_s=args.coalesce_ms / 1000)

    import uvicorn

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    # listen() now: connections made before uvicorn's loop starts wait in the backlog instead
    # of being refused, so the ready file is true the moment it is written.
    sock.listen(128)
    host, port = sock.getsockname()[:2]
    url = f"http://[{host}]:{port}" if family == socket.AF_INET6 else f"http://{host}:{port}"
    if args.ready_file:
        ready = Path(args.ready_file)
        tmp = ready.with_suffix(ready.suffix + ".tmp")
        tmp.write_text(
            json.dumps({"url": url, "pid": os.getpid(), "device": engine.device}), encoding="utf-8"
        )
        tmp.replace(ready)
    LOG.info("HPSv3 service ready at %s", url)
    config = uvicorn.Config(
        app, log_level=args.log_level.lower(), access_log=False, timeout_graceful_shutdown=5
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
