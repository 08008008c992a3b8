//! Root extension: the far threshold cuts a tail where its skin comes within
//! 0.07 H of a bone, which on a short or thick tail is well up the tail
//! (the Alpaca loses half of it). The tail continues towards the body as a
//! tube; this follows that tube back from the collar along the tail's axis
//! and stops where the surface flares out into the body (wider than the
//! tube) or after a bounded depth. [`follow_tube`] then walks the tube
//! back over the surface, ring by ring, however it bends, to where it
//! opens onto the body.

use glam::Vec3;

use crate::appendage::params::MIN_PART_VERTICES;
use crate::geometry::{geodesic_from, geodesic_within, points_ring_radius, ring_radius, MeshGraph};

/// Share of the tail length (from the collar) whose skin gives the axis
/// direction at the root.
pub const ROOT_BAND: f32 = 0.3;
/// A vertex is still tube while its distance from the axis is at most this
/// factor of the collar's radius (the cross-section where the threshold
/// cut). That radius is the ring's median distance from its centre (as the
/// tube walk and the hand-over measure a ring), not its farthest vertex
/// from the axis: where the far cut crosses a thick, hanging or curled tail
/// aslant, or a ragged ring, its farthest vertex already lies on the rump,
/// and a cylinder that wide took the ring of body skin round the root and
/// a radius of rump behind it (corpus seeds 0..200: eight of the nine
/// precision failures, 0.916 to 0.948; the truth's collar ring was 195 of
/// the extra vertices).
pub const ROOT_RADIUS_SLACK: f32 = 1.0;
/// How far behind the collar, in root radii, the tube is followed. One full
/// radius: at 0.75 the Alpaca's underside ring stays on the legs and the
/// grown chain tears 23% of the tail's edges on Walk (0% at 1.0); at 0.5
/// recall falls to 0.86. A full radius also reaches three welded vertices
/// of rump skin (precision 0.91); where the rigger's weights show a tail
/// pattern they keep those on the body (`super::rigger_root`: the three
/// are mostly on the pelvis, the underside ring mostly on the legs).
pub const ROOT_DEPTH: f32 = 1.0;

/// A vertex behind the collar is the tube's wall only while its surface
/// faces away from the axis: the cosine between its normal (the normal of
/// the plane through it and its neighbours) and the axis is at most this.
/// A wall's normal is square to the axis, the body a tail opens onto faces
/// along it; this is half way (45 degrees). The cylinder alone
/// ([`ROOT_RADIUS_SLACK`]) takes the body skin round a thick tail's root
/// that lies within a radius of the axis: traced at stop 51, of the
/// truth's collar-ring vertices (the first ring of body skin) held by the
/// 116 look-window characters failing precision at 0.90 or more, this
/// extension had taken 662, the tube walks 161, the ring's low side 103.
/// Read on parts with at least `MIN_PART_VERTICES` interior vertices only:
/// a low-poly part's neighbour planes span a ring or two of the tube and
/// say nothing of its wall (the Alpaca fixture's 17-vertex tail lost its
/// underside ring and its chain's joints fell out of order when they were
/// read). Measured at stop 51 against the look windows: 68 seeds gained, 1
/// lost (47481), precision failures 135 -> 73; never used: 28 gained, 6 lost.
pub const WALL_FACING: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Whether the surface at `v` faces along `axis` (see [`WALL_FACING`]):
/// the normal of the best plane through `v` and its neighbours, read
/// without its sign. A vertex with fewer than two neighbours has no plane
/// and does not.
fn faces_along_axis(graph: &MeshGraph, positions: &[Vec3], v: u32, axis: Vec3) -> bool {
    let ring = graph.neighbors_of(v as usize);
    if ring.len() < 2 {
        return false;
    }
    // Called for every vertex the flood reaches: read in place, no list.
    let points = || ring.iter().chain(std::iter::once(&v)).map(|&w| positions[w as usize]);
    let c = points().fold(Vec3::ZERO, |a, p| a + p) / (ring.len() + 1) as f32;
    let mut m = nalgebra::Matrix3::<f32>::zeros();
    for p in points() {
        let d = nalgebra::Vector3::new(p.x - c.x, p.y - c.y, p.z - c.z);
        m += d * d.transpose();
    }
    let e = nalgebra::SymmetricEigen::new(m);
    let k = e.eigenvalues.imin();
    let n = e.eigenvectors.column(k);
    Vec3::new(n[0], n[1], n[2]).normalize_or_zero().dot(axis).abs() > WALL_FACING
}

/// How many of `welded` (sorted) have every neighbour in it: the part's
/// interior, away from its rim.
pub fn interior_count(graph: &MeshGraph, welded: &[u32]) -> usize {
    welded
        .iter()
        .filter(|&&v| {
            graph.neighbors_of(v as usize).iter().all(|w| welded.binary_search(w).is_ok())
        })
        .count()
}

/// Extra welded vertices that continue the tube of a part towards the body.
/// `taken[v]` marks vertices that may not be claimed (other parts); only
/// vertices passing `keep` are followed (the rigger's weights, see
/// [`super::rigger_root`]).
#[allow(clippy::too_many_arguments)]
pub fn extend_root(
    graph: &MeshGraph,
    positions: &[Vec3],
    welded: &[u32],
    collar: &[u32],
    geodesic: &[f32],
    length: f32,
    taken: &[bool],
    keep: &dyn Fn(u32) -> bool,
) -> Vec<u32> {
    if collar.is_empty() || welded.is_empty() || length.is_nan() || length <= 0.0 {
        return Vec::new();
    }
    let mean = |it: &mut dyn Iterator<Item = Vec3>| {
        let (mut acc, mut n) = (glam::DVec3::ZERO, 0usize);
        for p in it {
            acc += p.as_dvec3();
            n += 1;
        }
        (n > 0).then(|| (acc / n as f64).as_vec3())
    };
    let j0 = mean(&mut collar.iter().map(|&v| positions[v as usize])).unwrap();
    let band: Vec<Vec3> = welded
        .iter()
        .zip(geodesic)
        .filter(|(_, &g)| g <= ROOT_BAND * length)
        .map(|(&v, _)| positions[v as usize])
        .collect();
    let Some(c1) = mean(&mut band.iter().copied()) else { return Vec::new() };
    let axis = (j0 - c1).normalize_or_zero();
    if axis == Vec3::ZERO {
        return Vec::new();
    }
    let perp = |p: Vec3| {
        let d = p - j0;
        (d - axis * d.dot(axis)).length()
    };
    // Root cross-section: the collar, where the far threshold cut the tube.
    let reach = collar.iter().map(|&v| perp(positions[v as usize])).fold(0.0f32, f32::max);
    if reach.is_nan() || reach <= 0.0 {
        return Vec::new();
    }
    // The tube's own radius: the ring's median (its farthest vertex is where
    // a slanted or ragged cut strays onto the rump, see [`ROOT_RADIUS_SLACK`]),
    // never wider than the collar reaches from the axis.
    let radius = ring_radius(positions, collar).map_or(reach, |r| r.min(reach));
    let limit = ROOT_RADIUS_SLACK * radius;
    let depth = ROOT_DEPTH * radius;
    let in_part = |v: u32| welded.binary_search(&v).is_ok();
    let read_walls = interior_count(graph, welded) >= MIN_PART_VERTICES;
    let accept = |v: u32| {
        let p = positions[v as usize];
        !taken[v as usize]
            && !in_part(v)
            && perp(p) <= limit
            && (p - j0).dot(axis) <= depth
            && keep(v)
            && !(read_walls && faces_along_axis(graph, positions, v, axis))
    };
    graph.flood(collar.iter().copied(), accept)
}

