"""Records the install prefix of libscamcheck_c in the built package.

`SCAMCHECK_PREFIX=<prefix> pip install --no-build-isolation ./bindings/python`
makes the package look for the library under <prefix> first (the prefix
given to `cmake --install`). Everything else is in pyproject.toml.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyRecordingPrefix(build_py):
    def run(self) -> None:
        super().run()
        prefix = os.environ.get("SCAMCHECK_PREFIX")
        if prefix:
            target = os.path.join(self.build_lib, "scamcheck", "_prefix.py")
            with open(target, "w", encoding="utf-8") as out:
                out.write(
                    '"""The install prefix of libscamcheck_c, recorded at build time."""\n\n'
                    "from typing import Optional\n\n"
                    f"PREFIX: Optional[str] = {os.path.abspath(prefix)!r}\n"
                )


setup(cmdclass={"build_py": BuildPyRecordingPrefix})
