//! Known-answer vectors, each with its source next to it.
//!
//! Two kinds: [`MODE_VECTORS`] are whole-mode vectors for one canonical
//! cipher (NIST SP 800-38A for the AES modes, FIPS 81 for DES, ...), and
//! [`BLOCK_VECTORS`] are single-block vectors of a block cipher, which
//! [`crate::checks`] carries into every mode of that family by an identity of
//! the mode: CBC with a zero IV encrypts one block as ECB does; CFB, OFB and
//! CTR with IV = P encrypt a zero block to E(P); CFB8/OFB8 give E(P)'s first
//! byte.

/// A vector for one mode of one cipher.
#[derive(Debug, Clone, Copy)]
pub struct ModeVector {
    /// Canonical cipher name.
    pub cipher: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// Hex key.
    pub key: &'static str,
    /// Hex IV (empty for ECB).
    pub iv: &'static str,
    /// Hex plaintext.
    pub pt: &'static str,
    /// Hex ciphertext.
    pub ct: &'static str,
}

/// A single-block vector of a block cipher family.
#[derive(Debug, Clone, Copy)]
pub struct BlockVector {
    /// Family (`AES`, `CAMELLIA`, `BF`, ...), as in `CipherDesc::family`.
    pub family: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// Hex key.
    pub key: &'static str,
    /// Hex plaintext block.
    pub pt: &'static str,
    /// Hex ciphertext block.
    pub ct: &'static str,
}

