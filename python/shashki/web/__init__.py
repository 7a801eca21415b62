"""Moved to :mod:`shashki.apps.web` (this path and its modules work, with a
DeprecationWarning, until the next release)."""

from shashki._moved import moved

moved(__name__, "shashki.apps.web", package=True)
