//! Store (being written).
