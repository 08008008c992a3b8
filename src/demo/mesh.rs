use glam::Vec3;

/// A closed tube (capped ends) along a polyline: positions, triangles and,
/// per vertex, the arc-length share `u` in [0, 1] and the segment index.
pub struct Tube {
    pub positions: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub u: Vec<f32>,
}

const AROUND: usize = 12;

pub fn tube(line: &[Vec3], radius: impl Fn(f32) -> f32, rings_per_segment: usize) -> Tube {
    let lengths: Vec<f32> = line.windows(2).map(|w| (w[1] - w[0]).length()).collect();
    let total: f32 = lengths.iter().sum();
    let mut centres = Vec::new();
    let mut us = Vec::new();
    let mut acc = 0.0;
    for (s, w) in line.windows(2).enumerate() {
        let last = s == lengths.len() - 1;
        let steps = rings_per_segment + usize::from(last);
        for k in 0..steps {
            let t = k as f32 / rings_per_segment as f32;
            centres.push(w[0].lerp(w[1], t));
            us.push((acc + t * lengths[s]) / total);
        }
        acc += lengths[s];
    }
    let mut positions = Vec::new();
    let mut u = Vec::new();
    let mut triangles = Vec::new();
    for (i, c) in centres.iter().enumerate() {
        let tangent = if i + 1 < centres.len() { centres[i + 1] - *c } else { *c - centres[i - 1] }
            .normalize();
        let side = if tangent.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
        let n1 = tangent.cross(side).normalize();
        let n2 = tangent.cross(n1);
        let r = radius(us[i]);
        for a in 0..AROUND {
            let ang = a as f32 / AROUND as f32 * std::f32::consts::TAU;
            positions.push(*c + r * (ang.cos() * n1 + ang.sin() * n2));
            u.push(us[i]);
        }
    }
    let rings = centres.len();
    for i in 0..rings - 1 {
        for a in 0..AROUND {
            let b = (a + 1) % AROUND;
            let (p, q, r, s) = (
                (i * AROUND + a) as u32,
                (i * AROUND + b) as u32,
                ((i + 1) * AROUND + a) as u32,
                ((i + 1) * AROUND + b) as u32,
            );
            triangles.push([p, r, q]);
            triangles.push([q, r, s]);
        }
    }
    // Caps
    for (ring, centre, flip, uu) in
        [(0, centres[0], true, 0.0), (rings - 1, centres[rings - 1], false, 1.0)]
    {
        let ci = positions.len() as u32;
        positions.push(centre);
        u.push(uu);
        for a in 0..AROUND {
            let (p, q) = ((ring * AROUND + a) as u32, (ring * AROUND + (a + 1) % AROUND) as u32);
            triangles.push(if flip { [ci, q, p] } else { [ci, p, q] });
        }
    }
    Tube { positions, triangles, u }
}
