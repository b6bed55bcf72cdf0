//! Hostile `.npy`/`.npz` inputs: each must give an error, never a panic, an
//! abort, a stack overflow or an allocation the file cannot back. The fuzz
//! tests at the end mutate valid images at random.

use std::io::{Cursor, Write};

use proptest::prelude::*;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::*;
use crate::array::NpzFile;

/// An `.npy` image with a version 1.0 header holding `dict` as given (no
/// padding), then `data`.
fn npy_v1(dict: &str, data: &[u8]) -> Vec<u8> {
    let len = u16::try_from(dict.len()).expect("short dict");
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend_from_slice(&len.to_le_bytes());
    b.extend_from_slice(dict.as_bytes());
    b.extend_from_slice(data);
    b
}

/// As [`npy_v1`] with a version 2.0 header (4-byte length).
fn npy_v2(dict: &[u8], data: &[u8]) -> Vec<u8> {
    let len = u32::try_from(dict.len()).expect("dict under 4 GiB");
    let mut b = b"\x93NUMPY\x02\x00".to_vec();
    b.extend_from_slice(&len.to_le_bytes());
    b.extend_from_slice(dict);
    b.extend_from_slice(data);
    b
}

fn dict(descr: &str, shape: &str) -> String {
    format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}")
}

fn err(bytes: &[u8]) -> String {
    NpyArray::read(bytes).unwrap_err().to_string()
}

/// An archive with one member `name` holding `content` as given.
fn zip_of(name: &str, content: &[u8], method: CompressionMethod) -> Vec<u8> {
    let mut zw = ZipWriter::new(Cursor::new(Vec::new()));
    zw.start_file(
        name,
        SimpleFileOptions::default().compression_method(method),
    )
    .unwrap();
    zw.write_all(content).unwrap();
    zw.finish().unwrap().into_inner()
}

/// The error of reading member `name` of `archive`, after opening it.
fn npz_err(archive: Vec<u8>, name: &str) -> String {
    NpzReader::new(Cursor::new(archive))
        .unwrap()
        .by_name(name)
        .unwrap_err()
        .to_string()
}

#[test]
fn truncated_magic_and_version() {
    for n in 0..10 {
        let e = err(&b"\x93NUMPY\x01\x00\x76\x00"[..n]);
        assert!(e.starts_with("truncated .npy file"), "{n}: {e}");
    }
    let e = err(b"\x93NUMPX\x01\x00\x10\x00");
    assert!(e.starts_with("the magic string is not correct"), "{e}");
}

#[test]
fn bad_versions() {
    for (major, minor) in [(0, 0), (1, 1), (2, 1), (4, 0), (255, 255)] {
        let b = [b"\x93NUMPY".as_slice(), &[major, minor, 0x10, 0, 0, 0]].concat();
        assert_eq!(
            err(&b),
            format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major}, {minor})"
            )
        );
    }
}

#[test]
fn header_length_past_end_of_file() {
    // Version 1: a 65535-byte header of which 8 bytes are there.
    let b = [b"\x93NUMPY\x01\x00\xff\xff".as_slice(), b"{'descr'"].concat();
    let e = err(&b);
    assert!(e.contains("header is 65535 bytes long"), "{e}");
    // Under the size limit, but past the end of the file.
    let b = [b"\x93NUMPY\x01\x00\x00\x10".as_slice(), b"{'descr'"].concat();
    assert_eq!(
        err(&b),
        "truncated .npy file: end of file in the header (8 of 4096 bytes)"
    );
    // Version 2: a 4 GiB header is refused before anything is allocated.
    let b = [b"\x93NUMPY\x02\x00\xff\xff\xff\xff".as_slice(), b"{'descr'"].concat();
    let e = err(&b);
    assert!(
        e.starts_with(
            "npy header: the header is 4294967295 bytes long, more than the limit of 10000"
        ),
        "{e}"
    );
}

