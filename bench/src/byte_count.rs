//! Byte counts on the command line of the NCCL and multi-GPU benchmarks
//! (`8`, `256M`, `1G`: K, M and G are powers of 1024), shared by the two
//! binaries through `#[path]`.

/// `s` as a byte count; a clear message for anything else, an overflow
/// included.
pub fn parse_bytes(s: &str) -> Result<usize, String> {
    let (digits, mult) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 1usize << 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|v| v.checked_mul(mult))
        .ok_or_else(|| format!("not a byte count: {s:?}"))
}
