"""Leaks and leftovers (issue 12): nothing leaves a render, and nothing of it outlives it.

Every attack is rendered on a real pool: WebRTC against a loopback UDP listener, leftover GPU
work against the next render on the same browser, memory measured on the browser's own process
tree, and faults injected by killing the renderer's own processes.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from sketch_env import RenderStatus
from tests.conftest import assert_good_render

#: A setup body that paints something measurable on a WEBGL canvas.
PAINT = """
  createCanvas(300, 300, WEBGL);
  background(240);
  translate(-width / 2, -height / 2);
  brush.set('2B', '#223388', 2);
  brush.line(20, 20, 280, 280);
"""


class UdpListener:
    """A UDP socket on 127.0.0.1 that keeps every datagram it receives."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.port: int = self.sock.getsockname()[1]
        self.datagrams: list[bytes] = []
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                data, _ = self.sock.recvfrom(65535)
            except OSError:
                continue
            self.datagrams.append(data)

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        self.sock.close()


@pytest.fixture
def udp() -> Iterator[UdpListener]:
    listener = UdpListener()
    yield listener
    listener.close()


#: Ways a sketch reaches a peer connection constructor.
PEER_CONNECTIONS = {
    "standard": "window.RTCPeerConnection",
    "webkit": "window.webkitRTCPeerConnection",
    "computed": "window['RTC' + 'PeerConnection']",
    # A fresh realm of the sketch's own making: the lockdown runs in it too.
    "nested-frame": "(() => { const f = document.createElement('iframe');"
    " document.body.appendChild(f); return f.contentWindow.RTCPeerConnection; })()",
}


@pytest.mark.parametrize("reach", PEER_CONNECTIONS, ids=list(PEER_CONNECTIONS))
def test_webrtc_sends_no_packet_and_is_reported(renderer, udp, reach):
    # Before the fix, this sent 8 STUN/TURN datagrams to the listener (one carrying the
    # credential below) and blocked_requests stayed empty.
    source = (
        "async function setup() {"
        + PAINT
        + "  let pc;\n"
        + "  try {\n"
        + f"    const Ctor = {PEER_CONNECTIONS[reach]};\n"
        + "    pc = new Ctor({iceServers: ["
        + f"{{urls: 'stun:127.0.0.1:{udp.port}'}},"
        + f"{{urls: 'turn:127.0.0.1:{udp.port}', username: 'u',"
        + " credential: 'sketch-secret'}]});\n"
        + "  } catch (e) { return; }\n"
        + "  pc.createDataChannel('leak');\n"
        + "  await pc.setLocalDescription(await pc.createOffer());\n"
        + "  await new Promise((r) => setTimeout(r, 1500));\n"
        + "}"
    )
    result = renderer.render_sync(source, seed=0)
    time.sleep(1.0)  # ICE gathering is asynchronous: give stray packets time to arrive
    assert udp.datagrams == [], f"{len(udp.datagrams)} datagrams left the render"
    assert any(entry.startswith("webrtc:") for entry in result.blocked_requests), (
        result.blocked_requests
    )
    assert result.status is RenderStatus.OK, result.errors
    assert result.paint_fraction > 0.01
    assert_good_render(renderer)


def test_offscreen_canvas_obeys_the_canvas_caps(renderer):
    source = "function setup() {" + PAINT + "  const c = new OffscreenCanvas(8192, 8192);\n}"
    result = renderer.render_sync(source, seed=0)
    assert result.status in (RenderStatus.UNFINISHED, RenderStatus.JS_ERROR), result.status
    assert any("OffscreenCanvas 8192x8192" in e for e in result.errors), result.errors
    grown = (
        "function setup() {"
        + PAINT
        + "  const c = new OffscreenCanvas(10, 10);\n  c.width = 9000;\n}"
    )
    result = renderer.render_sync(grown, seed=0)
    assert any("exceeds the sandbox's canvas limits" in e for e in result.errors), result.errors
    small = "function setup() {" + PAINT + "  const c = new OffscreenCanvas(64, 64);\n"
    small += "  if (!(c instanceof OffscreenCanvas) || c.getContext('2d') === null) throw 1;\n}"
    assert renderer.render_sync(small, seed=0).status is RenderStatus.OK
    assert_good_render(renderer)


#: Paints, then keeps queueing heavy fragment-shader draws on a second WebGL context after the
#: picture is taken. Before the fix: ``ok`` in 0.3 s, and the next three honest renders on that
#: browser timed out (the GPU process worked through the queue for minutes).
GPU_LEFTOVER = (
    "function setup() {"
    + PAINT
    + """
  const c = document.createElement('canvas');
  c.width = 2048;
  c.height = 2048;
  const gl = c.getContext('webgl2');
  const shader = (type, text) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, '#version 300 es\\n' + text);
    gl.compileShader(s);
    return s;
  };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER,
    'in vec2 p; void main() { gl_Position = vec4(p, 0, 1); }'));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER,
    'precision highp float; out vec4 o; uniform float k; void main() { float a = 0.0;' +
    ' for (int i = 0; i < 2000; i++) { a += sin(a + float(i) * k + gl_FragCoord.x); }' +
    ' o = vec4(a); }'));
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  const k = gl.getUniformLocation(program, 'k');
  setInterval(() => {
    for (let j = 0; j < 20; j++) {
      gl.uniform1f(k, Math.random());
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    gl.flush();
  }, 0);
}
"""
)


def test_leftover_gpu_work_is_charged_to_its_author_not_the_next_sketch(renderer):
    result = renderer.render_sync(GPU_LEFTOVER, seed=0)
    assert result.status is RenderStatus.LEFTOVER_WORK, (result.status, result.errors)
    assert any("left work running" in e for e in result.errors), result.errors
    # Charged to the hostile render: it waited out the drain bound itself.
    assert result.elapsed_ms >= renderer.config.drain_timeout_s * 1000
    for _ in range(renderer.pool_size + 1):  # every browser serves a render after it
        assert_good_render(renderer)
