"""Tests of the scamcheck Python package, installed in a venv, against the
libscamcheck_c of the build (SCAMCHECK_C_LIBRARY). Run by CTest, one case per
test (tests/bindings/CMakeLists.txt lists them); by hand:

    SCAMCHECK_C_LIBRARY=build/bindings/c/libscamcheck_c.so python3 -m pytest tests/bindings/python
"""

from __future__ import annotations

import gc
import os
import pathlib
import subprocess
import sys
import sysconfig
import threading
from typing import List, Optional, Tuple, Type, Union

import pytest

import scamcheck
from scamcheck import _native

ROOT = pathlib.Path(__file__).resolve().parents[3]
IMAGE = ROOT / "tests" / "mcp" / "fixtures" / "qr_phishing_url.png"
PDF = ROOT / "tests" / "fuzz" / "corpus" / "file" / "text_layer.pdf"
DOCX = ROOT / "tests" / "fuzz" / "corpus" / "file" / "letter.docx"
EMAIL = ROOT / "tests" / "fixtures" / "email" / "scam" / "de_dhl_zollgebuehr_dmarc_fail.eml"

SCAM = (
    "Your parcel is on hold at the depot. Pay the 1.99 EUR customs fee today at "
    "https://dhl-track.example.top/pay or it goes back to the sender."
)
# Non-ASCII before the evidence: UTF-8 byte offsets and str indices differ.
SCAM_DE = (
    "Ihr Paket wird zurückgehalten. Zahlen Sie die Zollgebühr von 1,99 € unter "
    "https://dhl-zoll.example.top/bezahlen"
)
BENIGN = "See you at 7 at the station, I will bring the tickets."


