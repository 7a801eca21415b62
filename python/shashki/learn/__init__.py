"""For people training models: the batch API (:mod:`shashki.learn.batch`: many games
stepped together in Rust, action masks, observation planes, playouts, search labels), the
gymnasium and PettingZoo environments (:mod:`shashki.learn.rl`), the networks
(:mod:`shashki.learn.network`) and the training commands (:mod:`shashki.learn.train`,
``python -m shashki.learn.train``). They depend on the library; the library never depends
on them. Nothing here is imported by ``import shashki``."""
