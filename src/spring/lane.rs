//! Lane arithmetic for the solver. The substep is written once over
//! `L: Lane` and runs either on one chain (`f32`) or on four chains side by
//! side (`F32x4`, one chain per SIMD lane, used by `step_many`). Each
//! operation is the same IEEE operation in both forms (add, sub, mul, div,
//! sqrt are correctly rounded; compare, select, abs, neg are exact; min and
//! max follow one rule, SSE's), and nothing is fused or reassociated, so a
//! chain comes out bit for bit the same in a lane as stepped alone.
//!
//! Four f32 lanes are what SSE2 gives on every x86_64 CPU, so the wheel
//! needs no `target-cpu`; other targets use a plain array with the same
//! per-lane rules.

use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

pub(crate) trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    type Mask: Copy
        + std::fmt::Debug
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;
    /// Chains stepped at once.
    const WIDTH: usize;
    fn splat(x: f32) -> Self;
    /// Lane `i` set to `f(i)`.
    fn from_fn(f: impl Fn(usize) -> f32) -> Self;
    fn lane(self, i: usize) -> f32;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
    /// `self < o ? self : o` per lane (SSE `minps`).
    fn min(self, o: Self) -> Self;
    /// `self > o ? self : o` per lane (SSE `maxps`).
    fn max(self, o: Self) -> Self;
    fn lt(self, o: Self) -> Self::Mask;
    fn gt(self, o: Self) -> Self::Mask;
    fn ge(self, o: Self) -> Self::Mask;
    /// `m ? a : b` per lane.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Whether any lane is set: rare corrections (contact, stop,
    /// degenerate swings) run only when some chain needs them.
    fn any(m: Self::Mask) -> bool;
    fn mask_lane(m: Self::Mask, i: usize) -> bool;
    fn no_lanes() -> Self::Mask;

    #[inline(always)]
    fn recip(self) -> Self {
        Self::splat(1.0) / self
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        self.max(Self::splat(lo)).min(Self::splat(hi))
    }
}

