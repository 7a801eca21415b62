"""The applications built on the library: the command line (:mod:`shashki.apps.cli`,
``shashki``), the web board (:mod:`shashki.apps.web`, ``shashki serve``), the match runner
(:mod:`shashki.apps.match`, ``python -m shashki.match``), game review
(:mod:`shashki.apps.review`) and terminal play (:mod:`shashki.apps.play`). They may import
every other layer; nothing imports them."""
