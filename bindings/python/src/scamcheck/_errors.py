"""The exceptions of the package: one class per status code of the library."""

from __future__ import annotations

from typing import Dict, Type

__all__ = [
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
    "error_for",
]


class ScamCheckError(Exception):
    """An error of ScamCheck.

    ``code`` is the library's status name ("invalid_argument", "out_of_range",
    ...), ``message`` says why in English. Catch this class for any of them,
    or one of its subclasses for one code.
    """

    code: str = "internal"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class InvalidArgumentError(ScamCheckError, ValueError):
    """Empty content, invalid UTF-8 text, an unknown kind or a bad option."""

    code = "invalid_argument"


class OutOfRangeError(ScamCheckError, ValueError):
    """Content over its size limit (64 KiB; 10 MiB for images and documents)."""

    code = "out_of_range"


class NotFoundError(ScamCheckError):
    """A file named in the options (data_dir, model_file, ...) does not exist."""

    code = "not_found"


class ResourceExhaustedError(ScamCheckError):
    """Out of memory or over an internal budget."""

    code = "resource_exhausted"


class DeadlineExceededError(ScamCheckError):
    """An image or document took too long."""

    code = "deadline_exceeded"


class UnavailableError(ScamCheckError):
    """Something the analysis needs is missing, e.g. the OCR models for an image."""

    code = "unavailable"


class UnimplementedError(ScamCheckError):
    """Not available in this build of the library."""

    code = "unimplemented"


class InternalError(ScamCheckError):
    """A bug in ScamCheck; please report it with the input that caused it."""

    code = "internal"


class LibraryNotFoundError(ScamCheckError, OSError):
    """libscamcheck_c could not be found or loaded (code "library_not_found")."""

    code = "library_not_found"


_BY_CODE: Dict[str, Type[ScamCheckError]] = {
    cls.code: cls
    for cls in (
        InvalidArgumentError,
        OutOfRangeError,
        NotFoundError,
        ResourceExhaustedError,
        DeadlineExceededError,
        UnavailableError,
        UnimplementedError,
        InternalError,
    )
}

# The numbers of enum scamcheck_code (scamcheck_c.h), for a reply without JSON.
CODE_NAMES = (
    "ok",
    "invalid_argument",
    "out_of_range",
    "not_found",
    "resource_exhausted",
    "deadline_exceeded",
    "unavailable",
    "unimplemented",
    "internal",
)


def error_for(code: str, message: str) -> ScamCheckError:
    """The exception for a status name; an unknown name gives ScamCheckError itself."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return ScamCheckError(message, code)
    return cls(message)
