"""Analyzer: one loaded data pack, analyzing content through the C API."""

from __future__ import annotations

import json
import os
import threading
from types import TracebackType
from typing import Any, Dict, Optional, Tuple, Type, Union

from . import _native
from ._errors import ScamCheckError, error_for
from ._report import Kind, Report

__all__ = ["Analyzer", "sniff_kind", "version", "library_path"]

PathLike = Union[str, "os.PathLike[str]"]
Content = Union[str, bytes, bytearray, memoryview]

# Images and documents are at most 10 MiB; reading one byte more lets the
# library say "out_of_range" without a huge file being read whole.
_MAX_FILE_BYTES = 10 * 1024 * 1024

_EXTENSION_KINDS = {
    ".eml": Kind.EMAIL,
    ".mbox": Kind.EMAIL,
    ".png": Kind.IMAGE,
    ".jpg": Kind.IMAGE,
    ".jpeg": Kind.IMAGE,
    ".gif": Kind.IMAGE,
    ".tif": Kind.IMAGE,
    ".tiff": Kind.IMAGE,
    ".bmp": Kind.IMAGE,
    ".webp": Kind.IMAGE,
    ".pdf": Kind.DOCUMENT,
    ".docx": Kind.DOCUMENT,
    ".txt": Kind.TEXT,
}


def sniff_kind(content: bytes) -> Optional[Kind]:
    """The kind a file's magic bytes name, by the library's rules (scamcheck::sniff_kind).

    IMAGE for PNG, JPEG, GIF, TIFF, BMP and WebP, DOCUMENT for PDF and zip
    (DOCX); None for anything else (text, email and url carry no magic bytes).
    """
    b = bytes(content[:1024])
    if (
        b.startswith(b"\x89PNG\r\n\x1a\n")
        or b.startswith(b"\xff\xd8\xff")
        or b.startswith((b"GIF87a", b"GIF89a"))
        or b.startswith((b"II*\x00", b"MM\x00*"))
        or (b.startswith(b"BM") and len(content) >= 26)
        or (b.startswith(b"RIFF") and b[8:12] == b"WEBP")
    ):
        return Kind.IMAGE
    if b.startswith(b"PK\x03\x04") or b"%PDF-" in b:
        return Kind.DOCUMENT
    return None


def version() -> str:
    """The version of the loaded libscamcheck_c, e.g. "0.1.0"."""
    return _native.load().version()


def library_path() -> str:
    """The libscamcheck_c file loaded (or the name the loader resolved)."""
    return _native.load().path