/// Level step of [`follow_tube`], in radii of the tube: fine enough that a
/// ring is seen widening within a quarter of its radius.
pub const TUBE_STEP: f32 = 0.25;
/// The tube has met the body when its ring is this much wider than the
/// narrowest ring of the last [`TUBE_FLARE_WINDOW`] radii walked. Along a
/// tube the ring changes by its taper only (walking back to the root of a
/// tail that narrows to a third at its tip from a quarter of its length:
/// 1.25x); where the tube opens onto the body surface the front spreads
/// over it, its radius growing by about one tube radius per radius walked,
/// so 1.5x is half a radius of body skin past the root (the peel's neck,
/// 2x, allows a whole radius). A steeper taper (a thick tail walked back
/// from its tip end) passes 1.5x too; it is told from the body by its
/// front's pace ([`TUBE_TAPER_PACE`]).
pub const TUBE_JOIN_FLARE: f32 = 1.5;

/// How far back, in radii of the root ring, the rings a new ring is held
/// against reach: a flare is a widening within this length, not the taper
/// of the whole length walked. A long thin tail widens 1.6-6% per radius
/// walked back towards the body (corpus seeds 4, 26, 171), so against the
/// narrowest ring since the start its ring passed [`TUBE_JOIN_FLARE`] after
/// 8-25 radii of tube and the walk stopped there, short of the body; over
/// four radii that taper is 1.07-1.26x. The body's front passes 1.5x within
/// half a radius to two radii (a slanted or coarse join spreads slower).
/// Seeds 0..200: a window of one radius lost eight passing seeds, two let
/// a thick curled tail's slow join carry the walk onto the rump (seed 48:
/// precision 0.817); three and four lose none, six lets the curled tail's
/// taper (171) pass 1.5x again.
pub const TUBE_FLARE_WINDOW: f32 = 4.0;

/// How far, in radii of the root ring, a walk that reaches its length
/// bound (the part's length, or its tip's reach off the skeleton when
/// longer: see `grow_to_root` in detect/root_growth.rs) without a flare must have gone
/// for what it walked to be kept as tube: the body's front passes [`TUBE_JOIN_FLARE`]
/// within half a radius to two radii of the root, so a shorter walk could
/// not have told a tube from the body it spreads over. Corpus seeds
/// 0..200: the stubs of the false chains on 79, 111 and 189 reach out
/// 1.05-1.10 radii and, kept, took their length again of body skin (53 ->
/// 100, 75 -> 163, 55 -> 104 vertices; 111's tail recall 0.904 -> 0.869);
/// the tails kept whole reach out 2.95 radii (39) and more (4: 40).
pub const TUBE_SPREAD_RADII: f32 = 2.0;

/// The tube is kept up to the last ring at most this much wider than the
/// narrowest of the window ([`TUBE_FLARE_WINDOW`]): a tail's taper over
/// the length walked back stays within it (1.25x, see
/// [`TUBE_JOIN_FLARE`]), and the front spreading over the body
/// passes it after a quarter radius of body skin, not the half radius it
/// takes to be told from a taper.
pub const TUBE_TAPER_SLACK: f32 = 1.25;

/// Where the rigger's weights stop the walk back ([`follow_tube`] over skin
/// they read as tail) more than this many tube radii short of where the
/// tube's own shape opens onto the body (the walk over that skin and any
/// far skin: no bone is near it for the rigger's choice to mean anything),
/// the rigger changed bones along the tube, and the shape decides. A
/// nearest-bone or leg rigger gives a long hanging tail's far part to a
/// shin and its near part to the thigh, pelvis or spine it passes: read as
/// the root, that change left the first third of the tail on the body
/// (corpus seeds 0..200: 8 of the 28 recall failures, the largest cause;
/// 3 pass with this, 3 more then stop on a coarse tail's half-walked
/// ring). Near the body the weights still decide (they exist to
/// place the root where the shape cannot): the flare the walk stops at
/// takes up to a quarter radius of body skin ([`TUBE_TAPER_SLACK`]) and a
/// step more ([`TUBE_STEP`]), so a shape that reaches more than that past
/// the rigger's stop has walked tube the rigger cut. Until stop 65 the bar
/// was a ring (one radius) past that: hanging and curled tails under a
/// nearest-bone rigger (six of the seven gained under fur) whose shape
/// walk reached 0.8-0.9 radii past the rigger's stop kept the rigger's
/// (look seeds 51656: 1.47 against 2.36, 50867: 1.79 against 2.60; recall
/// 0.910, 0.920). Measured on the look windows at 1.0 / 0.75 / 0.5 / 0.25
/// / 0: +0 / +5 / +7 / +7 -1 / +7 -3 seeds (0..2200: +0 / +1 / +2 / +2 -1
/// / +2 -1); the quarter radius and step is where losses have not begun.
pub const RIGGER_ROOT_TUBE_RADII: f32 = (TUBE_TAPER_SLACK - 1.0) + TUBE_STEP;

