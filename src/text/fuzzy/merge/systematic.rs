//! A character change made throughout the caller's texts, told apart from
//! independent typos.

/// One character changed into another, as (in the search, in the file).
pub(crate) type Swap = (char, char);

/// A character change that typos of two different words share: typos are
/// independent slips, one change made everywhere is a transformation of
/// the text, and `new_content` went through it too.
pub(super) fn systematic(typos: &[(String, String)]) -> Option<(Swap, Vec<(String, String)>)> {
    let mut seen: Vec<(Swap, Vec<(String, String)>)> = Vec::new();
    for (a, b) in typos {
        let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        if ca.len() != cb.len() {
            continue;
        }
        let mut changes: Vec<(char, char)> = ca
            .iter()
            .zip(&cb)
            .filter(|(x, y)| x != y)
            .map(|(x, y)| (*x, *y))
            .collect();
        changes.sort_unstable();
        changes.dedup();
        for change in changes {
            match seen.iter_mut().find(|(c, _)| *c == change) {
                Some((_, words)) => {
                    if !words.iter().any(|(w, _)| w == a) {
                        words.push((a.clone(), b.clone()));
                    }
                }
                None => seen.push((change, vec![(a.clone(), b.clone())])),
            }
        }
    }
    seen.into_iter().find(|(_, words)| words.len() >= 2)
}
