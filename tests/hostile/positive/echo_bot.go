// echo_bot.go - the positive suite's Go bot: the protocol by hand (docs/protocol.md section 2:
// varint-framed protobuf), decoding only Decision.id and the number of legal actions, and
// answering a pseudo-random legal index. `--mem` allocates 400 MB at the first decision
// (the hostile suite's MLE case). No protobuf library: it checks the Go runtime under
// the native seccomp profile, nothing else.
package main

import (
	"bufio"
	"errors"
	"io"
	"os"
)

func readVarint(r *bufio.Reader) (uint64, error) {
	var v uint64
	for i := 0; i < 10; i++ {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << (7 * uint(i))
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint too long")
}

func getVarint(p []byte, i *int) uint64 {
	var v uint64
	for s := uint(0); *i < len(p) && s < 70; s += 7 {
		b := p[*i]
		*i++
		v |= uint64(b&0x7f) << s
		if b < 0x80 {
			break
		}
	}
	return v
}

// fields calls f for every field of a message; LEN fields get their bytes
func fields(p []byte, f func(num uint64, wt uint64, v uint64, b []byte)) {
	for i := 0; i < len(p); {
		key := getVarint(p, &i)
		num, wt := key>>3, key&7
		switch wt {
		case 0:
			f(num, wt, getVarint(p, &i), nil)
		case 1:
			i += 8
		case 2:
			n := int(getVarint(p, &i))
			if i+n > len(p) {
				return
			}
			f(num, wt, 0, p[i:i+n])
			i += n
		case 5:
			i += 4
		default:
			return
		}
	}
}

func putVarint(out []byte, v uint64) []byte {
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

func lenField(out []byte, num uint64, b []byte) []byte {
	out = putVarint(out, num<<3|2)
	out = putVarint(out, uint64(len(b)))
	return append(out, b...)
}

func send(w *bufio.Writer, msg []byte) {
	w.Write(putVarint(nil, uint64(len(msg))))
	w.Write(msg)
	if w.Flush() != nil {
		os.Exit(0)
	}
}

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	state := uint64(88172645463325252)
	decisions := 0
	mem := len(os.Args) > 1 && os.Args[1] == "--mem" // the hostile suite's MLE case
	var hog [][]byte
	for {
		n, err := readVarint(r)
		if err != nil {
			break
		}
		if n > 8<<20 {
			os.Exit(1)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			break
		}
		bye := false
		fields(body, func(num, wt, v uint64, b []byte) {
			switch num {
			case 1: // Hello: Identify, then Ready
				var id []byte
				id = putVarint(id, 1<<3|0)
				id = putVarint(id, 1)
				id = lenField(id, 3, []byte("echo-go"))
				id = lenField(id, 4, []byte("1.0"))
				send(w, lenField(nil, 1, id))
				send(w, lenField(nil, 2, nil))
			case 3: // Decision: id (1) and the legal actions (3)
				var did uint64
				legal := uint64(0)
				fields(b, func(n2, wt2, v2 uint64, b2 []byte) {
					if n2 == 1 && wt2 == 0 {
						did = v2
					} else if n2 == 3 && wt2 == 2 {
						legal++
					}
				})
				if mem && decisions == 0 {
					for i := 0; i < 400; i++ {
						b := make([]byte, 1<<20)
						for j := 0; j < len(b); j += 4096 {
							b[j] = 1 // every page: resident, fast
						}
						hog = append(hog, b)
					}
					os.Stderr.WriteString("HB allocated 400 MiB\n")
				}
				state ^= state << 13
				state ^= state >> 7
				state ^= state << 17
				pick := uint64(0)
				if legal > 0 {
					pick = state % legal
				}
				var c []byte
				c = putVarint(c, 1<<3|0)
				c = putVarint(c, did)
				c = putVarint(c, 2<<3|0)
				c = putVarint(c, pick)
				send(w, lenField(nil, 3, c))
				decisions++
			case 8:
				bye = true
			}
		})
		if bye {
			break
		}
	}
	os.Stderr.WriteString("echo_bot.go: done\n")
	_ = hog
}
