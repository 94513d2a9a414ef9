"""The environment's client, where OpenEnv's folder layout looks for it (``openenv push``
requires a ``client.py`` beside ``openenv.yaml``). The client is `sketch_env.client`'s; this
module only re-exports it for code run from the repository root."""

from sketch_env.client import SketchAction, SketchEnvClient, SketchObservation, SketchState

__all__ = ["SketchAction", "SketchEnvClient", "SketchObservation", "SketchState"]
