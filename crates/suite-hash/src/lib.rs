//! Hash suite (being written).
