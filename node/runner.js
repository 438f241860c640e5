// cryptobench's Node.js runner: the built-in `crypto` module measured from
// inside Node.
//
// Speaks cryptobench's JSON-lines runner protocol on stdin/stdout, one
// request per line: `hello` (versions, families, offers), `prepare` (a
// native cell: suite, primitive, operation, params, size, plus the suite's
// known-answer vectors and the native half of an interop check), `time` (a
// batch of `iters` operations timed with process.hrtime.bigint) and
// `release`. Checks run in `prepare`, before any timing; a cell this Node
// cannot serve is answered `unavailable` or `skipped` with the reason.
'use strict';

const crypto = require('crypto');
const readline = require('readline');

const PROTOCOL = 1;
const INTEROP_BYTES = 1024;
const HAS_ARGON2 = typeof crypto.argon2Sync === 'function';
const ARGON2_WHY = `crypto.argon2 needs Node >= 24.7; this is Node ${process.versions.node}`;

class Unavailable extends Error {}
class Skipped extends Error {}

const check = (name, ok, detail) => ({ name, outcome: ok ? 'pass' : 'fail', detail });
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Buffer.from(s, 'hex');
// randomBytes(0) is a buffer without storage, which OpenSSL's CCM takes for
// "no message" and then has no tag to give; an empty buffer is a message.
const random = (n) => (n > 0 ? crypto.randomBytes(n) : Buffer.alloc(0));

// --- hash ------------------------------------------------------------------

const HASHES = { 'sha-256': 'sha256', 'sha-512': 'sha512', 'sha3-256': 'sha3-256', 'blake2b-512': 'blake2b512' };

function prepareHash(cell, kats, interop) {
  const name = HASHES[cell.primitive.toLowerCase()];
  if (!name || !crypto.getHashes().includes(name) || cell.operation !== 'digest') {
    throw new Unavailable(`Node's crypto has no ${cell.primitive} ${cell.operation}`);
  }
  const digest = (data) => crypto.createHash(name).update(data).digest();
  const checks = kats.map((k) => check(`kat:${k.source}`, hex(digest(unhex(k.msg))) === k.digest,
    'crypto.createHash matches the suite\'s vector'));
  let artifacts = null;
  if (interop) {
    checks.push(check('interop:native->node', hex(digest(unhex(interop.msg))) === interop.digest,
      'crypto.createHash gives the native digest of the native message'));
    const msg = random(INTEROP_BYTES);
    artifacts = { msg: hex(msg), digest: hex(digest(msg)) };
  }
  const data = random(cell.size);
  const run = (iters) => { for (let i = 0; i < iters; i++) crypto.createHash(name).update(data).digest(); };
  return { run, checks, artifacts };
}

// --- cipher ----------------------------------------------------------------

// Modes the aead suite (or no suite) measures: not offered as ciphers.
const NOT_CIPHER_MODES = ['gcm', 'ccm', 'ocb', 'wrap'];

function cipherInfo(primitive) {
  const name = primitive.toLowerCase();
  const info = crypto.getCiphers().includes(name) ? crypto.getCipherInfo(name) : undefined;
  if (!info || NOT_CIPHER_MODES.includes(info.mode) || /poly1305|hmac/.test(name)) {
    throw new Unavailable(`Node's crypto.getCiphers() has no ${primitive} cipher`);
  }
  return { name, keyLen: info.keyLength, ivLen: info.ivLength || 0 };
}

