"""Moved to :mod:`shashki.protocols.hub_client` (this path works, with a DeprecationWarning, until
the next release)."""

from shashki._moved import moved

moved(__name__, "shashki.protocols.hub_client")