// NIST SP 800-38A appendix F: key, IV and the four plaintext blocks shared
// by every AES example.
const SP800_38A_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const SP800_38A_K128: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const SP800_38A_K256: &str = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";
const SP800_38A_IV: &str = "000102030405060708090a0b0c0d0e0f";
const SP800_38A_CTR: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// Whole-mode vectors.
pub const MODE_VECTORS: &[ModeVector] = &[
    ModeVector {
        cipher: "AES-128-ECB",
        source: "NIST SP 800-38A F.1.1 ECB-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: "",
        pt: SP800_38A_PT,
        ct: "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf\
43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
    },
    ModeVector {
        cipher: "AES-256-ECB",
        source: "NIST SP 800-38A F.1.5 ECB-AES256.Encrypt",
        key: SP800_38A_K256,
        iv: "",
        pt: SP800_38A_PT,
        ct: "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870\
b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
    },
    ModeVector {
        cipher: "AES-128-CBC",
        source: "NIST SP 800-38A F.2.1 CBC-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
    },
    ModeVector {
        cipher: "AES-256-CBC",
        source: "NIST SP 800-38A F.2.5 CBC-AES256.Encrypt",
        key: SP800_38A_K256,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d\
39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
    },
    ModeVector {
        cipher: "AES-128-CFB1",
        source: "NIST SP 800-38A F.3.1 CFB1-AES128.Encrypt (16 bits)",
        key: SP800_38A_K128,
        iv: SP800_38A_IV,
        pt: "6bc1",
        ct: "68b3",
    },
    ModeVector {
        cipher: "AES-128-CFB8",
        source: "NIST SP 800-38A F.3.7 CFB8-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: SP800_38A_IV,
        pt: "6bc1bee22e409f96e93d7e117393172aae2d",
        ct: "3b79424c9c0dd436bace9e0ed4586a4f32b9",
    },
    ModeVector {
        cipher: "AES-128-CFB",
        source: "NIST SP 800-38A F.3.13 CFB128-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b\
26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6",
    },
    ModeVector {
        cipher: "AES-256-CFB",
        source: "NIST SP 800-38A F.3.17 CFB128-AES256.Encrypt",
        key: SP800_38A_K256,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407b\
df10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471",
    },
    ModeVector {
        cipher: "AES-128-OFB",
        source: "NIST SP 800-38A F.4.1 OFB-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825\
9740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e",
    },
    ModeVector {
        cipher: "AES-256-OFB",
        source: "NIST SP 800-38A F.4.5 OFB-AES256.Encrypt",
        key: SP800_38A_K256,
        iv: SP800_38A_IV,
        pt: SP800_38A_PT,
        ct: "dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d\
71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484",
    },
    ModeVector {
        cipher: "AES-128-CTR",
        source: "NIST SP 800-38A F.5.1 CTR-AES128.Encrypt",
        key: SP800_38A_K128,
        iv: SP800_38A_CTR,
        pt: SP800_38A_PT,
        ct: "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
    },
    ModeVector {
        cipher: "AES-256-CTR",
        source: "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt",
        key: SP800_38A_K256,
        iv: SP800_38A_CTR,
        pt: SP800_38A_PT,
        ct: "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5\
2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
    },
    ModeVector {
        cipher: "DES-ECB",
        source: "FIPS 81 appendix B, ECB example (\"Now is the time for all \")",
        key: "0123456789abcdef",
        iv: "",
        pt: "4e6f77206973207468652074696d6520666f7220616c6c20",
        ct: "3fa40e8a984d48156a271787ab8883f9893d51ec4b563b53",
    },
    ModeVector {
        cipher: "DES-CBC",
        source: "FIPS 81 appendix C, CBC example (\"Now is the time for all \")",
        key: "0123456789abcdef",
        iv: "1234567890abcdef",
        pt: "4e6f77206973207468652074696d6520666f7220616c6c20",
        ct: "e5c7cdde872bf27c43e934008c389c0f683788499a7c05f6",
    },
    ModeVector {
        cipher: "DES-EDE3-ECB",
        source: "NIST SP 800-67 Rev. 1 appendix B, TDEA ECB example",
        key: "0123456789abcdef23456789abcdef01456789abcdef0123",
        iv: "",
        pt: "54686520717566636b2062726f776e20666f78206a756d70",
        ct: "a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900",
    },
    ModeVector {
        cipher: "BF-CBC",
        source: "Schneier's Blowfish test data (Eric Young's set), CBC example",
        key: "0123456789abcdeff0e1d2c3b4a59687",
        iv: "fedcba9876543210",
        pt: "37363534333231204e6f77206973207468652074696d6520666f722000000000",
        ct: "6b77b4d63006dee605b156e27403979358deb9e7154616d959f1652bd5ff92cc",
    },
    ModeVector {
        cipher: "ChaCha20",
        source: "RFC 8439 section 2.4.2 (IV = counter 1 LE || nonce)",
        key: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        iv: "01000000000000000000004a00000000",
        pt: "4c616469657320616e642047656e746c656d656e206f662074686520636c6173\
73206f66202739393a204966204920636f756c64206f6666657220796f75206f\
6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73\
637265656e20776f756c642062652069742e",
        ct: "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b\
f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8\
07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736\
5af90bbf74a35be6b40b8eedf2785e42874d",
    },
    ModeVector {
        cipher: "RC4-40",
        source: "RFC 6229 section 2, 40-bit key, offset 0",
        key: "0102030405",
        iv: "",
        pt: "00000000000000000000000000000000",
        ct: "b2396305f03dc027ccc3524a0a1118a8",
    },
    ModeVector {
        cipher: "RC4",
        source: "RFC 6229 section 2, 128-bit key, offset 0",
        key: "0102030405060708090a0b0c0d0e0f10",
        iv: "",
        pt: "00000000000000000000000000000000",
        ct: "9ac7cc9a609d1ef7b2932899cde41b97",
    },
];

