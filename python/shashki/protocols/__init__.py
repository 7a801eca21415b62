"""The engine protocols: the Hub (:mod:`shashki.protocols.hub`, Scan's protocol, as a
server on stdin/stdout; :mod:`shashki.protocols.hub_client`, other Hub engines driven from
Python) and DXP (:mod:`shashki.protocols.dxp`, engine matches over TCP). They depend on the
library (``Board``, ``Engine``); the library never depends on them."""
