//! Python bindings (filled in below).
