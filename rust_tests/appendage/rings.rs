//! The tail's rings followed outward ([`caudal::appendage::off_the_rings`]):
//! a bent tube whose first piece is a sheet along one side of it holding
//! body skin beside the tube.

use caudal::appendage::off_the_rings;
use glam::Vec3;

/// Rings of `SIDES` vertices of radius 1 round a centre line that bends a
/// quarter turn over its length (`RINGS` rings one unit apart), with a flat
/// strip of body skin lying 2.5 to 4 radii off the line beside its last
/// half, at the same levels. Returns the positions, the tube's vertex ids
/// by ring, the strip's ids, and each vertex's geodesic level.
fn bent_tube_with_strip() -> (Vec<Vec3>, Vec<Vec<u32>>, Vec<u32>, Vec<f32>) {
    const RINGS: usize = 16;
    const SIDES: usize = 12;
    let bend = std::f32::consts::FRAC_PI_2;
    let arc = RINGS as f32;
    let (mut pos, mut level, mut rings, mut strip) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for k in 0..RINGS {
        // The centre line: an arc of length `arc` turning `bend` radians.
        let s = k as f32;
        let a = bend * s / arc;
        let r = arc / bend;
        let centre = Vec3::new(r * a.sin(), -r * (1.0 - a.cos()), 0.0);
        let along = Vec3::new(a.cos(), -a.sin(), 0.0);
        let side = Vec3::Z;
        let up = along.cross(side);
        let mut ring = Vec::new();
        for j in 0..SIDES {
            let t = std::f32::consts::TAU * j as f32 / SIDES as f32;
            ring.push(pos.len() as u32);
            pos.push(centre + t.cos() * up + t.sin() * side);
            level.push(s);
        }
        rings.push(ring);
        if k >= RINGS / 2 {
            for off in [2.5f32, 3.25, 4.0] {
                strip.push(pos.len() as u32);
                pos.push(centre + off * side);
                level.push(s);
            }
        }
    }
    (pos, rings, strip, level)
}

#[test]
fn a_sheet_beside_a_bent_tube_keeps_only_the_rings_skin() {
    let (pos, rings, strip, level) = bent_tube_with_strip();
    let welded: Vec<u32> = (0..pos.len() as u32).collect();
    // The root ring is the first ring; the first piece is the side of the
    // tube towards the strip (sides 1..=5 of 12) and the strip; the rest of
    // the tube was grown onto the part.
    let root = rings[0].clone();
    let mut first: Vec<u32> = rings[1..]
        .iter()
        .flat_map(|r| r[1..=5].iter().copied())
        .chain(strip.iter().copied())
        .collect();
    first.sort_unstable();
    let geodesic: Vec<f32> = level.iter().map(|&l| l + 0.5).collect();
    let off = off_the_rings(&pos, &welded, &geodesic, &first, &root);
    assert_eq!(off, strip, "only the strip beside the tube is off its rings");
}

#[test]
fn a_bent_tube_alone_keeps_all_its_skin() {
    let (pos, rings, _, level) = bent_tube_with_strip();
    let tube: Vec<u32> = rings.iter().flatten().copied().collect();
    let geodesic: Vec<f32> = tube.iter().map(|&v| level[v as usize] + 0.5).collect();
    // The whole tube as first piece: a quarter turn does not carry the
    // rings off their own skin.
    let off = off_the_rings(&pos, &tube, &geodesic, &tube, &rings[0]);
    assert!(off.is_empty(), "a bent tube's rings cover it: {off:?}");
}
