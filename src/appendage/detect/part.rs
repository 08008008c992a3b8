//! One part from a group of merged shells, start to finish: where it
//! hangs, its verdict, a tail grown to its root and tip, the joint its
//! chain hangs from, and its report.

use glam::Vec3;

use super::candidates::{centroid_ratio, Origin};
use super::components::Component;
use super::merge::merged_shells;
use super::root_growth::Growing;
use super::surface::{cut_centre, rig_vertices, sorted_union, Surface};
use super::verdict::{Shape, ShapeTests};
use super::PartGeometry;
use crate::appendage::anchor::chain_anchor;
use crate::appendage::attach::Region;
use crate::appendage::decide::{is_long, Verdict};
use crate::appendage::midline::Paired;
use crate::appendage::report::{Kind, PartReport, PartTests};
use crate::appendage::rigger_root::TailWeights;
use crate::appendage::root::{follow_tube, WalkFrom};
use crate::appendage::shape::centroid;
use crate::error::Result;
use crate::geometry::{BoneDistance, Weld};

impl Surface<'_> {
    /// One part from a group of merged components: its region and tests, the
    /// verdict, a tail grown to where it leaves the body, and its report.
    pub(super) fn part(
        &self,
        index: usize,
        group: &[usize],
        comps: &mut [Component],
        paired: Option<Paired>,
        taken: &mut [bool],
        bone_distance: &mut BoneDistance,
    ) -> Result<(PartReport, PartGeometry)> {
        let rig = self.rig;
        let names = rig.joint_names();
        let (welded, collar) = merged_shells(group, comps);
        // T8 geodesic coordinate (reported as the part's length for every part).
        let (geodesic, length) = coordinate_of(self, group, comps, &welded, &collar);
        let mut tests = self.shape_tests(&welded, &geodesic, length);
        let origin = comps[group[0]].origin;
        let mut part = Growing { welded, collar, geodesic, length };
        let (attachment, region, tube_rest) = self.hangs_where(group, comps, &part, &tests, taken);
        let mut hangs = (attachment, region);
        let mut verdict = self.first_verdict(&mut part, &mut tests, &mut hangs, taken, origin);
        let (attachment, region) = hangs;
        self.keep_own_bone_stub(&mut verdict, &part.welded, &tests);
        self.overrule(&mut verdict, origin, &part.welded);
        self.demote_paired(&mut verdict, paired);
        self.stub_to_its_core(&mut part, &verdict, &tests, taken);
        let tail = verdict.kind == Kind::Tail;
        let (contact_vertices, start) =
            if tail { self.start_tail(&mut part, taken, origin) } else { (0, Vec::new()) };
        // The rigger's own tail weights, where they show a pattern, say
        // which skin round the root it treated as tail.
        let tail_weights = tail
            .then(|| TailWeights::find(rig, self.weld, &part.welded, attachment, self.roles.pelvis))
            .flatten();
        let mut root_vertices = 0;
        if tail {
            root_vertices = self.take_layered_remainders(&mut part, comps, taken);
            root_vertices += self.take_untaken(&mut part, tube_rest, taken);
            root_vertices +=
                self.grow_to_root(&mut part, taken, tail_weights.as_ref(), origin, tests.reach);
            root_vertices += self.grow_to_tip(&mut part, taken, tests.reach);
        }
        let (tube_root, rigger_grown) = tail_weights.as_ref().map_or((None, 0), |tw| {
            let (root, grown) = self.grow_rigger_root(&mut part, tw, attachment, taken);
            ((grown > 0).then_some(root), grown)
        });
        root_vertices += rigger_grown;
        if tail {
            root_vertices += self.take_enclosed(&mut part, taken);
            self.tail_to_its_core(&mut part, &start, taken);
        }
        self.demote_stub(&mut verdict, self.stub_length(&part, tube_root));
        let root = tube_root.unwrap_or_else(|| {
            cut_centre(self.graph, &self.weld.positions, &part.welded, &part.collar)
        });
        let hangs_from = self.hangs_from(&mut verdict, attachment, &part, root);
        let vertices = rig_vertices(self.weld, &part.welded);
        let before = bone_distance.mean_noting(&vertices)?;
        let report = PartReport {
            index,
            attachment: hangs_from.map(|j| names[j].clone()),
            attachment_joint: hangs_from,
            region,
            shells: group.len(),
            bone_distance_before: before,
            root_vertices,
            contact_vertices,
            rigger_signature: tail_weights.is_some(),
            ..self.report_of(verdict, &part, &tests, origin, vertices)
        };
        let Growing { welded, collar, geodesic, length } = part;
        let root_at_cut = tube_root.is_none();
        let geometry =
            PartGeometry { welded, collar, geodesic, length, attachment, root, root_at_cut };
        Ok((report, geometry))
    }

    /// How long the stub bar reads a tail: its tube's length, plus how far
    /// the skin the rigger's weights grew at its root moved the root back
    /// (from the tube's root, `tube_root`, to the cut centre of the part's
    /// collar as grown). That skin is the tail's first ring or two (the
    /// rigger read it as tail round the root), though the tube's coordinate
    /// and joints start where it leaves the body
    /// ([`Surface::grow_rigger_root`]). Measured from the tube alone, short
    /// level tails whose rigger took their first rings read under
    /// `min_tail_length_ratio` and got no chain (corpus look seeds 43617
    /// and 55121: 0.044 and 0.048 H from the tube; with the shift 12.30
    /// and 0.097 against 12.34 and 0.100 along their centre lines). A
    /// shift longer than the tube itself is no root ring beside it: the
    /// rigger's skin is most of the tail and the tube a piece of its tip
    /// (52198: a tube 0.022 long, shifted 0.076), whose root is not where
    /// the tail leaves the body; its length stays the tube's.
    fn stub_length(&self, part: &Growing, tube_root: Option<Vec3>) -> f32 {
        let Some(from) = tube_root else { return part.length };
        let grown = cut_centre(self.graph, &self.weld.positions, &part.welded, &part.collar);
        let shift = from.distance(grown);
        if shift > part.length {
            return part.length;
        }
        part.length + shift
    }

    /// The part's verdict where it `hangs` (joint and region), a broad part
    /// closed first into the tube it is one side of
    /// ([`Self::close_half_tube`]), which also moves where it hangs.
    fn first_verdict(
        &self,
        part: &mut Growing,
        tests: &mut ShapeTests,
        hangs: &mut (Option<usize>, Region),
        taken: &mut [bool],
        origin: Origin,
    ) -> Verdict {
        let names = self.rig.joint_names();
        let name = hangs.0.map_or("?", |j| names[j].as_str());
        let shape = Shape {
            welded: &part.welded,
            collar: &part.collar,
            geodesic: &part.geodesic,
            length: part.length,
            tests,
        };
        let mut verdict = self.verdict(&shape, hangs.1, name);
        if let Some(c) = self.close_half_tube(part, tests, &mut verdict, taken, origin) {
            *hangs = (c.attachment, c.region);
        }
        verdict
    }

    /// Where a part hangs: its lead shell's attachment and region, or, for
    /// a long part (not body left by peeling) judged on the spine, where
    /// its tube opens onto the body when that is the pelvis region
    /// ([`Self::tube_joins_pelvis`]), or else when its collar reaches the
    /// pelvis share ([`Self::collar_region`]); for a peeled part judged on a
    /// limb, where it joins the body with the rest of its tube that peeling
    /// left ([`Self::rest_of_tube`]), whose skin (the remainders and the
    /// far skin between) is returned to be taken when it is a tail.
    fn hangs_where(
        &self,
        group: &[usize],
        comps: &[Component],
        part: &Growing,
        tests: &ShapeTests,
        taken: &[bool],
    ) -> (Option<usize>, Region, Vec<u32>) {
        let lead = self.lead_shell(group, comps);
        let attachment = comps[lead].attachment;
        let region = self.region_of(attachment, comps[lead].join);
        let origin = comps[group[0]].origin;
        if region == Region::Limb {
            let peeled = matches!(origin, Origin::Peeled { .. });
            if let Some((a, rest)) = peeled.then(|| self.rest_of_tube(part, comps)).flatten() {
                return (Some(a), Region::Pelvis, rest);
            }
            // A limb whose chain moves none of the part's skin is not what
            // it follows: the bones that move it say where it hangs.
            if let Some(m) = comps[lead].reattached {
                let r = self.region_of(Some(m), comps[lead].join);
                if r != Region::Limb {
                    return (Some(m), r, Vec::new());
                }
            }
            if peeled {
                return (attachment, region, Vec::new());
            }
        }
        let walk_back = region == Region::Spine
            && !matches!(origin, Origin::Remainder { .. })
            && is_long(self.params, tests.elongation, tests.tube);
        if !walk_back {
            return (attachment, region, Vec::new());
        }
        match self.tube_joins_pelvis(&part.welded, &part.collar, part.length, taken) {
            Some(a) => (Some(a), Region::Pelvis, Vec::new()),
            None => (attachment, self.collar_region(region, attachment, &part.collar), Vec::new()),
        }
    }

    /// A peeled piece whose collar lies on peel remainders that do not wrap
    /// a bone (they pass the centroid test, as no body skin left by peeling
    /// does) was cut inside its own tube: the saddle it was peeled at is a
    /// dip of the skeleton distance where a long hanging tail passes a shin,
    /// not where it leaves the body, and the remainders are the rest of the
    /// tail (corpus look seeds 264, 277, 349, 422, 442, 496 with the
    /// `hanging_tail` class forced: tips of 37-98 welded vertices on a shin
    /// or calf, remainders of 175-237 all tail, centroid ratio 0.80-0.87).
    /// The piece, the far skin no candidate holds between it and them (what
    /// the neck trim dropped off the piece, [`Self::beside_ring`]) and those
    /// remainders are one tube, which joins the body where its collar does.
    /// Without that skin the tube has a hole where the piece was trimmed,
    /// and on a tail modelled as a shell of its own the hole's edge is the
    /// tube's only collar (seed 422: 31 tail vertices at 4.3-4.7 far
    /// thresholds, the join by the shin). When the join is in the pelvis
    /// region, returns the joint and the tube's skin beyond the piece
    /// (remainders and the skin between). No new number: the centroid test
    /// is T4a's.
    fn rest_of_tube(&self, part: &Growing, comps: &[Component]) -> Option<(usize, Vec<u32>)> {
        let positions = &self.weld.positions;
        let (near, between) = self.beside_ring(part, comps);
        let rest: Vec<usize> = (0..comps.len())
            .filter(|&c| {
                matches!(comps[c].origin, Origin::Remainder { .. })
                    && comps[c].welded().iter().any(|&v| near[v as usize])
                    && centroid_ratio(comps[c].welded(), positions, self.dist, self.field)
                        >= self.params.min_centroid_ratio
            })
            .collect();
        if rest.is_empty() {
            return None;
        }
        let mut tube = between;
        for &c in &rest {
            tube = sorted_union(&tube, comps[c].welded());
        }
        let whole = sorted_union(&part.welded, &tube);
        let ring = self.root_ring(&whole);
        let (join, attachment) = self.joins_at(&whole, &ring);
        (self.region_of(attachment, join) == Region::Pelvis)
            .then_some(attachment)
            .flatten()
            .map(|a| (a, tube))
    }

    /// The part's collar ring and the far skin that no candidate holds
    /// reached from it (the neck trim peeling drops between a piece and
    /// the rest of its tube), as marks per welded vertex, and that far
    /// skin itself (sorted).
    fn beside_ring(&self, part: &Growing, comps: &[Component]) -> (Vec<bool>, Vec<u32>) {
        let far = self.params.far_ratio * self.height;
        let mut held = vec![false; self.weld.count()];
        for c in comps {
            c.welded().iter().for_each(|&v| held[v as usize] = true);
        }
        let mut near = vec![false; self.weld.count()];
        let mut between = Vec::new();
        let mut stack: Vec<u32> = part.collar.clone();
        stack.iter().for_each(|&v| near[v as usize] = true);
        while let Some(v) = stack.pop() {
            if held[v as usize] {
                continue;
            }
            if self.dist[v as usize] > far {
                between.push(v);
            }
            for &w in self.graph.neighbors_of(v as usize) {
                let free = !held[w as usize] && self.dist[w as usize] > far;
                if !near[w as usize] && (free || held[w as usize]) {
                    near[w as usize] = true;
                    if free {
                        stack.push(w);
                    }
                }
            }
        }
        between.sort_unstable();
        (near, between)
    }

    /// The joint a long part hangs from when followed back along its own
    /// tube ([`follow_tube`]) to where the tube opens onto the body, if
    /// that joint is in the pelvis region. The far cut crosses a tail
    /// where its skin leaves the far threshold, not where it leaves the
    /// body: on a tail rising steeply off the rump or curling over the back
    /// (or under a fur shell whose own collar is its end nearest a bone)
    /// that crossing lies up the back, past the pelvis share of the trunk,
    /// while the tube's root lies on the rump (corpus seeds 44 and 126: the
    /// part joined at 0.15 and 0.18 of the trunk, the true root at 0.07 and
    /// 0.06). A quiver's or a spike's collar opens onto the back at once:
    /// nothing to follow, its join stays.
    fn tube_joins_pelvis(
        &self,
        welded: &[u32],
        collar: &[u32],
        length: f32,
        taken: &[bool],
    ) -> Option<usize> {
        let positions = &self.weld.positions;
        let tube = follow_tube(
            self.graph,
            positions,
            (welded, collar),
            length,
            taken,
            &|_| true,
            WalkFrom::RootRing,
        );
        if tube.vertices.is_empty() {
            return None;
        }
        let grown = sorted_union(welded, &tube.vertices);
        let ring = self.root_ring(&grown);
        let (join, attachment) = self.joins_at(&grown, &ring);
        (self.region_of(attachment, join) == Region::Pelvis).then_some(attachment).flatten()
    }

    /// The joint the part's chain hangs from. A tail hangs from the pelvis
    /// (where the hind legs meet the trunk) whichever pelvis-region bone is
    /// nearest where it joins the body, unless the pelvis moves no skin and
    /// a trunk joint moves the rump skin at the tail's root (see
    /// [`chain_anchor`]).
    fn hangs_from(
        &self,
        verdict: &mut Verdict,
        attachment: Option<usize>,
        part: &Growing,
        root: Vec3,
    ) -> Option<usize> {
        if verdict.kind != Kind::Tail {
            return attachment;
        }
        let Some(anchor) =
            chain_anchor(self.rig, self.roles, self.weld, &part.welded, &part.collar, root)
        else {
            return attachment;
        };
        let names = self.rig.joint_names();
        let a = anchor.joint;
        match anchor.instead_of_pelvis {
            Some(p) => verdict.reason.push_str(&format!(
                "; the chain hangs from {}, which carries the rump skin where the tail meets \
                 the body (the pelvis {} moves no skin)",
                names[a], names[p]
            )),
            None if attachment != Some(a) => {
                verdict.reason.push_str(&format!("; the chain hangs from the pelvis {}", names[a]))
            }
            None => {}
        }
        Some(a)
    }

    /// The report's measured fields for a part (the caller fills in where
    /// it hangs and how it grew).
    fn report_of(
        &self,
        verdict: Verdict,
        part: &Growing,
        tests: &ShapeTests,
        origin: Origin,
        vertices: Vec<u32>,
    ) -> PartReport {
        let params = self.params;
        let positions = &self.weld.positions;
        let collar_centre = centroid(part.collar.iter().map(|&v| positions[v as usize]));
        let collar_radius = part
            .collar
            .iter()
            .map(|&v| positions[v as usize].distance(collar_centre))
            .fold(0.0f32, f32::max);
        PartReport {
            index: 0,
            kind: verdict.kind,
            decision: verdict.decision,
            reason: verdict.reason,
            attachment: None,
            attachment_joint: None,
            region: Region::Limb,
            vertex_count: vertices.len(),
            welded_vertex_count: part.welded.len(),
            collar_vertex_count: part.collar.len(),
            shells: 0,
            length: part.length,
            length_ratio: part.length / self.height,
            reach: tests.reach,
            collar_radius,
            centroid: tests.centroid.to_array(),
            tests: PartTests {
                centroid_ratio: tests.centroid_ratio,
                centroid_passed: tests.centroid_ratio >= params.min_centroid_ratio,
                elongation: tests.elongation,
                elongation_passed: tests.elongation >= params.min_elongation,
                tube_ratio: tests.tube,
                long: is_long(params, tests.elongation, tests.tube),
            },
            bone_count: 0,
            bones: Vec::new(),
            rigid_joint: None,
            bone_distance_before: 0.0,
            bone_distance_after: None,
            origin: match origin {
                Origin::Far { .. } => "far".into(),
                Origin::Peeled { .. } => "peeled".into(),
                Origin::Remainder { .. } => "remainder".into(),
            },
            cut_level: match origin {
                Origin::Peeled { cut_level, .. } => Some(cut_level),
                _ => None,
            },
            root_vertices: 0,
            contact_vertices: 0,
            handover_vertices: 0,
            handover_width: 0.0,
            rigger_signature: false,
            vertices,
        }
    }
}