function prepareCipher(cell, kats, interop) {
  const { name, keyLen, ivLen } = cipherInfo(cell.primitive);
  if (!['encrypt', 'decrypt', 'roundtrip'].includes(cell.operation)) {
    throw new Unavailable(`the runner times encrypt, decrypt and roundtrip, not ${cell.operation}`);
  }
  const pkcs7 = cell.params.padding === 'pkcs7';
  const crypt = (encrypt, key, iv, data, pad) => {
    const c = encrypt ? crypto.createCipheriv(name, key, ivLen ? iv : null)
      : crypto.createDecipheriv(name, key, ivLen ? iv : null);
    c.setAutoPadding(pad);
    return Buffer.concat([c.update(data), c.final()]);
  };
  const checks = [];
  for (const k of kats) {
    const key = unhex(k.key); const iv = unhex(k.iv);
    const ct = crypt(true, key, iv, unhex(k.pt), false);
    const pt = crypt(false, key, iv, unhex(k.ct), false);
    checks.push(check(`kat:${k.source}`, hex(ct) === k.ct && hex(pt) === k.pt,
      'crypto.createCipheriv encrypts to the vector and back'));
  }
  const key = random(keyLen); const iv = random(ivLen);
  const data = random(cell.size);
  const sealed = crypt(true, key, iv, data, pkcs7);
  checks.push(check('round trip', crypt(false, key, iv, sealed, pkcs7).equals(data), 'decrypts what it encrypted'));
  let artifacts = null;
  if (interop) {
    const got = crypt(false, unhex(interop.key), unhex(interop.iv), unhex(interop.ct), interop.padding === 'pkcs7');
    checks.push(check('interop:native->node', hex(got) === interop.pt, 'crypto decrypts the native ciphertext'));
    const ik = random(keyLen); const iiv = random(ivLen); const ip = random(INTEROP_BYTES);
    artifacts = { key: hex(ik), iv: hex(iiv), pt: hex(ip), ct: hex(crypt(true, ik, iiv, ip, false)), size: INTEROP_BYTES };
  }
  const once = {
    encrypt: () => crypt(true, key, iv, data, pkcs7),
    decrypt: () => crypt(false, key, iv, sealed, pkcs7),
    // Encrypt, decrypt and compare, as the native roundtrip does.
    roundtrip: () => crypt(false, key, iv, crypt(true, key, iv, data, pkcs7), pkcs7).equals(data),
  }[cell.operation];
  const run = (iters) => { for (let i = 0; i < iters; i++) once(); };
  return { run, checks, artifacts };
}

// --- aead ------------------------------------------------------------------

function aeadApi(primitive, tag) {
  const p = primitive.toLowerCase();
  const ok = /^aes-(128|192|256)-(gcm|ccm|ocb)$/.test(p) || p === 'chacha20-poly1305';
  if (!ok || !crypto.getCiphers().includes(p)) {
    throw new Unavailable(`Node's crypto.getCiphers() has no ${primitive} AEAD`);
  }
  const ccm = p.endsWith('-ccm');
  if (p === 'chacha20-poly1305' && tag !== 16) throw new Skipped('ChaCha20-Poly1305 has a 16-byte tag');
  const keyLen = crypto.getCipherInfo(p).keyLength;
  const seal = (key, nonce, msg, aad) => {
    const c = crypto.createCipheriv(p, key, nonce, { authTagLength: tag });
    if (aad.length || ccm) c.setAAD(aad, { plaintextLength: msg.length });
    const ct = Buffer.concat([c.update(msg), c.final()]);
    return [ct, c.getAuthTag()];
  };
  const open = (key, nonce, ct, tagBytes, aad) => {
    try {
      const d = crypto.createDecipheriv(p, key, nonce, { authTagLength: tag });
      d.setAuthTag(tagBytes);
      if (aad.length || ccm) d.setAAD(aad, { plaintextLength: ct.length });
      return Buffer.concat([d.update(ct), d.final()]);
    } catch (e) {
      return null;
    }
  };
  return { keyLen, nonceLen: 12, seal, open };
}

