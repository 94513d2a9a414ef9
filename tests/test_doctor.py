"""`sketch-env doctor`: real Chromium, real probes, a real (absent) scoring service."""

from __future__ import annotations

import json

import pytest

from sketch_env.cli import main
from sketch_env.doctor import run_checks
from tests.conftest import require_chromium

#: Loopback port 9: nothing listens there, so the HPSv3 check sees a service that is down.
DEAD_URL = "http://127.0.0.1:9"


def test_doctor_json_reports_a_working_renderer(capsys: pytest.CaptureFixture[str]) -> None:
    require_chromium()
    status = main(["doctor", "--json", "--hpsv3-url", DEAD_URL])
    report = json.loads(capsys.readouterr().out)
    checks = {c["name"]: c for c in report["checks"]}
    assert status == 0 and report["ok"] is True
    assert checks["chromium"]["status"] == "ok"
    assert checks["vendored files"]["status"] == "ok"
    assert "p5.brush 2." in checks["vendored files"]["detail"]
    assert "rapidocr-onnxruntime 1.4.4" in checks["vendored files"]["detail"]
    assert checks["text reader"]["status"] == "ok", checks["text reader"]
    backends = {n: checks[f"GL backend {n}"] for n in ("gpu", "llvmpipe", "swiftshader")}
    working = [n for n, c in backends.items() if c["status"] == "ok"]
    assert working, backends
    for check in backends.values():
        if check["status"] != "ok":
            assert check["fix"], check
    assert checks["test render"]["status"] == "ok"
    hps = checks[f"HPSv3 service {DEAD_URL}"]
    assert hps["status"] == "warn" and "sketch-env hpsv3 serve" in hps["fix"]
    assert checks["HPSv3 environment"]["status"] in ("ok", "warn")
    if checks["HPSv3 environment"]["status"] == "warn":
        assert "sketch-env hpsv3 setup" in checks["HPSv3 environment"]["fix"]
    for extra in ("trl", "ray", "openenv", "torch"):
        check = checks[f"extra {extra}"]
        assert check["status"] == "ok" or "pip install" in check["fix"], check
    assert "torch==2.13.0" in checks["extra trl"]["fix"] or checks["extra trl"]["status"] == "ok"


def test_doctor_fails_without_a_browser(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["doctor", "--browser", "/nonexistent/chromium", "--hpsv3-url", DEAD_URL])
    out = capsys.readouterr().out
    assert status == 1
    assert "[FAIL] chromium" in out
    assert "apt-get install -y chromium" in out
    assert "problem(s) stop the renderer" in out


def test_checks_without_probes_or_render() -> None:
    require_chromium()
    checks = run_checks(hpsv3_url=DEAD_URL, probe=False, render=False)
    names = [c.name for c in checks]
    assert "chromium" in names and "test render" not in names
    assert not any(n.startswith("GL backend") for n in names)
    assert all(c.status in ("ok", "warn", "fail") for c in checks)
    assert not [c for c in checks if c.status == "fail"]
