//! Rounds: the one communication pattern of the distributed solvers.
//!
//! In round `r` every worker sends *updates* (64-bit words `index << 2 | tag`,
//! each to the owner of `index`) and one *summary* (a few words, to every
//! worker), then waits until timely's progress tracking says that no worker can
//! send anything more at `r`: that is the "this level is over" a hand-made
//! distributed solver has to build itself. Updates are handed to the caller's
//! `apply` as they arrive, with their round, so a round's traffic is never held
//! in memory whole. Rounds are timestamps of one dataflow built once per solve.
//!
//! # Invariant
//! Tie updates travel apart ([`Tie`]): they carry a remoteness.
//!
//! `apply` only sees updates of the round this worker has open: a faster peer's
//! updates of round `r + 1` can arrive while this worker still waits for round
//! `r` to end (the peer saw it end first); they are held until this worker opens
//! round `r + 1`. So a solver knows each update's level from its own state.
//!
//! The third kind of traffic, *parcels* (a key and bytes to one worker), gathers
//! a solve's compressed tablebase blocks on worker 0.

use crate::cluster::{peer_lost, Lost};
use crate::partition::Partition;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// A parcel: destination worker, key, bytes.
type Parcel = (u64, u64, Vec<u8>);

/// A tie update: `index << 2 | tag` (the tag is a tie's) and the tied child's
/// remoteness, which a tie's level in the frontier does not tell (a tie is
/// valued when its last child is, often several levels after its fastest
/// tied child).
pub type Tie = (u64, u32);

