"""The GL backends a browser can rasterise WebGL on: one registry for every place that names them.

Configuration (`RenderConfig.backend`), the probe (`sketch_env.render.backends`), ``doctor``
and every command's ``--backend`` choices read `GL_BACKENDS`; adding a backend is one entry
here (plus, where its WebGL renderer string is new, a word in `GLBackend.renderer_words`).
Light on purpose: no browser library is imported, so a command line can list the choices.

Why these three, and in this order (``auto`` tries them in it): rendering cost is rasterisation,
not JavaScript. On a 2-core machine a watercolour sketch spent 1 CPU-s in the renderer process
and 43 CPU-s in SwiftShader's GPU process; Mesa llvmpipe through ANGLE's GL/EGL backend drew it
~3x faster in wall time with ~4x less CPU (docs/design.md §3.12).
"""

from __future__ import annotations

import glob
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "AUTO",
    "BACKEND_CHOICES",
    "GL_BACKENDS",
    "INSTALL_GPU_HINT",
    "INSTALL_MESA_HINT",
    "BackendName",
    "GLBackend",
    "gl_backend",
]

#: Command lines that install what a backend needs, quoted in errors and by ``doctor``.
INSTALL_MESA_HINT = "install Mesa with `sudo apt-get install -y libegl-mesa0 libgl1-mesa-dri`"
INSTALL_GPU_HINT = (
    "the gpu backend needs an NVIDIA GPU whose driver provides EGL (`nvidia-smi` must work and "
    "/usr/share/glvnd/egl_vendor.d/ must list the NVIDIA library; on Debian/Ubuntu the driver's "
    "`libnvidia-gl-*` / `libegl-nvidia0` package); on a CPU machine use backend='auto' or "
    "'llvmpipe'"
)

#: ``auto``: probe the backends in registry order and take the first that gives WebGL2.
AUTO = "auto"

#: What `RenderConfig.backend` accepts (kept equal to `BACKEND_CHOICES`; a test checks).
BackendName = Literal["auto", "gpu", "llvmpipe", "swiftshader"]

# ANGLE on the system's EGL: Mesa llvmpipe on a CPU machine, the vendor's driver on a GPU one.
# Without --ignore-gpu-blocklist Chromium refuses software GL ("Error creating webgl context").
_EGL_FLAGS = ("--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist")


def _mesa_env() -> tuple[tuple[str, str], ...]:
    # On a machine with a GPU driver, glvnd would pick the vendor's EGL: pin Mesa and its
    # software rasteriser so "llvmpipe" means the same thing everywhere.
    env = [("LIBGL_ALWAYS_SOFTWARE", "1"), ("GALLIUM_DRIVER", "llvmpipe")]
    matches = sorted(glob.glob("/usr/share/glvnd/egl_vendor.d/*mesa*.json"))
    if matches:
        env.append(("__EGL_VENDOR_LIBRARY_FILENAMES", matches[0]))
    return tuple(env)


@dataclass(frozen=True)
class GLBackend:
    """One way of launching Chromium so that WebGL2 rasterises on a given GL implementation.

    Args:
        name: The name users pass (``backend="llvmpipe"``).
        flags: Chromium switches.
        env: Returns extra environment variables for the browser process (read at launch,
            since some depend on the machine).
        renderer_words: Words of the WebGL renderer string that identify it (lower case);
            empty for the backend that any other string means (the hardware GPU).
        install_hint: What to install when it is unavailable.
        description: One line for ``doctor`` and ``--help``.
    """

    name: str
    flags: tuple[str, ...]
    env: Callable[[], tuple[tuple[str, str], ...]] = tuple
    renderer_words: tuple[str, ...] = ()
    install_hint: str = ""
    description: str = ""


#: Every backend, in the order ``auto`` tries them: fastest first.
GL_BACKENDS: dict[str, GLBackend] = {
    backend.name: backend
    for backend in (
        GLBackend(
            "gpu",
            _EGL_FLAGS,
            install_hint=INSTALL_GPU_HINT,
            description="a hardware GPU through ANGLE on the vendor's EGL driver",
        ),
        GLBackend(
            "llvmpipe",
            _EGL_FLAGS,
            _mesa_env,
            renderer_words=("llvmpipe", "softpipe", "lavapipe"),
            install_hint=INSTALL_MESA_HINT,
            description="Mesa's llvmpipe software rasteriser through ANGLE's GL/EGL backend",
        ),
        GLBackend(
            "swiftshader",
            ("--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"),
            renderer_words=("swiftshader",),
            install_hint="use a Chromium build that ships SwiftShader "
            "(`python -m playwright install chromium`)",
            description="Chromium's own SwiftShader software rasteriser (slowest)",
        ),
    )
}

#: Every value ``--backend`` and `RenderConfig.backend` accept.
BACKEND_CHOICES: tuple[str, ...] = (AUTO, *GL_BACKENDS)


def gl_backend(name: str) -> GLBackend:
    """Returns one backend of the registry.

    Args:
        name: Its name.

    Returns:
        The `GLBackend`.

    Raises:
        ValueError: For an unknown name, listing the known ones.
    """
    try:
        return GL_BACKENDS[name]
    except KeyError:
        raise ValueError(
            f"unknown GL backend {name!r}; choose {', '.join(BACKEND_CHOICES)}"
        ) from None


def classify_renderer(renderer: str) -> str:
    """Names the backend behind a WebGL renderer string (``UNMASKED_RENDERER_WEBGL``).

    Args:
        renderer: The string.

    Returns:
        The first backend whose `GLBackend.renderer_words` it contains, else the one with
        none (the hardware GPU).
    """
    lowered = renderer.lower()
    fallback = ""
    for backend in GL_BACKENDS.values():
        if not backend.renderer_words:
            fallback = fallback or backend.name
        elif any(word in lowered for word in backend.renderer_words):
            return backend.name
    return fallback
