//! A tally of words ORed: all of them, and all but one or two, without going over the list again.

/// Which bits of a set of words are had by at least one word, two, three
/// (the words folded in one at a time): the OR of all of them but one or two
/// of them is then read off without going over them again.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tally<W> {
    pub(super) once: W,
    pub(super) twice: W,
    pub(super) thrice: W,
}

impl<W> Tally<W>
where
    W: Copy + std::ops::BitOr<Output = W> + std::ops::BitAnd<Output = W> + std::ops::Not<Output = W>,
{
    #[inline]
    pub(crate) fn add(&mut self, w: W) {
        self.thrice = self.thrice | (self.twice & w);
        self.twice = self.twice | (self.once & w);
        self.once = self.once | w;
    }

    /// The OR of every word.
    #[inline]
    pub(crate) fn all(&self) -> W {
        self.once
    }

    /// The OR of every word but `a`, one of them.
    #[inline]
    pub(crate) fn without(&self, a: W) -> W {
        self.once & !(a & self.once & !self.twice)
    }

    /// The OR of every word but `a` and `b`, two of them.
    #[inline]
    pub(super) fn without_two(&self, a: W, b: W) -> W {
        let one = self.once & !self.twice;
        let two = self.twice & !self.thrice;
        self.once & !((one & (a | b)) | (two & a & b))
    }
}
