"""The vendored libraries are the published npm files, byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sketch_env.catalog.assets import vendor_dir, verify_vendor


def test_vendored_files_match_their_checksums():
    assert verify_vendor() == []


def test_versions_are_the_pinned_ones():
    manifest = json.loads((vendor_dir() / "VENDORED.json").read_text())
    assert manifest["packages"]["p5"]["version"] == "2.3.4"
    assert manifest["packages"]["p5.brush"]["version"] == "2.2.2"
    head = (vendor_dir() / "p5" / "p5.min.js").read_bytes()[:200].decode()
    assert "2.3.4" in head


def test_a_swapped_library_is_caught(tmp_path):
    # A p5 1.x swapped in makes every brush call draw nothing (docs/design.md §3.1); the checksum
    # check is what stands between that and a silent training run.
    copy = tmp_path / "vendor"
    shutil.copytree(vendor_dir(), copy)
    target = copy / "p5" / "p5.min.js"
    target.write_bytes(target.read_bytes().replace(b"2.3.4", b"1.11.1", 1))
    problems = verify_vendor(copy)
    assert len(problems) == 1 and "p5/p5.min.js" in problems[0]
    (copy / "p5.brush" / "LICENSE.md").unlink()
    assert any("missing" in p for p in verify_vendor(copy))


def test_licences_ship_next_to_the_libraries():
    assert "LESSER GENERAL PUBLIC LICENSE" in (vendor_dir() / "p5" / "LICENSE.txt").read_text()
    assert "MIT License" in (vendor_dir() / "p5.brush" / "LICENSE.md").read_text()
    assert (vendor_dir() / "p5" / "p5.js").stat().st_size > 1_000_000  # unminified source


def test_the_unminified_p5_is_the_source_of_the_minified_build():
    # Shipped because the LGPL 2.1 (section 4) asks that the minified build travel with its
    # source (THIRD_PARTY_NOTICES.md): it must be that release's source, not any p5.js.
    source = (vendor_dir() / "p5" / "p5.js").read_text("utf-8")
    minified = (vendor_dir() / "p5" / "p5.min.js").read_text("utf-8")
    assert source.startswith("/*! p5.js v2.3.4 ") and "const VERSION = '2.3.4';" in source
    assert 'r="2.3.4"' in minified[:200]
    assert source.count("\n") > 50 * minified.count("\n")  # readable, not minified
    notices = (Path(__file__).resolve().parents[2] / "THIRD_PARTY_NOTICES.md").read_text()
    assert "LGPL 2.1" in notices and "§4" in notices and "p5/p5.js" in notices