/// Body skin a tail's root claimed leaves the parts that held it, so no
/// vertex is listed by two parts: a peel remainder gives up what any other
/// part holds, a part judged body what a part not judged body holds (the
/// rigger's root claims such skin, `Surface::owned_at_root`; the zebra's
/// rump, 57 rig vertices listed twice before). The tail keeps it: its
/// weights are the ones written. A part that gives skin up has its bone
/// distance before measured again over what it keeps, the list its
/// distance after is measured over (the Shiba's part #1 reported 0.524
/// over skin it no longer listed, 0.485 over the 57 vertices it lists;
/// 15 parts of six fixtures differed).
pub(super) fn release_claimed_skin(
    parts: &mut [PartGeometry],
    reports: &mut [PartReport],
    weld: &Weld,
    bones: &mut BoneDistance,
) -> Result<()> {
    let yields = |r: &PartReport| r.origin == "remainder" || r.kind == Kind::Body;
    let mut held = vec![false; weld.count()];
    let mut held_off_body = vec![false; weld.count()];
    for (p, r) in parts.iter().zip(reports.iter()) {
        if r.origin != "remainder" {
            for &v in &p.welded {
                held[v as usize] = true;
                held_off_body[v as usize] |= r.kind != Kind::Body;
            }
        }
    }
    for (p, r) in parts.iter_mut().zip(reports.iter_mut()) {
        if !yields(r) {
            continue;
        }
        let claimed = if r.origin == "remainder" { &held } else { &held_off_body };
        if p.welded.iter().any(|&v| claimed[v as usize]) {
            drop_from_part(p, r, |v| claimed[v as usize], weld, bones)?;
        }
    }
    Ok(())
}

