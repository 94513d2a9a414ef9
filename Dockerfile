# sketch_env OpenEnv server: Chromium + Mesa (llvmpipe software GL) + the package.
# Build: docker build -t sketch-env .      Run: docker run -p 8000:8000 sketch-env
# As a Hugging Face Space (Docker SDK), the README's front matter says `sdk: docker` and
# `app_port: 8000`; the Space runs the container as uid 1000, which is the user below, and sets
# openenv.yaml's `variables` (SKETCH_ENV_SCORER, SKETCH_ENV_RENDERER), which `sketch-env serve`
# reads.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Debian's Chromium (Playwright cannot download its own browser everywhere), Mesa's EGL and
# DRI drivers for the llvmpipe GL backend (about 3x faster than SwiftShader, docs/design.md §3.12),
# and fonts so p5's default text metrics exist.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        chromium \
        libegl-mesa0 \
        libgl1-mesa-dri \
        fonts-dejavu-core \
        fonts-liberation \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md LICENSE THIRD_PARTY_NOTICES.md ./
COPY vendor ./vendor
COPY reference_pool ./reference_pool
COPY sketch_env ./sketch_env
RUN pip install . && useradd --create-home --uid 1000 sketch

ENV SKETCH_ENV_CHROMIUM=/usr/bin/chromium \
    SKETCH_ENV_MAX_SESSIONS=8 \
    SKETCH_ENV_IDLE_TIMEOUT=300
USER sketch
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4)"
CMD ["sketch-env", "serve", "--host", "0.0.0.0", "--port", "8000"]
