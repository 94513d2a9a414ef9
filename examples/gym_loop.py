"""A gymnasium loop over sketch_env: reset, submit a sketch, read the reward and its parts.

A real policy would generate the sketch from ``info["instructions"]`` and the prompt; here a
fixed sketch stands in for it, revised once with multi-turn feedback.

Run:
    python examples/gym_loop.py --episodes 2 --out runs/gym_loop
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gymnasium

import sketch_env.env  # noqa: F401  (registers sketch_env/Sketch-v0)

FIRST_TRY = "I would paint it, but here is no code."  # fails the gate: the feedback says why

SKETCH = """
function setup() {
  createCanvas(600, 600, WEBGL);
  background('#f3ead7');
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.wash('#b9cfe0', 180);
  brush.rect(0, 0, 600, 330);
  brush.noWash();
  brush.fill('#5f8f55', 160);
  brush.fillTexture(0.3, 0.2);
  brush.rect(0, 330, 600, 270);
  brush.noFill();
  brush.set('2B', '#3a3226', 1.2);
  for (let i = 0; i < 12; i++) {
    brush.line(random(600), random(340, 600), random(600), random(340, 600));
  }
}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/gym_loop"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    env = gymnasium.make(
        "sketch_env/Sketch-v0", render_mode="rgb_array", max_steps=2, reward_policy="best"
    )
    try:
        for episode in range(args.episodes):
            obs, info = env.reset(seed=episode)
            print(f"episode {episode}: {info['task_id']}: {obs['prompt']}")
            total = 0.0
            for action in (FIRST_TRY, SKETCH):
                obs, reward, terminated, truncated, info = env.step(action)
                total += reward
                print(
                    f"  reward {reward:+.3f}  gate={info['gate_passed']}  "
                    f"render={info['render_status']}  coverage={info['coverage']}"
                )
                print("  feedback: " + info["feedback"].replace("\n", "\n            "))
                if terminated or truncated:
                    break
            png = env.unwrapped.png()
            if png:
                path = args.out / f"episode{episode}.png"
                path.write_bytes(png)
                print(
                    f"  return {total:+.3f} (= episode reward {info['episode_reward']:+.3f}); "
                    f"picture: {path}"
                )
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
