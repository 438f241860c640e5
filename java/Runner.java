// cryptobench's Java runner: the JCA (the JDK's own providers) and Bouncy
// Castle measured from inside Java.
//
// It speaks cryptobench's JSON-lines runner protocol on stdin/stdout, one
// request per line: hello (versions, families, offers), prepare (a native
// cell: suite, primitive, operation, params, size, plus the suite's
// known-answer vectors and the native half of an interop check), time (a
// batch of iters operations timed with System.nanoTime) and release.
// Checks run in prepare, before any timing; a cell this Java cannot serve
// is answered unavailable or skipped with the reason.
//
// Java 11+ runs it as a single source file. Bouncy Castle is optional and
// reached by reflection, so the file compiles without bcprov.jar; its
// families are then reported unavailable. The JIT compiles the timed loop
// during cryptobench's warm-up and calibration batches.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.*;
import java.security.spec.*;
import java.util.*;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public class Runner {
    static final int PROTOCOL = 1;
    static final int INTEROP_BYTES = 1024;
    static final SecureRandom RNG = new SecureRandom();
    static Provider bc;
    static String bcWhy = "";

    static class Unavailable extends Exception { Unavailable(String m) { super(m); } }
    static class Skipped extends Exception { Skipped(String m) { super(m); } }

    interface Batch { void run(long iters) throws Exception; }

    static class Prepared {
        Batch run;
        List<Object> checks = new ArrayList<>();
        Map<String, Object> artifacts;
    }

    // --- JSON --------------------------------------------------------------

    static class Json {
        final String s; int i;
        Json(String s) { this.s = s; }
        static Object parse(String s) { Json j = new Json(s); Object v = j.value(); return v; }
        void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
        Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>(); i++; ws();
                if (s.charAt(i) == '}') { i++; return m; }
                while (true) {
                    ws(); String k = (String) value(); ws(); i++; // ':'
                    m.put(k, value()); ws();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>(); i++; ws();
                if (s.charAt(i) == ']') { i++; return l; }
                while (true) {
                    l.add(value()); ws();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder(); i++;
                while (s.charAt(i) != '"') {
                    char d = s.charAt(i++);
                    if (d == '\\') {
                        char e = s.charAt(i++);
                        switch (e) {
                            case 'n': b.append('\n'); break;
                            case 't': b.append('\t'); break;
                            case 'r': b.append('\r'); break;
                            case 'b': b.append('\b'); break;
                            case 'f': b.append('\f'); break;
                            case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                            default: b.append(e);
                        }
                    } else b.append(d);
                }
                i++;
                return b.toString();
            }
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            return Double.parseDouble(s.substring(start, i));
        }
        static String write(Object v) {
            StringBuilder b = new StringBuilder(); write(b, v); return b.toString();
        }
        static void write(StringBuilder b, Object v) {
            if (v == null) b.append("null");
            else if (v instanceof String) {
                b.append('"');
                for (char c : ((String) v).toCharArray()) {
                    if (c == '"' || c == '\\') b.append('\\').append(c);
                    else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
                b.append('"');
            } else if (v instanceof Map) {
                b.append('{'); boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (!first) b.append(','); first = false;
                    write(b, e.getKey().toString()); b.append(':'); write(b, e.getValue());
                }
                b.append('}');
            } else if (v instanceof List) {
                b.append('['); boolean first = true;
                for (Object o : (List<?>) v) { if (!first) b.append(','); first = false; write(b, o); }
                b.append(']');
            } else b.append(v.toString());
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) { return (Map<String, Object>) o; }
    static String str(Map<String, Object> m, String k) { Object v = m.get(k); return v == null ? "" : v.toString(); }
    static int num(Map<String, Object> m, String k, int def) {
        Object v = m.get(k);
        if (v instanceof Double) return ((Double) v).intValue();
        if (v instanceof String) return Integer.parseInt((String) v);
        return def;
    }
    static byte[] unhex(Object o) {
        String s = o == null ? "" : o.toString();
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }
    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }
    static byte[] random(int n) { byte[] b = new byte[n]; RNG.nextBytes(b); return b; }
    static Map<String, Object> check(String name, boolean ok, String detail) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name); m.put("outcome", ok ? "pass" : "fail"); m.put("detail", detail);
        return m;
    }
    static Map<String, Object> skippedCheck(String name, String detail) {
        Map<String, Object> m = check(name, true, detail); m.put("outcome", "skipped"); return m;
    }
    static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    // --- hash --------------------------------------------------------------

    static String digestName(String primitive) throws Unavailable {
        switch (primitive.toLowerCase()) {
            case "sha-256": return "SHA-256";
            case "sha-512": return "SHA-512";
            case "sha3-256": return "SHA3-256";
            case "blake2b-512":
                if (bc == null) throw new Unavailable("BLAKE2b-512 needs Bouncy Castle: " + bcWhy);
                return "BLAKE2B-512";
        }
        throw new Unavailable("the JCA has no digest " + primitive);
    }

    static Prepared prepareHash(Map<String, Object> cell, List<Object> kats, Map<String, Object> interop) throws Exception {
        String name = digestName(str(cell, "primitive"));
        if (!str(cell, "operation").equals("digest")) throw new Unavailable("the runner times digest only");
        MessageDigest md = MessageDigest.getInstance(name);
        Prepared p = new Prepared();
        for (Object o : kats) {
            Map<String, Object> k = map(o);
            p.checks.add(check("kat:" + str(k, "source"), hex(md.digest(unhex(k.get("msg")))).equals(str(k, "digest")),
                "MessageDigest matches the suite's vector"));
        }
        if (interop != null) {
            p.checks.add(check("interop:native->java", hex(md.digest(unhex(interop.get("msg")))).equals(str(interop, "digest")),
                "MessageDigest gives the native digest of the native message"));
            byte[] msg = random(INTEROP_BYTES);
            p.artifacts = obj("msg", hex(msg), "digest", hex(md.digest(msg)));
        }
        byte[] data = random(num(cell, "size", 0));
        p.run = iters -> { for (long i = 0; i < iters; i++) md.digest(data); };
        return p;
    }

    // --- cipher ------------------------------------------------------------

    /** A JCA transformation for an OpenSSL-style cipher name. */
    static class BlockCipher {
        String family, mode; int keyLen, ivLen, block;
        BlockCipher(String family, String mode, int keyLen, int ivLen, int block) {
            this.family = family; this.mode = mode; this.keyLen = keyLen; this.ivLen = ivLen; this.block = block;
        }
        Cipher instance(boolean pad) throws Exception {
            if (family.equals("ChaCha20")) return Cipher.getInstance("ChaCha20");
            return Cipher.getInstance(family + "/" + mode + "/" + (pad ? "PKCS5Padding" : "NoPadding"));
        }
        /** Sets key and IV, as each message does. ChaCha20 takes a fresh
         *  Cipher per message: SunJCE refuses to initialise one instance twice
         *  under one key and nonce, which a timed loop over one message does. */
        byte[] crypt(Cipher c, boolean encrypt, byte[] key, byte[] iv, byte[] in) throws Exception {
            SecretKeySpec k = new SecretKeySpec(key, family);
            if (family.equals("ChaCha20")) {
                int counter = (iv[0] & 0xff) | (iv[1] & 0xff) << 8 | (iv[2] & 0xff) << 16 | (iv[3] & 0xff) << 24;
                c = instance(false);
                c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, k,
                    new ChaCha20ParameterSpec(Arrays.copyOfRange(iv, 4, 16), counter));
            } else if (ivLen == 0) {
                c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, k);
            } else {
                c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, k, new IvParameterSpec(iv));
            }
            return c.doFinal(in);
        }
    }

    static final List<String> JCA_MODES = List.of("CBC", "ECB", "CTR", "CFB", "CFB8", "OFB");

    static BlockCipher cipherFor(String primitive) throws Unavailable {
        String p = primitive.toUpperCase();
        if (p.equals("CHACHA20")) return new BlockCipher("ChaCha20", "", 32, 16, 1);
        String[] parts = p.split("-");
        Unavailable none = new Unavailable("the JCA has no " + primitive + " (AES and 3DES in CBC, ECB, CTR, CFB, CFB8, OFB; ChaCha20)");
        if (parts.length != 3 || !JCA_MODES.contains(parts[2])) throw none;
        String mode = parts[2];
        if (parts[0].equals("AES") && List.of("128", "192", "256").contains(parts[1])) {
            return new BlockCipher("AES", mode, Integer.parseInt(parts[1]) / 8, mode.equals("ECB") ? 0 : 16, 16);
        }
        if (parts[0].equals("DES") && parts[1].equals("EDE3") && !mode.equals("CTR")) {
            return new BlockCipher("DESede", mode, 24, mode.equals("ECB") ? 0 : 8, 8);
        }
        throw none;
    }

    static Prepared prepareCipher(Map<String, Object> cell, List<Object> kats, Map<String, Object> interop) throws Exception {
        BlockCipher b = cipherFor(str(cell, "primitive"));
        String op = str(cell, "operation");
        if (!List.of("encrypt", "decrypt", "roundtrip").contains(op)) {
            throw new Unavailable("the runner times encrypt, decrypt and roundtrip, not " + op);
        }
        boolean pkcs7 = "pkcs7".equals(str(map(cell.get("params")), "padding"));
        Cipher bare = b.instance(false), padded = pkcs7 ? b.instance(true) : bare;
        Prepared p = new Prepared();
        for (Object o : kats) {
            Map<String, Object> k = map(o);
            byte[] key = unhex(k.get("key")), iv = unhex(k.get("iv")), pt = unhex(k.get("pt")), ct = unhex(k.get("ct"));
            boolean ok = Arrays.equals(b.crypt(bare, true, key, iv, pt), ct) && Arrays.equals(b.crypt(bare, false, key, iv, ct), pt);
            p.checks.add(check("kat:" + str(k, "source"), ok, "the JCA encrypts to the vector and back"));
        }
        byte[] key = random(b.keyLen), iv = random(b.ivLen), data = random(num(cell, "size", 0));
        byte[] sealed = b.crypt(padded, true, key, iv, data);
        p.checks.add(check("round trip", Arrays.equals(b.crypt(padded, false, key, iv, sealed), data), "decrypts what it encrypted"));
        if (interop != null) {
            Cipher c = "pkcs7".equals(str(interop, "padding")) ? b.instance(true) : bare;
            byte[] got = b.crypt(c, false, unhex(interop.get("key")), unhex(interop.get("iv")), unhex(interop.get("ct")));
            p.checks.add(check("interop:native->java", Arrays.equals(got, unhex(interop.get("pt"))), "the JCA decrypts the native ciphertext"));
            byte[] ik = random(b.keyLen), iiv = random(b.ivLen), ip = random(INTEROP_BYTES);
            p.artifacts = obj("key", hex(ik), "iv", hex(iiv), "pt", hex(ip), "ct", hex(b.crypt(bare, true, ik, iiv, ip)),
                "size", INTEROP_BYTES);
        }
        if (op.equals("encrypt")) {
            p.run = iters -> { for (long i = 0; i < iters; i++) b.crypt(padded, true, key, iv, data); };
        } else if (op.equals("decrypt")) {
            p.run = iters -> { for (long i = 0; i < iters; i++) b.crypt(padded, false, key, iv, sealed); };
        } else {
            p.run = iters -> {
                // Encrypt, decrypt and compare, as the native roundtrip does.
                for (long i = 0; i < iters; i++) Arrays.equals(b.crypt(padded, false, key, iv, b.crypt(padded, true, key, iv, data)), data);
            };
        }
        return p;
    }

    static List<String> cipherOffers() {
        List<String> out = new ArrayList<>(List.of("ChaCha20"));
        for (String bits : List.of("128", "192", "256")) for (String m : JCA_MODES) out.add("AES-" + bits + "-" + m);
        for (String m : JCA_MODES) if (!m.equals("CTR")) out.add("DES-EDE3-" + m);
        return out;
    }

    // --- aead --------------------------------------------------------------

    static class Aead {
        String transformation; int keyLen; int nonceLen = 12; int tag; Provider provider;
        // One Cipher per direction, re-initialised per message, as Java code
        // that encrypts many messages keeps it.
        Cipher enc, dec;
        Cipher cipher(int mode, byte[] key, byte[] nonce) throws Exception {
            Cipher c = mode == Cipher.ENCRYPT_MODE ? enc : dec;
            if (c == null) {
                c = provider == null ? Cipher.getInstance(transformation) : Cipher.getInstance(transformation, provider);
                if (mode == Cipher.ENCRYPT_MODE) enc = c; else dec = c;
            }
            String alg = transformation.startsWith("ChaCha20") ? "ChaCha20" : "AES";
            AlgorithmParameterSpec spec = transformation.startsWith("ChaCha20")
                ? new IvParameterSpec(nonce) : new GCMParameterSpec(tag * 8, nonce);
            c.init(mode, new SecretKeySpec(key, alg), spec);
            return c;
        }
        byte[] seal(byte[] key, byte[] nonce, byte[] msg, byte[] aad) throws Exception {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, key, nonce);
            if (aad.length > 0) c.updateAAD(aad);
            return c.doFinal(msg);
        }
        byte[] open(byte[] key, byte[] nonce, byte[] sealed, byte[] aad) {
            try {
                Cipher c = cipher(Cipher.DECRYPT_MODE, key, nonce);
                if (aad.length > 0) c.updateAAD(aad);
                return c.doFinal(sealed);
            } catch (Exception e) {
                return null;
            }
        }
    }

    static Aead aeadFor(String primitive, int tag) throws Exception {
        String p = primitive.toLowerCase();
        Aead a = new Aead();
        a.tag = tag;
        if (p.matches("aes-(128|192|256)-gcm")) {
            if (tag < 12 || tag > 16) throw new Skipped("the JCA's AES/GCM takes tags of 12 to 16 bytes");
            a.transformation = "AES/GCM/NoPadding";
        } else if (p.matches("aes-(128|192|256)-(ccm|ocb)")) {
            if (bc == null) throw new Unavailable(primitive + " needs Bouncy Castle: " + bcWhy);
            a.transformation = p.endsWith("ccm") ? "AES/CCM/NoPadding" : "AES/OCB/NoPadding";
            a.provider = bc;
        } else if (p.equals("chacha20-poly1305")) {
            if (tag != 16) throw new Skipped("ChaCha20-Poly1305 has a 16-byte tag");
            a.transformation = "ChaCha20-Poly1305";
            a.keyLen = 32;
            return a;
        } else {
            throw new Unavailable("neither the JCA nor Bouncy Castle here offers " + primitive);
        }
        a.keyLen = Integer.parseInt(p.substring(4, 7)) / 8;
        return a;
    }

    static Prepared prepareAead(Map<String, Object> cell, List<Object> kats, Map<String, Object> interop) throws Exception {
        Map<String, Object> params = map(cell.get("params"));
        int tag = num(params, "tag", 16);
        Aead a = aeadFor(str(cell, "primitive"), tag);
        String op = str(cell, "operation");
        if (!op.equals("encrypt") && !op.equals("decrypt")) throw new Unavailable("the runner times encrypt and decrypt, not " + op);
        Prepared p = new Prepared();
        for (Object o : kats) {
            Map<String, Object> k = map(o);
            byte[] key = unhex(k.get("key")), nonce = unhex(k.get("nonce")), aad = unhex(k.get("aad"));
            if (key.length != a.keyLen || nonce.length != a.nonceLen) continue;
            byte[] sealed = unhex(str(k, "ct") + str(k, "tag"));
            byte[] opened = a.open(key, nonce, sealed, aad);
            if (Boolean.TRUE.equals(k.get("valid"))) {
                boolean ok = Arrays.equals(a.seal(key, nonce, unhex(k.get("pt")), aad), sealed)
                    && opened != null && Arrays.equals(opened, unhex(k.get("pt")));
                p.checks.add(check("kat:" + str(k, "source"), ok, "the JCA seals to the vector and opens it"));
            } else {
                p.checks.add(check("kat:" + str(k, "source"), opened == null, "the JCA refuses the invalid vector"));
            }
        }
        int size = num(cell, "size", 0);
        byte[] key = random(a.keyLen), aad = random(num(params, "aad", 0)), nonce = random(a.nonceLen);
        byte[] msg = random(Math.min(size, 1 << 20));
        byte[] sealed = a.seal(key, nonce, msg, aad);
        byte[] back = a.open(key, nonce, sealed, aad);
        p.checks.add(check("round trip", back != null && Arrays.equals(back, msg), "opens what it sealed"));
        byte[] bad = sealed.clone();
        bad[0] ^= 1;
        p.checks.add(check("tamper", a.open(key, nonce, bad, aad) == null, "refuses a flipped bit"));
        if (interop != null) {
            byte[] got = a.open(unhex(interop.get("key")), unhex(interop.get("nonce")),
                unhex(str(interop, "ct") + str(interop, "tag")), unhex(interop.get("aad")));
            p.checks.add(check("interop:native->java", got != null && Arrays.equals(got, unhex(interop.get("pt"))),
                "the JCA opens the native ciphertext and tag"));
            byte[] ik = random(a.keyLen), in = random(a.nonceLen), ia = random(13), ip = random(INTEROP_BYTES);
            byte[] out = a.seal(ik, in, ip, ia);
            p.artifacts = obj("key", hex(ik), "nonce", hex(in), "aad", hex(ia), "pt", hex(ip),
                "ct", hex(Arrays.copyOf(out, out.length - tag)), "tag", hex(Arrays.copyOfRange(out, out.length - tag, out.length)),
                "size", INTEROP_BYTES);
        }
        byte[] data = random(size);
        if (op.equals("encrypt")) {
            long[] counter = {0};
            byte[] n = new byte[a.nonceLen];
            p.run = iters -> {
                for (long i = 0; i < iters; i++) {
                    long c = counter[0]++;
                    for (int j = 0; j < 8; j++) n[j] = (byte) (c >>> (8 * j));
                    a.seal(key, n, data, aad);
                }
            };
        } else {
            // A nonce of its own: the JCA refuses to seal twice under one key and nonce.
            byte[] fixedNonce = random(a.nonceLen);
            byte[] fixed = a.seal(key, fixedNonce, data, aad);
            p.run = iters -> { for (long i = 0; i < iters; i++) a.open(key, fixedNonce, fixed, aad); };
        }
        return p;
    }

    // --- ecc ---------------------------------------------------------------

    static class Curve {
        String kind; String keyAlg; String sigAlg; AlgorithmParameterSpec spec; Provider provider;
        KeyPairGenerator gen;
        KeyPair generate() { return gen.generateKeyPair(); }
        KeyFactory factory() throws Exception {
            return provider == null ? KeyFactory.getInstance(keyAlg) : KeyFactory.getInstance(keyAlg, provider);
        }
        byte[] sign(PrivateKey k, byte[] msg) throws Exception {
            Signature s = provider == null ? Signature.getInstance(sigAlg) : Signature.getInstance(sigAlg, provider);
            s.initSign(k); s.update(msg); return s.sign();
        }
        boolean verify(PublicKey k, byte[] msg, byte[] sig) {
            try {
                Signature s = provider == null ? Signature.getInstance(sigAlg) : Signature.getInstance(sigAlg, provider);
                s.initVerify(k); s.update(msg); return s.verify(sig);
            } catch (Exception e) {
                return false;
            }
        }
        byte[] agree(PrivateKey k, PublicKey other) throws Exception {
            KeyAgreement ka = KeyAgreement.getInstance("XDH");
            ka.init(k); ka.doPhase(other, true); return ka.generateSecret();
        }
        boolean worksTogether(PrivateKey priv, PublicKey pub) throws Exception {
            if (kind.equals("dh")) {
                KeyPair mine = generate();
                return Arrays.equals(agree(priv, mine.getPublic()), agree(mine.getPrivate(), pub));
            }
            byte[] msg = random(32);
            return verify(pub, msg, sign(priv, msg));
        }
    }

    static Curve curveFor(String name) throws Exception {
        Curve c = new Curve();
        String n = name.toLowerCase();
        switch (n) {
            case "x25519": case "x448":
                c.kind = "dh"; c.keyAlg = n.toUpperCase(); break;
            case "ed25519": case "ed448":
                c.kind = "eddsa"; c.keyAlg = n.equals("ed25519") ? "Ed25519" : "Ed448"; c.sigAlg = c.keyAlg; break;
            default:
                c.kind = "ecdsa"; c.keyAlg = "EC"; c.sigAlg = "SHA256withECDSA";
                String std = n.equals("prime256v1") ? "secp256r1" : n;
                c.spec = new ECGenParameterSpec(std);
                try {
                    c.gen = KeyPairGenerator.getInstance("EC");
                    c.gen.initialize(c.spec, RNG);
                } catch (InvalidAlgorithmParameterException e) {
                    if (bc == null) throw new Unavailable("the JDK's SunEC has no " + name + " and Bouncy Castle is absent: " + bcWhy);
                    c.provider = bc;
                    try {
                        c.gen = KeyPairGenerator.getInstance("EC", bc);
                        c.gen.initialize(new ECGenParameterSpec(name), RNG);
                    } catch (InvalidAlgorithmParameterException e2) {
                        throw new Unavailable("neither SunEC nor Bouncy Castle knows the curve " + name);
                    }
                }
                return c;
        }
        c.gen = KeyPairGenerator.getInstance(c.keyAlg);
        return c;
    }

    static Prepared prepareEcc(Map<String, Object> cell, List<Object> kats, Map<String, Object> interop) throws Exception {
        Curve c = curveFor(str(cell, "primitive"));
        String op = str(cell, "operation");
        if (!(op.equals("keygen") || (op.equals("sign") && !c.kind.equals("dh"))))
            throw new Unavailable("the runner times keygen and signatures, not " + op + " on " + str(cell, "primitive"));
        Prepared p = new Prepared();
        KeyPair kp = c.generate();
        p.checks.add(check("round trip", c.worksTogether(kp.getPrivate(), kp.getPublic()),
            c.kind.equals("dh") ? "two fresh keys agree" : "a fresh key signs and verifies"));
        byte[] msg = random(32);
        if (!c.kind.equals("dh")) {
            byte[] sig = c.sign(kp.getPrivate(), msg);
            byte[] other = msg.clone(); other[0] ^= 1;
            p.checks.add(check("tamper", !c.verify(kp.getPublic(), other, sig), "a signature does not verify another message"));
        }
        if (interop != null) {
            boolean ok; String detail = "the native PKCS#8 key and SPKI public key work together in the JCA";
            try {
                String pem = str(interop, "pem").replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
                KeyFactory kf = c.factory();
                PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
                PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(unhex(interop.get("spki"))));
                ok = c.worksTogether(priv, pub);
            } catch (Exception e) {
                ok = false; detail = "the JCA cannot use the native key: " + e;
            }
            p.checks.add(check("interop:native->java", ok, detail));
            KeyPair mine = c.generate();
            String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(mine.getPrivate().getEncoded());
            p.artifacts = obj("pem", "-----BEGIN PRIVATE KEY-----\n" + b64 + "\n-----END PRIVATE KEY-----\n",
                "spki", hex(mine.getPublic().getEncoded()));
        }
        if (op.equals("keygen")) p.run = iters -> { for (long i = 0; i < iters; i++) c.generate(); };
        else p.run = iters -> { for (long i = 0; i < iters; i++) c.sign(kp.getPrivate(), msg); };
        return p;
    }

    // --- argon2 (Bouncy Castle, by reflection) ------------------------------

    static byte[] argon2(String variant, byte[] password, byte[] salt, int t, int m, int lanes, int tagLen,
                         byte[] secret, byte[] ad) throws Exception {
        Class<?> builderClass = Class.forName("org.bouncycastle.crypto.params.Argon2Parameters$Builder");
        int type = variant.equals("argon2d") ? 0 : variant.equals("argon2i") ? 1 : 2;
        Object b = builderClass.getConstructor(int.class).newInstance(type);
        builderClass.getMethod("withVersion", int.class).invoke(b, 0x13);
        builderClass.getMethod("withIterations", int.class).invoke(b, t);
        builderClass.getMethod("withMemoryAsKB", int.class).invoke(b, m);
        builderClass.getMethod("withParallelism", int.class).invoke(b, lanes);
        builderClass.getMethod("withSalt", byte[].class).invoke(b, (Object) salt);
        if (secret.length > 0) builderClass.getMethod("withSecret", byte[].class).invoke(b, (Object) secret);
        if (ad.length > 0) builderClass.getMethod("withAdditional", byte[].class).invoke(b, (Object) ad);
        Object params = builderClass.getMethod("build").invoke(b);
        Class<?> genClass = Class.forName("org.bouncycastle.crypto.generators.Argon2BytesGenerator");
        Object gen = genClass.getConstructor().newInstance();
        genClass.getMethod("init", params.getClass()).invoke(gen, params);
        byte[] out = new byte[tagLen];
        genClass.getMethod("generateBytes", byte[].class, byte[].class).invoke(gen, password, out);
        return out;
    }

    // Bouncy Castle derives raw bytes only: the runner writes and reads PHC
    // strings ($argon2id$v=19$m=..,t=..,p=..$salt$hash, unpadded base64) itself.
    record Phc(String variant, int m, int t, int lanes, byte[] salt, byte[] hash) {
        Phc withHash(byte[] h) { return new Phc(variant, m, t, lanes, salt, h); }

        String encode() {
            Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
            return "$" + variant + "$v=19$m=" + m + ",t=" + t + ",p=" + lanes + "$"
                + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
        }

        /** Reads a PHC string; IllegalArgumentException when it is not one of version 0x13. */
        static Phc parse(String s) {
            String[] f = s.split("\\$", -1);
            if (f.length != 6 || !f[0].isEmpty()) throw new IllegalArgumentException("not five $-separated fields");
            if (!f[1].matches("argon2(i|d|id)")) throw new IllegalArgumentException("no Argon2 variant " + f[1]);
            if (!f[2].equals("v=19")) throw new IllegalArgumentException("only version 19 (0x13), not " + f[2]);
            java.util.regex.Matcher mt = java.util.regex.Pattern.compile("m=([1-9][0-9]*),t=([1-9][0-9]*),p=([1-9][0-9]*)").matcher(f[3]);
            if (!mt.matches()) throw new IllegalArgumentException("parameters are m=KiB,t=passes,p=lanes, not " + f[3]);
            if (f[4].contains("=") || f[5].contains("=") || f[5].isEmpty()) throw new IllegalArgumentException("salt and hash are unpadded base64");
            Base64.Decoder d = Base64.getDecoder();
            return new Phc(f[1], Integer.parseInt(mt.group(1)), Integer.parseInt(mt.group(2)), Integer.parseInt(mt.group(3)),
                d.decode(f[4]), d.decode(f[5]));
        }
    }

    /** Whether password hashes to the PHC string's hash (false for a malformed string). */
    static boolean verifyPhc(String s, byte[] password) throws Exception {
        Phc phc;
        try {
            phc = Phc.parse(s);
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] got = argon2(phc.variant(), password, phc.salt(), phc.t(), phc.m(), phc.lanes(), phc.hash().length,
            new byte[0], new byte[0]);
        return MessageDigest.isEqual(got, phc.hash());
    }

    static Prepared prepareArgon2(Map<String, Object> cell, List<Object> kats, Map<String, Object> interop) throws Exception {
        if (bc == null) throw new Unavailable("Argon2 needs Bouncy Castle: " + bcWhy);
        String variant = str(cell, "primitive").toLowerCase();
        if (!variant.matches("argon2(i|d|id)")) throw new Unavailable("Bouncy Castle has no " + variant);
        Map<String, Object> params = map(cell.get("params"));
        if (!str(params, "version").isEmpty() && !str(params, "version").equals("0x13"))
            throw new Unavailable("the runner hashes Argon2 version 0x13 only");
        int t = num(params, "t", 1), m = num(params, "m_kib", 0), lanes = num(params, "p", 1), tag = num(params, "tag", 32);
        if (num(params, "threads", lanes) != 1 && lanes > 1)
            throw new Skipped("Bouncy Castle computes the lanes on one thread; this cell runs " + num(params, "threads", lanes));
        Prepared p = new Prepared();
        for (Object o : kats) {
            Map<String, Object> k = map(o);
            byte[] got = argon2(str(k, "variant"), unhex(k.get("password")), unhex(k.get("salt")), num(k, "t", 0),
                num(k, "m_kib", 0), num(k, "p", 1), str(k, "tag").length() / 2, unhex(k.get("secret")), unhex(k.get("ad")));
            p.checks.add(check("kat:" + str(k, "source"), hex(got).equals(str(k, "tag")), "Bouncy Castle's Argon2 matches the vector"));
        }
        if (interop != null) {
            byte[] raw = argon2(variant, unhex(interop.get("password")), unhex(interop.get("salt")), num(interop, "t", 0),
                num(interop, "m_kib", 0), num(interop, "threads", 1), 32, new byte[0], new byte[0]);
            p.checks.add(check("interop:native->java", hex(raw).equals(str(interop, "raw")),
                "Bouncy Castle's Argon2 gives the native tag for the native inputs"));
            p.artifacts = obj("password", str(interop, "password"), "salt", str(interop, "salt"), "raw", hex(raw),
                "library", "Bouncy Castle Argon2");
            if (!str(interop, "phc").isEmpty()) {
                byte[] pw = unhex(interop.get("password"));
                boolean ok = verifyPhc(str(interop, "phc"), pw) && !verifyPhc(str(interop, "phc"), unhex(interop.get("wrong_password")));
                p.checks.add(check("interop:native->java phc", ok,
                    "Bouncy Castle's Argon2 verifies the native PHC string, parsed by the runner (and refuses a wrong password)"));
                Phc own = new Phc(variant, num(interop, "m_kib", 0), num(interop, "t", 0), num(interop, "threads", 1), random(16), null);
                p.artifacts.put("phc", own.withHash(argon2(variant, pw, own.salt(), own.t(), own.m(), own.lanes(), 32,
                    new byte[0], new byte[0])).encode());
            }
        }
        byte[] salt = random(16);
        byte[] password = "password".getBytes(StandardCharsets.US_ASCII);
        p.run = iters -> { for (long i = 0; i < iters; i++) argon2(variant, password, salt, t, m, lanes, tag, new byte[0], new byte[0]); };
        return p;
    }

    static Map<String, Object> offers() {
        List<String> hashes = new ArrayList<>(List.of("SHA-256", "SHA-512", "SHA3-256"));
        List<String> aeads = new ArrayList<>(List.of("AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305"));
        List<String> curves = new ArrayList<>(List.of("prime256v1", "secp256r1", "secp384r1", "secp521r1",
            "X25519", "X448", "Ed25519", "Ed448"));
        List<String> argon = new ArrayList<>();
        if (bc != null) {
            hashes.add("BLAKE2b-512");
            aeads.addAll(List.of("AES-128-CCM", "AES-256-CCM", "AES-128-OCB", "AES-256-OCB"));
            curves.addAll(List.of("secp256k1", "secp224r1", "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1"));
            argon.addAll(List.of("Argon2i", "Argon2d", "Argon2id"));
        }
        return obj("hash", hashes, "cipher", cipherOffers(), "aead", aeads, "ecc", curves, "argon2", argon);
    }

    // --- warm-up -------------------------------------------------------------

    /** Batches of at least this long are compared for stability. */
    static final long WARM_BATCH_NS = 5_000_000L;
    /** Calls before stability counts: C2 compiles a method after about
     *  15,000 invocations, and one call reaches several. */
    static final long WARM_MIN_OPS = 50_000L;
    /** Or this long: an operation of milliseconds (Argon2) reaches the
     *  compile thresholds through its inner loops, not its calls. */
    static final long WARM_MIN_NS = 200_000_000L;
    /** Longest warm-up per case; the engine's calibration follows it. The
     *  quiet-threads test below is what ends a warm-up early enough; this
     *  ceiling leaves room for a C2 compilation that on 2 cores may take
     *  over a second to reach a case queued behind start-up methods. */
    static final long WARM_BUDGET_NS = 2_000_000_000L;
    /** An operation slower than this is left to the engine's own warm-up. */
    static final long WARM_SLOW_OP_NS = 20_000_000L;
    /** HotSpot's compilers, to see when they have stopped compiling. */
    static final java.lang.management.CompilationMXBean JIT = java.lang.management.ManagementFactory.getCompilationMXBean();

    static long jitMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : -1;
    }

    static final java.lang.management.OperatingSystemMXBean OS = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** CPU time (ns) the JVM's other threads (compilers, GC) have used, or
     *  -1 where the JVM does not say. The compile-time counter above moves
     *  only when a compilation ends; a long C2 compilation in progress
     *  shows here. */
    static long othersCpuNs() {
        if (!(OS instanceof com.sun.management.OperatingSystemMXBean) || !THREADS.isCurrentThreadCpuTimeSupported()) return -1;
        long process = ((com.sun.management.OperatingSystemMXBean) OS).getProcessCpuTime();
        return process < 0 ? -1 : process - THREADS.getCurrentThreadCpuTime();
    }

    /** Runs the case until the JIT has settled: batches of WARM_BATCH_NS
     *  until, past WARM_MIN_OPS calls (or WARM_MIN_NS), three in a row
     *  brought no batch 3% faster per operation than the batch that last
     *  did, while HotSpot finished no compilation and its other
     *  threads used under a tenth of a core. Three settled batches while it
     *  still compiles are a C1 plateau, and a tier change halfway through
     *  the samples widens their interval (or, past the samples, splits one
     *  run from the next). Whether a batch got faster, not whether three
     *  agree within 3%, tells a JIT still at work: a shared machine only
     *  adds time to a batch, and where batches spread by 5-10% three rarely
     *  agreed, so warm-ups ran on to WARM_BUDGET_NS. Returns what it did,
     *  for the prepare answer. */
    static Map<String, Object> warmUp(Batch run) throws Exception {
        long start = System.nanoTime(), ops = 0, n = 1;
        long[] jitAfter = new long[3], othersAfter = new long[3], wall = new long[3];
        int seen = 0, sinceFaster = 0;
        double anchor = Double.MAX_VALUE;
        boolean stable = false;
        while (System.nanoTime() - start < WARM_BUDGET_NS) {
            long jitBefore = jitMillis(), othersBefore = othersCpuNs();
            long t0 = System.nanoTime();
            run.run(n);
            long t = System.nanoTime() - t0;
            ops += n;
            if (t / n > WARM_SLOW_OP_NS) break;
            if (t < WARM_BATCH_NS) { n *= 2; continue; }
            double perOp = (double) t / n;
            if (perOp < anchor * 0.97) { anchor = perOp; sinceFaster = 0; } else sinceFaster++;
            jitAfter[seen % 3] = jitMillis() - jitBefore;
            othersAfter[seen % 3] = othersBefore < 0 ? 0 : othersCpuNs() - othersBefore;
            wall[seen % 3] = t;
            seen++;
            if (sinceFaster >= 3 && (ops >= WARM_MIN_OPS || System.nanoTime() - start >= WARM_MIN_NS)) {
                boolean compiled = jitAfter[0] != 0 || jitAfter[1] != 0 || jitAfter[2] != 0;
                boolean busy = 10 * (othersAfter[0] + othersAfter[1] + othersAfter[2]) > wall[0] + wall[1] + wall[2];
                if (!compiled && !busy) { stable = true; break; }
            }
        }
        return obj("ops", ops, "ms", (System.nanoTime() - start) / 1e6, "stable", stable);
    }

    // --- protocol ----------------------------------------------------------

    static Map<String, Object> answer(Map<String, Object> req, Map<String, Prepared> cases) throws Exception {
        String op = str(req, "op");
        String id = str(req, "id");
        switch (op) {
            case "hello": {
                Map<String, Object> libs = obj("jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"));
                if (bc != null) libs.put("bouncycastle", bc.getVersionStr());
                Map<String, Object> bcFamily = bc != null ? obj("available", true) : obj("available", false, "reason", bcWhy);
                return obj("ok", true, "protocol", PROTOCOL, "runtime", "java", "version", System.getProperty("java.version"),
                    "libraries", libs, "families", obj("jca", obj("available", true), "bouncycastle", bcFamily), "offers", offers());
            }
            case "offers": return obj("ok", true, "offers", offers());
            case "prepare": {
                Map<String, Object> cell = map(req.get("cell"));
                @SuppressWarnings("unchecked")
                List<Object> kats = req.get("kats") == null ? List.of() : (List<Object>) req.get("kats");
                Map<String, Object> interop = req.get("interop") == null ? null : map(req.get("interop"));
                try {
                    Prepared p;
                    switch (str(cell, "suite")) {
                        case "hash": p = prepareHash(cell, kats, interop); break;
                        case "cipher": p = prepareCipher(cell, kats, interop); break;
                        case "aead": p = prepareAead(cell, kats, interop); break;
                        case "ecc": p = prepareEcc(cell, kats, interop); break;
                        case "argon2": p = prepareArgon2(cell, kats, interop); break;
                        default: throw new Unavailable("the java runner serves no suite " + str(cell, "suite"));
                    }
                    cases.put(id, p);
                    return obj("ok", true, "checks", p.checks, "artifacts", p.artifacts, "warmup", warmUp(p.run));
                } catch (Unavailable u) {
                    return obj("ok", true, "unavailable", u.getMessage());
                } catch (Skipped s) {
                    return obj("ok", true, "skipped", s.getMessage());
                }
            }
            case "time": {
                Prepared p = cases.get(id);
                if (p == null) return obj("ok", false, "error", "no prepared case " + id);
                long iters = (long) num(req, "iters", 1);
                // One untimed operation first, as in every runner: the first
                // after another runner's batch pays for the caches it took.
                if (iters > 1) p.run.run(1);
                long start = System.nanoTime();
                p.run.run(iters);
                long ns = System.nanoTime() - start;
                return obj("ok", true, "ns", ns, "iters", iters);
            }
            case "release":
                return cases.remove(id) != null ? obj("ok", true) : obj("ok", false, "error", "no prepared case " + id);
            default:
                return obj("ok", false, "error", "unknown op " + op);
        }
    }

    public static void main(String[] args) throws Exception {
        try {
            bc = (Provider) Class.forName("org.bouncycastle.jce.provider.BouncyCastleProvider").getConstructor().newInstance();
            Security.addProvider(bc);
        } catch (ClassNotFoundException e) {
            bcWhy = "bcprov.jar is not on the class path: install libbcprov-java";
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Prepared> cases = new HashMap<>();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> ans;
            try {
                ans = answer(map(Json.parse(line)), cases);
            } catch (Throwable e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null ? e.getCause() : e;
                ans = obj("ok", false, "error", cause.toString());
            }
            out.print(Json.write(ans));
            out.print('\n');
            out.flush();
        }
    }
}