/// Single-block vectors, carried into every mode of the family.
pub const BLOCK_VECTORS: &[BlockVector] = &[
    BlockVector {
        family: "AES",
        source: "FIPS 197 appendix C.1 (AES-128)",
        key: "000102030405060708090a0b0c0d0e0f",
        pt: "00112233445566778899aabbccddeeff",
        ct: "69c4e0d86a7b0430d8cdb78070b4c55a",
    },
    BlockVector {
        family: "AES",
        source: "FIPS 197 appendix C.2 (AES-192)",
        key: "000102030405060708090a0b0c0d0e0f1011121314151617",
        pt: "00112233445566778899aabbccddeeff",
        ct: "dda97ca4864cdfe06eaf70a0ec0d7191",
    },
    BlockVector {
        family: "AES",
        source: "FIPS 197 appendix C.3 (AES-256)",
        key: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        pt: "00112233445566778899aabbccddeeff",
        ct: "8ea2b7ca516745bfeafc49904b496089",
    },
    BlockVector {
        family: "CAMELLIA",
        source: "RFC 3713 appendix A (128-bit key)",
        key: "0123456789abcdeffedcba9876543210",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "67673138549669730857065648eabe43",
    },
    BlockVector {
        family: "CAMELLIA",
        source: "RFC 3713 appendix A (192-bit key)",
        key: "0123456789abcdeffedcba98765432100011223344556677",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "b4993401b3e996f84ee5cee7d79b09b9",
    },
    BlockVector {
        family: "CAMELLIA",
        source: "RFC 3713 appendix A (256-bit key)",
        key: "0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "9acc237dff16d76c20ef7c919e3a7509",
    },
    BlockVector {
        family: "CAST5",
        source: "RFC 2144 appendix B.1 (128-bit key)",
        key: "0123456712345678234567893456789a",
        pt: "0123456789abcdef",
        ct: "238b4fe5847e44b2",
    },
    BlockVector {
        family: "BF",
        source: "Schneier's Blowfish test data, all-zero key and block",
        key: "0000000000000000",
        pt: "0000000000000000",
        ct: "4ef997456198dd78",
    },
    BlockVector {
        family: "BF",
        source: "Schneier's Blowfish test data, all-ones key and block",
        key: "ffffffffffffffff",
        pt: "ffffffffffffffff",
        ct: "51866fd5b85ecb8a",
    },
    BlockVector {
        family: "BF",
        source: "Schneier's Blowfish test data, key 3000000000000000",
        key: "3000000000000000",
        pt: "1000000000000001",
        ct: "7d856f9a613063f2",
    },
    // libmcrypt's blowfish-compat and RustCrypto's BlowfishLE read and write
    // the two 32-bit halves little-endian: Schneier's symmetric vectors with
    // each 32-bit word of the ciphertext byte-reversed.
    BlockVector {
        family: "BF-LE",
        source: "Schneier's Blowfish all-zero vector, 32-bit words little-endian",
        key: "0000000000000000",
        pt: "0000000000000000",
        ct: "4597f94e78dd9861",
    },
    BlockVector {
        family: "BF-LE",
        source: "Schneier's Blowfish all-ones vector, 32-bit words little-endian",
        key: "ffffffffffffffff",
        pt: "ffffffffffffffff",
        ct: "d56f86518acb5eb8",
    },
    BlockVector {
        family: "DES",
        source: "NIST SP 800-20 table A.1, variable plaintext, round 1",
        key: "0101010101010101",
        pt: "8000000000000000",
        ct: "95f8a5e5dd31d900",
    },
    // Keying option 3 with K1 = K2 = K3 (and two-key with K1 = K2) reduces
    // TDEA to single DES, so the SP 800-20 vector holds for 3DES too.
    BlockVector {
        family: "DES-EDE3",
        source: "NIST SP 800-20 table A.1 round 1, TDEA with K1 = K2 = K3",
        key: "010101010101010101010101010101010101010101010101",
        pt: "8000000000000000",
        ct: "95f8a5e5dd31d900",
    },
    BlockVector {
        family: "DES-EDE",
        source: "NIST SP 800-20 table A.1 round 1, two-key TDEA with K1 = K2",
        key: "01010101010101010101010101010101",
        pt: "8000000000000000",
        ct: "95f8a5e5dd31d900",
    },
    BlockVector {
        family: "SM4",
        source: "GB/T 32907-2016 appendix A example 1",
        key: "0123456789abcdeffedcba9876543210",
        pt: "0123456789abcdeffedcba9876543210",
        ct: "681edf34d206965e86b3e94f536e4246",
    },
    BlockVector {
        family: "SEED",
        source: "RFC 4269 appendix B, first example",
        key: "00000000000000000000000000000000",
        pt: "000102030405060708090a0b0c0d0e0f",
        ct: "5ebac6e0054e166819aff1cc6d346cdb",
    },
    BlockVector {
        family: "ARIA",
        source: "RFC 5794 appendix A.1 (128-bit key)",
        key: "000102030405060708090a0b0c0d0e0f",
        pt: "00112233445566778899aabbccddeeff",
        ct: "d718fbd6ab644c739da95f3be6451778",
    },
];
