#!/usr/bin/env python3
"""Every locale catalog has every key of its English catalog.

- libscamcheck/data/locales/<locale>.json: every key of en.json (nested keys
  included), and glossary.json has a title and explanation for every signal
  in every one of these locales.
- adapters/server/data/locales/<locale>.json: every key of en.json.
- adapters/common/data/mcp_<locale>.json: every key of mcp_en.json except
  the texts for AI agents (tool., arg., prompt.*.description, resource.,
  server.), which are read in English only.
Exit status 1 and one line per missing key when a catalog falls short.
"""
import glob
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
AGENT_PREFIXES = ("tool.", "arg.", "resource.", "server.")


def flat_keys(value, prefix=""):
    keys = set()
    for key, item in value.items():
        if isinstance(item, dict):
            keys |= flat_keys(item, prefix + key + ".")
        else:
            keys.add(prefix + key)
    return keys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_dir(pattern, en_name, skip=lambda key: False):
    problems = []
    paths = sorted(glob.glob(os.path.join(ROOT, pattern)))
    en_path = [p for p in paths if os.path.basename(p) == en_name]
    if not en_path:
        return [f"{pattern}: no {en_name}"], []
    en = flat_keys(load(en_path[0])) - {"description", "locale", "version"}
    locales = []
    for path in paths:
        data = load(path)
        locales.append(data.get("locale", ""))
        missing = sorted(k for k in en - flat_keys(data) if not skip(k))
        rel = os.path.relpath(path, ROOT)
        problems += [f"{rel}: missing key {k}" for k in missing]
    return problems, locales


def main():
    problems, locales = check_dir("libscamcheck/data/locales/*.json", "en.json")
    for signal in load(os.path.join(ROOT, "libscamcheck/data/glossary.json"))["signals"]:
        for locale in locales:
            texts = signal["texts"].get(locale, {})
            for field in ("title", "explanation"):
                if not texts.get(field, "").strip():
                    problems.append(f"glossary.json: {signal['key']} has no {locale} {field}")
    server, _ = check_dir("adapters/server/data/locales/*.json", "en.json")
    mcp, _ = check_dir(
        "adapters/common/data/mcp_*.json", "mcp_en.json",
        skip=lambda k: k.startswith(tuple("messages." + p for p in AGENT_PREFIXES))
        or (k.startswith("messages.prompt.") and k.endswith(".description")))
    problems += server + mcp
    for line in problems:
        print(line)
    print(f"{len(locales)} report locales ({', '.join(locales)}); {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
