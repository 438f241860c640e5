<?php
// cryptobench PHP runner.
//
// The harness starts one runner per suite and speaks JSON lines with it:
// one request per line on stdin, one answer per line on stdout. The runner
// exits when stdin closes, so it can never outlive the harness.
//
//   {"op":"hello"}                       -> protocol version, PHP's and its libraries'
//                                           versions, what this PHP offers (its
//                                           catalogs, the mcrypt ciphers under the
//                                           cipher suite's names, sodium AEADs,
//                                           Argon2 functions)
//   {"op":"prepare","id":N,"case":{..}}  -> builds the case, runs its checks
//   {"op":"time","id":N,"iters":K}       -> K operations timed with hrtime(true)
//   {"op":"release","id":N}              -> forgets the case
//
// Every answer carries "ok"; a failure is {"ok":false,"error":"..."}. A case
// that this PHP cannot run answers {"ok":true,"unavailable":"reason"} (a
// function or algorithm it lacks), or {"ok":true,"skipped":"reason"} (a
// parameter rule of the function, e.g. libsodium's Argon2i minimum passes).
// Calibration, statistics and storage stay in the harness: the runner only
// builds inputs, checks, and times the loop it is asked for. Known-answer
// vectors come from the harness with their source, so PHP is checked against
// exactly the vectors the native suites use.

declare(strict_types=1);
// mcrypt_* are deprecated since PHP 7.1; a notice per call would be timed too.
error_reporting(E_ALL & ~E_DEPRECATED);
ini_set('display_errors', 'stderr');
ini_set('memory_limit', '-1');

// The JSON-lines protocol this runner speaks; the harness refuses another.
const PROTOCOL_VERSION = 1;
const AEGIS_NEEDS = 'AEGIS needs PHP 8.4+ and libsodium >= 1.0.19';

// The hello: versions and what this PHP offers (php/offers.php).
require __DIR__ . '/offers.php';

/** @var array<int, array> prepared cases by id */
$cases = [];