#[test]
fn header_over_the_size_limit() {
    let long = format!("{}{}\n", dict("|u1", "(1,)"), " ".repeat(20_000));
    let b = npy_v2(long.as_bytes(), &[7]);
    let e = err(&b);
    assert!(e.contains(&format!("{} bytes long", long.len())), "{e}");
    assert!(e.contains("max_header_size"), "{e}");
    // A trusted file reads with a larger limit.
    let a = NpyArray::read_with_max_header_size(&b[..], 1 << 20).unwrap();
    assert_eq!(a.data, [7]);
    let h = read_header_with_max_size(&mut &b[..], 1 << 20).unwrap();
    assert_eq!((h.version, h.shape), ((2, 0), vec![1]));
    // The limit is inclusive, as NumPy's.
    let exact = format!("{:<width$}", dict("|u1", "(1,)"), width = MAX_HEADER_SIZE);
    assert!(NpyArray::read(&npy_v2(exact.as_bytes(), &[7])[..]).is_ok());
}

#[test]
fn header_not_a_dict_or_wrong_keys() {
    for (d, want) in [
        ("", "Cannot parse header"),
        ("   ", "Cannot parse header"),
        ("[1, 2]", "Header is not a dictionary"),
        ("(1, 2)", "Header is not a dictionary"),
        ("'descr'", "Header is not a dictionary"),
        ("{'descr': '<f8'} trailing", "Cannot parse header"),
        ("{'descr' '<f8'}", "Cannot parse header"),
        (
            "{'descr': '<f8', 'shape': ()}",
            "Header does not contain the correct keys",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (), 'x': 1}",
            "Header does not contain the correct keys",
        ),
        (
            "{'descr': '<f8', 'descr': '<f8', 'shape': ()}",
            "Header does not contain the correct keys",
        ),
        (
            "{1: '<f8', 'fortran_order': False, 'shape': ()}",
            "Header does not contain the correct keys",
        ),
        (
            "{'descr': 5, 'fortran_order': False, 'shape': ()}",
            "descr is not a valid",
        ),
        (
            "{'descr': '<f8', 'fortran_order': None, 'shape': ()}",
            "fortran_order is not a valid bool",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': [2]}",
            "shape is not valid",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': 2}",
            "shape is not valid",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': ('2',)}",
            "shape is not valid",
        ),
        (
            "{'descr': '<f8\\'', 'fortran_order': False, 'shape': ()}",
            "Cannot parse header",
        ),
        ("{'descr': '<f8", "Cannot parse header"),
    ] {
        let e = err(&npy_v1(d, &[0; 8]));
        assert!(e.starts_with(want), "{d:?}: {e}");
    }
    // Version 3 headers must be UTF-8.
    let mut b = npy_v2(dict("<f8", "()").as_bytes(), &[0; 8]);
    b[6] = 3;
    b[12] = 0xff;
    assert_eq!(err(&b), "the .npy header is not valid UTF-8");
}

#[test]
fn unknown_dtype_descr() {
    for descr in [
        "",
        "<",
        "f8",
        "<f",
        "<f3",
        "<f+8",
        "<f-8",
        "<f 8",
        "<q8",
        "<f99999999999999999999999",
        "|O",
        "<U3",
        "<M8[ns]",
        "<f16",
    ] {
        let b = npy_v1(&dict(descr, "()"), &[0; 8]);
        let e = NpyArray::read(&b[..]).unwrap_err();
        assert!(
            matches!(e, Error::Unsupported(_)),
            "{descr:?} gave {e:?}, not Unsupported"
        );
        assert!(e.to_string().starts_with("unsupported dtype descr"), "{e}");
    }
    // A long descr is cut short in the message.
    let long = "<".to_owned() + &"9".repeat(5000);
    let e = err(&npy_v2(dict(&long, "()").as_bytes(), &[]));
    assert!(e.len() < 400 && e.contains("bytes in all"), "{e}");
}

