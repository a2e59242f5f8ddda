"""Request body parsers: DRF's JSON parser, with a nesting too deep for Python a 400.

json.loads raises RecursionError (not ValueError) on a body like `[[[[...]]]]` a few
hundred levels deep, and DRF only turns ValueError into a ParseError: every JSON endpoint,
anonymous ones included, answered 500.
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError

TOO_DEEP = "JSON parse error - the document is nested too deeply"


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
