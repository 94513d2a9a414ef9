"""A vision-language model as the scorer: pointwise marks or pairwise win-rates over HTTP.

`JudgeScorer` talks to any OpenAI-compatible chat-completions server with image input (vLLM
serving Qwen2.5-VL / Qwen3-VL, or a hosted API). The spec ``judge+http://host:port/v1?model=NAME``
builds one through `sketch_env.scoring.make_scorer`. See ``docs/judge.md`` for the rubric, the
modes, the vLLM command line and the cost per GRPO step.
"""

from sketch_env.scoring.judge.parse import (
    UnreadableReplyError,
    Verdict,
    parse_mark,
    parse_verdict,
    strip_thinking,
)
from sketch_env.scoring.judge.prompts import POINTWISE_RUBRIC, RUBRIC_VERSION
from sketch_env.scoring.judge.references import (
    ReferenceImage,
    draw_references,
    load_reference_images,
    render_reference_images,
    rollout_seed,
    save_reference_images,
)
from sketch_env.scoring.judge.scorer import MODES, JudgeRequestError, JudgeScorer, Mode
from sketch_env.scoring.judge.spec import SPEC_SYNTAX, judge_from_spec, parse_judge_spec

__all__ = [
    "MODES",
    "POINTWISE_RUBRIC",
    "RUBRIC_VERSION",
    "SPEC_SYNTAX",
    "JudgeRequestError",
    "JudgeScorer",
    "Mode",
    "ReferenceImage",
    "UnreadableReplyError",
    "Verdict",
    "draw_references",
    "judge_from_spec",
    "load_reference_images",
    "parse_judge_spec",
    "parse_mark",
    "parse_verdict",
    "render_reference_images",
    "rollout_seed",
    "save_reference_images",
    "strip_thinking",
]
