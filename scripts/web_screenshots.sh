#!/usr/bin/env bash
# Regenerates the screenshots of scamcheckd's check page with a danger
# report (docs/screenshots/web-check-{en,de}.png) shown in the README:
# Debian's chromium, driven by playwright-core (tests/web/node_modules,
# installed by `npm ci` there), against a freshly started server. The
# actions' emoji need fonts-noto-color-emoji.
#
#   scripts/web_screenshots.sh [path/to/scamcheckd]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
binary=$(realpath "${1:-build/adapters/server/scamcheckd}")
chromium=${SCAMCHECK_CHROMIUM:-/usr/lib/chromium/chromium}
[[ -x $binary ]] || { echo "no scamcheckd at $binary (build it first)" >&2; exit 1; }
[[ -x $chromium ]] || { echo "no chromium at $chromium (apt-get install chromium)" >&2; exit 1; }
[[ -d tests/web/node_modules/playwright-core ]] || (cd tests/web && npm ci --no-audit --no-fund)
mkdir -p docs/screenshots
SCAMCHECKD=$binary SCAMCHECK_CHROMIUM=$chromium node tests/web/screenshots.mjs docs/screenshots
# 96-colour PNGs (ImageMagick): a tenth of the size, the text stays sharp.
if command -v convert >/dev/null; then
  for f in docs/screenshots/web-check-*.png; do
    convert "$f" -strip +dither -colors 96 "PNG8:$f"
  done
fi
ls -l docs/screenshots/web-check-*.png
