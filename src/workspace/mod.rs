//! The file system layer: roots, path confinement, reading, atomic writes, locks.
