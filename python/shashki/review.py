"""Moved to :mod:`shashki.apps.review` (this path works, with a DeprecationWarning, until the
next release)."""

from shashki._moved import moved

moved(__name__, "shashki.apps.review")
