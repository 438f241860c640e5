<?php
// What the PHP runner says in its hello: PHP's and its libraries'
// versions, the families a missing extension leaves out (with the reason),
// PHP's own catalogs, and what the runner offers beyond them, so the
// harness names none of PHP's functions. Included by runner.php, which
// defines PROTOCOL_VERSION and AEGIS_NEEDS.

declare(strict_types=1);

// What this runner offers, published in its hello so the harness names
// none of PHP's functions. Seed 001's libmcrypt ciphers (algorithm, mode,
// key bytes: Blowfish CFB is libmcrypt's 8-bit CFB, beside the AES modes
// the seed compared with OpenSSL); `--full` adds every algorithm x mode
// this libmcrypt lists.
const MCRYPT_SEED = [['blowfish', 'cfb', 16], ['rijndael-128', 'cbc', 16], ['rijndael-128', 'ncfb', 32]];
// Stream algorithms libmcrypt opens in `stream` mode only.
const MCRYPT_STREAM = ['arcfour', 'wake', 'enigma'];

/**
 * A libmcrypt cipher as the harness plans it: the cipher suite's name for
 * it (`BF-CFB8`, `AES-256-CFB`), the mode as the suite prints it, the
 * effective key bits, the block bytes and the security labels.
 */
function mcrypt_cipher(string $alg, string $mode, int $key, bool $seed): array
{
    $prefix = match ($alg) {
        'rijndael-128' => 'AES-' . ($key * 8),
        'blowfish' => 'BF',
        'blowfish-compat' => 'BF-LE',
        'des' => 'DES',
        'tripledes' => 'DES-EDE3',
        'cast-128' => 'CAST5',
        'arcfour' => 'RC4',
        'rc2' => 'RC2-MCRYPT',
        'cast-256' => 'CAST-256',
        'enigma', 'wake' => strtoupper($alg),
        default => strtoupper($alg) . '-' . ($key * 8),
    };
    [$suffix, $modeName] = match ($mode) {
        'ecb' => ['ECB', 'ECB'],
        'cbc' => ['CBC', 'CBC'],
        'cfb' => ['CFB8', 'CFB8'],
        'ncfb' => ['CFB', 'CFB'],
        'ofb' => ['OFB8', 'OFB8'],
        'nofb' => ['OFB', 'OFB'],
        'ctr' => ['CTR', 'CTR'],
        default => ['', 'stream'],
    };
    $keyBits = match ($alg) {
        'des' => 56,
        'tripledes' => 168,
        default => $key * 8,
    };
    $block = match ($alg) {
        'rijndael-128', 'twofish', 'serpent', 'loki97', 'saferplus', 'cast-256' => 16,
        'rijndael-192' => 24,
        'rijndael-256' => 32,
        default => 8,
    };
    $labels = [];
    if ($mode === 'ecb') {
        $labels[] = 'ECB';
    }
    if ($block === 8 && $mode !== 'stream') {
        $labels[] = '64-bit block (Sweet32)';
    }
    if (in_array($alg, ['des', 'arcfour', 'enigma'], true)) {
        $labels[] = 'broken';
    }
    $labels[] = 'no authentication';
    $labels[] = "key $keyBits-bit";
    return ['algorithm' => $alg, 'mode' => $mode, 'key_len' => $key,
        'primitive' => $suffix === '' ? $prefix : "$prefix-$suffix", 'mode_name' => $modeName,
        'key_bits' => $keyBits, 'block' => $block, 'labels' => $labels, 'seed' => $seed];
}

/**
 * The libmcrypt ciphers offered: seed 001's three (listed even when the
 * extension is missing, so their cells say why), and with the extension
 * every algorithm x mode it opens (`--full`), at the key lengths the
 * seeds' libraries use (AES-128 and AES-256; 128-bit Blowfish, CAST5,
 * RC4, RC2), else the algorithm's largest key.
 */
function mcrypt_ciphers(): array
{
    $out = array_map(fn($m) => mcrypt_cipher($m[0], $m[1], $m[2], true), MCRYPT_SEED);
    if (!extension_loaded('mcrypt')) {
        return $out;
    }
    $algs = mcrypt_list_algorithms();
    sort($algs, SORT_STRING);
    foreach ($algs as $alg) {
        foreach (mcrypt_list_modes() as $mode) {
            if (in_array($alg, MCRYPT_STREAM, true) !== ($mode === 'stream')) {
                continue;
            }
            $keys = match ($alg) {
                'rijndael-128' => [16, 32],
                'blowfish', 'blowfish-compat', 'cast-128', 'arcfour', 'rc2' => [16],
                default => [mcrypt_module_get_algo_key_size($alg)],
            };
            foreach ($keys as $k) {
                $out[] = mcrypt_cipher($alg, $mode, $k, false);
            }
        }
    }
    return $out;
}

