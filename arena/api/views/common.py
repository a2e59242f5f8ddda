"""What several resources' views share: checked query filters and strict page sizes."""

from __future__ import annotations

from arena.errors import (
    InvalidInput,
)


def query_filters(request, serializer_class) -> dict:
    """The list filters in the query string, checked (a bad one is a 400 naming it)."""
    filters = serializer_class(data=request.query_params)
    filters.is_valid(raise_exception=True)
    return filters.validated_data


class StrictPageSize:
    """`page_size` must be a whole number from 1 to max_page_size: anything else is a 400.

    DRF's paginators fall back to the default page size for a value they cannot read, so a
    client's mistake (`page_size=null`, `page_size=0`) went unnoticed.
    """

    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise InvalidInput(
                f"page_size must be a whole number from 1 to {self.max_page_size}",
                field="page_size",
            )
        return int(raw)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.max_page_size,
                }
        return parameters
