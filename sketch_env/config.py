"""The round trip every configuration object shares: a frozen dataclass to a dict or JSON and back.

Light on purpose (standard library only): the wire models and the gate's configuration import it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import Field, asdict, fields
from typing import TYPE_CHECKING, Any, ClassVar, Self

__all__ = ["JsonConfig"]


class JsonConfig:
    """Dict and JSON round trips for the frozen dataclass configs (`GateConfig`, `RewardConfig`).

    Unknown keys are refused rather than ignored: a misspelt weight in a saved config would
    otherwise silently fall back to its default.
    """

    if TYPE_CHECKING:
        # Set by @dataclass on each subclass: makes the mixin a dataclass to the type checker.
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_dict(self) -> dict[str, Any]:
        """Returns the fields as a plain dict."""
        return asdict(self)

    @classmethod
    def check_keys(cls, data: Mapping[str, Any]) -> None:
        """Raises ``ValueError`` naming any key of ``data`` that is not a field."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown {cls.__name__} keys {unknown}; known: {sorted(known)}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Builds a config from a mapping; missing keys take their defaults.

        Raises:
            ValueError: On an unknown key or a bad value.
        """
        cls.check_keys(data)
        return cls(**dict(data))

    def to_json(self) -> str:
        """Returns the config as JSON."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Parses `to_json` output.

        Raises:
            ValueError: On malformed JSON, an unknown key or a bad value.
        """
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"{cls.__name__} JSON must be an object")
        return cls.from_dict(data)
