#!/usr/bin/env bash
# Installs every Debian 12 package ScamCheck needs to build, test and run.
# Idempotent: packages already present are left alone. Run as root.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git ca-certificates python3 clang-format
  clang libclang-rt-14-dev          # libFuzzer and sanitizer runtimes
  # core library
  libre2-dev libsimdjson-dev rapidjson-dev libutf8proc-dev libicu-dev
  libcurl4-openssl-dev libpsl-dev libidn2-dev publicsuffix
  libfmt-dev
  libgmime-3.0-dev libgumbo-dev     # email: MIME decoding, HTML parsing
  libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-deu   # images: OCR
  libzxing-dev                      # QR codes
  libpoppler-cpp-dev libzip-dev libpugixml-dev   # documents: PDF, DOCX
  # documents: a PDF's text read with poppler's core and an output device of
  # our own (decode/pdf_text.*): its headers (the library is libpoppler-dev's)
  libpoppler-private-dev
  # adapters
  libcli11-dev libspdlog-dev
  libboost-dev libsqlite3-dev libsodium-dev   # scamcheckd: Beast/Asio, storage, crypto
  libjemalloc-dev                   # scamcheckd: its allocator (many small allocations per request)
  # scamcheckd: stored reports compressed with a dictionary (adapters/server/storage/report_codec.h);
  # zstd trains the dictionary (adapters/server/tools/make_report_dictionary.sh)
  libzstd-dev zstd
  # scamcheckd web interface: templates with auto-escaping (adapters/server/web)
  libctemplate-dev
  fonts-noto-color-emoji            # its screenshots (scripts/web_screenshots.sh): the actions' emoji
  # scamcheckd on PostgreSQL (several instances): the client library, and the
  # server and load balancer its tests (label postgresql) start
  libpq-dev postgresql-15 haproxy
  # tests and benchmarks
  doctest-dev libbenchmark-dev
  python3-jsonschema                # tests/data/check_schemas.py: data files against their schemas
  tesseract-ocr imagemagick qrencode fonts-dejavu-core time   # test images, OCR benchmark
  gnuplot-nox                       # scamcheck-eval --plots: ROC and precision-recall PNGs
  wrk                               # server benchmark (benchmarks/server)
  # Python package (bindings/python): installed offline in a venv and tested
  python3-venv                      # python -m venv --system-site-packages
  python3-pip                       # pip install --no-build-isolation --no-index ./bindings/python
  python3-setuptools                # the package's build backend (pyproject.toml)
  python3-wheel                     # setuptools builds the wheel pip installs
  python3-pytest                    # tests/bindings/python
  mypy                              # mypy --strict on the package and its tests
  # browser extension + native host (tests/browser, label browser)
  chromium                          # the browser the extension test drives (playwright-core)
  chromium-l10n                     # its UI languages: the German run needs chrome.i18n in de
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "install-deps: all ${#packages[@]} packages present"
