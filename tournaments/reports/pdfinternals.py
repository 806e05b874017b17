"""The two reportlab internals the printed reports rely on, in one small class.

reportlab has no public way to do either, and both matter for speed on long reports:

- ``document(canv)``: the canvas's PDF document (``canv._doc``). A ``Grid`` writes its
  rows as raw PDF text, and a TrueType font's subsets belong to the document
  (``TTFont.splitString(text, doc)``, ``TTFont.getSubsetInternalName(subset, doc)``,
  reportlab's documented way to encode text in such a font); reportlab's own platypus
  reaches the document the same way.
- ``binary_page_streams()``: page streams compressed but not ASCII85-encoded while a
  PDF is saved. reportlab reads the switch (``rl_config.useA85``) from its global
  configuration when it writes the file, and offers no per-document setting; ASCII85
  makes the file a quarter bigger and, without reportlab's optional C accelerator, its
  pure-Python encoder was the slowest step of a long report (~40% of the travellers of
  a 1,000-table event). So it is turned off only around a save, one save at a time,
  and put back as it was.

``tests/reports/test_pdf_internals.py`` checks that reportlab still has and honours
both, so an upgrade that changes them fails there, by name, and not in a print job.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reportlab import rl_config
from reportlab.pdfgen import canvas


class ReportlabInternals:
    """The only code that touches reportlab's private parts (see the module's docstring)."""

    _streams = threading.Lock()

    @staticmethod
    def document(canv: canvas.Canvas) -> Any:
        """The PDF document `canv` writes into (its font subsets are per document)."""
        return canv._doc

    @classmethod
    @contextmanager
    def binary_page_streams(cls) -> Iterator[None]:
        """Within: a saved PDF's page streams are Flate-compressed, not ASCII85-encoded."""
        with cls._streams:
            before = rl_config.useA85
            rl_config.useA85 = 0
            try:
                yield
            finally:
                rl_config.useA85 = before