/// How many of its own ring's radii further back than the walk from a
/// slanted root ring the walk across its tube must reach for its skin to
/// join ([`follow_tube`]; `take_walks` and `walk_across_tube` in
/// detect/root_growth.rs): a ring further, the walk across starting nearer
/// the tip (it must first cover the strip it cut). This shared
/// [`RIGGER_ROOT_TUBE_RADII`]'s value until stop 65; at that bar's half
/// radius it lost seven look seeds (41546, 48565, 49455, 51484, 53040,
/// 53855, 55736) for one gained (50769).
pub const ACROSS_TUBE_RADII: f32 = 1.0;

/// A walk from a tip cap's ring ([`WalkFrom::TipRing`]) has left its
/// tube when the front's centre has moved less than this share of the
/// distance walked over the last radius walked ([`TUBE_STEP`]s of the unit
/// radius). Along a tube the front's centre moves as fast as the walk
/// (0.997 of it per radius on corpus seed 52108's level tail). Where the
/// tube meets a trunk not much wider than itself (a thick tail on a slim
/// biped's trunk: 52108's root 0.050 on a trunk 0.065-0.09 across) the
/// front runs up and down the trunk and its centre stalls (0.55, then
/// 0.24, within a radius of the junction), while its ring grew 1.47x, under
/// [`TUBE_JOIN_FLARE`]: the walk went on along the trunk and the part kept
/// its ring on the trunk (precision 0.51-0.71 on six look seeds). Half: the
/// front has turned more than it advanced. Measured at 0.3 / 0.5 / 0.7 on
/// the look windows: 9 / 17 / 18 seeds gained, the same one lost (55624),
/// so the share is not a cliff. Only a walk from a tip: a slanted root
/// ring's front pivots as it straightens, its centre moving at about half
/// the walk's rate (seeds 0..2200: 15 thick hanging fur tails lost recall,
/// 0.85-0.88, with the check on every walk).
pub const TUBE_ADVANCE_SHARE: f32 = 0.5;

/// A part cut at its neck may end one ring short of the body: its collar
/// is the tube's own last ring when that ring is wider than the part's
/// ring next to it by at most this share of the gap between the two (the
/// mean length of the edges across). Along a tube a ring widens towards
/// the root by the tail's taper only, a small share of the distance
/// between rings; where a tube opens onto the body the skin spreads by
/// about its own width per width walked (`TUBE_JOIN_FLARE`). A quarter
/// is the walk's own taper slack (`TUBE_TAPER_SLACK`) read per unit of
/// the gap. Measured (stop 55): the look-window tails it gained widen
/// by -0.05 to 0.25 of their gap; body skin taken when the bar was not
/// there (rump rings round zipped roots, seeds 0..2200) by 0.33-0.63.
/// Look windows at 0.15 / 0.25 / 0.35 / 0.5, before the collar's vertex
/// count was also read (`neck_ring`): +18 / -1, +22 / -2, +23 / -7,
/// +23 / -40 seeds. Why it is needed: the neck trim (`trim_at_neck` in
/// peel.rs) sweeps a level of the skeleton distance, which runs aslant of
/// a hanging or curled tail's rings, and keeps the region before the ring
/// that flares; the walk back (`follow_tube`) then stops where its slanted
/// front meets the body. The tube's last ring (its root ring, which the
/// artist weights to the tail) is left as the part's collar, and on a thin
/// tail of 18 rings that ring is 5.5% of it (recall 0.945). Since stop 56
/// the collar is read again after each ring joins, ring by ring to the
/// body (`take_neck_rings` in detect/root_growth.rs). Read on necked parts
/// only until stop 65: a part cut by a level has already been extended and
/// walked to the body, and there the collar is rump skin that can be as
/// flat (stop 55: eight short thin hanging tails whose far or saddle part
/// held the whole tail, 0.11-0.21; taking it moved their chains' roots to
/// the tip end). With the collar's vertex count read too, and the
/// rigger's silence passing a strict ring (stop 56), rings are taken from
/// every part: no seed of 0..2200, the look or the never-used windows
/// lost, and a level-cut part whose last rings a nearest-bone rigger left
/// on the pelvis gets them (look +4, never used +3).
pub const NECK_RING_SPREAD: f32 = TUBE_TAPER_SLACK - 1.0;

/// A front that widens past [`TUBE_JOIN_FLARE`] while its centre still
/// moves along its own line at least this share of the distance walked
/// (over the last radius, along the line the centre moved over the radius
/// before), within the first [`TUBE_FLARE_WINDOW`] radii of the walk, is
/// the tail's own taper, not the body: the walk goes on and the ring
/// counts as the tube's. Along a tube the front's centre moves with the
/// walk (a ring widening `g` radii per radius walked on a straight tube:
/// `sqrt(1 - g^2)` of it); where the front spreads onto the body its ring
/// grows about one radius per radius walked ([`TUBE_JOIN_FLARE`]'s doc)
/// and the body holds its centre back. 0.9 reads a taper up to 0.44
/// radius per radius, under half that spread.
///
/// Why: a thick hanging tail whose far cut or saddle left only its tip end
/// in the part is walked back from a ring that widens 0.2-0.26 radius per
/// radius, 1.5x within two to three radii, and the walk stopped in the
/// tail's own taper (look seeds 47875, 49126: recall 0.708, 0.881). At
/// the stops of walks from a root ring on main (stop 66), of the 190 on
/// seeds 0..600 that had walked a radius none kept 0.8 of the pace, of
/// the 2125 on look seeds 40000..46000 seven kept 0.9 (at most 0.966);
/// the two tails' fronts kept 0.94-1.01.
///
/// Only while the flare's window still holds the root ring: a tail walked
/// from its narrow end widens from the start, while a front that widens
/// after a window of steady tube has met the body aslant and may keep its
/// pace there. The rat fixture's thin tail runs 9.75 radii at an even
/// width, then its front kept pace for a radius while its ring grew
/// 1.53-1.73x onto the rump; read there, the repair tore 117 edges over its
/// clips instead of 99. That also ends the walk of a steep taper longer
/// than the window (look seed 50686: recall 0.510 -> 0.927, the part from
/// u 0.44). Look windows at 0.75 / 0.85 / 0.9 / 0.95 without the window:
/// +1 -1 / +2 -1 / +3 -1 / +2 -0 seeds; at 0.9 with it: +2 -1 (lost
/// 52365, a short level tail whose root joint moved 0.22 of the tail onto
/// the rump, 1.06 local radii off). Read on walks from a root ring only
/// ([`WalkFrom`]).
pub const TUBE_TAPER_PACE: f32 = 0.9;