// Seed 003's sodium AEADs: PHP's name, the aead suite's name, the tag
// bytes, the family (in the hello's `families`) that gates it, and the key
// and nonce bytes (the known-answer vectors sent are cut to them).
const SODIUM_AEADS = [
    ['aes256gcm', 'AES-256-GCM', 16, 'sodium_aes256gcm', 32, 12],
    ['chacha20poly1305', 'ChaCha20-Poly1305-original', 16, 'sodium', 32, 8],
    ['chacha20poly1305_ietf', 'ChaCha20-Poly1305', 16, 'sodium', 32, 12],
    ['xchacha20poly1305_ietf', 'XChaCha20-Poly1305', 16, 'sodium', 32, 24],
    ['aegis128l', 'AEGIS-128L', 32, 'sodium_aegis', 16, 16],
    ['aegis256', 'AEGIS-256', 32, 'sodium_aegis', 32, 32],
];
// Each native Argon2 cell gets one twin per function (the `api` parameter).
const ARGON2_APIS = ['sodium_crypto_pwhash', 'password_hash'];

function versions(): array
{
    $sodium = defined('SODIUM_LIBRARY_VERSION') ? SODIUM_LIBRARY_VERSION : null;
    $families = [];
    $families['openssl'] = extension_loaded('openssl')
        ? ['available' => true] : ['available' => false, 'reason' => 'the openssl extension is not loaded'];
    $families['sodium'] = extension_loaded('sodium')
        ? ['available' => true] : ['available' => false, 'reason' => 'the sodium extension is not loaded'];
    $families['mcrypt'] = extension_loaded('mcrypt')
        ? ['available' => true] : ['available' => false, 'reason' => 'the mcrypt extension is not loaded (Debian package php-mcrypt)'];
    $families['sodium_aes256gcm'] = (extension_loaded('sodium') && sodium_crypto_aead_aes256gcm_is_available())
        ? ['available' => true] : ['available' => false, 'reason' => 'sodium_crypto_aead_aes256gcm_is_available() is false (needs AES-NI and PCLMUL)'];
    $families['sodium_aegis'] = function_exists('sodium_crypto_aead_aegis128l_encrypt')
        ? ['available' => true]
        : ['available' => false, 'reason' => AEGIS_NEEDS . '; this is PHP ' . PHP_VERSION . ' with libsodium ' . ($sodium ?? 'absent')];
    $families['password_argon2'] = defined('PASSWORD_ARGON2ID')
        ? ['available' => true] : ['available' => false, 'reason' => 'PHP was built without Argon2 password hashing (PASSWORD_ARGON2ID undefined)'];
    $libraries = [];
    if (defined('OPENSSL_VERSION_TEXT')) {
        $libraries['openssl'] = OPENSSL_VERSION_TEXT;
    }
    if ($sodium !== null) {
        $libraries['sodium'] = $sodium;
    }
    if (extension_loaded('mcrypt')) {
        $libraries['mcrypt'] = phpversion('mcrypt') ?: 'loaded';
    }
    return [
        'ok' => true,
        'protocol' => PROTOCOL_VERSION,
        'version' => PHP_VERSION,
        'libraries' => (object)$libraries,
        'extensions' => get_loaded_extensions(),
        'families' => $families,
        'ciphers' => extension_loaded('openssl') ? openssl_get_cipher_methods() : [],
        'curves' => extension_loaded('openssl') ? openssl_get_curve_names() : [],
        'mcrypt_algorithms' => extension_loaded('mcrypt') ? mcrypt_list_algorithms() : [],
        'mcrypt_modes' => extension_loaded('mcrypt') ? mcrypt_list_modes() : [],
        'mcrypt_key_sizes' => extension_loaded('mcrypt')
            ? array_combine(mcrypt_list_algorithms(), array_map('mcrypt_module_get_algo_key_size', mcrypt_list_algorithms())) : (object)[],
        'password_argon2_provider' => defined('PASSWORD_ARGON2_PROVIDER') ? PASSWORD_ARGON2_PROVIDER : null,
        'mcrypt_ciphers' => mcrypt_ciphers(),
        'sodium_aeads' => array_map(fn($a) => ['alg' => $a[0], 'primitive' => $a[1], 'tag' => $a[2],
            'family' => $a[3], 'key' => $a[4], 'nonce' => $a[5]], SODIUM_AEADS),
        'apis' => ['argon2' => ARGON2_APIS],
    ];
}
