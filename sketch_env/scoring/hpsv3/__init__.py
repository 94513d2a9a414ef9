"""HPSv3 (a human-preference model on Qwen2-VL-7B) as an isolated scoring service.

``hpsv3`` pins ``transformers==4.45.2``, which cannot share an environment with a current TRL
(docs/design.md §4), so it runs in its own virtual environment behind a small HTTP service:

- `HPSv3Scorer` (``client.py``): the `Scorer` the main environment uses; ``httpx`` only.
- ``provision.py``: creates the venv, builds the tiny test model, launches the service.
- ``service.py`` / ``tinymodel.py``: run *inside* the venv, never imported here.
- ``cli.py``: ``sketch-env hpsv3 setup | serve | make-tiny | health | score``.

Importing this package never imports torch or hpsv3. See ``docs/hpsv3.md``.
"""

from sketch_env.scoring.hpsv3.client import DEFAULT_PORT, HPSv3Scorer, normalize_url
from sketch_env.scoring.hpsv3.provision import (
    HPSv3SetupError,
    HPSv3VenvMissingError,
    ServiceProcess,
    default_venv_path,
    launch_service,
)

__all__ = [
    "DEFAULT_PORT",
    "HPSv3Scorer",
    "HPSv3SetupError",
    "HPSv3VenvMissingError",
    "ServiceProcess",
    "default_venv_path",
    "launch_service",
    "normalize_url",
]
