//! Reports (being written).