@pytest.fixture(scope="module")
def analyzer() -> scamcheck.Analyzer:
    return scamcheck.Analyzer()


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a fresh interpreter of this venv with `env` added."""
    environment = dict(os.environ)
    environment.update(env)
    for name, value in env.items():
        if value == "":
            del environment[name]
    return subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_scam_text_is_danger_with_evidence_at_its_span(analyzer: scamcheck.Analyzer) -> None:
    report = analyzer.analyze(SCAM)
    assert report.verdict is scamcheck.Verdict.DANGER
    assert report.kind is scamcheck.Kind.TEXT and report.locale == "en"
    assert report.risk_score >= 70 and report.signals and report.actions
    assert [u.host for u in report.urls] == ["dhl-track.example.top"]
    for signal in report.signals:
        assert signal.location == "content"
        assert isinstance(signal.severity, scamcheck.Severity)
        # Spans are byte offsets into the UTF-8 content (as in every surface).
        assert SCAM.encode()[signal.span.start : signal.span.end].decode() == signal.evidence
        assert signal.span.slice(SCAM) == signal.evidence
        assert signal.explanation


def test_span_is_utf8_bytes_and_char_range_is_str_indices(analyzer: scamcheck.Analyzer) -> None:
    report = analyzer.analyze(SCAM_DE, locale="de")
    assert report.verdict is scamcheck.Verdict.DANGER and report.locale == "de"
    data = SCAM_DE.encode("utf-8")
    moved = 0
    for signal in report.signals:
        span = signal.span
        assert data[span.start : span.end] == signal.evidence.encode("utf-8")
        assert span.slice(data) == signal.evidence.encode("utf-8")
        assert span.slice(SCAM_DE) == signal.evidence
        start, end = span.char_range(SCAM_DE)
        assert SCAM_DE[start:end] == signal.evidence
        moved += start != span.start
    assert moved, "some evidence comes after an umlaut, where bytes and characters differ"


def test_benign_text_is_safe(analyzer: scamcheck.Analyzer) -> None:
    report = analyzer.analyze(BENIGN)
    assert report.verdict is scamcheck.Verdict.SAFE
    assert report.risk_score < 30


def test_bad_input_raises_with_code(analyzer: scamcheck.Analyzer) -> None:
    cases: List[Tuple[Union[str, bytes], str, Type[scamcheck.ScamCheckError], Optional[str]]] = [
        ("", "text", scamcheck.InvalidArgumentError, "invalid_argument"),
        (b"", "email", scamcheck.InvalidArgumentError, "invalid_argument"),
        (b"caf\xe9 \xff\xfe", "text", scamcheck.InvalidArgumentError, "invalid_argument"),
        ("\ud800 lone surrogate", "text", scamcheck.InvalidArgumentError, "invalid_argument"),
        ("hi", "video", scamcheck.InvalidArgumentError, "invalid_argument"),
        ("a" * 65537, "text", scamcheck.OutOfRangeError, "out_of_range"),
        (b"\x89PNG\r\n\x1a\ntruncated", "image", scamcheck.ScamCheckError, None),
    ]
    for content, kind, cls, code in cases:
        with pytest.raises(cls) as caught:
            analyzer.analyze(content, kind=kind)
        error = caught.value
        assert isinstance(error, scamcheck.ScamCheckError)
        assert error.code == (code or error.code) and error.code != "ok"
        assert error.message and str(error).startswith(error.code + ": ")
    with pytest.raises(TypeError):
        analyzer.analyze("text, not the bytes of an image", kind="image")
    with pytest.raises(TypeError):
        analyzer.analyze(42)  # type: ignore[arg-type]
    with pytest.raises(scamcheck.InvalidArgumentError):
        analyzer.analyze("hi", locale="de\x00")
    # The analyzer still works after the errors.
    assert analyzer.analyze(SCAM).verdict is scamcheck.Verdict.DANGER


def test_email_bytes(analyzer: scamcheck.Analyzer) -> None:
    raw = EMAIL.read_bytes()
    report = analyzer.analyze(raw, kind=scamcheck.Kind.EMAIL, locale="de")
    assert report.kind is scamcheck.Kind.EMAIL
    assert report.verdict is scamcheck.Verdict.DANGER
    locations = {s.location for s in report.signals}
    assert "body" in locations and any(loc.startswith("header:") for loc in locations)
    # An 8-bit message that is not UTF-8 is fine as an e-mail.
    latin1 = (
        b"From: Bank <a@bank-secure.example.top>\r\nSubject: Konto\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\nBest\xe4tigen Sie\r\n"
    )
    assert analyzer.analyze(latin1, kind="email").kind is scamcheck.Kind.EMAIL


def test_url_kind_and_options(analyzer: scamcheck.Analyzer) -> None:
    report = analyzer.analyze("https://example.org/", kind="url")
    assert report.kind is scamcheck.Kind.URL
    assert report.verdict is scamcheck.Verdict.SAFE
    with scamcheck.Analyzer(use_model=False) as rules_only:
        assert rules_only.analyze(SCAM).verdict is scamcheck.Verdict.DANGER


def test_analyze_file_image(analyzer: scamcheck.Analyzer) -> None:
    assert scamcheck.sniff_kind(IMAGE.read_bytes()) is scamcheck.Kind.IMAGE
    report = analyzer.analyze_file(IMAGE)
    assert report.kind is scamcheck.Kind.IMAGE
    assert report.verdict is scamcheck.Verdict.DANGER
    assert report.extracted_text is not None
    assert "paypa1-login.example.top" in report.extracted_text
    for signal in report.signals:
        assert signal.location in ("ocr", "qr")
        assert signal.span.slice(report.extracted_text) == signal.evidence


def test_analyze_file_documents(analyzer: scamcheck.Analyzer, tmp_path: pathlib.Path) -> None:
    report = analyzer.analyze_file(PDF)
    assert report.kind is scamcheck.Kind.DOCUMENT
    assert report.extracted_text is not None and "http://a.example" in report.extracted_text
    report = analyzer.analyze_file(str(DOCX), locale="de")
    assert report.kind is scamcheck.Kind.DOCUMENT and report.locale == "de"
    assert report.extracted_text is not None and report.signals
    for signal in report.signals:
        assert signal.location == "document"
        assert signal.span.slice(report.extracted_text) == signal.evidence
    # No magic bytes: the extension decides, then text.
    mail = tmp_path / "message.eml"
    mail.write_bytes(EMAIL.read_bytes())
    assert analyzer.analyze_file(mail).kind is scamcheck.Kind.EMAIL
    note = tmp_path / "note"
    note.write_text(SCAM, encoding="utf-8")
    assert analyzer.analyze_file(note).kind is scamcheck.Kind.TEXT
    assert analyzer.analyze_file(note, kind="url").kind is scamcheck.Kind.URL
    with pytest.raises(FileNotFoundError):
        analyzer.analyze_file(tmp_path / "missing.png")
    # Over 10 MiB: out_of_range, without the whole file being read.
    huge = tmp_path / "huge.png"
    with open(huge, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.truncate(1 << 30)
    with pytest.raises(scamcheck.OutOfRangeError) as caught:
        analyzer.analyze_file(huge)
    assert caught.value.code == "out_of_range"


def test_threads_share_one_analyzer(analyzer: scamcheck.Analyzer) -> None:
    results: List[str] = []
    errors: List[BaseException] = []
    lock = threading.Lock()

    def work(index: int) -> None:
        try:
            for _ in range(10):
                if index % 2:
                    verdict = analyzer.analyze(SCAM).verdict.value
                else:
                    verdict = analyzer.analyze(BENIGN, locale="de").verdict.value
                with lock:
                    results.append(f"{index % 2}:{verdict}")
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert sorted(results) == ["0:safe"] * 40 + ["1:danger"] * 40


def test_close_and_context_manager() -> None:
    with scamcheck.Analyzer(use_model=False) as owned:
        assert not owned.closed
        # close() waits for calls in progress: start some, then close.
        done: List[str] = []
        threads = [
            threading.Thread(target=lambda: done.append(owned.analyze(SCAM).verdict.value))
            for _ in range(4)
        ]
        for thread in threads:
            thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert owned.closed
    owned.close()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        owned.analyze(SCAM)
    assert all(v == "danger" for v in done)


def test_construction_failure_raises_cleanly(tmp_path: pathlib.Path) -> None:
    with pytest.raises(scamcheck.NotFoundError) as caught:
        scamcheck.Analyzer(data_dir=tmp_path / "no-such-pack")
    assert caught.value.code == "not_found" and "no-such-pack" in caught.value.message
    # The half-made object is finalized without an AttributeError from __del__,
    # also at interpreter exit (which reports it on stderr).
    unraisable: List[object] = []
    previous = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        del caught
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert not unraisable
    # In a fresh interpreter, where Python reports an exception in __del__
    # on stderr ("Exception ignored in ...").
    result = run_python(
        "import scamcheck\n"
        "try:\n"
        "    scamcheck.Analyzer(data_dir='/nonexistent/pack')\n"
        "except scamcheck.ScamCheckError as error:\n"
        "    print(error.code)\n"
        "import gc; gc.collect()\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "not_found"
    assert result.stderr == ""


def test_library_not_found_message(tmp_path: pathlib.Path) -> None:
    # SCAMCHECK_C_LIBRARY naming a missing file: an error naming it, no fallback.
    result = run_python(
        "import scamcheck\n"
        "try:\n"
        "    scamcheck.Analyzer()\n"
        "except scamcheck.LibraryNotFoundError as error:\n"
        "    print(error.code); print(error)\n",
        SCAMCHECK_C_LIBRARY=str(tmp_path / "libscamcheck_c.so.1"),
    )
    assert result.returncode == 0, result.stderr
    code, message = result.stdout.split("\n", 1)
    assert code == "library_not_found"
    assert "SCAMCHECK_C_LIBRARY" in message and str(tmp_path) in message
    # Nothing anywhere: the message says how to point at the library.
    with pytest.raises(scamcheck.LibraryNotFoundError) as caught:
        _native.find_library_path(
            environ={}, prefixes=[str(tmp_path)], system_lookup=lambda name: None
        )
    message = str(caught.value)
    assert "SCAMCHECK_C_LIBRARY" in message and "cmake --install" in message
    assert str(tmp_path / "lib" / "libscamcheck_c.so.1") in message
    # A file that is not a shared library.
    bogus = tmp_path / "libscamcheck_c.so.1"
    bogus.write_text("not a library")
    with pytest.raises(scamcheck.LibraryNotFoundError, match="cannot load"):
        _native.Library(str(bogus))


def test_library_lookup_by_prefix(tmp_path: pathlib.Path) -> None:
    built = os.environ["SCAMCHECK_C_LIBRARY"]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    plain = tmp_path / "plain" / "lib" / "libscamcheck_c.so.1"
    plain.parent.mkdir(parents=True)
    plain.symlink_to(built)
    found = _native.find_library_path(
        environ={}, prefixes=[str(tmp_path / "none"), str(tmp_path / "plain")]
    )
    assert found == str(plain)
    if multiarch:
        arch = tmp_path / "plain" / "lib" / multiarch / "libscamcheck_c.so.1"
        arch.parent.mkdir(parents=True)
        arch.symlink_to(built)
        assert _native.find_library_path(environ={}, prefixes=[str(tmp_path / "plain")]) == str(
            arch
        )
    # The loader's cache comes last.
    assert (
        _native.find_library_path(
            environ={}, prefixes=[str(tmp_path / "none")], system_lookup=lambda n: built
        )
        == built
    )
    # The prefix recorded at install time (SCAMCHECK_PREFIX at pip install),
    # end to end: the CTest setup installed the C API there (cmake --install)
    # and the package with that prefix recorded.
    prefix = os.environ.get("SCAMCHECK_TEST_PREFIX")
    if prefix:
        result = run_python(
            "import scamcheck; print(scamcheck.library_path()); "
            "print(scamcheck.Analyzer().analyze('hello there').verdict.value)",
            SCAMCHECK_C_LIBRARY="",
        )
        assert result.returncode == 0, result.stderr
        path, verdict = result.stdout.split()
        assert path.startswith(prefix + os.sep) and verdict == "safe"


def test_package_is_typed_and_report_round_trips(analyzer: scamcheck.Analyzer) -> None:
    package = pathlib.Path(scamcheck.__file__).parent
    assert (package / "py.typed").is_file()
    assert scamcheck.version()
    report = analyzer.analyze(SCAM)
    again = scamcheck.Report.from_dict(report.to_dict())
    assert again == report
    with pytest.raises(scamcheck.InternalError):
        scamcheck.Report.from_json("{}")
