"""``python -m shashki``: the command line."""

from shashki.cli import main

raise SystemExit(main())
