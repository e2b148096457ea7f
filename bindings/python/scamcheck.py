"""ScamCheck for Python: the C API (libscamcheck_c.so.1) through ctypes.

    import scamcheck
    analyzer = scamcheck.Analyzer()                 # or Analyzer(use_model=False, data_dir=...)
    report = analyzer.analyze("Your parcel is on hold ...")          # a dict (CONTRACT §1)
    report = analyzer.analyze(raw_bytes, kind="email", locale="de")
    print(report["verdict"], [s["evidence"] for s in report["signals"]])

Errors raise scamcheck.Error with .code ("invalid_argument", "out_of_range",
...) and the library's message. An Analyzer is safe to share between threads.
The library is found via SCAMCHECK_C_LIBRARY (a path), else by its name.
"""
import ctypes
import json
import os

__all__ = ["Analyzer", "Error"]


class Error(Exception):
    """An error of the library: .code is its name, the message says why."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _load():
    lib = ctypes.CDLL(os.environ.get("SCAMCHECK_C_LIBRARY", "libscamcheck_c.so.1"))
    lib.scamcheck_version.restype = ctypes.c_char_p
    lib.scamcheck_version.argtypes = []
    lib.scamcheck_analyzer_create.restype = ctypes.c_int
    lib.scamcheck_analyzer_create.argtypes = [
        ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
    lib.scamcheck_analyzer_free.restype = None
    lib.scamcheck_analyzer_free.argtypes = [ctypes.c_void_p]
    lib.scamcheck_analyze.restype = ctypes.c_int
    lib.scamcheck_analyze.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_void_p)]
    lib.scamcheck_free.restype = None
    lib.scamcheck_free.argtypes = [ctypes.c_void_p]
    return lib


_lib = None


def _library():
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def _take(lib, pointer):
    """The JSON string the library returned, decoded, and freed."""
    if not pointer.value:
        raise MemoryError("scamcheck: out of memory")
    try:
        return json.loads(ctypes.string_at(pointer.value).decode("utf-8"))
    finally:
        lib.scamcheck_free(pointer)


def version():
    return _library().scamcheck_version().decode()


class Analyzer:
    """Loads the data pack once; analyze() may then be called many times."""

    def __init__(self, **options):
        lib = _library()
        handle, error = ctypes.c_void_p(), ctypes.c_void_p()
        encoded = json.dumps(options).encode() if options else None
        if lib.scamcheck_analyzer_create(encoded, ctypes.byref(handle), ctypes.byref(error)) != 0:
            raise Error(**_take(lib, error)["error"])
        self._lib, self._handle = lib, handle

    def analyze(self, content, kind="text", locale="en"):
        """The Report of `content` (str, or bytes for e-mail, images, documents) as a dict."""
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        out = ctypes.c_void_p()
        code = self._lib.scamcheck_analyze(self._handle, data, len(data), kind.encode(),
                                           locale.encode(), ctypes.byref(out))
        result = _take(self._lib, out)
        if code != 0:
            raise Error(**result["error"])
        return result

    def close(self):
        if self._handle:
            self._lib.scamcheck_analyzer_free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