/// Where a walk's front starts ([`follow_tube`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkFrom {
    /// A part's root ring, which may lie aslant across the tube: a front
    /// that widens while it keeps advancing is the tail's taper
    /// ([`TUBE_TAPER_PACE`]).
    RootRing,
    /// The widest ring round the tube of a part whose root ring runs along
    /// it (`walk_across_tube` in detect/root_growth.rs), walked as from a
    /// root ring but ended by the flare alone: from there the front first
    /// crosses the strip the slanted ring cut, where one side of it meets
    /// the body while the other goes on along the tube. Read for the taper,
    /// those walks went on over the rump on look seeds 40484, 49048 and
    /// 49163 (2.25-3.0 radii against 1.0-1.75, recall lost).
    AcrossTube,
    /// A tip cap's ring, across the tube from the start: the walk also
    /// stops where its front stops advancing along the tube
    /// ([`TUBE_ADVANCE_SHARE`]).
    TipRing,
}

/// The front's centre step by step, read for a walk from a tip ring
/// ([`TUBE_ADVANCE_SHARE`]) and for a taper ([`TUBE_TAPER_PACE`]).
struct Advance {
    from: WalkFrom,
    centres: Vec<Vec3>,
}

impl Advance {
    /// Records the front's centre (`front` non-empty); returns whether the
    /// front has stopped advancing (a walk from a tip ring) and whether it
    /// still keeps a taper's pace (a walk from a root ring), each over the
    /// last radius walked (`step` is a [`TUBE_STEP`] of it).
    fn record(&mut self, front: &[Vec3], step: f32) -> (bool, bool) {
        let centre = front.iter().copied().sum::<Vec3>() / front.len() as f32;
        self.centres.push(centre);
        let back = (1.0 / TUBE_STEP).round() as usize;
        let k = self.centres.len() - 1;
        let walked = back as f32 * step;
        let stalled = self.from == WalkFrom::TipRing
            && k >= back
            && centre.distance(self.centres[k - back]) < TUBE_ADVANCE_SHARE * walked;
        let keeps_pace = self.from == WalkFrom::RootRing && k >= 2 * back && {
            let line = (self.centres[k - back] - self.centres[k - 2 * back]).normalize_or_zero();
            (centre - self.centres[k - back]).dot(line) >= TUBE_TAPER_PACE * walked
        };
        (stalled, keeps_pace)
    }
}

/// One step's front as the flare watch reads it ([`FlareWatch`]).
struct Front {
    level: f32,
    /// The narrowest ring within the flare's window.
    narrowest: f32,
    /// Wider than [`TUBE_JOIN_FLARE`] times `narrowest`, and not a taper.
    flared: bool,
    /// No wider than [`TUBE_TAPER_SLACK`] times `narrowest`: a tube's ring.
    tube_ring: bool,
    /// From a tip ring, stopped advancing along the tube.
    stalled: bool,
    /// The walk has taken everything it reached.
    last_step: bool,
}

/// What the flare watch makes of a step's front.
enum FrontRead {
    /// A ring of the tube (or its taper): walk on.
    Ring,
    /// Flared for this one step: walk on and read the next.
    Slant,
    /// The tube ends at the front that flared at `level`, read against
    /// `narrowest`.
    Stop { level: f32, narrowest: f32 },
}

/// Where the walk's front spreads onto the body. A front that flares for
/// one step ([`TUBE_STEP`]) and is the tube's ring again at the next (no
/// wider than [`TUBE_TAPER_SLACK`] times the narrowest) has not met the
/// body: the body does not narrow back to the tube a quarter radius on.
/// It is a slanted ring turning level. A peeled piece of a thin hanging
/// tail has a root ring cut aslant where the tail passes a thigh (corpus
/// 42482: ring radius 0.0216 on a tail 0.0116 thick); the front read
/// 0.0161, then 0.0246 (1.53 times it), then 0.0164 and 0.0091-0.0116
/// for 0.34 of the height, until the tail's root flared onto the rump.
/// Stopped at the one-step flare, the walk took nothing and the tail's
/// root half stayed on the rigger's leg weights (recall 0.602). A front
/// that stays past the tube's ring is a flare, read where it first
/// flared: a front hovering round the bar at the rump (1.52, 1.50, 1.51)
/// stops where it did.
#[derive(Default)]
struct FlareWatch {
    /// The level and narrowest ring of a front that flared one step back.
    pending: Option<(f32, f32)>,
}

impl FlareWatch {
    fn read(&mut self, front: Front) -> FrontRead {
        let pending = self.pending.take();
        let slant = front.flared && !front.stalled && pending.is_none() && !front.last_step;
        if slant {
            self.pending = Some((front.level, front.narrowest));
            return FrontRead::Slant;
        }
        let stop = front.flared
            || front.stalled
            || pending.is_some() && (!front.tube_ring || front.last_step);
        if !stop {
            return FrontRead::Ring;
        }
        let (level, narrowest) = pending.unwrap_or((front.level, front.narrowest));
        FrontRead::Stop { level, narrowest }
    }
}

