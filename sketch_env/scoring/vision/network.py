"""EfficientNet-Lite0's forward pass in numpy: what the default scorer sees of a picture.

Image statistics could not tell a fine painting from a weak one without also paying for
busyness, and could not see the subject: a task's nearest references by colour, layout and
texture statistics were its own in 25 % of cases (6 tasks a medium; chance 17 %). The pooled
features of a small ImageNet network, compared the same way, find the task in 68 %, and a
single direction in them (love references' mean minus weak references' mean, fitted without
the task) orders 92 % of the pool's within-task tier pairs (docs/reward.md, "What the default
reward sees"). EfficientNet-Lite0 is the smallest network whose weights can be installed from a
package index with a clear licence (`sketch_env.scoring.vision.weights`).

The network runs here rather than through torch, which is a heavy optional extra, or
onnxruntime, which needs a graph file we would have to produce and ship: the architecture is
sixteen inverted-residual blocks (1x1 expansion, depthwise k x k, 1x1 projection; ReLU6; batch
norm folded into each convolution at load), about 0.4 GFLOP at 224 x 224, a few tens of
milliseconds on one core in numpy. The layout is height x width x channels, padding is
TensorFlow's "same" (the weights were trained with it). Everything is float32 and deterministic
on one machine.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np
from PIL import Image

from sketch_env.scoring.vision.weights import load_weights

__all__ = ["INPUT_SIDE", "LOCAL_BLOCK", "EfficientNetLite0", "NetworkView", "network"]

#: The side the picture is resized to (the network's training resolution).
INPUT_SIDE = 224
#: The block whose output map gives the local features (192 channels at 7 x 7).
LOCAL_BLOCK = 12
#: Repeats and stride of each stage's first block (EfficientNet-Lite0).
_STAGES = ((1, 1), (2, 2), (2, 2), (3, 2), (3, 1), (4, 2), (1, 1))
_BN_EPS = 1e-3


@dataclass(frozen=True)
class _Conv:
    """A convolution with its batch norm folded in: ``weight`` is (k, k, in, out) for a
    full convolution and (k, k, channels) for a depthwise one."""

    weight: np.ndarray
    bias: np.ndarray
    stride: int
    depthwise: bool


@dataclass(frozen=True)
class _Block:
    expand: _Conv | None
    depthwise: _Conv
    project: _Conv
    residual: bool


@dataclass(frozen=True)
class NetworkView:
    """What the network makes of one picture.

    Args:
        pooled: The head's 1280 features, averaged over the picture.
        local: Block `LOCAL_BLOCK`'s map, one 192-feature vector per 32 x 32 region of the
            input: ``(49, 192)``.
        logits: The 1000 ImageNet class scores (kept for checking the network is intact).
        colour: How colourful the picture is, from the network's input: the 90th percentile
            over its pixels of their chroma (the largest minus the smallest of R, G and B,
            0-1). Not the network's, but read from the same 224 x 224 input.
    """

    pooled: np.ndarray
    local: np.ndarray
    logits: np.ndarray
    colour: float


def _fold(weights: dict[str, np.ndarray], conv: str, bn: str, stride: int) -> _Conv:
    w = weights[f"{conv}.weight"]  # (out, in/groups, k, k)
    scale = weights[f"{bn}.weight"] / np.sqrt(weights[f"{bn}.running_var"] + _BN_EPS)
    bias = weights[f"{bn}.bias"] - weights[f"{bn}.running_mean"] * scale
    depthwise = w.shape[1] == 1 and w.shape[0] > 1
    if depthwise:
        folded = (w[:, 0] * scale[:, None, None]).transpose(1, 2, 0)
    else:
        folded = (w * scale[:, None, None, None]).transpose(2, 3, 1, 0)
    return _Conv(
        np.ascontiguousarray(folded, np.float32), bias.astype(np.float32), stride, depthwise
    )


def _same_pad(x: np.ndarray, k: int, stride: int) -> np.ndarray:
    h, w = x.shape[:2]
    out_h, out_w = math.ceil(h / stride), math.ceil(w / stride)
    ph = max((out_h - 1) * stride + k - h, 0)
    pw = max((out_w - 1) * stride + k - w, 0)
    return np.pad(x, ((ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))


def _conv(x: np.ndarray, conv: _Conv) -> np.ndarray:
    k = conv.weight.shape[0]
    s = conv.stride
    if k == 1 and s == 1 and not conv.depthwise:
        h, w, c = x.shape
        out = x.reshape(-1, c) @ conv.weight[0, 0]
        result: np.ndarray = out.reshape(h, w, -1) + conv.bias
        return result
    padded = _same_pad(x, k, s)
    out_h, out_w = math.ceil(x.shape[0] / s), math.ceil(x.shape[1] / s)
    if conv.depthwise:
        out = np.zeros((out_h, out_w, x.shape[2]), np.float32)
        for dy in range(k):
            for dx in range(k):
                window = padded[dy : dy + s * out_h : s, dx : dx + s * out_w : s]
                out += window * conv.weight[dy, dx]
        depthwise: np.ndarray = out + conv.bias
        return depthwise
    # The stem (3 x 3, stride 2, 3 channels): im2col, one matrix product.
    cols = np.stack(
        [
            padded[dy : dy + s * out_h : s, dx : dx + s * out_w : s]
            for dy in range(k)
            for dx in range(k)
        ],
        axis=2,
    )
    flat = cols.reshape(out_h * out_w, -1)
    out = flat @ conv.weight.reshape(-1, conv.weight.shape[-1])
    stem: np.ndarray = out.reshape(out_h, out_w, -1) + conv.bias
    return stem


def _relu6(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0.0, 6.0, out=x)


class EfficientNetLite0:
    """The network with its published weights (`load_weights`), ready to run.

    Args:
        weights: A state dict; the installed checkpoint when ``None``.

    Examples:
        >>> net = EfficientNetLite0()
        >>> view = net(Image.new("RGB", (600, 600), (240, 235, 220)))
        >>> view.pooled.shape, view.local.shape
        ((1280,), (49, 192))
    """

    def __init__(self, weights: dict[str, np.ndarray] | None = None) -> None:
        w = weights if weights is not None else load_weights()
        self.stem = _fold(w, "_conv_stem", "_bn0", 2)
        strides = [s for repeats, s in _STAGES for s in (s, *([1] * (repeats - 1)))]
        self.blocks: list[_Block] = []
        for i, stride in enumerate(strides):
            p = f"_blocks.{i}."
            expand = (
                _fold(w, p + "_expand_conv", p + "_bn0", 1)
                if p + "_expand_conv.weight" in w
                else None
            )
            depthwise = _fold(w, p + "_depthwise_conv", p + "_bn1", stride)
            project = _fold(w, p + "_project_conv", p + "_bn2", 1)
            inputs = expand.weight.shape[2] if expand else depthwise.weight.shape[2]
            residual = stride == 1 and inputs == project.weight.shape[3]
            self.blocks.append(_Block(expand, depthwise, project, residual))
        self.head = _fold(w, "_conv_head", "_bn1", 1)
        self.fc_weight = np.ascontiguousarray(w["_fc.weight"].T, np.float32)
        self.fc_bias = w["_fc.bias"].astype(np.float32)

    @staticmethod
    def preprocess(image: Image.Image) -> np.ndarray:
        """The picture as the network's input: RGB, 224 x 224 (bicubic), scaled to [-1, 1]."""
        small = image.convert("RGB").resize((INPUT_SIDE, INPUT_SIDE), Image.Resampling.BICUBIC)
        return (np.asarray(small, np.float32) / 127.5 - 1.0).astype(np.float32)

    def __call__(self, image: Image.Image) -> NetworkView:
        """Runs the network on one picture.

        Args:
            image: Any size; it is resized to 224 x 224.

        Returns:
            Its `NetworkView`.
        """
        pixels = self.preprocess(image)
        # In [-1, 1]: half the channels' spread is the chroma on 0-1.
        chroma = (pixels.max(axis=2) - pixels.min(axis=2)) / 2.0
        x = _relu6(_conv(pixels, self.stem))
        local = None
        for i, block in enumerate(self.blocks):
            inputs = x
            if block.expand is not None:
                x = _relu6(_conv(x, block.expand))
            x = _relu6(_conv(x, block.depthwise))
            x = _conv(x, block.project)
            if block.residual:
                x = x + inputs
            if i == LOCAL_BLOCK:
                local = x.reshape(-1, x.shape[2]).copy()
        x = _relu6(_conv(x, self.head))
        pooled = x.reshape(-1, x.shape[2]).mean(axis=0)
        assert local is not None
        return NetworkView(
            pooled=pooled.astype(np.float32),
            local=local.astype(np.float32),
            logits=(pooled @ self.fc_weight + self.fc_bias).astype(np.float32),
            colour=float(np.quantile(chroma, 0.9)),
        )


_NETWORK: EfficientNetLite0 | None = None
_LOCK = threading.Lock()


def network() -> EfficientNetLite0:
    """The process's one network (its weights are read and checked once, about 0.3 s)."""
    global _NETWORK
    with _LOCK:
        if _NETWORK is None:
            _NETWORK = EfficientNetLite0()
        return _NETWORK
