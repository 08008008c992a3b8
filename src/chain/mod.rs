//! Fixes: rigid binding (T7) and chain growth with geodesic weights (T8, T9).