function answer(array $msg): void
{
    $line = json_encode($msg, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
    if ($line === false) {
        $line = json_encode(['ok' => false, 'error' => 'cannot encode answer: ' . json_last_error_msg()]);
    }
    fwrite(STDOUT, $line . "\n");
    fflush(STDOUT);
}

/** random_bytes() that also takes 0 (empty messages, no associated data). */
function rnd(int $n): string
{
    return $n > 0 ? random_bytes($n) : '';
}

function check(string $name, bool $ok, string $detail): array
{
    return ['name' => $name, 'outcome' => $ok ? 'pass' : 'fail', 'detail' => $detail];
}

function skipped(string $name, string $detail): array
{
    return ['name' => $name, 'outcome' => 'skipped', 'detail' => $detail];
}

function unhex(array $a, string $k): string
{
    $v = hex2bin($a[$k] ?? '');
    return $v === false ? '' : $v;
}

function ossl_errors(): string
{
    $all = [];
    while (($e = openssl_error_string()) !== false) {
        $all[] = $e;
    }
    return implode('; ', $all);
}

// Keeps the timed loop's duration in $s, or throws when the loop's last
// call failed ($what names it; $detail, when given, adds the library's reason).
function keep_loop_time(array &$s, bool $ok, int $t0, int $t1, string $what, ?callable $detail = null): void
{
    if (!$ok) {
        $reason = $detail === null ? '' : ': ' . $detail();
        throw new RuntimeException("$what failed inside the timed loop$reason");
    }
    $s['ns'] = $t1 - $t0;
}

// ---------------------------------------------------------------------------
// Messages: every case makes its timed inputs up front (a fresh IV or nonce
// per message is drawn before the loop, never inside it).

/** Distinct IVs/nonces for the next `n` messages, counter in the last 8 bytes. */
function counter_nonces(string $base, int $n, int &$counter): array
{
    $len = strlen($base);
    $out = [];
    for ($i = 0; $i < $n; $i++) {
        $counter++;
        $ctr = pack('J', $counter);
        $out[] = $len >= 8 ? substr($base, 0, $len - 8) . $ctr : substr($ctr, 8 - $len);
    }
    return $out;
}

// ---------------------------------------------------------------------------
// openssl_encrypt: plain ciphers.

function cipher_prepare(array $c): array
{
    $method = $c['method'];
    $size = (int)$c['size'];
    $opts = OPENSSL_RAW_DATA | (($c['padding'] ?? 'none') === 'pkcs7' ? 0 : OPENSSL_ZERO_PADDING);
    $keyLen = openssl_cipher_key_length($method);
    $ivLen = openssl_cipher_iv_length($method);
    if ($keyLen === false || $ivLen === false) {
        return ['unavailable' => "PHP's openssl does not know $method: " . ossl_errors()];
    }
    $key = rnd(max(1, $keyLen));
    if (str_ends_with($method, '-xts')) {
        // XTS refuses equal key halves; random halves differ.
        $key = rnd($keyLen);
    }
    $iv = $ivLen > 0 ? rnd($ivLen) : '';
    $msg = rnd($size);
    $checks = [];
    $ct = openssl_encrypt($msg, $method, $key, $opts, $iv);
    if ($ct === false) {
        $err = ossl_errors();
        if (str_contains($err, 'unsupported')) {
            return ['unavailable' => "PHP's OpenSSL refuses $method ($err): the legacy provider is not loaded in PHP"];
        }
        return ['checks' => [check("roundtrip:$size B", false, "openssl_encrypt failed: $err")]];
    }
    $pt = openssl_decrypt($ct, $method, $key, $opts, $iv);
    $checks[] = check("roundtrip:$size B", $pt === $msg, $pt === $msg
        ? "openssl_encrypt then openssl_decrypt gave the message back (" . strlen($ct) . " B ciphertext)"
        : 'decryption differs from the message' . ($pt === false ? ': ' . ossl_errors() : ''));
    foreach ($c['kats'] ?? [] as $v) {
        $vct = openssl_encrypt(unhex($v, 'pt'), $method, unhex($v, 'key'), OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING, unhex($v, 'iv'));
        $ok = $vct !== false && bin2hex($vct) === strtolower($v['ct']);
        $checks[] = check('kat:' . $v['source'], $ok, $ok ? 'ciphertext matches' : 'got ' . ($vct === false ? 'failure: ' . ossl_errors() : bin2hex($vct)));
    }
    $art = null;
    if (isset($c['interop'])) {
        [$checks, $art] = cipher_interop($c['interop'], $method, $opts, $keyLen, $ivLen, $checks);
    }
    return [
        'checks' => $checks,
        'artifacts' => $art,
        'state' => ['kind' => 'cipher', 'method' => $method, 'opts' => $opts, 'key' => $key, 'iv' => $iv,
            'ivLen' => $ivLen, 'msg' => $msg, 'ct' => $ct, 'op' => $c['op'], 'counter' => 0, 'ivs' => []],
    ];
}

function cipher_interop(array $peer, string $method, int $opts, int $keyLen, int $ivLen, array $checks): array
{
    $opts = OPENSSL_RAW_DATA | (($peer['padding'] ?? 'none') === 'pkcs7' ? 0 : OPENSSL_ZERO_PADDING);
    $pt = openssl_decrypt(unhex($peer, 'ct'), $method, unhex($peer, 'key'), $opts, unhex($peer, 'iv'));
    $ok = $pt !== false && $pt === unhex($peer, 'pt');
    $checks[] = check('interop:native->php', $ok, $ok
        ? 'openssl_decrypt opened the native ciphertext'
        : 'openssl_decrypt did not give the native plaintext back' . ($pt === false ? ': ' . ossl_errors() : ''));
    $key = rnd(max(1, $keyLen));
    $iv = $ivLen > 0 ? rnd($ivLen) : '';
    $msg = rnd((int)($peer['size'] ?? 1000));
    $ct = openssl_encrypt($msg, $method, $key, $opts, $iv);
    $art = ['key' => bin2hex($key), 'iv' => bin2hex($iv), 'pt' => bin2hex($msg), 'ct' => $ct === false ? '' : bin2hex($ct)];
    return [$checks, $art];
}

function cipher_time(array &$s, int $k): void
{
    $method = $s['method'];
    $opts = $s['opts'];
    $key = $s['key'];
    $msg = $s['msg'];
    $ivs = $s['ivLen'] > 0 ? counter_nonces($s['iv'], $k, $s['counter']) : array_fill(0, $k, '');
    $ct = $s['ct'];
    $iv0 = $s['iv'];
    $last = null;
    if ($s['op'] === 'encrypt') {
        $t0 = hrtime(true);
        foreach ($ivs as $iv) {
            $last = openssl_encrypt($msg, $method, $key, $opts, $iv);
        }
        $t1 = hrtime(true);
    } elseif ($s['op'] === 'decrypt') {
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = openssl_decrypt($ct, $method, $key, $opts, $iv0);
        }
        $t1 = hrtime(true);
    } else {
        $t0 = hrtime(true);
        foreach ($ivs as $iv) {
            $c = openssl_encrypt($msg, $method, $key, $opts, $iv);
            $last = openssl_decrypt($c, $method, $key, $opts, $iv) === $msg;
        }
        $t1 = hrtime(true);
    }
    keep_loop_time($s, $last !== false, $t0, $t1, $s['op'], 'ossl_errors');
}

// ---------------------------------------------------------------------------
// openssl_encrypt with a tag: GCM, CCM, OCB, ChaCha20-Poly1305.

