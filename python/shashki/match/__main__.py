"""``python -m shashki.match``."""

from shashki.match.cli import main

raise SystemExit(main())
