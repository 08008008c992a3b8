//! The built-in procedural creature: a Mixamo-named biped whose long tail is skinned to the legs, as a template rigger leaves it.