function oaead_prepare(array $c): array
{
    $method = $c['method'];
    $size = (int)$c['size'];
    $tagLen = (int)($c['tag'] ?? 16);
    $nonceLen = (int)($c['nonce_len'] ?? 12);
    $keyLen = openssl_cipher_key_length($method);
    if ($keyLen === false) {
        return ['unavailable' => "PHP's openssl does not know $method"];
    }
    $key = rnd($keyLen);
    $nonce = rnd($nonceLen);
    $aad = rnd((int)($c['aad'] ?? 0));
    $msg = rnd($size);
    $tag = '';
    $ct = openssl_encrypt($msg, $method, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad, $tagLen);
    if ($ct === false) {
        return ['checks' => [check("roundtrip:$size B", false, 'openssl_encrypt failed: ' . ossl_errors())]];
    }
    $pt = openssl_decrypt($ct, $method, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
    $checks = [check("roundtrip:$size B", $pt === $msg, $pt === $msg ? "sealed and opened ($tagLen-byte tag)" : 'opening failed or differs')];
    $checks = array_merge($checks, tamper_check(function (string $ct2, string $tag2) use ($method, $key, $nonce, $aad) {
        return openssl_decrypt($ct2, $method, $key, OPENSSL_RAW_DATA, $nonce, $tag2, $aad);
    }, $ct, $tag));
    foreach ($c['kats'] ?? [] as $v) {
        $checks[] = oaead_kat($method, $v);
    }
    $art = null;
    if (isset($c['interop'])) {
        $p = $c['interop'];
        $opened = openssl_decrypt(unhex($p, 'ct'), $method, unhex($p, 'key'), OPENSSL_RAW_DATA, unhex($p, 'nonce'), unhex($p, 'tag'), unhex($p, 'aad'));
        $ok = $opened !== false && $opened === unhex($p, 'pt');
        $checks[] = check('interop:native->php', $ok, $ok ? 'openssl_decrypt opened the native ciphertext and tag' : 'openssl_decrypt refused the native ciphertext');
        $k2 = rnd($keyLen);
        $n2 = rnd($nonceLen);
        $a2 = rnd(13);
        $m2 = rnd((int)($p['size'] ?? 1000));
        $t2 = '';
        $c2 = openssl_encrypt($m2, $method, $k2, OPENSSL_RAW_DATA, $n2, $t2, $a2, $tagLen);
        $art = ['key' => bin2hex($k2), 'nonce' => bin2hex($n2), 'aad' => bin2hex($a2), 'pt' => bin2hex($m2),
            'ct' => $c2 === false ? '' : bin2hex($c2), 'tag' => bin2hex($t2)];
    }
    return [
        'checks' => $checks,
        'artifacts' => $art,
        'state' => ['kind' => 'oaead', 'method' => $method, 'key' => $key, 'nonce' => $nonce, 'aad' => $aad,
            'msg' => $msg, 'ct' => $ct, 'tag' => $tag, 'tagLen' => $tagLen, 'op' => $c['op'], 'counter' => 0],
    ];
}

function oaead_kat(string $method, array $v): array
{
    $name = 'kat:' . $v['source'];
    $tag = '';
    $ct = openssl_encrypt(unhex($v, 'pt'), $method, unhex($v, 'key'), OPENSSL_RAW_DATA, unhex($v, 'nonce'), $tag, unhex($v, 'aad'), strlen(unhex($v, 'tag')));
    $opened = openssl_decrypt(unhex($v, 'ct'), $method, unhex($v, 'key'), OPENSSL_RAW_DATA, unhex($v, 'nonce'), unhex($v, 'tag'), unhex($v, 'aad'));
    if ($v['valid']) {
        $ok = $ct !== false && bin2hex($ct) === strtolower($v['ct']) && bin2hex($tag) === strtolower($v['tag']) && $opened === unhex($v, 'pt');
        return check($name, $ok, $ok ? 'seals to the vector and opens it' : 'sealed ' . ($ct === false ? 'nothing' : bin2hex($ct) . '/' . bin2hex($tag)));
    }
    return check($name, $opened === false, $opened === false ? 'invalid vector rejected' : 'invalid vector was accepted');
}

/**
 * Flips one ciphertext bit and one tag bit: both must be refused. A tag one
 * byte short is reported apart: GCM permits truncated tags and PHP's
 * openssl_decrypt takes whatever length it is given, so the caller has to
 * check strlen($tag); that is PHP's documented behaviour, not a broken case.
 */
function tamper_check(callable $open, string $ct, string $tag): array
{
    $bad = [];
    if ($ct !== '') {
        $c2 = $ct;
        $c2[0] = chr(ord($c2[0]) ^ 1);
        if (@$open($c2, $tag) !== false) {
            $bad[] = 'a flipped ciphertext bit was accepted';
        }
    }
    $t2 = $tag;
    $t2[strlen($t2) - 1] = chr(ord($t2[strlen($t2) - 1]) ^ 0x80);
    if (@$open($ct, $t2) !== false) {
        $bad[] = 'a flipped tag bit was accepted';
    }
    $out = [check('tamper', $bad === [], $bad === [] ? 'flipped ciphertext bit and flipped tag bit both refused' : implode('; ', $bad))];
    $short = @$open($ct, substr($tag, 0, -1));
    $out[] = $short === false
        ? check('tamper:truncated tag', true, 'a tag one byte short is refused')
        : skipped('tamper:truncated tag', 'accepted a tag one byte short: GCM allows truncated tags and openssl_decrypt does not check the length; callers must compare strlen($tag)');
    return $out;
}

function oaead_time(array &$s, int $k): void
{
    $method = $s['method'];
    $key = $s['key'];
    $aad = $s['aad'];
    $msg = $s['msg'];
    $tagLen = $s['tagLen'];
    $nonces = counter_nonces($s['nonce'], $k, $s['counter']);
    $last = null;
    $tag = '';
    if ($s['op'] === 'encrypt') {
        $t0 = hrtime(true);
        foreach ($nonces as $n) {
            $last = openssl_encrypt($msg, $method, $key, OPENSSL_RAW_DATA, $n, $tag, $aad, $tagLen);
        }
        $t1 = hrtime(true);
    } elseif ($s['op'] === 'decrypt') {
        $ct = $s['ct'];
        $n0 = $s['nonce'];
        $tg = $s['tag'];
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = openssl_decrypt($ct, $method, $key, OPENSSL_RAW_DATA, $n0, $tg, $aad);
        }
        $t1 = hrtime(true);
    } else {
        $t0 = hrtime(true);
        foreach ($nonces as $n) {
            $c = openssl_encrypt($msg, $method, $key, OPENSSL_RAW_DATA, $n, $tag, $aad, $tagLen);
            $last = openssl_decrypt($c, $method, $key, OPENSSL_RAW_DATA, $n, $tag, $aad);
        }
        $t1 = hrtime(true);
    }
    keep_loop_time($s, $last !== false, $t0, $t1, $s['op']);
}