/// `p` without its welded vertices that are `gone`, the geodesic kept in
/// step, and its report's vertex lists and counts with it; its bone
/// distance before is measured again over what it keeps (the list its
/// distance after is measured over).
pub(super) fn drop_from_part(
    p: &mut PartGeometry,
    r: &mut PartReport,
    gone: impl Fn(u32) -> bool,
    weld: &Weld,
    bones: &mut BoneDistance,
) -> Result<()> {
    let keep: Vec<bool> = p.welded.iter().map(|&v| !gone(v)).collect();
    p.geodesic = p.geodesic.iter().zip(&keep).filter(|(_, &k)| k).map(|(g, _)| *g).collect();
    p.welded.retain(|&v| !gone(v));
    r.vertices = rig_vertices(weld, &p.welded);
    r.vertex_count = r.vertices.len();
    r.welded_vertex_count = p.welded.len();
    r.bone_distance_before = bones.mean_noting(&r.vertices)?;
    Ok(())
}

/// The geodesic coordinate of a part made of `group`'s shells (`welded`
/// and `collar` merged): a shell alone hands over the coordinate measured
/// for its covering test ([`Component::take_coordinate`]; each component is
/// in one group, so no other part reads it) when its lists are the merged
/// ones, else it is measured here.
fn coordinate_of(
    surface: &Surface<'_>,
    group: &[usize],
    comps: &mut [Component],
    welded: &[u32],
    collar: &[u32],
) -> (Vec<f32>, f32) {
    let alone = match group {
        [c] if comps[*c].welded() == welded && comps[*c].collar() == collar => {
            comps[*c].take_coordinate()
        }
        _ => None,
    };
    alone.unwrap_or_else(|| surface.geodesic_of(welded, collar))
}
