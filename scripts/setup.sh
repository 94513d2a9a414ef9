#!/usr/bin/env bash
# Sets up sketch_env on a Debian/Ubuntu machine (what CI and the README's quick start run).
#
#   scripts/setup.sh          Chromium + Mesa from Debian's packages, then the package itself
#   scripts/setup.sh --dev    also the test extras, a CPU torch, TRL, Ray, and the HPSv3 venv
#                             (TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128 for CUDA)
#
# Idempotent: what is already installed is not installed again.
set -euo pipefail

dev=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    # The help is the comment block under the shebang, up to the first line of code.
    -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python=${PYTHON:-python3}

# --- system packages: the browser and Mesa's software GL (llvmpipe, ~3x faster than SwiftShader)
missing=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
  || [ -n "${SKETCH_ENV_CHROMIUM:-}" ] || missing+=(chromium)
for pkg in libegl-mesa0 libgl1-mesa-dri fonts-dejavu-core; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Not a Debian/Ubuntu system: install Chromium (or run 'python -m playwright install chromium')" >&2
    echo "and Mesa's EGL yourself, then rerun. Missing: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "==> installing ${missing[*]} (apt-get)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- the package
if [ "$dev" -eq 1 ]; then
  # TRL pulls in torch, and PyPI's Linux torch wheel is the multi-GB CUDA build: a CPU torch
  # first, from PyTorch's CPU index (TORCH_INDEX_URL overrides it, e.g. .../whl/cu128). A local
  # torch wheel on pip's find-links (/opt/wheels on the project's offline machines) is used
  # as it is: there the index cannot be reached, and the wheel there is the CPU build.
  if ! "$python" -c "import torch" >/dev/null 2>&1; then
    local_wheel=""
    for dir in ${PIP_FIND_LINKS:-/opt/wheels}; do
      for wheel in "$dir"/torch-2.13.0*.whl; do
        [ -e "$wheel" ] && local_wheel=$wheel && break 2
      done
    done
    if [ -n "$local_wheel" ] && [ -z "${TORCH_INDEX_URL:-}" ]; then
      echo "==> installing torch==2.13.0 from $local_wheel"
      "$python" -m pip install -q "$local_wheel"
    else
      index=${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}
      echo "==> installing torch==2.13.0 from $index"
      "$python" -m pip install -q torch==2.13.0 --index-url "$index"
    fi
  fi
  echo "==> installing sketch_env with its dev, trl and ray extras"
  "$python" -m pip install -q -e ".[dev,trl,ray]"
  # HPSv3 pins transformers 4.45.2, which cannot live beside TRL: it gets its own venv.
  echo "==> provisioning the isolated HPSv3 environment"
  "$python" -m sketch_env.cli hpsv3 setup
else
  echo "==> installing sketch_env"
  "$python" -m pip install -q -e .
fi
echo "==> done"
