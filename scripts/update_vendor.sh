#!/usr/bin/env bash
# Re-fetch the vendored files (JavaScript from the npm registry, the PP-OCRv4 text-reading models
# from RapidOCR's PyPI wheel) and print fresh sha256 sums.
# Usage: scripts/update_vendor.sh [P5_VERSION] [P5_BRUSH_VERSION] [RAPIDOCR_VERSION]
# Then update vendor/VENDORED.json with the printed sums and run `pytest tests/catalog/test_vendor.py`.
set -euo pipefail
p5_version=${1:-2.3.4}
brush_version=${2:-2.2.2}
ocr_version=${3:-1.4.4}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "p5@${p5_version}" "p5.brush@${brush_version}" >/dev/null
mkdir p5 brush
tar xzf "p5-${p5_version}.tgz" -C p5
tar xzf "p5.brush-${brush_version}.tgz" -C brush
cp p5/package/lib/p5.js p5/package/lib/p5.min.js "$root/vendor/p5/"
cp p5/package/license.txt "$root/vendor/p5/LICENSE.txt"
cp brush/package/dist/p5.brush.js "$root/vendor/p5.brush/"
cp brush/package/LICENSE.md "$root/vendor/p5.brush/LICENSE.md"
# Only the wheel's two models are used (its OpenCV pipeline is not): --no-deps fetches the wheel alone.
python -m pip download --quiet --no-deps --dest ocr "rapidocr-onnxruntime==${ocr_version}"
python -m zipfile -e ocr/rapidocr_onnxruntime-"${ocr_version}"-py3-none-any.whl ocr/unpacked
cp ocr/unpacked/rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx \
   ocr/unpacked/rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx "$root/vendor/pp-ocrv4/"
sha256sum ocr/*.whl
cd "$root/vendor"
sha256sum p5/p5.js p5/p5.min.js p5/LICENSE.txt p5.brush/p5.brush.js p5.brush/LICENSE.md pp-ocrv4/*
npm view "p5@${p5_version}" dist.integrity
npm view "p5.brush@${brush_version}" dist.integrity
