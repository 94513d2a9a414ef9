"""One exception tree for the whole package.

The reward's central distinction is whose fault a failure is. The policy's own failures never
raise: a refused, broken or endless sketch is an *outcome* with its own reward. What raises is
either the caller's mistake (a bad argument: a `SketchEnvError` that is also a `ValueError` or
`TypeError`, so code written against the standard exceptions keeps working) or the machine's
(`InfrastructureError`: a browser that died, a scorer that did not answer). Everything under
`InfrastructureError` becomes a ``None`` reward when it happens inside an evaluation, which TRL
leaves out of the loss instead of teaching the policy something false (docs/design.md §3.14)::

    SketchEnvError
    ├── InfrastructureError           the environment failed, not the policy (reward None)
    │   ├── ScorerUnavailableError    a scorer could not answer (sketch_env.scoring)
    │   │   └── JudgeRequestError     a judge refused a request (400: picture too large, ...)
    │   ├── BrowserFailure            a browser failed during an attempt (retried)
    │   ├── SearchInfrastructureError the reward search's references got no reward
    │   └── OverloadedError           the HPSv3 service ran out of device memory (a 503)
    ├── SetupError                    something is missing here; the message says what to run
    │   ├── BrowserNotFoundError
    │   ├── BackendUnavailableError
    │   ├── MissingExtraError         an optional extra is not installed (also an ImportError)
    │   └── HPSv3VenvMissingError, HPSv3SetupError
    ├── UnknownTaskError, ReferencePoolError, CalibrationError, ReadbackError,
    │   SFTExportError, UnreadableReplyError                      (each also a ValueError)
    ├── EpisodeError                  (also a RuntimeError)
    ├── ServerError                   an error frame from the server (also a RuntimeError)
    │   └── ServerBusyError           the server is full; retryable
    ├── SessionExpiredError, ClientGoneError                 (each also a ConnectionError)
    ├── QueueFullError                the server's step queue is full (HTTP 429)
    ├── StrictJSONError               JSON that JSON does not carry (also a ValueError)
    └── BadRequest                    input the HPSv3 service refuses (a 4xx)

The four defined here are also importable from ``sketch_env``, as are
`ScorerUnavailableError`, `BrowserNotFoundError` and `BackendUnavailableError`; every other
class lives in the module that raises it. A class that is also a built-in exception keeps that
base, so code that catches the built-in keeps working (``tests/test_architecture.py`` holds
every exception class the package defines to this tree).
"""

from __future__ import annotations

__all__ = [
    "InfrastructureError",
    "MissingExtraError",
    "SetupError",
    "SketchEnvError",
]


class SketchEnvError(Exception):
    """The root of every exception `sketch_env` raises on purpose."""


class InfrastructureError(SketchEnvError, RuntimeError):
    """The environment failed (browser, scorer, service), not the policy.

    Inside an evaluation it never escapes: the rollout it hit gets ``reward=None`` with the
    failure in ``infra_error``, and the other rollouts of the batch are unaffected.
    """


class SetupError(SketchEnvError, RuntimeError):
    """Something this machine lacks (a browser, a GL backend, a virtual environment); the
    message names what is missing and the command that fixes it."""


class MissingExtraError(SetupError, ImportError):
    """An optional extra (Ray, the training stack) is not installed; the message has the
    command from `sketch_env.install` that installs it.

    It is an `ImportError` too, so code that guards an optional import with
    ``except ImportError`` keeps working, and a `SetupError`, so the command line reports it
    in one line instead of a traceback.
    """