/// The tube of a part followed back over the surface from its root ring
/// (`collar`, sorted welded vertices outside the part): the skin within
/// geodesic distance `t` of the part is taken for growing `t` while the
/// front (the level set's contour at `t`, `WalkLevels::contour`) stays a
/// tube's ring, and the walk stops where the front spreads onto the body
/// ([`TUBE_JOIN_FLARE`] within [`TUBE_FLARE_WINDOW`]; a front that flares
/// for one step and is the tube's ring again at the next is a slanted
/// ring turning level, `FlareWatch`), keeping the tube
/// to its last ring ([`TUBE_TAPER_SLACK`]) and only skin whose edges all
/// end behind the ring that flared (`WalkLevels::behind`). The far cut
/// leaves the skin of a tail that passes near a bone (a hanging tail
/// behind the thighs, a thick tail's root by the pelvis) out of its part,
/// whatever its shape; the tube does not care what bone is near it. Walks
/// at most `length` (the caller's bound: a tail is not followed further
/// back than it reaches out; a front still a tube's ring there keeps the
/// tube walked past [`TUBE_SPREAD_RADII`]);
/// `taken[v]` marks skin other parts own and only vertices passing
/// `keep` are walked; `from` says where the front starts ([`WalkFrom`]).
pub fn follow_tube(
    graph: &MeshGraph,
    positions: &[Vec3],
    (welded, collar): (&[u32], &[u32]),
    length: f32,
    taken: &[bool],
    keep: &dyn Fn(u32) -> bool,
    from: WalkFrom,
) -> Tube {
    let part_marks = marks(graph.vertex_count(), welded);
    let in_part = |v: u32| part_marks[v as usize];
    let sources = next_to(graph, welded, &part_marks, collar);
    let tube = ring_radius(positions, &sources).unwrap_or(0.0);
    if sources.is_empty() || tube.is_nan() || tube <= 0.0 || length.is_nan() || length <= 0.0 {
        return Tube::default();
    }
    let open = |v: u32| !in_part(v) && !taken[v as usize] && keep(v);
    let Some((walked, reached, levels)) =
        walk_skin(graph, positions, &sources, length, open, &in_part)
    else {
        return Tube::default();
    };
    // Steps and flare window in one ring's radius ([`largest_ring_radius`]);
    // the flare is judged against the rings walked, the whole root ring first.
    let unit = largest_ring_radius(graph, positions, &sources).unwrap_or(tube).min(tube);
    let step = TUBE_STEP * unit;
    let window = (TUBE_FLARE_WINDOW / TUBE_STEP).ceil() as usize;
    // The radii of the rings walked, the root ring first.
    let mut rings = vec![tube];
    let mut last = 0.0f32;
    let mut k = 0usize;
    let hold = TUBE_FLARE_WINDOW * unit;
    let mut front_side = FrontSide::new(&levels, graph, &sources);
    let mut advance = Advance { from, centres: Vec::new() };
    let mut watch = FlareWatch::default();
    loop {
        let level = k as f32 * step;
        let accepted = front_side.advance(&levels, graph, &reached, level, hold);
        let front = levels.contour(graph, positions, front_side.vertices(), level, hold);
        if front.is_empty() {
            // A closed shell's buried root: the tube ends inside.
            let reach = reached.last().map_or(0.0, |&(_, d)| d) / tube;
            return Tube { vertices: walked.iter().map(|&(v, _)| v).collect(), reach };
        }
        let r = points_ring_radius(&front).unwrap_or(0.0);
        let narrowest = narrowest_within(&rings, window);
        let (stalled, keeps_pace) = advance.record(&front, step);
        let last_step = accepted == reached.len();
        let widened = r > TUBE_JOIN_FLARE * narrowest;
        // A taper is read while the flare's window still holds the root
        // ring ([`TUBE_TAPER_PACE`]).
        let tapering = keeps_pace && rings.len() <= window;
        let tube_ring = r <= TUBE_TAPER_SLACK * narrowest;
        let flared = widened && !tapering;
        match watch.read(Front { level, narrowest, flared, tube_ring, stalled, last_step }) {
            FrontRead::Stop { level: flare, narrowest } => {
                // Spread onto the body, or (from a tip ring) stopped
                // advancing along the tube: keep the tube up to the last ring.
                let at = FrontAt { levels: &levels, graph, positions, reached: &reached, hold };
                return at.tube_at_flare(
                    &walked,
                    &sources,
                    &in_part,
                    (last, flare),
                    narrowest,
                    tube,
                );
            }
            // A ring past the flare here is the taper's (`tapering`).
            FrontRead::Ring if tube_ring || widened => last = level,
            FrontRead::Ring | FrontRead::Slant => {}
        }
        rings.push(r);
        if last_step {
            let far = reached.last().map_or(0.0, |&(_, d)| d);
            return Tube::at_walk_end(&walked, (last, far + step), length, tube);
        }
        k += 1;
    }
}

/// The skin a walk from `sources` reaches within `length` over `open`
/// skin, outside the part: by vertex (as the walk returns it: what the
/// tube keeps is read from this list, so it comes out sorted without a
/// sort), in walking order, and as levels. `None` when it reaches nothing.
#[allow(clippy::type_complexity)]
fn walk_skin(
    graph: &MeshGraph,
    positions: &[Vec3],
    sources: &[u32],
    length: f32,
    open: impl Fn(u32) -> bool,
    in_part: &dyn Fn(u32) -> bool,
) -> Option<(Vec<(u32, f32)>, Vec<(u32, f32)>, WalkLevels)> {
    let walked: Vec<(u32, f32)> = geodesic_within(graph, positions, sources, length, open)
        .into_iter()
        .filter(|&(v, _)| !in_part(v))
        .collect();
    if walked.is_empty() {
        return None;
    }
    let reached = in_walking_order(&walked);
    let levels = WalkLevels::new(graph, positions, sources, &reached, in_part);
    Some((walked, reached, levels))
}

/// The narrowest of the last `window` rings walked.
fn narrowest_within(rings: &[f32], window: usize) -> f32 {
    rings[rings.len().saturating_sub(window)..].iter().copied().fold(f32::INFINITY, f32::min)
}

/// The walk's geodesic distance per welded vertex: 0 on the part's root
/// ring (`sources`), the distance walked on the skin `reached`, and on skin
/// next to it that the walk may not take (another part's, the rump the
/// rigger kept) or that lies past the length bound, the distance it would
/// have had; infinite elsewhere (the part itself: the walk runs away from
/// it). `held` marks that skin next to the walk it did not take.
struct WalkLevels {
    levels: Vec<f32>,
    held: Vec<bool>,
}

impl WalkLevels {
    fn new(
        graph: &MeshGraph,
        positions: &[Vec3],
        sources: &[u32],
        reached: &[(u32, f32)],
        in_part: &dyn Fn(u32) -> bool,
    ) -> WalkLevels {
        let mut levels = vec![f32::INFINITY; graph.vertex_count()];
        for &v in sources {
            levels[v as usize] = 0.0;
        }
        for &(v, d) in reached {
            levels[v as usize] = d;
        }
        let mut held = vec![false; graph.vertex_count()];
        let mut beyond: Vec<(u32, f32)> = Vec::new();
        for v in sources.iter().copied().chain(reached.iter().map(|&(v, _)| v)) {
            let p = positions[v as usize];
            for &w in graph.neighbors_of(v as usize) {
                if levels[w as usize].is_infinite() && !in_part(w) {
                    beyond.push((w, levels[v as usize] + p.distance(positions[w as usize])));
                }
            }
        }
        for (w, d) in beyond {
            held[w as usize] = true;
            levels[w as usize] = levels[w as usize].min(d);
        }
        WalkLevels { levels, held }
    }