// ---------------------------------------------------------------------------
// sodium_crypto_aead_*.

function sodium_fns(string $alg): ?array
{
    $enc = "sodium_crypto_aead_{$alg}_encrypt";
    $dec = "sodium_crypto_aead_{$alg}_decrypt";
    if (!function_exists($enc)) {
        return null;
    }
    $up = strtoupper($alg);
    return [$enc, $dec, constant("SODIUM_CRYPTO_AEAD_{$up}_KEYBYTES"), constant("SODIUM_CRYPTO_AEAD_{$up}_NPUBBYTES"), constant("SODIUM_CRYPTO_AEAD_{$up}_ABYTES")];
}

function saead_prepare(array $c): array
{
    $alg = $c['alg'];
    if (str_starts_with($alg, 'aegis') && !function_exists("sodium_crypto_aead_{$alg}_encrypt")) {
        return ['unavailable' => AEGIS_NEEDS . '; this is PHP ' . PHP_VERSION . ' with libsodium ' . SODIUM_LIBRARY_VERSION];
    }
    if ($alg === 'aes256gcm' && !sodium_crypto_aead_aes256gcm_is_available()) {
        return ['unavailable' => 'sodium_crypto_aead_aes256gcm_is_available() is false (needs AES-NI and PCLMUL)'];
    }
    $f = sodium_fns($alg);
    if ($f === null) {
        return ['unavailable' => "this PHP has no sodium_crypto_aead_{$alg}_encrypt"];
    }
    [$enc, $dec, $keyLen, $nonceLen, $abytes] = $f;
    $size = (int)$c['size'];
    $key = rnd($keyLen);
    $nonce = rnd($nonceLen);
    $aad = rnd((int)($c['aad'] ?? 0));
    $msg = rnd($size);
    $sealed = $enc($msg, $aad, $nonce, $key);
    $opened = $dec($sealed, $aad, $nonce, $key);
    $checks = [check("roundtrip:$size B", $opened === $msg, $opened === $msg ? "sealed and opened ($abytes-byte tag)" : 'opening failed or differs')];
    $ct = substr($sealed, 0, -$abytes);
    $tag = substr($sealed, -$abytes);
    $checks = array_merge($checks, tamper_check(function (string $c2, string $t2) use ($dec, $aad, $nonce, $key, $abytes) {
        if (strlen($t2) !== $abytes) {
            return false;
        }
        return $dec($c2 . $t2, $aad, $nonce, $key);
    }, $ct, $tag));
    foreach ($c['kats'] ?? [] as $v) {
        $name = 'kat:' . $v['source'];
        $got = $enc(unhex($v, 'pt'), unhex($v, 'aad'), unhex($v, 'nonce'), unhex($v, 'key'));
        $op = $dec(unhex($v, 'ct') . unhex($v, 'tag'), unhex($v, 'aad'), unhex($v, 'nonce'), unhex($v, 'key'));
        if ($v['valid']) {
            $ok = bin2hex($got) === strtolower($v['ct'] . $v['tag']) && $op === unhex($v, 'pt');
            $checks[] = check($name, $ok, $ok ? 'seals to the vector and opens it' : 'sealed ' . bin2hex($got));
        } else {
            $checks[] = check($name, $op === false, $op === false ? 'invalid vector rejected' : 'invalid vector was accepted');
        }
    }
    $art = null;
    if (isset($c['interop'])) {
        $p = $c['interop'];
        $op = $dec(unhex($p, 'ct') . unhex($p, 'tag'), unhex($p, 'aad'), unhex($p, 'nonce'), unhex($p, 'key'));
        $ok = $op !== false && $op === unhex($p, 'pt');
        $checks[] = check('interop:native->php', $ok, $ok ? "$dec opened the native ciphertext" : "$dec refused the native ciphertext");
        $k2 = rnd($keyLen);
        $n2 = rnd($nonceLen);
        $a2 = rnd(13);
        $m2 = rnd((int)($p['size'] ?? 1000));
        $s2 = $enc($m2, $a2, $n2, $k2);
        $art = ['key' => bin2hex($k2), 'nonce' => bin2hex($n2), 'aad' => bin2hex($a2), 'pt' => bin2hex($m2),
            'ct' => bin2hex(substr($s2, 0, -$abytes)), 'tag' => bin2hex(substr($s2, -$abytes))];
    }
    return [
        'checks' => $checks,
        'artifacts' => $art,
        'state' => ['kind' => 'saead', 'enc' => $enc, 'dec' => $dec, 'key' => $key, 'nonce' => $nonce, 'aad' => $aad,
            'msg' => $msg, 'sealed' => $sealed, 'op' => $c['op'], 'counter' => 0],
    ];
}

