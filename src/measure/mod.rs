//! Measurement: edge stretch, weighted bone distance, body floor and pelvis lift (SPEC M, T10, G).