    /// The skin of `reached` whose every edge ends within `level` (or in
    /// the part): behind the ring where the walk met the body. A level
    /// splits a coarse ring (its vertices lie at different distances from
    /// a slanted root ring), and keeping a vertex by its own distance alone
    /// kept half of the ring that joins the body, its edges running onto
    /// the rump: on the Fox, half its neck ring, which its artist leaves on
    /// the body (precision 1.0 -> 0.78, the root joint 1.7 local radii off
    /// the tail).
    fn behind(
        &self,
        graph: &MeshGraph,
        reached: &[(u32, f32)],
        level: f32,
        in_part: &dyn Fn(u32) -> bool,
    ) -> Vec<(u32, f32)> {
        let within = |w: u32| self.levels[w as usize] <= level || in_part(w);
        reached
            .iter()
            .copied()
            .filter(|&(v, _)| graph.neighbors_of(v as usize).iter().all(|&w| within(w)))
            .collect()
    }

    /// The ring at geodesic level `level`: where the level set crosses each
    /// edge from a vertex of `within` (all at most `level`) to one past it,
    /// lerped along the edge, and the skin next to the walk it may not
    /// take that a walk over open skin would have passed (the front is held
    /// there, as at a vertex). Its radius is the tube's whatever the mesh's
    /// ring spacing: on a coarse tail whose rings lie several tube radii
    /// apart, the vertices next to those within a level mix two rings once
    /// part of a ring is walked, and read 1.5-2x the tube's radius (or,
    /// beside a few walked vertices, a patch a fraction of it, so the next
    /// full ring "flares"); the contour lies between the two rings, on the
    /// tube. Held skin is part of the ring: without it a ring half on skin
    /// the rigger kept read 0.7-0.8 of the tube and the walk went on over
    /// the rump (corpus seed 199, precision 0.85). It holds the ring for
    /// `hold` past its own level ([`TUBE_FLARE_WINDOW`] radii, the length a
    /// flare is judged over), no longer: a strip of tail skin another part
    /// owns lies along the tube, and the walk goes on round it over the
    /// open rest of each ring; held there for good, its points lay radii
    /// behind the front, and the ring's radius, measured from its centroid,
    /// read the tube's length between them as width (corpus seed 475, a long
    /// thin hanging tail whose root skin is such a strip, 20 vertices in
    /// body remainders or close skin on the legs: every front point lay
    /// 0.92-0.99 root radii off the truth's axis, but the ring 1.39 -> 2.16
    /// times the tube's over the four radii before its root ring, a flare;
    /// the walk stopped three rings short of the body).
    fn contour(
        &self,
        graph: &MeshGraph,
        positions: &[Vec3],
        within: impl Iterator<Item = u32>,
        level: f32,
        hold: f32,
    ) -> Vec<Vec3> {
        let mut points = Vec::new();
        for u in within {
            let (du, pu) = (self.levels[u as usize], positions[u as usize]);
            for &w in graph.neighbors_of(u as usize) {
                let dw = self.levels[w as usize];
                if dw > level && dw.is_finite() {
                    let s = ((level - du) / (dw - du)).clamp(0.0, 1.0);
                    points.push(pu.lerp(positions[w as usize], s));
                } else if self.held[w as usize] && level - dw <= hold {
                    points.push(positions[w as usize]);
                }
            }
        }
        points
    }
}

/// The walked skin that can still lie on the front: a vertex walked at a
/// lower level stays behind it once no neighbour lies past the level and
/// the skin it is held by fell more than the hold behind (the level only
/// grows, so it never comes back). The contour over these alone is the
/// contour over everything walked, point for point in the same order; over
/// everything walked each step, a long tail's walk cost its vertices times
/// its steps (93.8 M instructions on the bench creature's 26k-vertex far
/// part, stop 41).
struct FrontSide {
    /// Walked vertices in walking order (the root ring first), each with
    /// the largest finite level of its neighbours and of its held ones.
    active: Vec<(u32, f32, f32)>,
    /// How many of the walk's `reached` (in distance order) are walked.
    accepted: usize,
}

impl FrontSide {
    fn new(levels: &WalkLevels, graph: &MeshGraph, sources: &[u32]) -> FrontSide {
        let mut side = FrontSide { active: Vec::with_capacity(sources.len()), accepted: 0 };
        side.push(levels, graph, sources.iter().copied());
        side
    }

    fn push(&mut self, levels: &WalkLevels, graph: &MeshGraph, walked: impl Iterator<Item = u32>) {
        for u in walked {
            let (mut past, mut held) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            for &w in graph.neighbors_of(u as usize) {
                let dw = levels.levels[w as usize];
                if dw.is_finite() {
                    past = past.max(dw);
                }
                if levels.held[w as usize] {
                    held = held.max(dw);
                }
            }
            self.active.push((u, past, held));
        }
    }

    /// Walks `reached` up to `level`, adding what it walks and dropping
    /// what the front at `level` has left behind for good (see
    /// [`WalkLevels::contour`]'s two cases). Returns how many of `reached`
    /// are walked.
    fn advance(
        &mut self,
        levels: &WalkLevels,
        graph: &MeshGraph,
        reached: &[(u32, f32)],
        level: f32,
        hold: f32,
    ) -> usize {
        let newly = self.accepted;
        while self.accepted < reached.len() && reached[self.accepted].1 <= level {
            self.accepted += 1;
        }
        self.push(levels, graph, reached[newly..self.accepted].iter().map(|&(v, _)| v));
        self.active.retain(|&(_, past, held)| past > level || level - held <= hold);
        self.accepted
    }

    fn vertices(&self) -> impl Iterator<Item = u32> + '_ {
        self.active.iter().map(|&(u, _, _)| u)
    }
}

/// The walk's levels and what it reached, to read the front at a level
/// between two steps.
struct FrontAt<'a> {
    levels: &'a WalkLevels,
    graph: &'a MeshGraph,
    positions: &'a [Vec3],
    reached: &'a [(u32, f32)],
    hold: f32,
}