function saead_time(array &$s, int $k): void
{
    $enc = $s['enc'];
    $dec = $s['dec'];
    $key = $s['key'];
    $aad = $s['aad'];
    $msg = $s['msg'];
    $nonces = counter_nonces($s['nonce'], $k, $s['counter']);
    $last = null;
    if ($s['op'] === 'encrypt') {
        $t0 = hrtime(true);
        foreach ($nonces as $n) {
            $last = $enc($msg, $aad, $n, $key);
        }
        $t1 = hrtime(true);
    } elseif ($s['op'] === 'decrypt') {
        $sealed = $s['sealed'];
        $n0 = $s['nonce'];
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = $dec($sealed, $aad, $n0, $key);
        }
        $t1 = hrtime(true);
    } else {
        $t0 = hrtime(true);
        foreach ($nonces as $n) {
            $last = $dec($enc($msg, $aad, $n, $key), $aad, $n, $key);
        }
        $t1 = hrtime(true);
    }
    keep_loop_time($s, $last !== false, $t0, $t1, $s['op']);
}

// ---------------------------------------------------------------------------
// mcrypt_encrypt (the seed-001 extension): one call sets up key and IV, as
// the seed's class did per message.

function mcrypt_prepare(array $c): array
{
    if (!extension_loaded('mcrypt')) {
        return ['unavailable' => 'the mcrypt extension is not loaded (Debian package php-mcrypt)'];
    }
    $alg = $c['algorithm'];
    $mode = $c['mode'];
    $size = (int)$c['size'];
    $ivLen = @mcrypt_get_iv_size($alg, $mode);
    if ($ivLen === false) {
        return ['unavailable' => "mcrypt cannot open $alg/$mode"];
    }
    $key = rnd((int)$c['key_len']);
    $iv = $mode === 'ecb' || $mode === 'stream' ? '' : rnd($ivLen);
    $block = @mcrypt_get_block_size($alg, $mode) ?: 1;
    $msg = rnd($size);
    if (($c['padding'] ?? 'none') === 'pkcs7') {
        // PKCS#7 as the native suite pads; done before the timed loop.
        $p = $block - $size % $block;
        $msg .= str_repeat(chr($p), $p);
    }
    $ct = @mcrypt_encrypt($alg, $key, $msg, $mode, $iv);
    if ($ct === false) {
        return ['checks' => [check("roundtrip:$size B", false, "mcrypt_encrypt refused $alg/$mode")]];
    }
    $pt = @mcrypt_decrypt($alg, $key, $ct, $mode, $iv);
    $checks = [check("roundtrip:$size B", $pt === $msg, $pt === $msg ? 'mcrypt_encrypt then mcrypt_decrypt gave the message back' : 'decryption differs')];
    foreach ($c['kats'] ?? [] as $v) {
        $got = @mcrypt_encrypt($alg, unhex($v, 'key'), unhex($v, 'pt'), $mode, unhex($v, 'iv'));
        $ok = $got !== false && bin2hex($got) === strtolower($v['ct']);
        $checks[] = check('kat:' . $v['source'], $ok, $ok ? 'ciphertext matches' : 'got ' . ($got === false ? 'failure' : bin2hex($got)));
    }
    $art = null;
    if (isset($c['interop'])) {
        $p = $c['interop'];
        $op = @mcrypt_decrypt($alg, unhex($p, 'key'), unhex($p, 'ct'), $mode, unhex($p, 'iv'));
        $ok = $op !== false && $op === unhex($p, 'pt');
        $checks[] = check('interop:native->php', $ok, $ok ? 'mcrypt_decrypt opened the native ciphertext' : 'mcrypt_decrypt did not give the native plaintext back');
        $k2 = rnd((int)$c['key_len']);
        $i2 = $iv === '' ? '' : rnd($ivLen);
        $m2 = rnd((int)($p['size'] ?? 1024));
        $c2 = @mcrypt_encrypt($alg, $k2, $m2, $mode, $i2);
        $art = ['key' => bin2hex($k2), 'iv' => bin2hex($i2), 'pt' => bin2hex($m2), 'ct' => $c2 === false ? '' : bin2hex($c2)];
    }
    return [
        'checks' => $checks,
        'artifacts' => $art,
        'state' => ['kind' => 'mcrypt', 'alg' => $alg, 'mode' => $mode, 'key' => $key, 'iv' => $iv, 'msg' => $msg,
            'ct' => $ct, 'op' => $c['op'], 'counter' => 0],
    ];
}

