#!/usr/bin/env python
"""Django's command-line utility for Moon Arena."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A bad or missing setting is the operator's input: say which, not a traceback.
        sys.stderr.write(f"configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
