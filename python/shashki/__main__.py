"""``python -m shashki``: the command line."""

from shashki.apps.cli import main

raise SystemExit(main())