function mcrypt_time(array &$s, int $k): void
{
    $alg = $s['alg'];
    $mode = $s['mode'];
    $key = $s['key'];
    $msg = $s['msg'];
    $ivs = $s['iv'] === '' ? array_fill(0, $k, '') : counter_nonces($s['iv'], $k, $s['counter']);
    $last = null;
    if ($s['op'] === 'encrypt') {
        $t0 = hrtime(true);
        foreach ($ivs as $iv) {
            $last = mcrypt_encrypt($alg, $key, $msg, $mode, $iv);
        }
        $t1 = hrtime(true);
    } elseif ($s['op'] === 'decrypt') {
        $ct = $s['ct'];
        $iv0 = $s['iv'];
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = mcrypt_decrypt($alg, $key, $ct, $mode, $iv0);
        }
        $t1 = hrtime(true);
    } else {
        $t0 = hrtime(true);
        foreach ($ivs as $iv) {
            $last = mcrypt_decrypt($alg, $key, mcrypt_encrypt($alg, $key, $msg, $mode, $iv), $mode, $iv) === $msg;
        }
        $t1 = hrtime(true);
    }
    keep_loop_time($s, $last !== false, $t0, $t1, $s['op']);
}

// ---------------------------------------------------------------------------
// openssl_pkey_new on a named curve (seed 000).