impl FrontAt<'_> {
    /// The tube kept where the front at `flare` spread onto the body:
    /// `walked` (sorted by vertex) behind the flare up to the last step
    /// read as tube (`last`), and the tube's last ring
    /// ([`Tube::add_last_ring`]) up to the last level read as tube between
    /// the steps. `sources` is the part's root ring the walk started from.
    fn tube_at_flare(
        &self,
        walked: &[(u32, f32)],
        sources: &[u32],
        in_part: &dyn Fn(u32) -> bool,
        (last, flare): (f32, f32),
        narrowest: f32,
        radius: f32,
    ) -> Tube {
        let whole = self.levels.behind(self.graph, walked, flare, in_part);
        let mut kept = Tube::up_to(&whole, last, radius);
        // The front at `last`, walked again from the root ring: it is a
        // function of the level alone (`FrontSide::advance`), and only
        // this exit needs it.
        let mut at_last = FrontSide::new(self.levels, self.graph, sources);
        at_last.advance(self.levels, self.graph, self.reached, last, self.hold);
        let widest = TUBE_TAPER_SLACK * narrowest;
        let ring_level = self.last_tube_level(at_last, last, flare, widest);
        kept.add_last_ring(self.graph, self.positions, walked, ring_level, narrowest);
        kept
    }

    /// The last level from `last` (the last step whose front was a tube's
    /// ring, `at_last` the front there) short of `flare` (the step whose
    /// front spread onto the body) at which the front is still a tube's
    /// ring (no wider than `widest`), read at the levels of the walked
    /// vertices between the two steps. The steps ([`TUBE_STEP`]) do not
    /// fall on the mesh's rings: on a thin tail whose last ring lies just
    /// past a step (corpus seed 41211: 0.52-0.53 radii, the step at 0.50),
    /// the next step's front ran from that ring onto the body and read
    /// wide, and the ring, the tube's last, was left on the body.
    fn last_tube_level(&self, at_last: FrontSide, last: f32, flare: f32, widest: f32) -> f32 {
        let from = self.reached.partition_point(|&(_, d)| d <= last);
        let to = self.reached.partition_point(|&(_, d)| d < flare);
        let mut side = at_last;
        let mut kept = last;
        for &(_, d) in &self.reached[from..to] {
            if d <= kept {
                continue;
            }
            side.advance(self.levels, self.graph, self.reached, d, self.hold);
            let front =
                self.levels.contour(self.graph, self.positions, side.vertices(), d, self.hold);
            match points_ring_radius(&front) {
                Some(r) if r <= widest => kept = d,
                _ => break,
            }
        }
        kept
    }
}

/// What [`follow_tube`] walked: the skin it took and how far back from the
/// part's root ring it kept the tube, in the tube's own radii.
#[derive(Clone, Debug, Default)]
pub struct Tube {
    /// Sorted welded vertices taken.
    pub vertices: Vec<u32>,
    /// Geodesic distance from the root ring to the last ring kept, over the
    /// ring's radius.
    pub reach: f32,
}

impl Tube {
    /// The tube of `walked` (sorted by vertex) up to level `last`.
    fn up_to(walked: &[(u32, f32)], last: f32, radius: f32) -> Tube {
        let vertices: Vec<u32> =
            walked.iter().filter(|&&(_, d)| d <= last).map(|&(v, _)| v).collect();
        let reach = if vertices.is_empty() { 0.0 } else { last / radius };
        Tube { vertices, reach }
    }

    /// The tube where every open vertex was walked (`walked` sorted by
    /// vertex, the tube read up to `last`, `end` a step past the farthest
    /// level walked): it
    /// ended on skin it may not take (the rump the rigger kept on the
    /// body, another part), a root; or at the `length` bound, its front
    /// still a tube's ring. Past [`TUBE_SPREAD_RADII`] that is tube (a
    /// long tapering tail the far cut left a short part of, seed 4: its
    /// whole part length walked back along the tail, none of it taken,
    /// recall 0.916); a shorter stub never showed whether its front
    /// spreads: nothing.
    fn at_walk_end(
        walked: &[(u32, f32)],
        (last, end): (f32, f32),
        length: f32,
        radius: f32,
    ) -> Tube {
        if end >= length && length < TUBE_SPREAD_RADII * radius {
            return Tube::default();
        }
        Tube::up_to(walked, last, radius)
    }

    /// Adds the tube's last ring: the skin of `walked` (sorted by vertex)
    /// within `level` that the tube does not hold, when it is one closed
    /// ring round the tube (every vertex between two others of it, one
    /// piece) as wide as the tube's rings (within [`TUBE_TAPER_SLACK`] of
    /// `narrowest` either way). The walk keeps only skin whose every edge
    /// ends behind the flare (`WalkLevels::behind`): a level splits a
    /// coarse slanted ring, and half a ring whose edges run onto the body
    /// is the body's (the Fox's neck ring). A whole ring is not split: it
    /// is the tube's last, zipped onto the body, and its edges run onto
    /// the body because it is where the tail meets it. Left off, it stayed
    /// on the rigger's leg and pelvis weights (corpus look windows at stop
    /// 52: thin tails at recall 0.917-0.948, each missing its whole first
    /// ring, the part's final collar that ring itself). With it: look
    /// windows 21 seeds gained, none lost (recall failures 120 -> 99).
    fn add_last_ring(
        &mut self,
        graph: &MeshGraph,
        positions: &[Vec3],
        walked: &[(u32, f32)],
        level: f32,
        narrowest: f32,
    ) {
        let ring: Vec<u32> = walked
            .iter()
            .filter(|&&(v, d)| d <= level && self.vertices.binary_search(&v).is_err())
            .map(|&(v, _)| v)
            .collect();
        let inside = |v: &u32| ring.binary_search(v).is_ok();
        let closed = ring.len() >= 3
            && ring
                .iter()
                .all(|&v| graph.neighbors_of(v as usize).iter().filter(|w| inside(w)).count() >= 2)
            && graph.pieces(&ring).len() == 1;
        if !closed {
            return;
        }
        let points: Vec<Vec3> = ring.iter().map(|&v| positions[v as usize]).collect();
        let Some(r) = points_ring_radius(&points) else { return };
        if r > TUBE_TAPER_SLACK * narrowest || r * TUBE_TAPER_SLACK < narrowest {
            return;
        }
        self.vertices.extend(ring);
        self.vertices.sort_unstable();
    }
}

