use std::collections::HashMap;
use std::ops::Range;

use glam::{Mat4, Vec3};

use super::Trs;
use crate::error::{CaudalError, Result};

/// Skin weights of a vertex must sum to one within this tolerance
/// (`normalize` in [`RigParts`] rescales instead of rejecting).
pub const WEIGHT_SUM_TOLERANCE: f32 = 1e-3;

/// A row of weights counts as exactly normalised when its sum (in f64) is
/// this close to one: the rounding of f32 weights, no more.
pub const EXACT_WEIGHT_SUM: f64 = 2e-7;

/// Rescales a row of weights to sum to one as closely as f32 allows: the
/// heaviest weight takes the rounding remainder. Rows already exact are left
/// bit-for-bit alone, so normalising twice changes nothing.
pub fn normalize_weights(ws: &mut [f32]) {
    let sum: f64 = ws.iter().map(|&w| w as f64).sum();
    if (sum - 1.0).abs() <= EXACT_WEIGHT_SUM || sum <= 0.0 {
        return;
    }
    let heaviest = (0..ws.len()).fold(0, |b, i| if ws[i] > ws[b] { i } else { b });
    let mut rest = 1.0f64;
    for (i, w) in ws.iter_mut().enumerate() {
        if i != heaviest {
            *w = (*w as f64 / sum) as f32;
            rest -= *w as f64;
        }
    }
    ws[heaviest] = rest as f32;
}

/// Skin influences in compressed rows: vertex `v` is moved by
/// `joints[offsets[v]..offsets[v+1]]` with the matching `weights`. Any count
/// per vertex, including more than glTF's four per attribute set.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Influences {
    /// Row starts: vertex `v`'s influences are `offsets[v]..offsets[v + 1]` (one more entry than vertices).
    pub offsets: Vec<u32>,
    /// Joint of each influence.
    pub joints: Vec<u32>,
    /// Weight of each influence (in a rig, each vertex's sum to one).
    pub weights: Vec<f32>,
}

impl Influences {
    /// From padded per-vertex rows (`k` slots a vertex, weight 0 = unused).
    pub fn from_padded(joints: &[u32], weights: &[f32], k: usize) -> Self {
        let n = joints.len().checked_div(k).unwrap_or(0);
        let mut out = Influences { offsets: Vec::with_capacity(n + 1), ..Default::default() };
        out.offsets.push(0);
        for v in 0..n {
            for s in 0..k {
                let w = weights[v * k + s];
                if w != 0.0 {
                    out.joints.push(joints[v * k + s]);
                    out.weights.push(w);
                }
            }
            out.offsets.push(out.joints.len() as u32);
        }
        out
    }

    /// One joint per vertex with weight 1.
    pub fn rigid(joint_of_vertex: &[u32]) -> Self {
        Influences {
            offsets: (0..=joint_of_vertex.len() as u32).collect(),
            joints: joint_of_vertex.to_vec(),
            weights: vec![1.0; joint_of_vertex.len()],
        }
    }

    /// Number of vertices (rows).
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The joints and weights of vertex `v`.
    #[inline]
    pub fn of(&self, v: usize) -> (&[u32], &[f32]) {
        let (a, b) = (self.offsets[v] as usize, self.offsets[v + 1] as usize);
        (&self.joints[a..b], &self.weights[a..b])
    }

