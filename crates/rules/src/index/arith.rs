//! The arithmetic of ranks: combinations in colex order, binomials, and division by a tier's radices by multiplication.

/// The largest unranking table: 2^16 combinations (512 KiB).
pub(super) const TABLE_ENTRIES: u64 = 1 << 16;
/// Tables for groups of up to this many pieces.
pub(super) const TABLE_PIECES: usize = 16;

/// Every `k`-subset of `0..n` as a bit set, in colex order: increasing numbers
/// with `k` bits set (Gosper's next-combination step), which is colex order.
pub(super) fn colex_table(n: u32, k: u32) -> Vec<u64> {
    let mut out = Vec::new();
    let mut set: u64 = (1u64 << k) - 1;
    let limit = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    while set <= limit {
        out.push(set);
        let low = set & set.wrapping_neg();
        let ripple = set.wrapping_add(low);
        if ripple == 0 {
            break; // the last subset of 64 cells
        }
        set = (((ripple ^ set) >> 2) / low) | ripple;
    }
    out
}

/// The multiplier of [`div_rem`] for a divisor `d`: ⌈2^64 / d⌉ for `d` from 2
/// to 2^32 − 1, else 0 (divide).
pub(super) fn magic(d: u64) -> u64 {
    if (2..1 << 32).contains(&d) {
        u64::MAX / d + 1
    } else {
        0
    }
}

/// `(x / d, x % d)`, with `magic` = [`magic`]`(d)`: by multiplications where `x`
/// and `d` fit in 32 bits (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: with 64 fractional bits, exact for every 32-bit `x` and
/// `d`), else by division. Why: a pursuit's retrograde solve unranks every
/// position it decides, and the division was the slowest step of it.
#[inline(always)]
pub(super) fn div_rem(x: u64, d: u64, magic: u64) -> (u64, u64) {
    if magic != 0 && x < 1 << 32 {
        let quotient = ((magic as u128 * x as u128) >> 64) as u64;
        let remainder = ((magic.wrapping_mul(x) as u128 * d as u128) >> 64) as u64;
        (quotient, remainder)
    } else {
        (x / d, x % d)
    }
}

/// C(n, k), saturating at `u64::MAX`.
pub(super) fn binomial(n: u64, k: u64) -> u64 {
    binomial_exact(n, k).map_or(u64::MAX, |b| b.min(u64::MAX as u128) as u64)
}

/// C(n, k) exactly, `None` past 2^127.
pub(super) fn binomial_exact(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(r)
}