/// The radius of the widest single ring among `ring` (sorted welded
/// vertices): its pieces connected by mesh edges, each measured as a ring
/// ([`ring_radius`]); `None` when no piece has a radius. A part's root ring
/// is one ring round its tube, and this is its radius. A part of fur and
/// skin peeled at a neck of its fur holds the fur whole but the skin inside
/// it only from a saddle on (corpus seed 133, a curled Dog's tail: the fur
/// from the body, the skin from half way along), and its ring is two rings
/// a tail's length apart: the fur's at the body and the skin's cut ring
/// inside the fur, together 8x the tail's radius (0.246 against 0.031).
/// Walked back down the skin in steps of that radius, the flare window
/// ([`TUBE_FLARE_WINDOW`] radii) spanned half the tail, the skin's taper
/// towards the body over it (1.55x) read as the flare, and the walk kept
/// one radius of the ten it had: 70 true tail vertices, the skin's first
/// 0.27 of the tail, in no part (recall 0.848). The widest piece is the
/// scale the walk needs: a single ring gives the radius it gave before.
fn largest_ring_radius(graph: &MeshGraph, positions: &[Vec3], ring: &[u32]) -> Option<f32> {
    graph
        .pieces(ring)
        .iter()
        .filter_map(|piece| ring_radius(positions, piece).filter(|r| *r > 0.0))
        .reduce(f32::max)
}

/// [`next_to`] reads the ring's side, not the part's, when the ring holds
/// at most one in this many of the part's vertices (a tail's root ring is a
/// few dozen vertices against its part's thousands). Speed only: both sides
/// give the same list.
pub const RING_SIDE_SHARE: usize = 8;

/// The vertices of `welded` (sorted, marked in `in_part`) with a neighbour
/// in `ring`, in `welded`'s order. A small ring asks its own neighbours
/// which are the part's (edges run both ways) and sorts the few it finds,
/// instead of a pass over every edge of the part and a graph-sized array
/// of marks for the ring.
pub fn next_to(graph: &MeshGraph, welded: &[u32], in_part: &[bool], ring: &[u32]) -> Vec<u32> {
    if ring.len() * RING_SIDE_SHARE <= welded.len() && welded.is_sorted_by(|a, b| a < b) {
        let mut near: Vec<u32> = ring
            .iter()
            .flat_map(|&r| graph.neighbors_of(r as usize).iter().copied())
            .filter(|&w| in_part[w as usize])
            .collect();
        near.sort_unstable();
        near.dedup();
        return near;
    }
    let marks = marks(graph.vertex_count(), ring);
    let near = |v: u32| graph.neighbors_of(v as usize).iter().any(|&w| marks[w as usize]);
    welded.iter().copied().filter(|&v| near(v)).collect()
}

/// `walked` in the order a walk takes it: by distance, the lower vertex on
/// a tie (each vertex once, so the order is total and any sort gives it).
/// A walk's distances run up from +0.0, and floats with the sign bit clear
/// order as their bits do: each pair is sorted as one integer key (the
/// distance's bits, then the vertex), cheaper than comparing floats and
/// stable sorting. A list with any sign bit set (no walk gives one) is
/// sorted by the floats.
pub fn in_walking_order(walked: &[(u32, f32)]) -> Vec<(u32, f32)> {
    if walked.iter().any(|&(_, d)| d.is_sign_negative()) {
        let mut order = walked.to_vec();
        order.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        return order;
    }
    let mut keys: Vec<u64> =
        walked.iter().map(|&(v, d)| (u64::from(d.to_bits()) << 32) | u64::from(v)).collect();
    keys.sort_unstable();
    keys.into_iter().map(|k| (k as u32, f32::from_bits((k >> 32) as u32))).collect()
}

/// `true` at each of `vertices`, over `count` vertices: a walk asks of
/// every edge it looks along whether its end is the part's, and a tail's
/// part holds tens of thousands of vertices (a binary search per edge).
pub(crate) fn marks(count: usize, vertices: &[u32]) -> Vec<bool> {
    let mut m = vec![false; count];
    for &v in vertices {
        m[v as usize] = true;
    }
    m
}

/// A peeled part's root ring is slanted when its vertices' geodesic
/// distances from the part's tip span more than this many radii of the
/// ring. A ring that goes round a tube lies at one distance from the tip
/// (it spans the mesh's irregularity, well under a radius); the peel's
/// saddle on a hanging or level tail follows a skeleton-distance level,
/// which runs along the tail, so the ring's near-bone side lies radii
/// closer to the tip than its far side. The tube walk (`follow_tube`)
/// started from such a ring reads a flare where its low side meets the
/// body after 2-4 radii and leaves the near-bone side of the tail's root
/// on the body. Corpus seeds 0..200: the peeled parts' rings span 0.4-4.5
/// radii (median 1.1); the tails that lost their root's near-bone side
/// 1.4-2.4. The walk from the ring across the tube only adds skin, and
/// only when it reaches a ring further than the walk from the slanted ring
/// (`walk_across_tube` in detect/root_growth.rs), so a ring read as slanted that is not
/// costs nothing but the walk.
pub const RECUT_SLANT_RADII: f32 = 1.0;

/// The skin of a part past the widest ring that goes round its tube, where
/// its root ring is slanted ([`RECUT_SLANT_RADII`]): the part's vertices
/// farther from its tip (the vertex farthest along `geodesic`) than the
/// nearest vertex of its root ring. Empty when the ring goes round the tube
/// or the ring is not reached from the tip over the part (separate shells).
pub fn slanted_root_skin(
    graph: &MeshGraph,
    positions: &[Vec3],
    welded: &[u32],
    collar: &[u32],
    geodesic: &[f32],
) -> Vec<u32> {
    let Some(tip) = welded.iter().zip(geodesic).max_by(|a, b| a.1.total_cmp(b.1)).map(|(&v, _)| v)
    else {
        return Vec::new();
    };
    let from_tip = geodesic_from(graph, positions, welded, &[tip]);
    let ring: Vec<usize> = (0..welded.len())
        .filter(|&i| {
            graph.neighbors_of(welded[i] as usize).iter().any(|w| collar.binary_search(w).is_ok())
        })
        .collect();
    let points: Vec<u32> = ring.iter().map(|&i| welded[i]).collect();
    let radius = ring_radius(positions, &points).unwrap_or(0.0);
    let (near, far) = ring
        .iter()
        .map(|&i| from_tip[i])
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), d| (lo.min(d), hi.max(d)));
    if !far.is_finite() || radius.is_nan() || radius <= 0.0 {
        return Vec::new();
    }
    if far - near <= RECUT_SLANT_RADII * radius {
        return Vec::new();
    }
    welded.iter().zip(&from_tip).filter(|&(_, &d)| d > near).map(|(&v, _)| v).collect()
}