    /// Largest number of influences on one vertex.
    pub fn max_count(&self) -> usize {
        self.offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// Padded rows sorted by weight, heaviest first: `(joints, weights, k)`.
    pub fn to_padded(&self, k: usize) -> (Vec<u32>, Vec<f32>) {
        let n = self.vertex_count();
        let mut js = vec![0u32; n * k];
        let mut ws = vec![0f32; n * k];
        let mut row: Vec<(u32, f32)> = Vec::new();
        for v in 0..n {
            let (j, w) = self.of(v);
            row.clear();
            row.extend(j.iter().copied().zip(w.iter().copied()));
            row.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (s, &(jj, ww)) in row.iter().take(k).enumerate() {
                js[v * k + s] = jj;
                ws[v * k + s] = ww;
            }
        }
        (js, ws)
    }

    /// The joint carrying most of vertex `v`: its weights summed per joint
    /// (glTF lets a file list one joint in two slots of a row, and a row
    /// read slot by slot would then lose it to a lighter joint), the lower
    /// index on a tie (see `heaviest`).
    pub fn dominant_joint(&self, v: usize) -> u32 {
        self.dominant_by(v, |j| j)
    }

    /// The owner carrying most of vertex `v` when each joint's weight is
    /// read as `owner`'s (the roles read a tail chain's joints as the joint
    /// the chain hangs from, [`crate::rig::roles::SkinReading`]): the
    /// vertex's weights summed per owner, in row order, and the heaviest
    /// owner taken by the same rule as [`Self::dominant_joint`]. Sums in
    /// place (a row holds a handful of joints), so no buffer per vertex;
    /// plain loops over the row (the iterator chains cost three times as
    /// much, a twentieth of detection on a 200k-vertex mesh).
    pub fn dominant_by(&self, v: usize, owner: impl Fn(u32) -> u32) -> u32 {
        let (j, w) = self.of(v);
        // Most of a skin's vertices have one influence: its owner is the
        // answer (the sum below is `0.0 + w`, which [`heaviest`] takes over
        // its start whenever `w` is above minus infinity), with no search
        // for the owner's other slots.
        if let ([j0], [w0]) = (j, w) {
            if *w0 > f32::NEG_INFINITY {
                return owner(*j0);
            }
        }
        let owners = (0..j.len()).filter_map(|i| {
            let o = owner(j[i]);
            // Each owner once, at its first place in the row.
            if j[..i].iter().any(|&p| owner(p) == o) {
                return None;
            }
            let mut sum = 0.0;
            for k in i..j.len() {
                if owner(j[k]) == o {
                    sum += w[k];
                }
            }
            Some((o, sum))
        });
        heaviest(owners)
    }
}

/// The joint of the largest weight among `(joint, weight)` pairs, the lower
/// index on a tie (so the choice does not depend on the order the file
/// lists a row's joints in); joint 0 for an empty row. The one tie rule of
/// [`Influences::dominant_joint`] and [`Influences::dominant_by`].
fn heaviest(row: impl Iterator<Item = (u32, f32)>) -> u32 {
    row.fold((0u32, f32::NEG_INFINITY), |best, (j, w)| {
        if w > best.1 || (w == best.1 && j < best.0) {
            (j, w)
        } else {
            best
        }
    })
    .0
}

/// The plain, unvalidated parts of a rig. [`Rig::new`] checks them.
#[derive(Clone, Debug, Default)]
pub struct RigParts {
    /// Bind-pose vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles as vertex indices (none for a point cloud).
    pub triangles: Vec<[u32; 3]>,
    /// The skin weights, one row per vertex.
    pub influences: Influences,
    /// Joint names, unique.
    pub joint_names: Vec<String>,
    /// Each joint's parent (`None` at a root).
    pub parents: Vec<Option<usize>>,
    /// Joint world matrices at the bind pose. Either this or
    /// `inverse_bind` must be given; the other is derived.
    pub bind_world: Option<Vec<Mat4>>,
    /// The inverse of each joint's bind world matrix (the glTF inverse bind).
    pub inverse_bind: Option<Vec<Mat4>>,
    /// Rest (default node) pose locals; derived from the bind pose if absent.
    pub rest_local: Option<Vec<Trs>>,
    /// Rescale each vertex's weights to sum to one instead of rejecting them.
    pub normalize: bool,
}

/// A validated rig table in bind space. Immutable: every stage returns a new
/// rig instead of changing this one.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    influences: Influences,
    joint_names: Vec<String>,
    parents: Vec<Option<usize>>,
    bind_world: Vec<Mat4>,
    inverse_bind: Vec<Mat4>,
    rest_local: Vec<Trs>,
    order: Vec<usize>,
}

fn check_finite_vec3(field: &str, v: &[Vec3]) -> Result<()> {
    match v.iter().position(|p| !p.is_finite()) {
        Some(i) => Err(CaudalError::NonFinite { field: field.into(), index: i }),
        None => Ok(()),
    }
}