function ecc_prepare(array $c): array
{
    $curve = $c['curve'];
    if (!in_array($curve, openssl_get_curve_names(), true)) {
        return ['unavailable' => "openssl_get_curve_names() does not list $curve"];
    }
    $cfg = ['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $curve];
    $key = openssl_pkey_new($cfg);
    if ($key === false) {
        return ['unavailable' => "openssl_pkey_new refuses $curve: " . ossl_errors()];
    }
    $d = openssl_pkey_get_details($key);
    if ($d === false) {
        // Nothing to check, so nothing is timed.
        return ['unavailable' => "openssl_pkey_new makes a $curve key but PHP can neither describe nor export it (the curve has no OID), so it cannot be checked"];
    }
    $ec = $d['ec'] ?? [];
    $checks = [];
    $named = ($ec['curve_name'] ?? '') === $curve;
    $checks[] = check('keygen:curve', $named && isset($ec['x'], $ec['y'], $ec['d']),
        $named ? "openssl_pkey_get_details reports $curve with x, y and d" : 'details report ' . ($ec['curve_name'] ?? 'no curve'));
    $checks[] = sign_check($key, $d['key'] ?? null, $curve, 'sign/verify');
    $art = null;
    if (isset($c['interop'])) {
        $p = $c['interop'];
        $native = isset($p['pem']) ? openssl_pkey_get_private($p['pem']) : false;
        if (isset($p['skip'])) {
            $checks[] = skipped('interop:native->php', $p['skip']);
        } elseif ($native === false) {
            $checks[] = check('interop:native->php', false, 'openssl_pkey_get_private refused the native key: ' . ossl_errors());
        } else {
            $nd = openssl_pkey_get_details($native);
            // PHP 8.2 describes OpenSSL 3's SM2-type keys without EC details.
            $same = ($nd['ec']['curve_name'] ?? '') === $curve || ($curve === 'SM2' && ($nd['bits'] ?? 0) === 256);
            $sv = sign_check($native, $nd['key'] ?? null, $curve, 'x');
            $ok = $same && $sv['outcome'] !== 'fail';
            $checks[] = check('interop:native->php', $ok, $ok ? "PHP loaded the native $curve key" . ($sv['outcome'] === 'pass' ? ' and signed/verified with it' : '') : 'native key: curve ' . ($nd['ec']['curve_name'] ?? '?') . '; ' . $sv['detail']);
        }
        $pem = '';
        $art = @openssl_pkey_export($key, $pem)
            ? ['pem' => $pem]
            : ['skip' => "openssl_pkey_export cannot encode a $curve key: " . ossl_errors()];
    }
    return ['checks' => $checks, 'artifacts' => $art, 'state' => ['kind' => 'ecc', 'cfg' => $cfg]];
}

function sign_check($key, ?string $pubPem, string $curve, string $name): array
{
    if ($pubPem === null) {
        return skipped($name, "openssl_pkey_get_details gives no public key PEM for $curve (a curve without an OID has no key encoding)");
    }
    if ($curve === 'SM2') {
        return skipped($name, 'SM2 signatures need SM3 and a distinguishing ID, which openssl_sign does not set');
    }
    $msg = rnd(64);
    $sig = '';
    if (!@openssl_sign($msg, $sig, $key, OPENSSL_ALGO_SHA256)) {
        return skipped($name, 'openssl_sign refused this curve: ' . ossl_errors());
    }
    $good = openssl_verify($msg, $sig, $pubPem, OPENSSL_ALGO_SHA256) === 1;
    $bad = openssl_verify($msg . 'x', $sig, $pubPem, OPENSSL_ALGO_SHA256) === 1;
    return check($name, $good && !$bad, $good && !$bad ? 'ECDSA-SHA256 signature verifies; a changed message does not' : 'signature check misbehaved');
}

function ecc_time(array &$s, int $k): void
{
    $cfg = $s['cfg'];
    $last = null;
    $t0 = hrtime(true);
    for ($i = 0; $i < $k; $i++) {
        $last = openssl_pkey_new($cfg);
    }
    $t1 = hrtime(true);
    keep_loop_time($s, $last !== false, $t0, $t1, 'openssl_pkey_new');
}

// ---------------------------------------------------------------------------
// Argon2: sodium_crypto_pwhash and password_hash.

function pwhash_prepare(array $c): array
{
    $api = $c['api'];
    $variant = $c['variant'];
    $m = (int)$c['m_kib'];
    $t = (int)$c['t'];
    $threads = (int)($c['threads'] ?? 1);
    $checks = [];
    $pw = 'correct horse battery staple';
    if ($api === 'sodium') {
        $alg = $variant === 'argon2i' ? SODIUM_CRYPTO_PWHASH_ALG_ARGON2I13 : SODIUM_CRYPTO_PWHASH_ALG_ARGON2ID13;
        if ($variant === 'argon2i' && $t < 3) {
            return ['skipped' => 'libsodium refuses Argon2i with fewer than 3 passes'];
        }
        $salt = rnd(SODIUM_CRYPTO_PWHASH_SALTBYTES);
        foreach ($c['kats'] ?? [] as $v) {
            $got = sodium_crypto_pwhash((int)$v['tag'], unhex($v, 'password'), unhex($v, 'salt'), (int)$v['t'], (int)$v['m_kib'] * 1024, $alg);
            $ok = bin2hex($got) === strtolower($v['hash']);
            $checks[] = check('kat:' . $v['source'], $ok, $ok ? 'same tag' : 'got ' . bin2hex($got));
        }
        $h1 = sodium_crypto_pwhash(32, $pw, $salt, $t, $m * 1024, $alg);
        $h2 = sodium_crypto_pwhash(32, $pw, $salt, $t, $m * 1024, $alg);
        $h3 = sodium_crypto_pwhash(32, $pw . '!', $salt, $t, $m * 1024, $alg);
        $ok = $h1 === $h2 && $h1 !== $h3 && strlen($h1) === 32;
        $checks[] = check('deterministic', $ok, $ok ? 'same inputs give the same 32-byte tag; another password does not' : 'tags misbehave');
        $state = ['kind' => 'pwhash', 'api' => 'sodium', 'alg' => $alg, 'salt' => $salt, 'm' => $m, 't' => $t, 'pw' => $pw];
    } else {
        if (!defined('PASSWORD_ARGON2ID')) {
            return ['unavailable' => 'PHP was built without Argon2 password hashing'];
        }
        $algo = $variant === 'argon2i' ? PASSWORD_ARGON2I : PASSWORD_ARGON2ID;
        $opts = ['memory_cost' => $m, 'time_cost' => $t, 'threads' => $threads];
        try {
            $h = password_hash($pw, $algo, $opts);
        } catch (ValueError $e) {
            return ['skipped' => 'password_hash refuses these parameters: ' . $e->getMessage()];
        }
        $ok = password_verify($pw, $h) && !password_verify($pw . '!', $h)
            && str_starts_with($h, "\$$variant\$v=19\$m=$m,t=$t,p=$threads\$");
        $checks[] = check('phc', $ok, $ok ? "password_hash gave $h; it verifies, a wrong password does not" : "unexpected: $h");
        $state = ['kind' => 'pwhash', 'api' => 'password_hash', 'algo' => $algo, 'opts' => $opts, 'pw' => $pw];
    }
    $art = null;
    if (isset($c['interop'])) {
        $p = $c['interop'];
        if (isset($p['phc'])) {
            $ok = password_verify(unhex($p, 'password'), $p['phc']) && !password_verify(unhex($p, 'password') . 'x', $p['phc']);
            $checks[] = check('interop:native->php', $ok, $ok ? 'password_verify accepts the native PHC string' : 'password_verify refused the native PHC string ' . $p['phc']);
        }
        if (isset($p['raw'])) {
            $mine = sodium_crypto_pwhash(32, unhex($p, 'password'), unhex($p, 'salt'), (int)$p['t'], (int)$p['m_kib'] * 1024, $state['alg']);
            $ok = hash_equals(unhex($p, 'raw'), $mine);
            $checks[] = check('interop:native->php', $ok, $ok ? 'sodium_crypto_pwhash gives the native 32-byte tag' : 'sodium_crypto_pwhash gave ' . bin2hex($mine));
        }
        if ($api === 'password_hash') {
            $pw2 = rnd(12);
            $o2 = ['memory_cost' => (int)$p['m_kib'], 'time_cost' => (int)$p['t'], 'threads' => (int)$p['threads']];
            $art = ['password' => bin2hex($pw2), 'phc' => password_hash($pw2, $state['algo'], $o2)];
        } else {
            $art = ['raw' => bin2hex(sodium_crypto_pwhash(32, unhex($p, 'password'), unhex($p, 'salt'), (int)$p['t'], (int)$p['m_kib'] * 1024, $state['alg']))];
        }
    }
    // RFC 9106's vectors need what PHP's functions cannot take.
    $checks[] = skipped('kat:RFC 9106 section 5', "PHP's Argon2 functions take no secret key or associated data, and "
        . 'sodium_crypto_pwhash has one lane; the RFC vectors use 4 lanes, K and X. '
        . 'Agreement with RustCrypto argon2 is checked instead (interop)');
    return ['checks' => $checks, 'artifacts' => $art, 'state' => $state];
}

function pwhash_time(array &$s, int $k): void
{
    $pw = $s['pw'];
    $last = null;
    if ($s['api'] === 'sodium') {
        [$alg, $salt, $m, $t] = [$s['alg'], $s['salt'], $s['m'] * 1024, $s['t']];
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = sodium_crypto_pwhash(32, $pw, $salt, $t, $m, $alg);
        }
        $t1 = hrtime(true);
    } else {
        [$algo, $opts] = [$s['algo'], $s['opts']];
        $t0 = hrtime(true);
        for ($i = 0; $i < $k; $i++) {
            $last = password_hash($pw, $algo, $opts);
        }
        $t1 = hrtime(true);
    }
    keep_loop_time($s, is_string($last), $t0, $t1, 'hashing');
}