function prepareAead(cell, kats, interop) {
  const tag = Number(cell.params.tag || 16);
  const aadLen = Number(cell.params.aad || 0);
  const { keyLen, nonceLen, seal, open } = aeadApi(cell.primitive, tag);
  if (cell.operation !== 'encrypt' && cell.operation !== 'decrypt') {
    throw new Unavailable(`the runner times encrypt and decrypt, not ${cell.operation}`);
  }
  const checks = [];
  for (const k of kats) {
    const key = unhex(k.key); const nonce = unhex(k.nonce); const aad = unhex(k.aad);
    if (key.length !== keyLen || nonce.length !== nonceLen) continue;
    if (k.valid) {
      const [ct, t] = seal(key, nonce, unhex(k.pt), aad);
      const back = open(key, nonce, unhex(k.ct), unhex(k.tag), aad);
      checks.push(check(`kat:${k.source}`, hex(ct) === k.ct && hex(t) === k.tag && back !== null && hex(back) === k.pt,
        'crypto seals to the vector and opens it'));
    } else {
      checks.push(check(`kat:${k.source}`, open(key, nonce, unhex(k.ct), unhex(k.tag), aad) === null,
        'crypto refuses the invalid vector'));
    }
  }
  const key = random(keyLen); const nonce = random(nonceLen); const aad = random(aadLen);
  const msg = random(Math.min(cell.size, 1 << 20));
  const [ct, t] = seal(key, nonce, msg, aad);
  const back = open(key, nonce, ct, t, aad);
  checks.push(check('round trip', back !== null && back.equals(msg), 'opens what it sealed'));
  const bad = Buffer.from(ct.length ? ct : Buffer.alloc(0));
  const badTag = Buffer.from(t);
  if (bad.length) bad[0] ^= 1; else badTag[0] ^= 1;
  checks.push(check('tamper', open(key, nonce, bad, badTag, aad) === null, 'refuses a flipped bit'));
  let artifacts = null;
  if (interop) {
    const got = open(unhex(interop.key), unhex(interop.nonce), unhex(interop.ct), unhex(interop.tag), unhex(interop.aad));
    checks.push(check('interop:native->node', got !== null && hex(got) === interop.pt,
      'crypto opens the native ciphertext and tag'));
    const ik = random(keyLen); const inn = random(nonceLen); const ia = random(13); const ip = random(INTEROP_BYTES);
    const [ict, itag] = seal(ik, inn, ip, ia);
    artifacts = { key: hex(ik), nonce: hex(inn), aad: hex(ia), pt: hex(ip), ct: hex(ict), tag: hex(itag), size: INTEROP_BYTES };
  }
  const data = random(cell.size);
  let counter = 0n;
  const nonceAt = (i) => { const b = Buffer.alloc(nonceLen); b.writeBigUInt64LE(i); return b; };
  let run;
  if (cell.operation === 'encrypt') {
    run = (iters) => { for (let i = 0; i < iters; i++) { seal(key, nonceAt(counter), data, aad); counter += 1n; } };
  } else {
    const [fct, ftag] = seal(key, nonce, data, aad);
    run = (iters) => { for (let i = 0; i < iters; i++) open(key, nonce, fct, ftag, aad); };
  }
  return { run, checks, artifacts };
}

// --- ecc -------------------------------------------------------------------

const OKP = { x25519: ['x25519', 'dh'], x448: ['x448', 'dh'], ed25519: ['ed25519', 'eddsa'], ed448: ['ed448', 'eddsa'] };

function curveApi(name) {
  const n = name.toLowerCase();
  if (OKP[n]) {
    const [type, kind] = OKP[n];
    return { kind, generate: () => crypto.generateKeyPairSync(type) };
  }
  const curve = crypto.getCurves().find((c) => c.toLowerCase() === n);
  if (!curve) throw new Unavailable(`Node's crypto.getCurves() has no ${name}`);
  if (n === 'sm2') throw new Unavailable('SM2 signs with SM3 and a signer ID, which crypto.sign does not set');
  const generate = () => crypto.generateKeyPairSync('ec', { namedCurve: curve });
  try {
    generate();
  } catch (e) {
    throw new Unavailable(`crypto.generateKeyPairSync('ec') makes no key on ${curve}: ${e.message}`);
  }
  // The Oakley binary curves have no OID: crypto makes their keys but can
  // neither sign with them nor export them, so no check reaches them.
  try {
    generate().privateKey.export({ type: 'pkcs8', format: 'der' });
  } catch (e) {
    throw new Unavailable(`crypto cannot export ${curve} keys, so they cannot be checked: ${e.message}`);
  }
  return { kind: 'ecdsa', generate };
}

const signWith = (kind, key, msg) => crypto.sign(kind === 'ecdsa' ? 'sha256' : null, msg, key);
const verifyWith = (kind, pub, msg, sig) => crypto.verify(kind === 'ecdsa' ? 'sha256' : null, msg, pub, sig);

function worksTogether(kind, privateKey, publicKey, generate) {
  if (kind === 'dh') {
    const mine = generate();
    const a = crypto.diffieHellman({ privateKey, publicKey: mine.publicKey });
    const b = crypto.diffieHellman({ privateKey: mine.privateKey, publicKey });
    return a.equals(b);
  }
  const msg = random(32);
  return verifyWith(kind, publicKey, msg, signWith(kind, privateKey, msg));
}

