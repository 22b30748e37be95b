// EchoBot.java - the positive suite's Java bot: the protocol by hand (docs/protocol.md
// section 2: varint-framed protobuf), decoding only Decision.id and the number of legal
// actions, answering a pseudo-random legal index. java.base only: it checks the JVM under the
// interpreted seccomp profile. `--mem` instead allocates 400 MB (the MLE case of the hostile
// suite), `--fork` starts a process (the SV case).
import java.io.*;
import java.util.ArrayList;
import java.util.List;

public class EchoBot {
    static int pos;

    static long getVarint(byte[] p) {
        long v = 0;
        for (int s = 0; pos < p.length && s < 70; s += 7) {
            int b = p[pos++] & 0xff;
            v |= (long) (b & 0x7f) << s;
            if (b < 0x80) break;
        }
        return v;
    }

    static long readVarint(InputStream in) throws IOException {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            int b = in.read();
            if (b < 0) return -1;
            v |= (long) (b & 0x7f) << (7 * i);
            if (b < 0x80) return v;
        }
        return -1;
    }

    static void putVarint(ByteArrayOutputStream o, long v) {
        while ((v & ~0x7fL) != 0) {
            o.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        o.write((int) v);
    }

    static void lenField(ByteArrayOutputStream o, int num, byte[] b) {
        putVarint(o, (long) num << 3 | 2);
        putVarint(o, b.length);
        o.write(b, 0, b.length);
    }

    static void send(OutputStream out, byte[] msg) throws IOException {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        putVarint(f, msg.length);
        f.write(msg, 0, msg.length);
        out.write(f.toByteArray());
        out.flush();
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "";
        InputStream in = new BufferedInputStream(new FileInputStream(FileDescriptor.in));
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        long state = 88172645463325252L;
        boolean acted = false;
        for (;;) {
            long n = readVarint(in);
            if (n < 0 || n > (8 << 20)) break;
            byte[] body = in.readNBytes((int) n);
            if (body.length != n) break;
            pos = 0;
            boolean bye = false;
            while (pos < body.length) {
                long key = getVarint(body);
                int num = (int) (key >>> 3), wt = (int) (key & 7);
                if (wt != 2) { if (wt == 0) getVarint(body); else break; continue; }
                int len = (int) getVarint(body);
                int start = pos;
                pos += len;
                if (num == 1) {
                    ByteArrayOutputStream id = new ByteArrayOutputStream();
                    putVarint(id, 1 << 3);
                    putVarint(id, 1);
                    lenField(id, 3, "echo-java".getBytes("UTF-8"));
                    lenField(id, 4, "1.0".getBytes("UTF-8"));
                    ByteArrayOutputStream m = new ByteArrayOutputStream();
                    lenField(m, 1, id.toByteArray());
                    send(out, m.toByteArray());
                    m = new ByteArrayOutputStream();
                    lenField(m, 2, new byte[0]);
                    send(out, m.toByteArray());
                } else if (num == 3) {
                    int save = pos;
                    pos = start;
                    long did = 0, legal = 0;
                    while (pos < start + len) {
                        long k2 = getVarint(body);
                        int n2 = (int) (k2 >>> 3), w2 = (int) (k2 & 7);
                        if (w2 == 0) {
                            long v = getVarint(body);
                            if (n2 == 1) did = v;
                        } else if (w2 == 2) {
                            int l2 = (int) getVarint(body);
                            pos += l2;
                            if (n2 == 3) legal++;
                        } else break;
                    }
                    pos = save;
                    if (!acted) {
                        acted = true;
                        if (mode.equals("--mem")) {
                            List<byte[]> hog = new ArrayList<>();
                            for (int i = 0; i < 400; i++) {
                                byte[] b = new byte[1 << 20];
                                java.util.Arrays.fill(b, (byte) 1);
                                hog.add(b);
                            }
                            System.err.println("HB allocated " + hog.size() + " MiB");
                        } else if (mode.equals("--fork")) {
                            try {
                                Process p = new ProcessBuilder("/bin/true").start();
                                System.err.println("HB ProcessBuilder: OK " + p.waitFor());
                            } catch (IOException e) {
                                System.err.println("HB ProcessBuilder: " + e);
                            }
                        }
                    }
                    state ^= state << 13;
                    state ^= state >>> 7;
                    state ^= state << 17;
                    long pick = legal > 0 ? Long.remainderUnsigned(state, legal) : 0;
                    ByteArrayOutputStream c = new ByteArrayOutputStream();
                    putVarint(c, 1 << 3);
                    putVarint(c, did);
                    putVarint(c, 2 << 3);
                    putVarint(c, pick);
                    ByteArrayOutputStream m = new ByteArrayOutputStream();
                    lenField(m, 3, c.toByteArray());
                    send(out, m.toByteArray());
                } else if (num == 8) {
                    bye = true;
                }
            }
            if (bye) break;
        }
        System.err.println("EchoBot.java: done");
    }
}
