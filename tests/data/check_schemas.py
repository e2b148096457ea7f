#!/usr/bin/env python3
"""Validates every data file against its JSON Schema (draft 2020-12).

The table is tests/data/schemas.txt: one "<glob> <schema file>" per line.
Exits non-zero, naming each file and the broken rule, if any file breaks
its schema, if a glob matches no file or if a schema is itself invalid.
Needs python3-jsonschema (scripts/install-deps.sh installs it).
"""
import glob
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def table():
    with open(os.path.join(HERE, "schemas.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                pattern, schema = line.split()
                yield pattern, schema


def main():
    problems = []
    checked = 0
    for pattern, schema_name in table():
        schema = read_json(os.path.join(ROOT, schema_name))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        files = sorted(glob.glob(os.path.join(ROOT, pattern)))
        if not files:
            problems.append(f"{pattern}: no file matches")
        for path in files:
            checked += 1
            rel = os.path.relpath(path, ROOT)
            for error in sorted(validator.iter_errors(read_json(path)), key=str):
                where = "/".join(str(p) for p in error.absolute_path) or "(top)"
                problems.append(f"{rel}: {where}: {error.message}")
    for p in problems:
        print(p)
    print(f"{checked} data files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
