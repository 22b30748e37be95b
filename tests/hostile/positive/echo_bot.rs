// echo_bot.rs - the positive suite's Rust bot: the protocol by hand (docs/protocol.md
// section 2: varint-framed protobuf), decoding only Decision.id and the number of legal
// actions, answering a pseudo-random legal index. std only, no crates: it checks the Rust
// runtime under the native seccomp profile.
use std::io::{self, Read, Write};

fn read_varint(r: &mut impl Read) -> Option<u64> {
    let mut v: u64 = 0;
    for i in 0..10 {
        let mut b = [0u8; 1];
        if r.read_exact(&mut b).is_err() {
            return None;
        }
        v |= ((b[0] & 0x7f) as u64) << (7 * i);
        if b[0] < 0x80 {
            return Some(v);
        }
    }
    None
}

fn get_varint(p: &[u8], i: &mut usize) -> u64 {
    let mut v: u64 = 0;
    let mut s = 0;
    while *i < p.len() && s < 70 {
        let b = p[*i];
        *i += 1;
        v |= ((b & 0x7f) as u64) << s;
        s += 7;
        if b < 0x80 {
            break;
        }
    }
    v
}

// every field: (number, wire type, varint value, bytes of a LEN field)
fn fields(p: &[u8]) -> Vec<(u64, u64, u64, Vec<u8>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        let key = get_varint(p, &mut i);
        let (num, wt) = (key >> 3, key & 7);
        match wt {
            0 => {
                let v = get_varint(p, &mut i);
                out.push((num, wt, v, Vec::new()));
            }
            1 => i += 8,
            2 => {
                let n = get_varint(p, &mut i) as usize;
                if i + n > p.len() {
                    break;
                }
                out.push((num, wt, 0, p[i..i + n].to_vec()));
                i += n;
            }
            5 => i += 4,
            _ => break,
        }
    }
    out
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn len_field(out: &mut Vec<u8>, num: u64, b: &[u8]) {
    put_varint(out, num << 3 | 2);
    put_varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

fn send(w: &mut impl Write, msg: &[u8]) {
    let mut f = Vec::new();
    put_varint(&mut f, msg.len() as u64);
    f.extend_from_slice(msg);
    if w.write_all(&f).and_then(|_| w.flush()).is_err() {
        std::process::exit(0);
    }
}

fn main() {
    let stdin = io::stdin();
    let mut r = io::BufReader::new(stdin.lock());
    let stdout = io::stdout();
    let mut w = stdout.lock();
    let mut state: u64 = 88172645463325252;
    'outer: while let Some(n) = read_varint(&mut r) {
        if n > 8 << 20 {
            std::process::exit(1);
        }
        let mut body = vec![0u8; n as usize];
        if r.read_exact(&mut body).is_err() {
            break;
        }
        for (num, _wt, _v, b) in fields(&body) {
            match num {
                1 => {
                    let mut id = Vec::new();
                    put_varint(&mut id, 1 << 3);
                    put_varint(&mut id, 1);
                    len_field(&mut id, 3, b"echo-rust");
                    len_field(&mut id, 4, b"1.0");
                    let mut m = Vec::new();
                    len_field(&mut m, 1, &id);
                    send(&mut w, &m);
                    let mut m = Vec::new();
                    len_field(&mut m, 2, &[]);
                    send(&mut w, &m);
                }
                3 => {
                    let mut did = 0;
                    let mut legal = 0u64;
                    for (n2, wt2, v2, _) in fields(&b) {
                        if n2 == 1 && wt2 == 0 {
                            did = v2;
                        } else if n2 == 3 && wt2 == 2 {
                            legal += 1;
                        }
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let pick = if legal > 0 { state % legal } else { 0 };
                    let mut c = Vec::new();
                    put_varint(&mut c, 1 << 3);
                    put_varint(&mut c, did);
                    put_varint(&mut c, 2 << 3);
                    put_varint(&mut c, pick);
                    let mut m = Vec::new();
                    len_field(&mut m, 3, &c);
                    send(&mut w, &m);
                }
                8 => break 'outer,
                _ => {}
            }
        }
    }
    eprintln!("echo_bot.rs: done");
}