impl Lane for f32 {
    type Mask = bool;
    const WIDTH: usize = 1;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        x
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> f32) -> Self {
        f(0)
    }
    #[inline(always)]
    fn lane(self, _: usize) -> f32 {
        self
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        if self < o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        if self > o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn lt(self, o: Self) -> bool {
        self < o
    }
    #[inline(always)]
    fn gt(self, o: Self) -> bool {
        self > o
    }
    #[inline(always)]
    fn ge(self, o: Self) -> bool {
        self >= o
    }
    #[inline(always)]
    fn select(m: bool, a: Self, b: Self) -> Self {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn mask_lane(m: bool, _: usize) -> bool {
        m
    }
    #[inline(always)]
    fn no_lanes() -> bool {
        false
    }
}

pub(crate) use simd::F32x4;

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // SSE2 intrinsics are safe to call on newer compilers only
mod simd {
    use std::arch::x86_64::*;
    use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

    use super::Lane;

    /// Four f32 lanes in one SSE register.
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub(crate) struct F32x4(__m128);

    /// All-ones or all-zeros per lane.
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub(crate) struct M32x4(__m128);

    macro_rules! binop {
        ($tr:ident, $f:ident, $ty:ident, $intr:ident) => {
            impl $tr for $ty {
                type Output = $ty;
                #[inline(always)]
                fn $f(self, o: $ty) -> $ty {
                    $ty(unsafe { $intr(self.0, o.0) })
                }
            }
        };
    }
    binop!(Add, add, F32x4, _mm_add_ps);
    binop!(Sub, sub, F32x4, _mm_sub_ps);
    binop!(Mul, mul, F32x4, _mm_mul_ps);
    binop!(Div, div, F32x4, _mm_div_ps);
    binop!(BitAnd, bitand, M32x4, _mm_and_ps);
    binop!(BitOr, bitor, M32x4, _mm_or_ps);

    impl Neg for F32x4 {
        type Output = F32x4;
        #[inline(always)]
        fn neg(self) -> F32x4 {
            // A sign flip, like scalar negation (0 - x would turn -0 into +0).
            F32x4(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
        }
    }
    impl Not for M32x4 {
        type Output = M32x4;
        #[inline(always)]
        fn not(self) -> M32x4 {
            M32x4(unsafe { _mm_xor_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(-1))) })
        }
    }

    impl Lane for F32x4 {
        type Mask = M32x4;
        const WIDTH: usize = 4;
        #[inline(always)]
        fn splat(x: f32) -> Self {
            F32x4(unsafe { _mm_set1_ps(x) })
        }
        #[inline(always)]
        fn from_fn(f: impl Fn(usize) -> f32) -> Self {
            F32x4(unsafe { _mm_setr_ps(f(0), f(1), f(2), f(3)) })
        }
        #[inline(always)]
        fn lane(self, i: usize) -> f32 {
            let mut a = [0.0f32; 4];
            unsafe { _mm_storeu_ps(a.as_mut_ptr(), self.0) };
            a[i]
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            F32x4(unsafe { _mm_sqrt_ps(self.0) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            F32x4(unsafe { _mm_andnot_ps(_mm_set1_ps(-0.0), self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            F32x4(unsafe { _mm_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            F32x4(unsafe { _mm_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> M32x4 {
            M32x4(unsafe { _mm_cmplt_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn gt(self, o: Self) -> M32x4 {
            M32x4(unsafe { _mm_cmpgt_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn ge(self, o: Self) -> M32x4 {
            M32x4(unsafe { _mm_cmpge_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn select(m: M32x4, a: Self, b: Self) -> Self {
            F32x4(unsafe { _mm_or_ps(_mm_and_ps(m.0, a.0), _mm_andnot_ps(m.0, b.0)) })
        }
        #[inline(always)]
        fn any(m: M32x4) -> bool {
            unsafe { _mm_movemask_ps(m.0) != 0 }
        }
        #[inline(always)]
        fn mask_lane(m: M32x4, i: usize) -> bool {
            unsafe { _mm_movemask_ps(m.0) >> i & 1 == 1 }
        }
        #[inline(always)]
        fn no_lanes() -> M32x4 {
            M32x4(unsafe { _mm_setzero_ps() })
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod simd {
    use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

    use super::Lane;

    /// Four f32 lanes, each following the scalar rules (the compiler is
    /// free to vectorise; the results cannot differ).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct F32x4([f32; 4]);

    #[derive(Clone, Copy, Debug)]
    pub(crate) struct M32x4([bool; 4]);

    macro_rules! binop {
        ($tr:ident, $f:ident, $ty:ident, $op:tt) => {
            impl $tr for $ty {
                type Output = $ty;
                #[inline(always)]
                fn $f(self, o: $ty) -> $ty {
                    $ty(std::array::from_fn(|i| self.0[i] $op o.0[i]))
                }
            }
        };
    }
    binop!(Add, add, F32x4, +);
    binop!(Sub, sub, F32x4, -);
    binop!(Mul, mul, F32x4, *);
    binop!(Div, div, F32x4, /);
    binop!(BitAnd, bitand, M32x4, &);
    binop!(BitOr, bitor, M32x4, |);

    impl Neg for F32x4 {
        type Output = F32x4;
        #[inline(always)]
        fn neg(self) -> F32x4 {
            F32x4(self.0.map(|x| -x))
        }
    }
    impl Not for M32x4 {
        type Output = M32x4;
        #[inline(always)]
        fn not(self) -> M32x4 {
            M32x4(self.0.map(|x| !x))
        }
    }

    impl Lane for F32x4 {
        type Mask = M32x4;
        const WIDTH: usize = 4;
        fn splat(x: f32) -> Self {
            F32x4([x; 4])
        }
        fn from_fn(f: impl Fn(usize) -> f32) -> Self {
            F32x4(std::array::from_fn(f))
        }
        fn lane(self, i: usize) -> f32 {
            self.0[i]
        }
        fn sqrt(self) -> Self {
            F32x4(self.0.map(f32::sqrt))
        }
        fn abs(self) -> Self {
            F32x4(self.0.map(f32::abs))
        }
        fn min(self, o: Self) -> Self {
            F32x4(std::array::from_fn(|i| Lane::min(self.0[i], o.0[i])))
        }
        fn max(self, o: Self) -> Self {
            F32x4(std::array::from_fn(|i| Lane::max(self.0[i], o.0[i])))
        }
        fn lt(self, o: Self) -> M32x4 {
            M32x4(std::array::from_fn(|i| self.0[i] < o.0[i]))
        }
        fn gt(self, o: Self) -> M32x4 {
            M32x4(std::array::from_fn(|i| self.0[i] > o.0[i]))
        }
        fn ge(self, o: Self) -> M32x4 {
            M32x4(std::array::from_fn(|i| self.0[i] >= o.0[i]))
        }
        fn select(m: M32x4, a: Self, b: Self) -> Self {
            F32x4(std::array::from_fn(|i| if m.0[i] { a.0[i] } else { b.0[i] }))
        }
        fn any(m: M32x4) -> bool {
            m.0.iter().any(|x| *x)
        }
        fn mask_lane(m: M32x4, i: usize) -> bool {
            m.0[i]
        }
        fn no_lanes() -> M32x4 {
            M32x4([false; 4])
        }
    }
}

/// Eight chains as two four-lane registers. One chain's substep is a long
/// dependency chain (each link waits for its parent's frame), so a single
/// register of four chains still leaves the CPU waiting; two independent
/// registers fill those waits. Each lane follows the same rules as above.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair<L>(L, L);

macro_rules! pair_op {
    ($tr:ident, $f:ident) => {
        impl<L: Lane> std::ops::$tr for Pair<L> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Pair(self.0.$f(o.0), self.1.$f(o.1))
            }
        }
    };
}
pair_op!(Add, add);
pair_op!(Sub, sub);
pair_op!(Mul, mul);
pair_op!(Div, div);

impl<L: Lane> Neg for Pair<L> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Pair(-self.0, -self.1)
    }
}

/// The masks of a [`Pair`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairMask<M>(M, M);

impl<M: BitAnd<Output = M>> BitAnd for PairMask<M> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        PairMask(self.0 & o.0, self.1 & o.1)
    }
}
impl<M: BitOr<Output = M>> BitOr for PairMask<M> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        PairMask(self.0 | o.0, self.1 | o.1)
    }
}
impl<M: Not<Output = M>> Not for PairMask<M> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        PairMask(!self.0, !self.1)
    }
}

impl<L: Lane> Lane for Pair<L> {
    type Mask = PairMask<L::Mask>;
    const WIDTH: usize = 2 * L::WIDTH;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Pair(L::splat(x), L::splat(x))
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> f32) -> Self {
        Pair(L::from_fn(&f), L::from_fn(|i| f(i + L::WIDTH)))
    }
    #[inline(always)]
    fn lane(self, i: usize) -> f32 {
        if i < L::WIDTH {
            self.0.lane(i)
        } else {
            self.1.lane(i - L::WIDTH)
        }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Pair(self.0.sqrt(), self.1.sqrt())
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Pair(self.0.abs(), self.1.abs())
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Pair(self.0.min(o.0), self.1.min(o.1))
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Pair(self.0.max(o.0), self.1.max(o.1))
    }
    #[inline(always)]
    fn lt(self, o: Self) -> Self::Mask {
        PairMask(self.0.lt(o.0), self.1.lt(o.1))
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self::Mask {
        PairMask(self.0.gt(o.0), self.1.gt(o.1))
    }
    #[inline(always)]
    fn ge(self, o: Self) -> Self::Mask {
        PairMask(self.0.ge(o.0), self.1.ge(o.1))
    }
    #[inline(always)]
    fn select(m: Self::Mask, a: Self, b: Self) -> Self {
        Pair(L::select(m.0, a.0, b.0), L::select(m.1, a.1, b.1))
    }
    #[inline(always)]
    fn any(m: Self::Mask) -> bool {
        L::any(m.0) || L::any(m.1)
    }
    #[inline(always)]
    fn mask_lane(m: Self::Mask, i: usize) -> bool {
        if i < L::WIDTH {
            L::mask_lane(m.0, i)
        } else {
            L::mask_lane(m.1, i - L::WIDTH)
        }
    }
    #[inline(always)]
    fn no_lanes() -> Self::Mask {
        PairMask(L::no_lanes(), L::no_lanes())
    }
}

/// Eight chains at once.
pub(crate) type F32x8 = Pair<F32x4>;