/// A mesh caudal can measure: a finite bounding box with a height (every
/// threshold is relative to the height `H` along Y, the diagonal to the
/// box), and, unless it is a point cloud (no triangles at all), at least one
/// triangle with an area. A triangle counts as degenerate below `1e-12` of
/// the squared diagonal: f32 positions carry about 7 digits, so a smaller
/// cross product is rounding, not area.
fn check_measurable(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<()> {
    let (lo, hi) = vertices
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    let extent = hi - lo;
    let diagonal = extent.length();
    if !diagonal.is_finite() {
        return Err(CaudalError::shape(
            "vertices",
            format!("the bind-pose extent {extent} overflows f32 (positions from {lo} to {hi}): not a finite extent to measure against"),
        ));
    }
    if extent.y <= 0.0 {
        return Err(CaudalError::shape(
            "vertices",
            format!("zero height: every vertex lies at y = {} (Y is up; caudal's thresholds are relative to the model height)", lo.y),
        ));
    }
    let min_area2 = 1e-12 * (diagonal as f64).powi(2);
    let has_area = triangles.iter().any(|t| {
        let [a, b, c] = t.map(|i| vertices[i as usize].as_dvec3());
        (b - a).cross(c - a).length() > min_area2
    });
    if !triangles.is_empty() && !has_area {
        return Err(CaudalError::shape(
            "triangles",
            format!("all {} triangles are degenerate (zero area)", triangles.len()),
        ));
    }
    Ok(())
}

/// Bind and inverse bind matrices given together must agree: each inverse
/// bind matrix within `1e-3` (relative to its largest entry, at least 1)
/// of its bind matrix's inverse. f32 inverses of real rigs agree to about
/// 1e-6; a larger gap is a contradiction, and taking either silently would
/// skin with one and measure with the other.
fn check_bind_pair(bind_world: &[Mat4], inverse_bind: &[Mat4], names: &[String]) -> Result<()> {
    for (j, (b, ib)) in bind_world.iter().zip(inverse_bind).enumerate() {
        let want = b.inverse();
        let scale = want.to_cols_array().iter().fold(1.0f32, |m, x| m.max(x.abs()));
        let off = (want - *ib).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
        if off.is_nan() || off > 1e-3 * scale {
            return Err(CaudalError::param(
                "inverse_bind",
                format!(
                    "joint {:?}: inverse_bind_matrices is not the inverse of bind_matrices (off by {off}); pass one of them, or both in agreement",
                    names[j]
                ),
            ));
        }
    }
    Ok(())
}

fn check_finite_mat(field: &str, m: &[Mat4]) -> Result<()> {
    match m.iter().position(|p| !p.is_finite()) {
        Some(i) => Err(CaudalError::NonFinite { field: field.into(), index: i }),
        None => Ok(()),
    }
}

/// Parents before children; errors on cycles and bad indices.
fn topological_order(names: &[String], parents: &[Option<usize>]) -> Result<Vec<usize>> {
    let n = parents.len();
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            if p >= n {
                return Err(CaudalError::IndexOutOfRange {
                    field: "parents".into(),
                    index: i,
                    value: p as i64,
                    bound: n,
                });
            }
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, p) in parents.iter().enumerate() {
        match p {
            Some(p) => children[*p].push(i),
            None => roots.push(i),
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(j) = stack.pop() {
        order.push(j);
        stack.extend(children[j].iter().rev());
    }
    if order.len() != n {
        let mut seen = vec![false; n];
        for &j in &order {
            seen[j] = true;
        }
        let j = seen.iter().position(|s| !s).unwrap_or(0);
        return Err(CaudalError::CyclicParents {
            joint: names.get(j).cloned().unwrap_or_else(|| j.to_string()),
        });
    }
    Ok(order)
}

/// An error naming `field` when entry `index` holds `value`, not below `bound`.
pub(super) fn check_index(field: &str, index: usize, value: usize, bound: usize) -> Result<()> {
    if value >= bound {
        return Err(CaudalError::IndexOutOfRange {
            field: field.into(),
            index,
            value: value as i64,
            bound,
        });
    }
    Ok(())
}

/// Checks the bind-pose mesh: vertices present and finite, triangle
/// corners in range, an extent to measure.
fn check_mesh(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<()> {
    let n = vertices.len();
    if n == 0 {
        return Err(CaudalError::EmptyMesh {
            field: "vertices".into(),
            message: "no vertices".into(),
        });
    }
    // No triangles is a point cloud: enough for skinning and the surface
    // solve; the stages that read the surface ask for it
    // (`require_triangles`).
    check_finite_vec3("vertices", vertices)?;
    for (t, tri) in triangles.iter().enumerate() {
        for &i in tri {
            check_index("triangles", t, i as usize, n)?;
        }
    }
    check_measurable(vertices, triangles)
}

/// Checks the joints (at least one, one parent each, unique names, a
/// forest) and returns them parents first.
fn check_joints(joint_names: &[String], parents: &[Option<usize>]) -> Result<Vec<usize>> {
    let jn = joint_names.len();
    if jn == 0 {
        return Err(CaudalError::shape("joint_names", "a rig needs at least one joint"));
    }
    if parents.len() != jn {
        return Err(CaudalError::shape(
            "parents",
            format!("{} parents for {} joints", parents.len(), jn),
        ));
    }
    let mut seen = HashMap::with_capacity(jn);
    for name in joint_names {
        if seen.insert(name.as_str(), ()).is_some() {
            return Err(CaudalError::DuplicateName { name: name.clone() });
        }
    }
    topological_order(joint_names, parents)
}

/// The bind world matrices and their inverses, from either or both (which
/// must then agree). What was given is checked before the other is
/// derived: a singular matrix would otherwise surface as a NaN in a field
/// the caller never passed.
fn bind_pair(
    bind_world: Option<Vec<Mat4>>,
    inverse_bind: Option<Vec<Mat4>>,
    joint_names: &[String],
) -> Result<(Vec<Mat4>, Vec<Mat4>)> {
    let jn = joint_names.len();
    for (field, m) in [("bind_matrices", &bind_world), ("inverse_bind_matrices", &inverse_bind)] {
        let Some(m) = m else { continue };
        if m.len() != jn {
            return Err(CaudalError::shape(
                field,
                format!("{} matrices for {} joints", m.len(), jn),
            ));
        }
        check_finite_mat(field, m)?;
        if let Some(j) = m.iter().position(|x| x.determinant().abs() < 1e-12) {
            return Err(CaudalError::Parameter {
                field: field.into(),
                message: format!("matrix of joint {:?} is singular", joint_names[j]),
            });
        }
    }
    match (bind_world, inverse_bind) {
        (Some(b), Some(ib)) => {
            check_bind_pair(&b, &ib, joint_names)?;
            Ok((b, ib))
        }
        (Some(b), None) => {
            let ib = b.iter().map(|m| m.inverse()).collect();
            Ok((b, ib))
        }
        (None, Some(ib)) => {
            let b = ib.iter().map(|m| m.inverse()).collect();
            Ok((b, ib))
        }
        (None, None) => Err(CaudalError::shape(
            "bind_matrices",
            "either bind world matrices or inverse bind matrices are required",
        )),
    }
}

/// Checks the skin weights of `n` vertices over `jn` joints: rows that
/// cover the table, joints in range, finite non-negative weights, every
/// vertex influenced and (unless `normalize` rescales them) summing to one.
/// `only`: check the rows of these vertices (sorted) and no others, the
/// rest known good (a rig's own rows kept in a new table); the first
/// fault found among them is the one a check of every row would report.
fn check_influences(
    influences: &mut Influences,
    n: usize,
    jn: usize,
    normalize: bool,
    only: Option<&[u32]>,
) -> Result<()> {
    if influences.offsets.len() != n + 1 {
        return Err(CaudalError::shape(
            "skin_joints",
            format!("{} rows for {} vertices", influences.offsets.len().saturating_sub(1), n),
        ));
    }
    if influences.joints.len() != influences.weights.len() {
        return Err(CaudalError::shape("skin_weights", "joint and weight counts differ"));
    }
    if influences.offsets[0] != 0
        || influences.offsets.windows(2).any(|w| w[1] < w[0])
        || *influences.offsets.last().unwrap() as usize != influences.joints.len()
    {
        return Err(CaudalError::shape(
            "skin_joints",
            "row offsets are not increasing or do not cover the rows",
        ));
    }
    match only {
        // Every row: the table's entries in one span each pass.
        None => {
            let all = std::iter::once(0..influences.joints.len());
            check_rows(influences, 0..n, all, jn, normalize)
        }
        Some(rows) => {
            let offsets = &influences.offsets;
            let spans: Vec<Range<usize>> = rows
                .iter()
                .map(|&v| offsets[v as usize] as usize..offsets[v as usize + 1] as usize)
                .collect();
            check_rows(influences, rows.iter().map(|&v| v as usize), spans, jn, normalize)
        }
    }
}

/// [`check_influences`]' checks of the entries in `spans` (the rows', in
/// order) and of the sums of `rows`: every joint first, then every weight,
/// then the sums, as a check of the whole table finds the first fault.
fn check_rows(
    influences: &mut Influences,
    rows: impl Iterator<Item = usize>,
    spans: impl IntoIterator<Item = Range<usize>> + Clone,
    jn: usize,
    normalize: bool,
) -> Result<()> {
    for span in spans.clone() {
        for i in span {
            check_index("skin_joints", i, influences.joints[i] as usize, jn)?;
        }
    }
    for span in spans {
        for i in span {
            let w = influences.weights[i];
            if !w.is_finite() {
                return Err(CaudalError::NonFinite { field: "skin_weights".into(), index: i });
            }
            if w < 0.0 {
                return Err(CaudalError::Weights {
                    field: "skin_weights".into(),
                    message: format!("negative weight {w} at position {i}"),
                });
            }
        }
    }
    for v in rows {
        let (a, b) = (influences.offsets[v] as usize, influences.offsets[v + 1] as usize);
        let sum: f32 = influences.weights[a..b].iter().sum();
        if sum <= 1e-8 {
            return Err(CaudalError::Weights {
                field: "skin_weights".into(),
                message: format!("vertex {v} has weights summing to 0 (no influence)"),
            });
        }
        if normalize {
            normalize_weights(&mut influences.weights[a..b]);
        } else if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
            return Err(CaudalError::Weights {
                field: "skin_weights".into(),
                message: format!(
                    "weights of vertex {v} sum to {sum} (must be 1 within {WEIGHT_SUM_TOLERANCE}; pass normalize=True to rescale)"
                ),
            });
        }
    }
    Ok(())
}

/// The rest pose's locals: the given ones, checked, else the bind pose's.
fn rest_locals(
    rest_local: Option<Vec<Trs>>,
    parents: &[Option<usize>],
    bind_world: &[Mat4],
) -> Result<Vec<Trs>> {
    let Some(r) = rest_local else { return Ok(neutral_locals(parents, bind_world)) };
    if r.len() != parents.len() {
        return Err(CaudalError::shape(
            "rest_translations",
            format!("{} rest transforms for {} joints", r.len(), parents.len()),
        ));
    }
    if let Some(i) = r.iter().position(|t| !t.is_finite()) {
        return Err(CaudalError::NonFinite { field: "rest_translations".into(), index: i });
    }
    Ok(r)
}

impl Rig {
    /// A checked rig from its parts: the mesh, the joints, the bind pair,
    /// the skin weights (normalised when asked), then the rest pose.
    pub fn new(parts: RigParts) -> Result<Rig> {
        check_mesh(&parts.vertices, &parts.triangles)?;
        Rig::with_checked_mesh(parts, None)
    }

    /// [`Rig::new`] for parts that keep this rig's mesh and its skin rows
    /// but those of the vertices `replaced` (sorted), with new joints
    /// appended after its own: the mesh and the kept rows were checked
    /// when this rig was built, so a mesh equal to it is not checked again
    /// (a pass over every vertex and triangle corner, a twentieth of
    /// growing a 200k-vertex creature's chain), nor are the kept rows
    /// (every weight and row sum: a twenty-fifth of growing the Wolf's).
    /// Parts with another mesh or fewer joints are checked in full.
    pub(crate) fn with_mesh_of(&self, parts: RigParts, replaced: &[u32]) -> Result<Rig> {
        if parts.vertices != self.vertices
            || parts.triangles != self.triangles
            || parts.joint_names.len() < self.joint_names.len()
        {
            return Rig::new(parts);
        }
        Rig::with_checked_mesh(parts, Some(replaced))
    }

    /// [`Rig::new`] after its mesh check: the joints, the bind pair, the
    /// skin weights (`only` these vertices' rows, see [`check_influences`]),
    /// the rest pose.
    fn with_checked_mesh(parts: RigParts, only: Option<&[u32]>) -> Result<Rig> {
        let RigParts {
            vertices,
            triangles,
            mut influences,
            joint_names,
            parents,
            bind_world,
            inverse_bind,
            rest_local,
            normalize,
        } = parts;
        let order = check_joints(&joint_names, &parents)?;
        let (bind_world, inverse_bind) = bind_pair(bind_world, inverse_bind, &joint_names)?;
        check_influences(&mut influences, vertices.len(), joint_names.len(), normalize, only)?;
        let rest_local = rest_locals(rest_local, &parents, &bind_world)?;
        Ok(Rig {
            vertices,
            triangles,
            influences,
            joint_names,
            parents,
            bind_world,
            inverse_bind,
            rest_local,
            order,
        })
    }

    /// The rig's parts, to change one and build a new rig with [`Rig::new`].
    pub fn to_parts(&self) -> RigParts {
        self.to_parts_with(self.influences.clone())
    }

    /// The rig's parts with the skin weights `influences` in place of its
    /// own (which are not copied).
    pub(crate) fn to_parts_with(&self, influences: Influences) -> RigParts {
        RigParts {
            vertices: self.vertices.clone(),
            triangles: self.triangles.clone(),
            influences,
            joint_names: self.joint_names.clone(),
            parents: self.parents.clone(),
            bind_world: Some(self.bind_world.clone()),
            inverse_bind: Some(self.inverse_bind.clone()),
            rest_local: Some(self.rest_local.clone()),
            normalize: false,
        }
    }

    /// Bind-pose vertex positions.
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }
    /// Triangles as vertex indices (empty for a point cloud).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }
    /// The skin weights.
    pub fn influences(&self) -> &Influences {
        &self.influences
    }
    /// Joint names.
    pub fn joint_names(&self) -> &[String] {
        &self.joint_names
    }
    /// Each joint's parent (`None` at a root).
    pub fn parents(&self) -> &[Option<usize>] {
        &self.parents
    }
    /// Each joint's world matrix at the bind pose.
    pub fn bind_world(&self) -> &[Mat4] {
        &self.bind_world
    }
    /// The inverse of each joint's bind world matrix.
    pub fn inverse_bind(&self) -> &[Mat4] {
        &self.inverse_bind
    }
    /// The rest pose's local transforms (the file's default node pose).
    pub fn rest_local(&self) -> &[Trs] {
        &self.rest_local
    }
    /// Joint indices with every parent before its children.
    pub fn topological_order(&self) -> &[usize] {
        &self.order
    }
    /// An error naming `stage` when the rig has no triangles (a point
    /// cloud skins and solves, but has no surface to detect or measure on).
    pub fn require_triangles(&self, stage: &str) -> Result<()> {
        if self.triangles.is_empty() {
            return Err(CaudalError::EmptyMesh {
                field: "triangles".into(),
                message: format!("{stage} needs the rig's triangles; this rig is a point cloud"),
            });
        }
        Ok(())
    }
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.joint_names.len()
    }

    /// The joint called `name`, if there is one.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joint_names.iter().position(|n| n == name)
    }

    /// Like [`Rig::joint_index`] but an unknown name is an error naming `field`.
    pub fn require_joint(&self, field: &str, name: &str) -> Result<usize> {
        self.joint_index(name)
            .ok_or_else(|| CaudalError::UnknownJoint { field: field.into(), name: name.into() })
    }

    /// True when this rig is `base` with joints appended (what growing a
    /// chain makes): the same vertices, and `base`'s joints first, in order,
    /// with the same names and parents.
    pub fn appends_to(&self, base: &Rig) -> bool {
        let j = base.joint_count();
        self.vertex_count() == base.vertex_count()
            && self.joint_count() >= j
            && self.joint_names[..j] == base.joint_names[..]
            && self.parents[..j] == base.parents[..]
    }

    /// The joints whose parent is `j`, in index order.
    pub fn children(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        self.parents.iter().enumerate().filter(move |(_, p)| **p == Some(j)).map(|(i, _)| i)
    }

    /// Bind-pose bounding box of the mesh.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.vertices
            .iter()
            .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            })
    }

    /// Model height `H`: the bind-pose extent along the up (Y) axis.
    pub fn height(&self) -> f32 {
        let (lo, hi) = self.bounds();
        hi.y - lo.y
    }

    /// Length of the bind-pose bounding-box diagonal.
    pub fn diagonal(&self) -> f32 {
        let (lo, hi) = self.bounds();
        (hi - lo).length()
    }

    /// Joint positions at the bind pose.
    pub fn bind_heads(&self) -> Vec<Vec3> {
        self.bind_world.iter().map(|m| m.w_axis.truncate()).collect()
    }

    /// Neutral locals rebuilt from the bind matrices (SPEC S6): a loaded
    /// node pose may hold an exported pose that is not the neutral one.
    pub fn bind_locals(&self) -> Vec<Trs> {
        neutral_locals(&self.parents, &self.bind_world)
    }
}

/// `L_i = (W_parent)^-1 W_i`, decomposed.
fn neutral_locals(parents: &[Option<usize>], bind_world: &[Mat4]) -> Vec<Trs> {
    parents
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let m = match p {
                Some(p) => bind_world[*p].inverse() * bind_world[j],
                None => bind_world[j],
            };
            Trs::from_matrix(&m)
        })
        .collect()
}
