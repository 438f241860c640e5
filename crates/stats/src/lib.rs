//! Pure statistics (placeholder until written).
