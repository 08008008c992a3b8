//! A part read across its own major axis (`axial_tube`): a tube of known
//! radius and length, and bands too sparse to measure a section.

use caudal::appendage::{axial_tube, SECTION_MIN_VERTICES};
use glam::Vec3;

/// Rings of `around` vertices of radius `radius`, every `step` along
/// `axis` (unit) over `length`, round the line through `start`.
fn tube(start: Vec3, axis: Vec3, radius: f32, length: f32, step: f32, around: usize) -> Vec<Vec3> {
    let side = axis.any_orthonormal_vector();
    let up = axis.cross(side);
    let rings = (length / step).round() as usize + 1;
    (0..rings)
        .flat_map(|i| {
            let centre = start + axis * (i as f32 * step);
            (0..around).map(move |k| {
                let a = k as f32 * std::f32::consts::TAU / around as f32;
                centre + (side * a.cos() + up * a.sin()) * radius
            })
        })
        .collect()
}

#[test]
fn a_slanted_tube_reads_its_length_over_its_diameter_across_its_axis() {
    let axis = Vec3::new(0.3, -0.8, -0.5).normalize();
    let (radius, length) = (0.1f32, 1.0f32);
    let points = tube(Vec3::new(0.2, 1.1, -0.4), axis, radius, length, 0.025, 12);
    let axial = axial_tube(&points).expect("a tube of 41 rings has sections");
    // Each of the eight bands spans 1/8 of the length: its skin lies at
    // most sqrt(r^2 + (L/16)^2) from its centroid, at least r.
    let far = (radius * radius + (length / 16.0).powi(2)).sqrt();
    assert!(axial.width >= 2.0 * radius - 1e-4 && axial.width <= 2.0 * far + 1e-4, "{axial:?}");
    assert!(axial.ratio >= length / (2.0 * far) - 1e-3, "{axial:?}");
    assert!(axial.ratio <= length / (2.0 * radius) + 1e-3, "{axial:?}");
}

#[test]
fn bands_too_sparse_for_a_ring_measure_no_section() {
    // Two vertices in each band along a line: no band holds a ring
    // (SECTION_MIN_VERTICES), so nothing is measured, where bands of two
    // read a thread of any width as a tube (ratio ~ length / pair spread).
    const { assert!(SECTION_MIN_VERTICES > 2) };
    let points: Vec<Vec3> = (0..16)
        .map(|i| Vec3::new(i as f32 * 0.1, if i % 2 == 0 { 0.05 } else { -0.05 }, 0.0))
        .collect();
    assert!(axial_tube(&points).is_none());
    // Three per band are rings enough.
    let thicker: Vec<Vec3> = (0..24)
        .map(|i| {
            Vec3::new((i / 3) as f32 * 0.2, [0.0, 0.05, -0.05][i % 3], [0.05, -0.03, -0.03][i % 3])
        })
        .collect();
    assert!(axial_tube(&thicker).is_some());
}
