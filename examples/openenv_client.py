"""Drive a running sketch_env OpenEnv server through the typed client.

Start the server first:
    sketch-env serve --host 127.0.0.1 --port 8000
then:
    python examples/openenv_client.py --url http://127.0.0.1:8000 --sessions 4

Each session is one WebSocket with its own episode; the server renders all of them
concurrently on its browser pool (one GRPO group = several sessions at once).
"""

from __future__ import annotations

import argparse
import asyncio

from sketch_env.catalog.instructions import EXAMPLE_SKETCH
from sketch_env.env import SketchAction
from sketch_env.server.client import SketchEnvClient


async def episode(url: str, seed: int) -> str:
    async with SketchEnvClient(base_url=url, message_timeout_s=120) as env:
        first = await env.reset(seed=seed)
        # Timings are left out of observations unless asked for: they differ on every replay.
        action = SketchAction(sketch=f"```javascript\n{EXAMPLE_SKETCH}```", include_timings=True)
        result = await env.step(action)
        obs = result.observation
        return (
            f"seed {seed} {first.observation.task_id:<24} reward {result.reward:+.3f}  "
            f"render {obs.render_status} in {obs.elapsed_ms:.0f} ms on {obs.backend}, "
            f"coverage {obs.coverage:.1%}, score {obs.score:.2f} ({obs.scorer})"
        )


async def main_async(url: str, sessions: int) -> None:
    for line in await asyncio.gather(*(episode(url, seed) for seed in range(sessions))):
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--sessions", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main_async(args.url, args.sessions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