/// What arrives for a solver to apply.
pub enum Received<'a> {
    /// Win and loss updates, `index << 2 | tag`.
    Updates(&'a [u64]),
    /// Tie updates.
    Ties(&'a [Tie]),
}

/// Received and not yet handed over, by round.
type Inbox<D> = Rc<RefCell<BTreeMap<u64, Vec<D>>>>;

/// Updates a solver sends per batch before the worker lets timely move them.
pub const BATCH: usize = 1 << 16;

/// Traffic between the workers of one solve; see the module documentation.
pub struct Rounds {
    updates: InputHandle<u64, CapacityContainerBuilder<Vec<u64>>>,
    ties: InputHandle<u64, CapacityContainerBuilder<Vec<Tie>>>,
    parcels: InputHandle<u64, CapacityContainerBuilder<Vec<Parcel>>>,
    probe: ProbeHandle<u64>,
    update_inbox: Inbox<u64>,
    tie_inbox: Inbox<Tie>,
    parcel_inbox: Inbox<(u64, Vec<u8>)>,
    round: u64,
    workers: usize,
    partition: Partition,
    /// Updates this worker sent to workers of other processes (for the record).
    pub sent_away: u64,
    /// Parcel bytes this worker sent to workers of other processes.
    pub parcel_bytes_away: u64,
    threads: usize,
    index: usize,
}

impl Rounds {
    /// Builds the dataflow on `worker`: updates go to the owner of `index` in
    /// `partition`. `threads` is the number of workers per process (to tell
    /// traffic that leaves the process).
    pub fn new(worker: &mut Worker, partition: Partition, threads: usize) -> Rounds {
        let mut updates = InputHandle::new();
        let mut ties = InputHandle::new();
        let mut parcels = InputHandle::new();
        let probe = ProbeHandle::new();
        let update_inbox: Inbox<u64> = Rc::default();
        let tie_inbox: Inbox<Tie> = Rc::default();
        let into_ties = Rc::clone(&tie_inbox);
        let parcel_inbox: Inbox<(u64, Vec<u8>)> = Rc::default();
        let (into_updates, into_parcels) = (Rc::clone(&update_inbox), Rc::clone(&parcel_inbox));
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut updates)
                .unary::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(
                    Exchange::new(move |x: &u64| partition.owner(*x >> 2) as u64),
                    "Updates",
                    |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data| {
                                let round = *time.least().expect("a stamp has a time");
                                into_updates.borrow_mut().entry(round).or_default().append(data);
                            })
                        }
                    },
                )
                .probe_with(&probe);
            scope
                .input_from(&mut ties)
                .unary::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(
                    Exchange::new(move |x: &Tie| partition.owner(x.0 >> 2) as u64),
                    "Ties",
                    |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data| {
                                let round = *time.least().expect("a stamp has a time");
                                into_ties.borrow_mut().entry(round).or_default().append(data);
                            })
                        }
                    },
                )
                .probe_with(&probe);
            scope
                .input_from(&mut parcels)
                .unary::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(
                    Exchange::new(|x: &Parcel| x.0),
                    "Parcels",
                    |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data: &mut Vec<Parcel>| {
                                let mut inbox = into_parcels.borrow_mut();
                                let round = *time.least().expect("a stamp has a time");
                                let received = inbox.entry(round).or_default();
                                received.extend(data.drain(..).map(|(_, key, bytes)| (key, bytes)));
                            })
                        }
                    },
                )
                .probe_with(&probe);
        });
        Rounds {
            updates,
            ties,
            parcels,
            probe,
            update_inbox,
            tie_inbox,
            parcel_inbox,
            round: 0,
            workers: worker.peers(),
            partition,
            sent_away: 0,
            parcel_bytes_away: 0,
            threads,
            index: worker.index(),
        }
    }

    /// The current round.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// The partition updates are routed by.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    fn process_of(&self, worker: usize) -> usize {
        worker / self.threads
    }

    /// Sends `ties` (emptied) in the current round, as [`Rounds::send`].
    pub fn send_ties(
        &mut self,
        worker: &mut Worker,
        ties: &mut Vec<Tie>,
        apply: &mut impl FnMut(Received<'_>),
    ) -> Result<(), Lost> {
        if self.threads < self.workers {
            let me = self.process_of(self.index);
            let away = ties.iter().filter(|&&(x, _)| self.process_of(self.partition.owner(x >> 2)) != me).count();
            self.sent_away += away as u64;
        }
        self.ties.send_batch(ties);
        ties.clear();
        worker.step();
        self.deliver(self.round, apply);
        if peer_lost() {
            return Err(Lost);
        }
        Ok(())
    }

    /// Sends `updates` (emptied) in the current round. What has arrived
    /// meanwhile goes to `apply`.
    pub fn send(
        &mut self,
        worker: &mut Worker,
        updates: &mut Vec<u64>,
        apply: &mut impl FnMut(Received<'_>),
    ) -> Result<(), Lost> {
        if self.threads < self.workers {
            let me = self.process_of(self.index);
            let away = updates.iter().filter(|&&x| self.process_of(self.partition.owner(x >> 2)) != me).count();
            self.sent_away += away as u64;
        }
        self.updates.send_batch(updates);
        updates.clear();
        // Let timely move what was sent, so that memory holds a batch, not a round.
        worker.step();
        self.deliver(self.round, apply);
        if peer_lost() {
            return Err(Lost);
        }
        Ok(())
    }

    /// Ends the round: sends `summary` to every worker, waits until every worker
    /// has ended it and every update of it was applied here, and returns every
    /// worker's summary, by worker.
    pub fn finish(
        &mut self,
        worker: &mut Worker,
        summary: &[u64],
        apply: &mut impl FnMut(Received<'_>),
    ) -> Result<Vec<Vec<u64>>, Lost> {
        let bytes: Vec<u8> = summary.iter().flat_map(|w| w.to_le_bytes()).collect();
        for to in 0..self.workers {
            self.parcels.send((to as u64, self.index as u64, bytes.clone()));
        }
        let round = self.round;
        let received = self.wait(worker, apply)?;
        let mut summaries = vec![Vec::new(); self.workers];
        for (from, bytes) in received {
            summaries[from as usize] =
                bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        }
        debug_assert!(round + 1 == self.round);
        Ok(summaries)
    }

    /// Sends parcels (`(to, key, bytes)`) in the current round, ends it, and
    /// returns the parcels this worker received, sorted by key.
    pub fn gather(
        &mut self,
        worker: &mut Worker,
        parcels: Vec<(usize, u64, Vec<u8>)>,
    ) -> Result<Vec<(u64, Vec<u8>)>, Lost> {
        let me = self.process_of(self.index);
        for (to, key, bytes) in parcels {
            if self.process_of(to) != me {
                self.parcel_bytes_away += bytes.len() as u64;
            }
            self.parcels.send((to as u64, key, bytes));
            worker.step();
        }
        let mut received = self.wait(worker, &mut |_| unreachable!("no updates while gathering"))?;
        received.sort_by_key(|(key, _)| *key);
        Ok(received)
    }

    /// Closes the current round and steps the worker until it is over everywhere;
    /// returns the parcels of the round.
    fn wait(&mut self, worker: &mut Worker, apply: &mut impl FnMut(Received<'_>)) -> Result<Vec<(u64, Vec<u8>)>, Lost> {
        let round = self.round;
        self.round += 1;
        self.updates.advance_to(self.round);
        self.ties.advance_to(self.round);
        self.parcels.advance_to(self.round);
        while self.probe.less_than(&self.round) {
            // Parked until a message arrives, or a moment passes to look for a lost peer.
            worker.step_or_park(Some(Duration::from_millis(50)));
            self.deliver(round, apply);
            if peer_lost() {
                return Err(Lost);
            }
        }
        self.deliver(round, apply);
        Ok(self.parcel_inbox.borrow_mut().remove(&round).unwrap_or_default())
    }

    /// Hands the updates of rounds up to `last` received so far to `apply`.
    /// Later rounds' updates (a faster peer's) wait in the inbox until this
    /// worker opens their round, so `apply` only ever sees the open round's.
    fn deliver(&mut self, last: u64, apply: &mut impl FnMut(Received<'_>)) {
        fn take<D>(inbox: &Inbox<D>, last: u64) -> Option<Vec<D>> {
            let mut inbox = inbox.borrow_mut();
            let entry = inbox.first_entry()?;
            (*entry.key() <= last).then(|| entry.remove())
        }
        while let Some(updates) = take(&self.update_inbox, last) {
            apply(Received::Updates(&updates));
        }
        while let Some(ties) = take(&self.tie_inbox, last) {
            apply(Received::Ties(&ties));
        }
    }
}