function prepareEcc(cell, kats, interop) {
  const { kind, generate } = curveApi(cell.primitive);
  const op = cell.operation;
  if (!(op === 'keygen' || (op === 'sign' && kind !== 'dh'))) {
    throw new Unavailable(`the runner times keygen and signatures, not ${op} on ${cell.primitive}`);
  }
  const pair = generate();
  const checks = [check('round trip', worksTogether(kind, pair.privateKey, pair.publicKey, generate),
    kind === 'dh' ? 'two fresh keys agree' : 'a fresh key signs and verifies')];
  const msg = random(32);
  if (kind !== 'dh') {
    const sig = signWith(kind, pair.privateKey, msg);
    const other = Buffer.from(msg); other[0] ^= 1;
    checks.push(check('tamper', !verifyWith(kind, pair.publicKey, other, sig), 'a signature does not verify another message'));
  }
  let artifacts = null;
  if (interop) {
    const priv = crypto.createPrivateKey(interop.pem);
    const pub = crypto.createPublicKey({ key: unhex(interop.spki), format: 'der', type: 'spki' });
    checks.push(check('interop:native->node', worksTogether(kind, priv, pub, generate),
      'the native PKCS#8 key and SPKI public key work together in crypto'));
    const mine = generate();
    artifacts = { pem: mine.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      spki: hex(mine.publicKey.export({ type: 'spki', format: 'der' })) };
  }
  const run = op === 'keygen'
    ? (iters) => { for (let i = 0; i < iters; i++) generate(); }
    : (iters) => { for (let i = 0; i < iters; i++) signWith(kind, pair.privateKey, msg); };
  return { run, checks, artifacts };
}

// --- argon2 ----------------------------------------------------------------

function argon2Raw(variant, password, salt, t, m, p, tagLen, secret, ad) {
  const opts = { message: password, nonce: salt, parallelism: p, tagLength: tagLen, memory: m, passes: t };
  if (secret && secret.length) opts.secret = secret;
  if (ad && ad.length) opts.associatedData = ad;
  return crypto.argon2Sync(variant, opts);
}

function prepareArgon2(cell, kats, interop) {
  if (!HAS_ARGON2) throw new Unavailable(ARGON2_WHY);
  const variant = cell.primitive.toLowerCase();
  const prm = cell.params;
  if ((prm.version || '0x13') !== '0x13') throw new Unavailable('crypto.argon2 is version 0x13 only');
  const m = Number(prm.m_kib); const t = Number(prm.t); const p = Number(prm.p); const tag = Number(prm.tag || 32);
  const checks = kats.map((k) => check(`kat:${k.source}`,
    hex(argon2Raw(k.variant, unhex(k.password), unhex(k.salt), k.t, k.m_kib, k.p, k.tag.length / 2, unhex(k.secret), unhex(k.ad))) === k.tag,
    'crypto.argon2Sync matches the vector'));
  let artifacts = null;
  if (interop) {
    const raw = argon2Raw(variant, unhex(interop.password), unhex(interop.salt), interop.t, interop.m_kib, interop.threads, 32);
    checks.push(check('interop:native->node', hex(raw) === interop.raw, 'crypto.argon2Sync gives the native tag'));
    artifacts = { password: interop.password, salt: interop.salt, raw: hex(raw), library: 'crypto.argon2Sync',
      phc_unavailable: 'crypto.argon2Sync derives raw tags only; Node.js has no PHC string encoder' };
  }
  const salt = random(16);
  const run = (iters) => { for (let i = 0; i < iters; i++) argon2Raw(variant, Buffer.from('password'), salt, t, m, p, tag); };
  return { run, checks, artifacts };
}

const PREPARE = { hash: prepareHash, cipher: prepareCipher, aead: prepareAead, ecc: prepareEcc, argon2: prepareArgon2 };