#[test]
fn shape_with_negative_or_huge_entries() {
    for shape in [
        "(-1,)",
        "(2, -3)",
        "(18446744073709551616,)",
        "(9223372036854775808,)",
        "(3, 0, 18446744073709551615)",
        "(99999999999999999999999999999999999999999999,)",
        "(1.5,)",
        "(True,)",
    ] {
        let e = err(&npy_v1(&dict("<f8", shape), &[0; 8]));
        assert!(
            e.starts_with("shape is not valid") || e.starts_with("Cannot parse header"),
            "{shape}: {e}"
        );
    }
    // (2**40,) of bytes on a 100-byte file: before this check, a 1 TiB
    // allocation aborted the process.
    let b = npy_v1(&dict("|u1", "(1099511627776,)"), &[0; 20]);
    assert!(b.len() < 100);
    assert_eq!(
        err(&b),
        "Failed to read all data for array. Expected (1099511627776,) = 1099511627776 elements, \
         could only read 20 elements. (file seems not fully written?)"
    );
    // 2**59 float64 elements: 2**62 bytes, under isize::MAX.
    let e = err(&npy_v1(&dict("<f8", "(576460752303423488,)"), &[0; 16]));
    assert!(e.contains("could only read 2 elements"), "{e}");
}

#[test]
fn shape_product_overflow() {
    for (descr, shape) in [
        ("|u1", "(4294967296, 4294967296)"),
        ("|u1", "(4611686018427387904, 2)"),
        ("<f8", "(1152921504606846976,)"), // 2**60 * 8 > isize::MAX
        ("<c16", "(2305843009213693952,)"), // 2**61 * 16 wraps to 0
    ] {
        let e = NpyArray::read(&npy_v1(&dict(descr, shape), &[0; 8])[..]).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{shape}: {e:?}");
        assert!(e.to_string().starts_with("array is too big"), "{e}");
    }
    // A zero-length axis makes the array empty, but as in NumPy the other
    // axes still have to fit: (0, 2**62) float64 is too big, (0, 2**40) is
    // an empty array.
    let e = NpyArray::read(&npy_v1(&dict("<f8", "(0, 4611686018427387904)"), &[])[..]);
    assert!(matches!(e, Err(Error::TooBig)), "{e:?}");
    let a = NpyArray::read(&npy_v1(&dict("<f8", "(0, 1099511627776)"), &[])[..]).unwrap();
    assert!(a.data.is_empty());
}

