"""ScamCheck for Python: scam and phishing checks by libscamcheck_c (the C API).

    import scamcheck

    with scamcheck.Analyzer() as analyzer:
        report = analyzer.analyze("Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top/pay")
        print(report.verdict, [(s.key, s.evidence) for s in report.signals])
        report = analyzer.analyze_file("screenshot.png", locale="de")

Reports are immutable dataclasses (Report, Signal, Span, UrlInfo, Action)
with enums (Verdict, Severity, Reputation, Kind). Errors raise
ScamCheckError subclasses carrying ``.code``, the library's status name.
Spans are byte offsets into the UTF-8 text (``signal.span.slice(content)``
is the evidence, for str and bytes alike). One Analyzer may be shared by
threads. The library is found by SCAMCHECK_C_LIBRARY, the install prefix or
the loader's cache (see scamcheck._native).
"""

from ._analyzer import Analyzer, library_path, sniff_kind, version
from ._errors import (
    DeadlineExceededError,
    InternalError,
    InvalidArgumentError,
    LibraryNotFoundError,
    NotFoundError,
    OutOfRangeError,
    ResourceExhaustedError,
    ScamCheckError,
    UnavailableError,
    UnimplementedError,
)
from ._report import Action, Kind, Report, Reputation, Severity, Signal, Span, UrlInfo, Verdict

__all__ = [
    "Analyzer",
    "Report",
    "Signal",
    "Span",
    "UrlInfo",
    "Action",
    "Kind",
    "Verdict",
    "Severity",
    "Reputation",
    "ScamCheckError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "NotFoundError",
    "ResourceExhaustedError",
    "DeadlineExceededError",
    "UnavailableError",
    "UnimplementedError",
    "InternalError",
    "LibraryNotFoundError",
    "sniff_kind",
    "version",
    "library_path",
]

__version__ = "0.1.0"
