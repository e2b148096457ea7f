"""The install prefix of the C library, recorded when the package is built.

`SCAMCHECK_PREFIX=/opt/scamcheck pip install ./bindings/python` writes that
prefix here (see setup.py); a plain install leaves None, and the library is
looked up under sys.prefix, /usr/local and /usr instead.
"""

from __future__ import annotations

from typing import Optional

PREFIX: Optional[str] = None
