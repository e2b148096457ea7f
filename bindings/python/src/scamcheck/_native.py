"""Finding and loading libscamcheck_c (the C API, scamcheck_c.h) with ctypes.

Lookup order (the first that exists wins):

1. ``SCAMCHECK_C_LIBRARY``: the path of the library file. When set, it is
   the only place tried, so a wrong path is an error, not a silent fallback.
2. The install prefixes: the prefix recorded when the package was built
   (``SCAMCHECK_PREFIX``), then ``sys.prefix``, ``/usr/local`` and ``/usr``;
   in each ``lib/<multiarch>/``, ``lib64/`` and ``lib/`` are searched for
   ``libscamcheck_c.so.1`` (the SONAME of ABI 1), then ``libscamcheck_c.so``.
3. ``ctypes.util.find_library("scamcheck_c")`` (the loader's cache).

Otherwise LibraryNotFoundError, which names the places tried.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import sysconfig
import threading
from typing import Callable, List, Mapping, Optional, Sequence, Tuple

from . import _prefix
from ._errors import CODE_NAMES, LibraryNotFoundError

__all__ = ["Library", "load", "candidate_paths", "find_library_path"]

ABI_VERSION = 1
ENV_LIBRARY = "SCAMCHECK_C_LIBRARY"
FILE_NAMES = (f"libscamcheck_c.so.{ABI_VERSION}", "libscamcheck_c.so")


def default_prefixes() -> List[str]:
    """The install prefixes searched, in order, without duplicates."""
    prefixes: List[str] = []
    for prefix in (_prefix.PREFIX, sys.prefix, "/usr/local", "/usr"):
        if prefix and prefix not in prefixes:
            prefixes.append(prefix)
    return prefixes


def candidate_paths(prefixes: Sequence[str]) -> List[str]:
    """Every file path tried under the prefixes, in order."""
    multiarch = sysconfig.get_config_var("MULTIARCH")
    libdirs = ([f"lib/{multiarch}"] if isinstance(multiarch, str) and multiarch else []) + [
        "lib64",
        "lib",
    ]
    return [
        os.path.join(prefix, libdir, name)
        for prefix in prefixes
        for libdir in libdirs
        for name in FILE_NAMES
    ]


def find_library_path(
    environ: Mapping[str, str] = os.environ,
    prefixes: Optional[Sequence[str]] = None,
    system_lookup: Callable[[str], Optional[str]] = ctypes.util.find_library,
) -> str:
    """The library file to load, by the lookup order of this module.

    Raises LibraryNotFoundError naming the places tried.
    """
    explicit = environ.get(ENV_LIBRARY)
    if explicit:
        if os.path.isfile(explicit):
            return explicit
        raise LibraryNotFoundError(
            f"{ENV_LIBRARY}={explicit} is not a file; set it to the path of "
            f"libscamcheck_c.so.{ABI_VERSION} (e.g. <prefix>/lib/libscamcheck_c.so.{ABI_VERSION} "
            "after `cmake --install`, or build/bindings/c/libscamcheck_c.so in a build tree)"
        )
    tried = candidate_paths(default_prefixes() if prefixes is None else prefixes)
    for path in tried:
        if os.path.isfile(path):
            return path
    found = system_lookup("scamcheck_c")
    if found:
        return found
    raise LibraryNotFoundError(
        "libscamcheck_c (the ScamCheck C library) was not found. Install it with "
        "`cmake --install <build> --prefix <prefix>`, then either install this package "
        "with SCAMCHECK_PREFIX=<prefix> set or set "
        f"{ENV_LIBRARY}=<prefix>/lib/libscamcheck_c.so.{ABI_VERSION} (any path to the "
        "library file works). Tried: " + ", ".join(tried) + ", and the loader's cache "
        "(ctypes.util.find_library)."
    )


class _Pointer(ctypes.c_void_p):
    """A string the library allocated (char*), freed with scamcheck_free."""


class Library:
    """The loaded C API with its prototypes declared."""

    def __init__(self, path: str) -> None:
        try:
            self._dll = ctypes.CDLL(path)
        except OSError as error:
            raise LibraryNotFoundError(
                f"cannot load {path}: {error}. Point {ENV_LIBRARY} at a working "
                f"libscamcheck_c.so.{ABI_VERSION}"
            ) from error
        self.path = path
        try:
            self._version = self._dll.scamcheck_version
            self._create = self._dll.scamcheck_analyzer_create
            self._free_analyzer = self._dll.scamcheck_analyzer_free
            self._analyze = self._dll.scamcheck_analyze
            self._free = self._dll.scamcheck_free
        except AttributeError as error:
            raise LibraryNotFoundError(
                f"{path} is not libscamcheck_c (missing {error}); point {ENV_LIBRARY} at "
                f"libscamcheck_c.so.{ABI_VERSION}"
            ) from error
        self._version.restype = ctypes.c_char_p
        self._version.argtypes = []
        self._create.restype = ctypes.c_int
        self._create.argtypes = [
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(_Pointer),
        ]
        self._free_analyzer.restype = None
        self._free_analyzer.argtypes = [ctypes.c_void_p]
        self._analyze.restype = ctypes.c_int
        self._analyze.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.POINTER(_Pointer),
        ]
        self._free.restype = None
        self._free.argtypes = [ctypes.c_void_p]

    def version(self) -> str:
        value = self._version()
        return value.decode("utf-8") if isinstance(value, bytes) else ""

    def _take(self, pointer: _Pointer) -> Optional[str]:
        """The string the library returned, decoded, and freed."""
        if not pointer.value:
            return None
        try:
            return ctypes.string_at(pointer.value).decode("utf-8", errors="replace")
        finally:
            self._free(pointer)

    def create(self, options_json: Optional[bytes]) -> Tuple[int, Optional[int], Optional[str]]:
        """scamcheck_analyzer_create: (code, handle, error JSON)."""
        handle = ctypes.c_void_p()
        error = _Pointer()
        code = int(self._create(options_json, ctypes.byref(handle), ctypes.byref(error)))
        return code, handle.value, self._take(error)

    def free_analyzer(self, handle: int) -> None:
        self._free_analyzer(ctypes.c_void_p(handle))

    def analyze(
        self, handle: int, content: bytes, kind: bytes, locale: bytes
    ) -> Tuple[int, Optional[str]]:
        """scamcheck_analyze (the GIL is released while it runs): (code, JSON)."""
        out = _Pointer()
        code = int(
            self._analyze(
                ctypes.c_void_p(handle), content, len(content), kind, locale, ctypes.byref(out)
            )
        )
        return code, self._take(out)


def code_name(code: int) -> str:
    """The status name of a return value of the C API."""
    return CODE_NAMES[code] if 0 <= code < len(CODE_NAMES) else "internal"


_lock = threading.Lock()
_library: Optional[Library] = None


def load() -> Library:
    """The library, loaded on first use (thread-safe)."""
    global _library
    with _lock:
        if _library is None:
            _library = Library(find_library_path())
        return _library