#[test]
fn data_shorter_than_claimed() {
    let b = npy_v1(&dict("<i4", "(2, 3)"), &[1; 23]);
    assert!(err(&b).contains("Expected (2,3) = 6 elements, could only read 5 elements"));
    // From a file the check comes before the read, against the file's length.
    let dir = std::env::temp_dir().join(format!("gpu-array-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("short.npy");
    std::fs::write(
        &path,
        npy_v1(&dict("<f8", "(576460752303423488,)"), &[0; 17]),
    )
    .unwrap();
    let e = NpyArray::load(&path).unwrap_err().to_string();
    assert!(e.contains("could only read 2 elements"), "{e}");
    std::fs::write(&path, &b).unwrap();
    let e = NpyArray::load(&path).unwrap_err().to_string();
    assert!(e.contains("could only read 5 elements"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn deeply_nested_brackets() {
    // 100000 brackets need a version 2 header over the size limit: refused
    // before parsing.
    let mut d = b"{'descr': '|u1', 'fortran_order': False, 'shape': ".to_vec();
    d.extend(std::iter::repeat_n(b'(', 100_000));
    let e = err(&npy_v2(&d, &[]));
    assert!(e.contains("100050 bytes long"), "{e}");
    // With the limit raised, or under it, the parser stops at its depth
    // limit. Before the limit, 9000 brackets overflowed the stack.
    let e = NpyArray::read_with_max_header_size(&npy_v2(&d, &[])[..], usize::MAX)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "npy header: brackets nested more than 16 deep (a valid header nests 2)"
    );
    for open in [b'(', b'[', b'{'] {
        let mut d = b"{'descr': '|u1', 'fortran_order': False, 'shape': ".to_vec();
        d.extend(std::iter::repeat_n(open, 9000));
        let e = err(&npy_v2(&d, &[]));
        assert!(
            e.starts_with("npy header: brackets nested more than 16"),
            "{e}"
        );
    }
    // Nesting as deep as the limit parses (and is then not a valid shape).
    let shape = format!("{}1{}", "(".repeat(15), ")".repeat(15));
    let e = err(&npy_v1(&dict("|u1", &shape), &[]));
    assert!(e.starts_with("shape is not valid"), "{e}");
}

#[test]
fn long_error_messages_are_cut() {
    let keys: String = (0..800).map(|i| format!("'k{i}': 1, ")).collect();
    let e = err(&npy_v2(format!("{{{keys}}}").as_bytes(), &[]));
    assert!(e.len() < 400, "{e}");
    assert!(
        e.starts_with("Header does not contain the correct keys"),
        "{e}"
    );
    let shape = format!("({}-1,)", "1, ".repeat(2000));
    let e = err(&npy_v2(dict("|u1", &shape).as_bytes(), &[]));
    assert!(e.len() < 400 && e.starts_with("shape is not valid"), "{e}");
    let e = err(&npy_v2("x".repeat(9000).as_bytes(), &[]));
    assert!(e.len() < 400 && e.starts_with("Cannot parse header"), "{e}");
}

#[test]
fn npz_missing_member() {
    let a = NpyArray::from_slice(&[2], &[1u8, 2]).unwrap();
    let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    w.add("a", &a).unwrap();
    let mut r = NpzReader::new(w.finish().unwrap()).unwrap();
    let e = r.by_name("b").unwrap_err();
    assert!(matches!(e, Error::Key(_)), "{e:?}");
    assert_eq!(e.to_string(), "b is not a file in the archive");
    assert!(r.by_index(1).is_err());
    assert!(r.by_index(usize::MAX).is_err());
    // The device-side archive answers the same without a device.
    let z = NpzFile::default();
    let e = z.get("b.npy").unwrap_err();
    assert!(matches!(e, Error::Key(_)), "{e:?}");
    assert_eq!(e.to_string(), "b.npy is not a file in the archive");
    assert!(!z.contains("b"));
}

#[test]
fn npz_truncated_member() {
    let a = NpyArray::from_slice(&[300], &vec![1.25f64; 300]).unwrap();
    let mut good = Vec::new();
    a.write(&mut good).unwrap();
    for method in [CompressionMethod::Stored, CompressionMethod::Deflated] {
        // The member's .npy is cut short inside a valid archive.
        for cut in [0, 5, 9, 60, 128, 129, good.len() - 1] {
            let archive = zip_of("a.npy", &good[..cut], method);
            let e = npz_err(archive, "a");
            assert!(e.starts_with("a.npy: "), "{cut}: {e}");
        }
        // The archive itself is cut short: it does not open, or its member
        // fails.
        let archive = zip_of("a.npy", &good, method);
        for cut in (0..archive.len()).step_by(7) {
            if let Ok(mut r) = NpzReader::new(Cursor::new(&archive[..cut])) {
                let _ = r.read_all();
            }
        }
    }
}

#[test]
fn npz_member_claims_more_than_it_holds() {
    // The member's header claims 2**62 bytes; the member holds 16. Before
    // the check against the member's size this aborted on allocation.
    let npy = npy_v1(&dict("<f8", "(576460752303423488,)"), &[0; 16]);
    for method in [CompressionMethod::Stored, CompressionMethod::Deflated] {
        let e = npz_err(zip_of("a.npy", &npy, method), "a");
        assert!(e.starts_with("a.npy: Failed to read all data"), "{e}");
        assert!(e.contains("could only read 2 elements"), "{e}");
    }
}

/// Sets the uncompressed-size field of every local and central header of a
/// one-member archive written by [`zip_of`].
fn claim_uncompressed_size(archive: &mut [u8], size: u32) {
    let mut i = 0;
    while i + 4 <= archive.len() {
        match &archive[i..i + 4] {
            b"PK\x03\x04" => archive[i + 22..i + 26].copy_from_slice(&size.to_le_bytes()),
            b"PK\x01\x02" => archive[i + 24..i + 28].copy_from_slice(&size.to_le_bytes()),
            _ => {}
        }
        i += 1;
    }
}

#[test]
fn npz_zip_bomb_claim() {
    // The member says it unpacks to almost 4 GiB and its header claims as
    // much; the deflated data is a few bytes. Neither claim is trusted for
    // allocation: the read fails when the real data ends.
    let n = 0xffff_0000u64;
    let npy = npy_v1(&dict("|u1", &format!("({n},)")), &[0; 64]);
    let mut archive = zip_of("a.npy", &npy, CompressionMethod::Deflated);
    claim_uncompressed_size(&mut archive, 0xffff_ff00);
    let mut r = NpzReader::new(Cursor::new(archive)).unwrap();
    assert!(r.by_name("a").is_err());
}

#[test]
fn writer_checks_sizes() {
    // The fields are public: an inconsistent array must not be written as
    // a member whose header disagrees with its data.
    let a = NpyArray {
        dtype: DType::Float64,
        shape: vec![4],
        fortran_order: false,
        data: vec![1, 2, 3],
    };
    let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    let e = w.add("a", &a).unwrap_err();
    assert_eq!(
        e.to_string(),
        "3 bytes of data do not match shape (4,) of float64 (32 bytes)"
    );
    assert!(a.write(Vec::new()).is_err());
    let huge = NpyArray {
        shape: vec![usize::MAX, 2],
        ..a.clone()
    };
    assert!(w.add("b", &huge).is_err());
    assert!(write_npy(Vec::new(), DType::UInt8, &[usize::MAX, 2], false, &[]).is_err());
    assert!(NpyArray::new(DType::Complex128, vec![1 << 60], false, Vec::new()).is_err());
    // A shape with the largest entries still has a header.
    let h = header_bytes(DType::UInt8, &[usize::MAX; 64], true).unwrap();
    assert_eq!(h.len() % 64, 0);
}

/// Valid `.npy` images: a few dtypes, shapes and both orders, one of them
/// big-endian.
fn valid_images() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, shape) in [&[][..], &[0], &[3], &[2, 3], &[1, 2, 2]]
        .iter()
        .enumerate()
    {
        let n: usize = shape.iter().product();
        for fortran in [false, true] {
            let arrays = [
                NpyArray::new(DType::Bool, shape.to_vec(), fortran, vec![1; n]),
                NpyArray::new(DType::Int16, shape.to_vec(), fortran, vec![7; n * 2]),
                NpyArray::new(DType::Float32, shape.to_vec(), fortran, vec![0x3f; n * 4]),
                NpyArray::new(DType::Complex128, shape.to_vec(), fortran, vec![9; n * 16]),
            ];
            for a in arrays {
                let mut b = Vec::new();
                a.unwrap().write(&mut b).unwrap();
                out.push(b);
            }
        }
        if i == 3 {
            out.push(npy_v1(&dict(">u4", "(2, 3)"), &[1; 24]));
            out.push(npy_v2(dict("<f8", "(2, 3)").as_bytes(), &[2; 48]));
        }
    }
    out
}

/// One edit of a byte image; positions are taken modulo the image's length.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Set(usize, u8),
    /// A [`Edit::Set`] among the first bytes of the dict, where the keys and
    /// values are (most of a header is padding).
    SetInDict(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn header_char() -> impl Strategy<Value = u8> {
    prop::sample::select(b"(){}[],:'\"-0123456789LTFN \n\xff\x00".to_vec())
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Edit::Flip(i, x)),
        // Characters that the header parser cares about.
        2 => (any::<usize>(), header_char()).prop_map(|(i, c)| Edit::Set(i, c)),
        3 => (10..80usize, header_char()).prop_map(|(i, c)| Edit::SetInDict(i, c)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Edit::Insert(i, x)),
        2 => any::<usize>().prop_map(Edit::Delete),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(mut b: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = b.len();
        match *e {
            Edit::Flip(i, x) if len > 0 => b[i % len] ^= x,
            Edit::Set(i, c) | Edit::SetInDict(i, c) if len > 0 => b[i % len] = c,
            Edit::Insert(i, x) => b.insert(i % (len + 1), x),
            Edit::Delete(i) if len > 0 => {
                b.remove(i % len);
            }
            Edit::Truncate(i) => b.truncate(i % (len + 1)),
            _ => {}
        }
    }
    b
}

/// What an `Ok` read promises: the data matches the shape.
fn check_read(a: &NpyArray, input_len: usize) {
    let n: usize = a.shape.iter().product();
    assert_eq!(a.data.len(), n * a.dtype.itemsize());
    assert!(a.data.len() <= input_len);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_npy_never_panics(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let images = valid_images();
        let bytes = apply(images[which.index(images.len())].clone(), &edits);
        if let Ok(a) = NpyArray::read(&bytes[..]) {
            check_read(&a, bytes.len());
        }
        let _ = read_header(&mut &bytes[..]);
        // The path with a known length, as for files and zip members.
        if let Ok(a) = read_npy(&bytes[..], MAX_HEADER_SIZE, SourceLen::Exact(bytes.len() as u64)) {
            check_read(&a, bytes.len());
        }
        let _ = read_npy(&bytes[..], MAX_HEADER_SIZE, SourceLen::Declared(u64::MAX));
    }

    #[test]
    fn fuzz_npy_header_text(text in "[(){}\\[\\],:'\" 0-9a-zA-Z<>|+-]{0,160}") {
        let mut b = npy_v1(&text, &[0; 64]);
        let _ = NpyArray::read(&b[..]);
        b[6] = 3;
        let _ = NpyArray::read(&b[..]);
    }

    #[test]
    fn fuzz_npy_header_fields(
        descr in "[<>|=]?[biufcOUSV]?[0-9]{0,3}",
        dims in prop::collection::vec(prop_oneof![0..4i128, any::<i64>().prop_map(i128::from), any::<i128>()], 0..5),
        fortran in prop::sample::select(vec!["True", "False", "0", "None", "'True'", "(1,)"]),
        data_len in 0..80usize,
    ) {
        let shape = match dims.as_slice() {
            [d] => format!("({d},)"),
            ds => format!("({})", ds.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
        };
        let d = format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}}}");
        let b = npy_v1(&d, &vec![5; data_len]);
        if let Ok(a) = NpyArray::read(&b[..]) {
            check_read(&a, b.len());
        }
    }
}

