//! Small tiers solved side by side, each whole by one worker ([`Options::small`]).

use super::store::{self, tier_partition, Store};
use super::{read_by, Options};
use crate::cluster::Lost;
use crate::rounds::Rounds;
use gsolve_engine::Tiered;
use timely::worker::Worker;

/// A wave of small tiers from tier `number` on ([`Options::small`]): tiers
/// `number..end` in solving order, none reading another one of them that is
/// not finished yet, the unfinished ones all small, together at most
/// [`Options::wave`] positions. Empty where tier `number` is finished or not
/// small (it is then skipped, or split over the workers).
pub(super) struct Wave {
    /// The unfinished tiers of the wave, by number.
    pub(super) tiers: Vec<usize>,
    /// One past the wave's last tier.
    pub(super) end: usize,
}

impl Wave {
    pub(super) fn is_empty(&self) -> bool {
        self.tiers.is_empty()
    }
}

pub(super) fn wave_from<G: Tiered>(
    game: &G,
    tiers: &[G::Tier],
    store: &Store,
    number: usize,
    options: &Options,
) -> Wave {
    let small = |n: usize| {
        let read: u64 = read_by(game, tiers, tiers[n]).iter().map(|&c| game.tier_size(tiers[c])).sum();
        game.tier_size(tiers[n]) + read <= options.small
    };
    let mut wave = Wave { tiers: Vec::new(), end: number };
    if store.finished(number) || !small(number) {
        return wave;
    }
    let mut positions = 0u64;
    for n in number..tiers.len() {
        if !store.finished(n) {
            let size = game.tier_size(tiers[n]);
            let reads_the_wave = read_by(game, tiers, tiers[n]).iter().any(|c| wave.tiers.contains(c));
            if !small(n) || reads_the_wave || !wave.tiers.is_empty() && positions + size > options.wave {
                break;
            }
            positions += size;
            wave.tiers.push(n);
        }
        wave.end = n + 1;
    }
    wave
}

/// A parcel key that says a worker failed (its message follows).
const FAILED: u64 = u64::MAX;

/// Parcels of `message` to every worker: each learns of the failure in the
/// round that carries it.
fn failure_to_everyone(peers: usize, message: String) -> Vec<(usize, u64, Vec<u8>)> {
    (0..peers).map(|to| (to, FAILED, message.clone().into_bytes())).collect()
}