// ---------------------------------------------------------------------------
// The loop.

function prepare(array $c): array
{
    return match ($c['kind'] ?? '') {
        'cipher' => cipher_prepare($c),
        'openssl_aead' => oaead_prepare($c),
        'sodium_aead' => saead_prepare($c),
        'mcrypt' => mcrypt_prepare($c),
        'ecc' => ecc_prepare($c),
        'pwhash' => pwhash_prepare($c),
        default => throw new InvalidArgumentException('unknown case kind ' . json_encode($c['kind'] ?? null)
            . '; known: cipher, openssl_aead, sodium_aead, mcrypt, ecc, pwhash'),
    };
}

function time_case(array &$s, int $k): void
{
    match ($s['kind']) {
        'cipher' => cipher_time($s, $k),
        'oaead' => oaead_time($s, $k),
        'saead' => saead_time($s, $k),
        'mcrypt' => mcrypt_time($s, $k),
        'ecc' => ecc_time($s, $k),
        'pwhash' => pwhash_time($s, $k),
    };
}

while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === '') {
        continue;
    }
    $req = json_decode($line, true);
    if (!is_array($req)) {
        answer(['ok' => false, 'error' => 'not a JSON object: ' . json_last_error_msg()]);
        continue;
    }
    $id = (int)($req['id'] ?? 0);
    try {
        switch ($req['op'] ?? '') {
            case 'hello':
                answer(versions());
                break;
            case 'prepare':
                $r = prepare($req['case'] ?? []);
                if (isset($r['unavailable'])) {
                    answer(['ok' => true, 'id' => $id, 'unavailable' => $r['unavailable']]);
                    break;
                }
                if (isset($r['skipped'])) {
                    answer(['ok' => true, 'id' => $id, 'skipped' => $r['skipped']]);
                    break;
                }
                if (isset($r['state'])) {
                    $cases[$id] = $r['state'];
                }
                answer(['ok' => true, 'id' => $id, 'checks' => $r['checks'], 'artifacts' => $r['artifacts'] ?? null]);
                break;
            case 'time':
                if (!isset($cases[$id])) {
                    answer(['ok' => false, 'id' => $id, 'error' => "no prepared case $id"]);
                    break;
                }
                $k = max(1, (int)($req['iters'] ?? 1));
                // One untimed operation first, as in every runner: the first
                // after another runner's batch pays for the caches it took.
                if ($k > 1) {
                    time_case($cases[$id], 1);
                }
                time_case($cases[$id], $k);
                answer(['ok' => true, 'id' => $id, 'iters' => $k, 'ns' => $cases[$id]['ns']]);
                break;
            case 'release':
                unset($cases[$id]);
                answer(['ok' => true, 'id' => $id]);
                break;
            default:
                answer(['ok' => false, 'id' => $id, 'error' => 'unknown op ' . json_encode($req['op'] ?? null) . '; known: hello, prepare, time, release']);
        }
    } catch (Throwable $e) {
        answer(['ok' => false, 'id' => $id, 'error' => get_class($e) . ': ' . $e->getMessage()]);
    }
}
