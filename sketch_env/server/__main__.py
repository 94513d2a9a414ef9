"""``python -m sketch_env.server``: the same as ``sketch-env serve``."""

from sketch_env.server.cli import main

raise SystemExit(main())
