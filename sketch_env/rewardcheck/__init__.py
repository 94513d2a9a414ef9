"""The reward's own benchmark: ``sketch-env reward-check``.

It scores a labelled set through the evaluation layer and reports how often the reward orders
it correctly: reference tiers, degraded copies of each reference (`degrade`), and reward hacks
written as sketches (`hacks`) taken through the whole environment (`check`); the results go to
a terminal table, JSON and an HTML page of every mis-ordered pair (`report`).

``sketch-env reward-check --search N`` measures the reward by what optimisation finds instead
(`search`): a seeded black-box search, over random p5.brush programs and over mutants of the
task's reference sketches, reports per task how far the best program found out-earns the
references (the adversarial gap) and which terms it saturated.
"""
