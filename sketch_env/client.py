"""OpenEnv's discovery entry point: ``AutoEnv.from_env("sketch", base_url=...)``.

OpenEnv's ``AutoEnv`` finds installed distributions named ``openenv-*`` (this one is
``openenv-sketch-env``), reads ``openenv.yaml`` from the package (``name: sketch_env``, so the
key is ``"sketch"``), and imports ``SketchEnv``, ``SketchAction`` and ``SketchObservation`` from
``<package>.client``. This module only re-exports them; the client itself is
`sketch_env.server.client.SketchEnvClient`.

``SketchEnv`` exists here only because AutoEnv derives the client's class name from the
environment's name (``sketch_env`` -> ``SketchEnv``) and the manifest cannot name another;
use ``SketchEnvClient`` in code of your own. The gymnasium env is `SketchGymEnv`.

Examples:
    >>> from openenv import AutoEnv  # doctest: +SKIP
    >>> env = AutoEnv.from_env("sketch", base_url="http://127.0.0.1:8000").sync()
    >>> env.reset(seed=3).observation.prompt
"""

from __future__ import annotations

from sketch_env.env.models import SketchAction, SketchObservation, SketchState
from sketch_env.server.client import SessionExpiredError, SketchEnvClient

__all__ = [
    "SessionExpiredError",
    "SketchAction",
    "SketchEnv",
    "SketchEnvClient",
    "SketchObservation",
    "SketchState",
]

#: The name OpenEnv's discovery convention expects (``<Name>Env``); only AutoEnv needs it.
SketchEnv = SketchEnvClient