class Analyzer:
    """Loads the data pack once; ``analyze`` may then be called many times.

    One Analyzer may be shared by any number of threads: the C library's
    analyzer is immutable and ``scamcheck_analyze`` runs on it from many
    threads at once, with the GIL released. ``close`` waits for the calls
    in progress, then frees it; later calls raise ValueError.

    Options are those of the C API (scamcheck_c.h); None leaves the
    library's default. A bad option raises InvalidArgumentError, a missing
    file NotFoundError (both ScamCheckError).
    """

    # Class-level defaults, so close() and __del__ work on an Analyzer whose
    # __init__ raised before setting them.
    _handle: Optional[int] = None
    _library: Optional[_native.Library] = None

    def __init__(
        self,
        data_dir: Optional[PathLike] = None,
        use_model: bool = True,
        *,
        model_file: Optional[PathLike] = None,
        tessdata_dir: Optional[PathLike] = None,
        ocr_languages: Optional[str] = None,
        ai_url: Optional[str] = None,
        ai_key: Optional[str] = None,
        ai_model: Optional[str] = None,
        safe_browsing_key: Optional[str] = None,
        safe_browsing_url: Optional[str] = None,
        urlhaus_url: Optional[str] = None,
        urlhaus_key: Optional[str] = None,
    ) -> None:
        self._state = threading.Condition()
        self._calls = 0
        options: Dict[str, Any] = {}
        if data_dir is not None:
            options["data_dir"] = os.fspath(data_dir)
        if not use_model:
            options["use_model"] = False
        for name, value in (
            ("model_file", model_file),
            ("tessdata_dir", tessdata_dir),
        ):
            if value is not None:
                options[name] = os.fspath(value)
        for name, text in (
            ("ocr_languages", ocr_languages),
            ("ai_url", ai_url),
            ("ai_key", ai_key),
            ("ai_model", ai_model),
            ("safe_browsing_key", safe_browsing_key),
            ("safe_browsing_url", safe_browsing_url),
            ("urlhaus_url", urlhaus_url),
            ("urlhaus_key", urlhaus_key),
        ):
            if text is not None:
                options[name] = text
        library = _native.load()
        encoded = json.dumps(options).encode("utf-8") if options else None
        code, handle, error = library.create(encoded)
        if code != 0 or handle is None:
            raise _error(code, error)
        self._library = library
        self._handle = handle

    def analyze(
        self,
        content: Content,
        kind: Union[Kind, str] = Kind.TEXT,
        locale: str = "en",
    ) -> Report:
        """The Report of `content`.

        `content` is ``str`` for text and url (``bytes`` are passed on as they
        are and must be UTF-8), ``bytes`` for email (``str`` is sent as UTF-8),
        image and document. `kind` is a Kind or its name ("text", "email",
        "url", "image", "document"); `locale` a BCP 47 tag for the
        explanations. Bad input raises a ScamCheckError subclass whose
        ``code`` is the library's ("invalid_argument", "out_of_range", ...).
        """
        kind_name = kind.value if isinstance(kind, Kind) else kind
        if not isinstance(kind_name, str):
            raise TypeError(f"kind must be a Kind or a str, not {type(kind).__name__}")
        if not isinstance(locale, str):
            raise TypeError(f"locale must be a str, not {type(locale).__name__}")
        if isinstance(content, str):
            if kind_name in (Kind.IMAGE.value, Kind.DOCUMENT.value):
                raise TypeError(f"content of kind {kind_name} must be bytes (the file's bytes)")
            data = content.encode("utf-8", errors="surrogatepass")
        elif isinstance(content, (bytes, bytearray, memoryview)):
            data = bytes(content)
        else:
            raise TypeError(f"content must be str or bytes, not {type(content).__name__}")
        kind_bytes = kind_name.encode("utf-8", errors="surrogatepass")
        locale_bytes = locale.encode("utf-8", errors="surrogatepass")
        if b"\x00" in kind_bytes or b"\x00" in locale_bytes:
            raise error_for("invalid_argument", "kind and locale must not contain NUL")
        library, handle = self._enter()
        try:
            code, text = library.analyze(handle, data, kind_bytes, locale_bytes)
        finally:
            self._leave()
        if code != 0 or text is None:
            raise _error(code, text)
        return Report.from_json(text)

    def analyze_file(
        self,
        path: PathLike,
        kind: Union[Kind, str, None] = None,
        locale: str = "en",
    ) -> Report:
        """The Report of a file's bytes.

        Without `kind`, the file's magic bytes decide (image or document, as
        the library's sniff_kind), else its extension (.eml email, .png image,
        .pdf document, ...), else text.
        """
        with open(path, "rb") as file:
            data = file.read(_MAX_FILE_BYTES + 1)
        if kind is None:
            kind = sniff_kind(data)
            if kind is None:
                extension = os.path.splitext(os.fspath(path))[1].lower()
                kind = _EXTENSION_KINDS.get(extension, Kind.TEXT)
        return self.analyze(data, kind=kind, locale=locale)

    def close(self) -> None:
        """Frees the analyzer once the calls in progress have returned (idempotent)."""
        state = self.__dict__.get("_state")
        if state is None:  # __init__ failed before its first line
            return
        with state:
            handle, self._handle = self._handle, None
            while self._calls:
                state.wait()
        if handle is not None and self._library is not None:
            self._library.free_analyzer(handle)

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self) -> "Analyzer":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # never raise from a finalizer (e.g. at interpreter exit)
            pass

    def _enter(self) -> Tuple[_native.Library, int]:
        with self._state:
            if self._handle is None or self._library is None:
                raise ValueError("scamcheck: the Analyzer is closed")
            self._calls += 1
            return self._library, self._handle

    def _leave(self) -> None:
        with self._state:
            self._calls -= 1
            if not self._calls:
                self._state.notify_all()


def _error(code: int, text: Optional[str]) -> ScamCheckError:
    """The exception for an error JSON of the C API (or its code alone)."""
    name = _native.code_name(code) if code != 0 else "internal"
    message = "the library gave no details (out of memory?)"
    if text is not None:
        try:
            error = json.loads(text)["error"]
            name = str(error.get("code", name))
            message = str(error.get("message", message))
        except (ValueError, KeyError, TypeError, AttributeError):
            message = text
    return error_for(name, message)
