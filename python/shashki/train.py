"""Moved to :mod:`shashki.learn.train` (this path, and ``python -m shashki.train``, work
with a DeprecationWarning until the next release)."""

if __name__ == "__main__":
    import runpy
    import warnings

    warnings.warn(
        "python -m shashki.train has moved to python -m shashki.learn.train; the old path "
        "works until the next release",
        DeprecationWarning,
        stacklevel=1,
    )
    runpy.run_module("shashki.learn.train", run_name="__main__", alter_sys=True)
else:
    from shashki._moved import moved

    moved(__name__, "shashki.learn.train")