/// A valid `.npz` image, stored or deflated, of three small members.
fn valid_npz(compressed: bool) -> Vec<u8> {
    let mut w = NpzWriter::new(Cursor::new(Vec::new()), compressed);
    w.add(
        "x",
        &NpyArray::from_slice(&[2, 3], &[0i32, 1, 2, 3, 4, 5]).unwrap(),
    )
    .unwrap();
    w.add(
        "y",
        &NpyArray::from_slice(&[4], &[1.5f64, -0.0, 2.0, 3.0]).unwrap(),
    )
    .unwrap();
    let f = NpyArray::new(DType::UInt16, vec![2, 2], true, vec![1; 8]).unwrap();
    w.add("f", &f).unwrap();
    w.finish().unwrap().into_inner()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_npz_never_panics(
        compressed in any::<bool>(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let bytes = apply(valid_npz(compressed), &edits);
        if let Ok(mut r) = NpzReader::new(Cursor::new(&bytes[..])) {
            let names = r.names();
            prop_assert_eq!(names.len(), r.len());
            for i in 0..r.len() {
                if let Ok(a) = r.by_index(i) {
                    let n: usize = a.shape.iter().product();
                    prop_assert_eq!(a.data.len(), n * a.dtype.itemsize());
                }
            }
            let _ = r.by_name("x");
            let _ = r.by_name("missing");
            let _ = r.read_all();
        }
    }
}
