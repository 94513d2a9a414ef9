"""``sketch-env pool``: every action answers a failure with one line and its exit status."""

from __future__ import annotations

import pytest

from sketch_env.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["list", "--pool-dir", "/nonexistent"], "no reference pool found"),
        (["calibrate", "--pool-dir", "/nonexistent"], "no reference pool found"),
        (["export-sft", "{tmp}/sft", "--tiers", "best"], "tiers must be"),
        (["refresh", "--repeats", "0"], "--repeats must be at least 1"),
        (["calibrate", "--seeds", "0"], "--seeds must be at least 1"),
        (["negatives", "--harden", "--tasks", "nope/none"], "no references for nope/none"),
        (["negatives", "--tasks", "unsearched"], "add --harden"),
    ],
)
def test_a_failure_is_one_line_and_exit_2(argv, words, tmp_path, capsys) -> None:
    code = main(["pool", *(a.replace("{tmp}", str(tmp_path)) for a in argv)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and words in err, err