function offers() {
  const ciphers = crypto.getCiphers();
  const aeads = ['AES-128-GCM', 'AES-256-GCM', 'AES-128-CCM', 'AES-256-CCM', 'AES-128-OCB', 'AES-256-OCB', 'ChaCha20-Poly1305']
    .filter((a) => ciphers.includes(a.toLowerCase()));
  const hashes = Object.keys(HASHES).filter((h) => crypto.getHashes().includes(HASHES[h]))
    .map((h) => (h === 'blake2b-512' ? 'BLAKE2b-512' : h.toUpperCase()));
  return {
    hash: hashes,
    cipher: ciphers.filter((c) => {
      try { cipherInfo(c); return true; } catch (e) { return false; }
    }).map((c) => c.toUpperCase()),
    aead: aeads,
    ecc: crypto.getCurves().concat(['X25519', 'X448', 'Ed25519', 'Ed448']),
    argon2: HAS_ARGON2 ? ['Argon2i', 'Argon2d', 'Argon2id'] : [],
  };
}

function hello() {
  return {
    ok: true, protocol: PROTOCOL, runtime: 'node', version: process.versions.node,
    libraries: { openssl: process.versions.openssl },
    families: {
      crypto: { available: true },
      argon2: HAS_ARGON2 ? { available: true } : { available: false, reason: ARGON2_WHY },
    },
    offers: offers(),
  };
}

// --- warm-up ---------------------------------------------------------------

// Batches at least this long are compared; the warm-up stops after this
// budget; an operation slower than WARM_SLOW_OP_NS is left to the engine.
const WARM_BATCH_NS = 5e6;
const WARM_BUDGET_NS = 3e8;
// Calls before stability counts: V8 optimises a function after thousands
// of calls, and three settled batches before that are not optimised code.
const WARM_MIN_OPS = 50000;
const WARM_SLOW_OP_NS = 2e7;

// Runs the case until V8 has settled: batches of WARM_BATCH_NS until, past
// WARM_MIN_OPS calls, three in a row agree within 3% per operation, so samples time optimised code
// rather than a tier change halfway through. Returns what it did.
function warmUp(run) {
  const now = () => Number(process.hrtime.bigint());
  const start = now();
  let ops = 0; let n = 1; let stable = false;
  const last = [];
  while (now() - start < WARM_BUDGET_NS) {
    const t0 = now();
    run(n);
    const t = now() - t0;
    ops += n;
    if (t / n > WARM_SLOW_OP_NS) break;
    if (t < WARM_BATCH_NS) { n *= 2; continue; }
    last.push(t / n);
    if (last.length > 3) last.shift();
    if (last.length === 3 && ops >= WARM_MIN_OPS && Math.max(...last) <= Math.min(...last) * 1.03) { stable = true; break; }
  }
  return { ops, ms: (now() - start) / 1e6, stable };
}

const cases = new Map();

function answer(req) {
  switch (req.op) {
    case 'hello': return hello();
    case 'offers': return { ok: true, offers: offers() };
    case 'prepare': {
      const cell = req.cell;
      try {
        const prep = PREPARE[cell.suite];
        if (!prep) throw new Unavailable(`the node runner serves no suite ${cell.suite}`);
        const { run, checks, artifacts } = prep(cell, req.kats || [], req.interop || null);
        cases.set(req.id, run);
        return { ok: true, checks, artifacts, warmup: warmUp(run) };
      } catch (e) {
        if (e instanceof Unavailable) return { ok: true, unavailable: e.message };
        if (e instanceof Skipped) return { ok: true, skipped: e.message };
        throw e;
      }
    }
    case 'time': {
      const run = cases.get(req.id);
      if (!run) return { ok: false, error: `no prepared case ${req.id}` };
      const iters = Number(req.iters);
      // One untimed operation first, as in every runner: the first after
      // another runner's batch pays for the caches it took.
      if (iters > 1) run(1);
      const start = process.hrtime.bigint();
      run(iters);
      const ns = Number(process.hrtime.bigint() - start);
      return { ok: true, ns, iters };
    }
    case 'release':
      return cases.delete(req.id) ? { ok: true } : { ok: false, error: `no prepared case ${req.id}` };
    default:
      return { ok: false, error: `unknown op ${JSON.stringify(req.op)}` };
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let ans;
  try {
    ans = answer(JSON.parse(line));
  } catch (e) {
    ans = { ok: false, error: `${e.name}: ${e.message}` };
  }
  process.stdout.write(`${JSON.stringify(ans)}\n`);
});
rl.on('close', () => process.exit(0));
