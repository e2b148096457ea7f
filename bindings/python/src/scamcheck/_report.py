"""The Report and its parts as typed, immutable dataclasses (CONTRACT §1)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple, Union, overload

from ._errors import InternalError

__all__ = [
    "Kind",
    "Verdict",
    "Severity",
    "Reputation",
    "Span",
    "Signal",
    "Action",
    "UrlInfo",
    "Report",
]


class Kind(str, enum.Enum):
    """What kind of content is analyzed."""

    TEXT = "text"
    EMAIL = "email"
    URL = "url"
    IMAGE = "image"
    DOCUMENT = "document"


class Verdict(str, enum.Enum):
    """The closed verdict set: score 0-29 safe, 30-69 suspicious, 70-100 danger."""

    SAFE = "safe"
    SUSPICIOUS = "suspicious"
    DANGER = "danger"


class Severity(str, enum.Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Reputation(str, enum.Enum):
    UNKNOWN = "unknown"
    CLEAN = "clean"
    MALICIOUS = "malicious"


@dataclass(frozen=True)
class Span:
    """Byte offsets [start, end) into the UTF-8 text named by Signal.location.

    For location "content" that text is the content analyzed: ``span.slice(content)``
    is the evidence whether the content is ``str`` or ``bytes``, and
    ``span.char_range(content)`` converts the offsets to ``str`` indices.
    """

    start: int
    end: int

    @overload
    def slice(self, text: str) -> str: ...

    @overload
    def slice(self, text: bytes) -> bytes: ...

    def slice(self, text: Union[str, bytes]) -> Union[str, bytes]:
        """The span of `text`: bytes for bytes, str (of its UTF-8 bytes) for str."""
        if isinstance(text, str):
            return text.encode("utf-8")[self.start : self.end].decode("utf-8", errors="replace")
        return bytes(text[self.start : self.end])

    def char_range(self, text: str) -> Tuple[int, int]:
        """The span as indices into the ``str`` `text` (``text[a:b]`` is the evidence)."""
        data = text.encode("utf-8")
        start = len(data[: self.start].decode("utf-8", errors="ignore"))
        end = start + len(data[self.start : self.end].decode("utf-8", errors="ignore"))
        return start, end


@dataclass(frozen=True)
class Signal:
    """One indicator, always with the verbatim evidence that caused it."""

    key: str  # stable glossary slug, e.g. "credential_request"
    severity: Severity
    evidence: str
    location: str  # "content", "header:From", "body", "body:html", "ocr", "qr", ...
    span: Span
    explanation: str  # localized one-sentence meaning of `key`
    occurrences: int = 1  # further places with the same key and evidence


@dataclass(frozen=True)
class Action:
    """A recommended action; `icon` is one emoji."""

    icon: str
    text: str


@dataclass(frozen=True)
class UrlInfo:
    """A URL found in the content."""

    url: str
    host: str
    registrable_domain: str
    reputation: Reputation
    cached: bool


@dataclass(frozen=True)
class Report:
    """The analysis of one piece of content (CONTRACT §1)."""

    id: str
    kind: Kind
    locale: str
    verdict: Verdict
    risk_score: int
    confidence: int
    summary_plain: str
    actions: Tuple[Action, ...]
    signals: Tuple[Signal, ...]
    urls: Tuple[UrlInfo, ...]
    model_used: str
    input_tokens: int
    output_tokens: int
    created_at: str  # UTC, ISO 8601 with "Z"
    extracted_text: Optional[str] = None  # images and documents only
    truncated: bool = False  # signals or URLs were left out (bounded reports)
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The Report JSON as the library gave it, members this version does not know included."""

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Report":
        """A Report from its JSON (the C API's, the CLI's or the scan API's)."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise InternalError(f"the report is not JSON: {error}") from error
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> "Report":
        """A Report from its parsed JSON; a malformed one raises InternalError."""
        try:
            return cls(
                id=_str(data["id"]),
                kind=Kind(data["kind"]),
                locale=_str(data["locale"]),
                verdict=Verdict(data["verdict"]),
                risk_score=_int(data["risk_score"]),
                confidence=_int(data["confidence"]),
                summary_plain=_str(data["summary_plain"]),
                actions=tuple(
                    Action(icon=_str(a["icon"]), text=_str(a["text"])) for a in data["actions"]
                ),
                signals=tuple(_signal(s) for s in data["signals"]),
                urls=tuple(
                    UrlInfo(
                        url=_str(u["url"]),
                        host=_str(u["host"]),
                        registrable_domain=_str(u["registrable_domain"]),
                        reputation=Reputation(u["reputation"]),
                        cached=bool(u["cached"]),
                    )
                    for u in data["urls"]
                ),
                model_used=_str(data["model_used"]),
                input_tokens=_int(data["input_tokens"]),
                output_tokens=_int(data["output_tokens"]),
                created_at=_str(data["created_at"]),
                extracted_text=(
                    None if data.get("extracted_text") is None else _str(data["extracted_text"])
                ),
                truncated=bool(data.get("truncated", False)),
                raw=dict(data),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InternalError(f"malformed report ({type(error).__name__}: {error})") from error

    def to_dict(self) -> Dict[str, Any]:
        """The Report JSON as a dict (a copy of what the library gave)."""
        return json.loads(json.dumps(self.raw))  # type: ignore[no-any-return]


def _signal(s: Any) -> Signal:
    return Signal(
        key=_str(s["key"]),
        severity=Severity(s["severity"]),
        evidence=_str(s["evidence"]),
        location=_str(s["location"]),
        span=Span(start=_int(s["span"]["start"]), end=_int(s["span"]["end"])),
        explanation=_str(s["explanation"]),
        occurrences=_int(s.get("occurrences", 1)),
    )


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value
