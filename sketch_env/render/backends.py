"""Finding Chromium and choosing the GL backend that rasterises WebGL.

Rendering cost is rasterisation, not JavaScript (docs/design.md §3.12): on a 2-core machine a
watercolour sketch spent 1 CPU-s in the renderer process and 43 CPU-s in the GPU process. The
backend is therefore the biggest lever, and it is part of a picture's definition: the same sketch
and seed give differently shaped washes under llvmpipe and SwiftShader, so every `Render`
reports which backend made it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Playwright

from sketch_env.errors import SetupError
from sketch_env.render.gl_backends import (
    AUTO,
    GL_BACKENDS,
    INSTALL_MESA_HINT,
    classify_renderer,
    gl_backend,
)

#: Environment variable that names the Chromium executable to use.
BROWSER_ENV = "SKETCH_ENV_CHROMIUM"

#: Command lines that install what is missing, quoted in every error.
INSTALL_BROWSER_HINT = (
    "install Chromium with `sudo apt-get install -y chromium` (Debian/Ubuntu) or "
    "`python -m playwright install chromium`, or point $SKETCH_ENV_CHROMIUM at a Chrome/Chromium "
    "executable"
)
_SYSTEM_BROWSERS = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "/usr/bin/chromium",
    "/usr/lib/chromium/chromium",
    "/snap/bin/chromium",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)


class BrowserNotFoundError(SetupError):
    """No Chromium executable could be found."""


class BackendUnavailableError(SetupError):
    """No requested GL backend gave a WebGL2 context."""


@dataclass(frozen=True)
class Backend:
    """A way of launching Chromium so that WebGL2 rasterises on a given GL implementation.

    Args:
        name: ``gpu``, ``llvmpipe`` or ``swiftshader``.
        flags: Extra Chromium switches.
        env: Extra environment variables for the browser process.
    """

    name: str
    flags: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ProbeResult:
    """What probing one backend found.

    Args:
        backend: The backend's name.
        ok: Whether it gave a WebGL2 context of the expected kind.
        renderer: The unmasked WebGL renderer string (e.g. ``ANGLE (..., llvmpipe ...)``).
        seconds: How long launching and probing took.
        error: Why it failed, when it did.
    """

    backend: str
    ok: bool
    renderer: str = ""
    seconds: float = 0.0
    error: str = ""


@dataclass
class BrowserChoice:
    """The executable and backend a renderer launches its browsers with.

    Args:
        executable: Chromium executable path.
        backend: The chosen backend.
        renderer: Its WebGL renderer string.
        probes: Every probe made while choosing.
    """

    executable: str
    backend: Backend
    renderer: str
    probes: list[ProbeResult] = field(default_factory=list)


def backend_spec(name: str) -> Backend:
    """Returns the launch recipe of one backend of the registry (`GL_BACKENDS`).

    Args:
        name: A backend name (not ``auto``).

    Returns:
        The `Backend`.

    Raises:
        ValueError: For an unknown name.
    """
    backend = gl_backend(name)
    return Backend(backend.name, backend.flags, backend.env())


def find_browser(explicit: str | None = None, playwright: Playwright | None = None) -> str:
    """Finds a Chromium executable.

    Looks, in order, at ``explicit``, ``$SKETCH_ENV_CHROMIUM``, Playwright's own downloaded
    Chromium, and the usual system locations.

    Args:
        explicit: A path or command name given by the user.
        playwright: A started Playwright, to ask for its bundled browser.

    Returns:
        The executable's path.

    Raises:
        BrowserNotFoundError: With the commands that install one.
    """
    tried: list[str] = []
    for candidate in (explicit, os.environ.get(BROWSER_ENV)):
        if candidate:
            resolved = shutil.which(candidate) or candidate
            if Path(resolved).is_file() and os.access(resolved, os.X_OK):
                return resolved
            raise BrowserNotFoundError(
                f"the browser {candidate!r} does not exist or is not executable; "
                + INSTALL_BROWSER_HINT
            )
    if playwright is not None:
        try:
            bundled = playwright.chromium.executable_path
        except Exception:  # Playwright raises when its browser was never downloaded.
            bundled = ""
        if bundled and Path(bundled).is_file():
            return bundled
        tried.append("Playwright's bundled Chromium")
    for name in _SYSTEM_BROWSERS:
        found = shutil.which(name) or (name if os.path.isabs(name) else None)
        if found and Path(found).is_file() and os.access(found, os.X_OK):
            return found
        tried.append(name)
    raise BrowserNotFoundError(
        f"no Chromium found (tried {', '.join(tried)}); " + INSTALL_BROWSER_HINT
    )


#: JavaScript that reports the WebGL2 renderer string, or null without WebGL2.
PROBE_JS = """() => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  if (!gl) return null;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
}"""


def common_args(js_heap_mb: int, marker: str | None = None) -> list[str]:
    """Chromium switches used for every browser of the pool.

    Args:
        js_heap_mb: V8 old-space cap per page.
        marker: A unique, ignored switch that lets the pool find this browser's process id.

    Returns:
        The switches.
    """
    args = [
        # Quiet the browser's own network traffic: these machines have no network, and a
        # renderer must not phone home anyway.
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
        "--disable-default-apps",
        "--disable-extensions",
        "--mute-audio",
        # Defence in depth behind request routing: nothing resolves, not even by accident.
        "--host-resolver-rules=MAP * ~NOTFOUND",
        # WebRTC does not go through request routing: without this switch a sketch's
        # RTCPeerConnection sent 8 STUN/TURN datagrams (one carrying a credential the sketch
        # chose) to a loopback listener; with it, none. There is no proxy, so "only proxied
        # UDP" means no UDP at all. (--force-webrtc-ip-handling-policy did not stop them.)
        # The constructors are also removed in every document (lockdown.js), which reports
        # the attempt.
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        # Containers often give /dev/shm 64 MB, which a few WebGL canvases exhaust.
        "--disable-dev-shm-usage",
        f"--js-flags=--max-old-space-size={js_heap_mb}",
        # The compositor otherwise rasterises on the same GL as WebGL. With it on, llvmpipe
        # drew about one render in a hundred of the same textured-fill sketch and seed with
        # polygon edges one level off (~900 pixels); with it off, 192 of 192 were
        # bit-identical and no slower. Nothing here is ever displayed, so nothing is lost.
        "--disable-gpu-compositing",
    ]
    if marker:
        args.append(f"--sketch-env-browser={marker}")
    return args


async def probe_backend(
    playwright: Playwright, executable: str, name: str, timeout_s: float = 60.0
) -> ProbeResult:
    """Launches Chromium on one backend and checks that it gives the expected WebGL2 context.

    Args:
        playwright: A started Playwright.
        executable: Chromium executable.
        name: Backend to probe.
        timeout_s: Bound on the whole probe.

    Returns:
        The `ProbeResult` (never raises for a failing backend).
    """
    spec = backend_spec(name)
    start = time.perf_counter()
    browser = None
    try:
        async with asyncio.timeout(timeout_s):
            browser = await playwright.chromium.launch(
                executable_path=executable,
                args=[*common_args(256), *spec.flags],
                env={**os.environ, **dict(spec.env)},
                timeout=timeout_s * 1000,
            )
            page = await browser.new_page()
            renderer = await page.evaluate(PROBE_JS)
    except Exception as exc:  # A probe reports; it does not raise.
        return ProbeResult(name, False, seconds=time.perf_counter() - start, error=str(exc)[:500])
    finally:
        if browser is not None:
            try:
                async with asyncio.timeout(10):
                    await browser.close()
            except Exception:
                pass
    seconds = time.perf_counter() - start
    if not renderer:
        return ProbeResult(name, False, seconds=seconds, error="no WebGL2 context")
    actual = classify_renderer(renderer)
    if actual != name:
        return ProbeResult(
            name, False, renderer, seconds, f"asked for {name} but WebGL ran on {actual}"
        )
    return ProbeResult(name, True, renderer, seconds)


async def choose_backend(
    playwright: Playwright, requested: str = "auto", executable: str | None = None
) -> BrowserChoice:
    """Finds Chromium and the fastest backend that gives a real WebGL2 context.

    Args:
        playwright: A started Playwright.
        requested: ``auto`` or a backend name to force.
        executable: Chromium executable; discovered when ``None``.

    Returns:
        The `BrowserChoice`.

    Raises:
        BrowserNotFoundError: If no Chromium was found.
        BackendUnavailableError: If no requested backend works, with what each probe said and
            the packages to install.
    """
    executable = find_browser(executable, playwright)
    names = tuple(GL_BACKENDS) if requested == AUTO else (gl_backend(requested).name,)
    probes: list[ProbeResult] = []
    for name in names:
        if name == "gpu" and requested == "auto":
            # One EGL launch answers both "gpu" and "llvmpipe": glvnd picks the vendor driver
            # when there is one and Mesa otherwise; the renderer string says which ran.
            result = await probe_backend(playwright, executable, "gpu")
            probes.append(result)
            if result.ok:
                return BrowserChoice(executable, backend_spec("gpu"), result.renderer, probes)
            if result.renderer and classify_renderer(result.renderer) == "llvmpipe":
                probes.append(ProbeResult("llvmpipe", True, result.renderer, result.seconds))
                return BrowserChoice(executable, backend_spec("llvmpipe"), result.renderer, probes)
            continue
        if requested == "auto" and any(p.backend == name for p in probes):
            continue
        result = await probe_backend(playwright, executable, name)
        probes.append(result)
        if result.ok:
            return BrowserChoice(executable, backend_spec(name), result.renderer, probes)
    detail = "; ".join(f"{p.backend}: {p.error or 'failed'}" for p in probes)
    hint = INSTALL_MESA_HINT if requested == AUTO else GL_BACKENDS[requested].install_hint
    raise BackendUnavailableError(
        f"no GL backend gave a WebGL2 context with {executable} ({detail}); {hint}"
    )