/// A wave of small tiers, solved side by side, three rounds a wave (where a
/// split tier takes one a step):
/// 1. **deal**: each tier to one worker, the largest first, each to the
///    worker with the fewest positions so far (the same deal everywhere);
///    every worker sends its part of each tier a dealt tier reads to the
///    worker it is dealt to;
/// 2. **solve**: each worker lays out those parts as whole tiers, solves its
///    dealt tiers with the engine's single-process tier solve, and sends each
///    owner its part of the values;
/// 3. **keep**: each worker saves its parts, and all agree that they did.
///
/// `Ok(Err(..))`: a tier could not be read, solved or saved (everywhere at once).
pub(super) fn solve_side_by_side<G: Tiered + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tiers: &[G::Tier],
    wave: &Wave,
    store: &mut Store,
) -> Result<Result<(), String>, Lost> {
    let (me, peers) = (worker.index(), worker.peers());
    // 1. The deal, and the parts of the tiers read sent to where they are read.
    let mut by_size = wave.tiers.clone();
    by_size.sort_by_key(|&n| (std::cmp::Reverse(game.tier_size(tiers[n])), n));
    let mut load = vec![0u64; peers];
    let mut deal = Vec::new();
    for n in by_size {
        let least = (0..peers).min_by_key(|&w| (load[w], w)).expect("a worker");
        load[least] += game.tier_size(tiers[n]);
        deal.push((n, least));
    }
    let mut wanted: Vec<(usize, usize)> =
        deal.iter().flat_map(|&(n, to)| read_by(game, tiers, tiers[n]).into_iter().map(move |c| (to, c))).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut parcels = Vec::new();
    for (to, c) in wanted {
        match store.own_codes(&game.tier_name(tiers[c]), c, game.tier_size(tiers[c])) {
            Ok((width, bytes)) => {
                let mut parcel = Vec::with_capacity(bytes.len() + 1);
                parcel.push(width);
                parcel.extend_from_slice(&bytes);
                parcels.push((to, (c as u64) << 32 | me as u64, parcel));
            }
            Err(message) => {
                parcels = failure_to_everyone(peers, message);
                break;
            }
        }
    }
    let received = rounds.gather(worker, parcels)?;
    if let Some((_, message)) = received.iter().find(|(key, _)| *key == FAILED) {
        return Ok(Err(String::from_utf8_lossy(message).into_owned()));
    }
    // 2. The tiers read, whole (4-byte codes: the parts may differ in width),
    // then this worker's tiers solved and their parts sent to their owners.
    let mut read: Vec<(G::Tier, Vec<u8>)> = Vec::new();
    for (key, parcel) in received {
        let (c, from) = ((key >> 32) as usize, (key & 0xffff_ffff) as usize);
        let size = game.tier_size(tiers[c]);
        if read.last().is_none_or(|(t, _)| *t != tiers[c]) {
            read.push((tiers[c], vec![0; size as usize * 4]));
        }
        let whole = &mut read.last_mut().expect("pushed").1;
        let (width, mut codes) = (parcel[0] as usize, parcel[1..].chunks_exact(parcel[0] as usize));
        for range in tier_partition(size, peers).ranges(from) {
            for i in range {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(codes.next().expect("a code for every owned index"));
                whole[i as usize * 4..i as usize * 4 + 4].copy_from_slice(&word);
            }
        }
    }
    let mut parcels = Vec::new();
    for &(n, to) in &deal {
        if to != me {
            continue;
        }
        match solve_whole(game, tiers[n], &read) {
            Ok(values) => {
                let (width, bytes) = (values.width() as u64, values.bytes());
                let max_code = values.max_code();
                let partition = tier_partition(game.tier_size(tiers[n]), peers);
                for owner in 0..peers {
                    let mut parcel = vec![values.width()];
                    parcel.extend_from_slice(&max_code.to_le_bytes());
                    for range in partition.ranges(owner) {
                        parcel.extend_from_slice(&bytes[(range.start * width) as usize..(range.end * width) as usize]);
                    }
                    parcels.push((owner, n as u64, parcel));
                }
            }
            Err(message) => {
                parcels = failure_to_everyone(peers, message);
                break;
            }
        }
    }
    drop(read);
    let received = rounds.gather(worker, parcels)?;
    if let Some((_, message)) = received.iter().find(|(key, _)| *key == FAILED) {
        return Ok(Err(String::from_utf8_lossy(message).into_owned()));
    }
    // 3. This worker's parts kept.
    let mut problem = None;
    let mut saved = Vec::new();
    for (n, parcel) in received {
        let n = n as usize;
        let (width, max_code) = (parcel[0], u32::from_le_bytes(parcel[1..5].try_into().expect("4 bytes")));
        match store.save_quietly(&game.tier_name(tiers[n]), width, parcel[5..].to_vec()) {
            Ok(()) => saved.push((n, width, max_code)),
            Err(message) => {
                problem = Some(message);
                break;
            }
        }
    }
    let agreed = store::agree(worker, rounds, problem)?;
    if agreed.is_ok() {
        for (n, width, max_code) in saved {
            store.mark_saved(n, width, max_code);
        }
    }
    Ok(agreed)
}

/// One small tier solved whole by the engine, from the tiers it reads (whole,
/// 4-byte codes). A game that breaks the [`Tiered`] invariants makes the
/// engine panic: that is caught and returned as the message.
fn solve_whole<G: Tiered + Sync>(
    game: &G,
    tier: G::Tier,
    read: &[(G::Tier, Vec<u8>)],
) -> Result<gsolve_engine::tiered::TierValues, String> {
    struct Read<'a, T>(&'a [(T, Vec<u8>)]);
    impl<T: Copy + Eq + Sync> gsolve_engine::tiered::SolvedTiers<T> for Read<'_, T> {
        fn codes(&self, tier: T) -> Option<gsolve_engine::tiered::Codes<'_>> {
            let (_, bytes) = self.0.iter().find(|(t, _)| *t == tier)?;
            Some(gsolve_engine::tiered::Codes { width: 4, bytes })
        }
    }
    let solve = || gsolve_engine::tiered::solve_tier(game, tier, &Read(read), None);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(solve)).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("the tier's solve failed");
        format!("tier {}: {message}", game.tier_name(tier))
    })
}
