"""Moved to :mod:`shashki.apps.play` (this path works, with a DeprecationWarning, until the
next release)."""

from shashki._moved import moved

moved(__name__, "shashki.apps.play")
