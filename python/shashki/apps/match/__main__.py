"""``python -m shashki.match``."""

from shashki.apps.match.cli import main

raise SystemExit(main())
