//! RustCrypto: AES, Camellia, 3DES, Blowfish and CAST5 in ECB, CBC, CFB,
//! OFB (and CTR for the 128-bit blocks), plus ChaCha20, through one generic
//! engine.
//!
//! The block cipher is keyed once ([`KeyInit`]); a fresh IV builds a new mode
//! object around a clone of the keyed cipher (`inner_iv_init`), which copies
//! the round keys instead of recomputing them, the same split as OpenSSL's
//! "key once, IV per message set".

use crate::catalog::{CipherBackend, CipherDesc, Mode};
use crate::engine::{CipherError, Dir, Engine, EngineRequest};
use cipher::array::Array;
use cipher::common::InnerInit;
use cipher::consts::{True, U16, U256};
use cipher::typenum::{IsLess, NonZero};
use cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser,
    InnerIvInit, KeyInit, KeyIvInit, StreamCipher, StreamCipherCoreWrapper, StreamCipherSeek,
};
use cryptobench_suite_common::rustcrypto::RustCrypto;

/// Crate versions, for the backend's version string.
pub const CRATES: [(&str, &str); 11] = [
    ("aes", "0.9"),
    ("ctr", "0.10"),
    ("cbc", "0.2"),
    ("cfb-mode", "0.9"),
    ("ofb", "0.7"),
    ("ecb", "0.2"),
    ("chacha20", "0.10"),
    ("des", "0.9"),
    ("blowfish", "0.10"),
    ("cast5", "0.12"),
    ("camellia", "0.2"),
];

fn desc(name: String, family: &str, mode: Mode, key_len: usize, block: usize) -> CipherDesc {
    let key_bits = if family == "DES-EDE3" {
        168
    } else {
        key_len * 8
    };
    CipherDesc {
        name,
        backend: &RUST_CRYPTO,
        native: String::new(),
        family: family.into(),
        mode,
        key_len,
        key_bits,
        iv_len: match mode {
            Mode::Ecb => 0,
            Mode::Stream => 16,
            _ => block,
        },
        block,
        legacy: false,
    }
}

/// The RustCrypto ciphers, named as OpenSSL names them.
pub fn ciphers() -> Vec<CipherDesc> {
    let mut out = Vec::new();
    let wide = [Mode::Ecb, Mode::Cbc, Mode::Cfb, Mode::Ofb, Mode::Ctr];
    for (family, bits) in [
        ("AES", 128),
        ("AES", 256),
        ("CAMELLIA", 128),
        ("CAMELLIA", 256),
    ] {
        for mode in wide {
            let name = format!("{family}-{bits}-{}", mode.name());
            out.push(desc(name, family, mode, bits / 8, 16));
        }
    }
    for (family, key_len) in [("DES-EDE3", 24), ("BF", 16), ("CAST5", 16), ("BF-LE", 16)] {
        for mode in [Mode::Ecb, Mode::Cbc, Mode::Cfb, Mode::Ofb] {
            let name = format!("{family}-{}", mode.name());
            out.push(desc(name, family, mode, key_len, 8));
        }
    }
    let mut chacha = desc("ChaCha20".into(), "CHACHA20", Mode::Stream, 32, 1);
    chacha.iv_len = 16;
    out.push(chacha);
    for d in &mut out {
        d.native = d.name.clone();
    }
    out
}

/// A mode object for one direction.
enum State<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    EcbEnc(ecb::Encryptor<C>),
    EcbDec(ecb::Decryptor<C>),
    CbcEnc(cbc::Encryptor<C>),
    CbcDec(cbc::Decryptor<C>),
    CfbEnc(cfb_mode::BufEncryptor<C>),
    CfbDec(cfb_mode::BufDecryptor<C>),
    Stream(Box<dyn StreamCipher + Send>),
}

/// Builds a keystream mode (OFB, CTR) around a keyed cipher; a function
/// pointer because the bounds differ per block size.
type StreamBuilder<C> = fn(C, &[u8]) -> Result<Box<dyn StreamCipher + Send>, CipherError>;

/// The keystream modes a block cipher supports here.
struct StreamModes<C> {
    ofb: StreamBuilder<C>,
    ctr: Option<StreamBuilder<C>>,
}

struct BlockEngine<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    cipher: C,
    mode: Mode,
    dir: Dir,
    state: State<C>,
    streams: StreamModes<C>,
}

/// OFB around a keyed cipher of any block size.
fn ofb<C>(cipher: C, iv: &[u8]) -> Result<Box<dyn StreamCipher + Send>, CipherError>
where
    C: BlockCipherEncrypt + Send + 'static,
    C::BlockSize: IsLess<U256, Output = True> + NonZero,
{
    let core = ofb::OfbCore::<C>::inner_iv_slice_init(cipher, iv)
        .map_err(|_| CipherError::MessageRejected("OFB IV must be one block".into()))?;
    Ok(Box::new(StreamCipherCoreWrapper::from_core(core)))
}

fn ctr128<C>(cipher: C, iv: &[u8]) -> Result<Box<dyn StreamCipher + Send>, CipherError>
where
    C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16> + Send + 'static,
{
    let core = ctr::CtrCore::<C, ctr::flavors::Ctr128BE>::inner_iv_slice_init(cipher, iv)
        .map_err(|_| CipherError::IvLength { expected: 16 })?;
    Ok(Box::new(StreamCipherCoreWrapper::from_core(core)))
}

impl<C> BlockEngine<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + Clone + Send + 'static,
{
    fn state(&self, iv: &[u8]) -> Result<State<C>, CipherError> {
        let c = self.cipher.clone();
        let bad_iv = |_| CipherError::IvLength {
            expected: C::block_size(),
        };
        Ok(match (self.mode, self.dir) {
            (Mode::Ecb, Dir::Encrypt) => State::EcbEnc(ecb::Encryptor::inner_init(c)),
            (Mode::Ecb, Dir::Decrypt) => State::EcbDec(ecb::Decryptor::inner_init(c)),
            (Mode::Cbc, Dir::Encrypt) => {
                State::CbcEnc(cbc::Encryptor::inner_iv_slice_init(c, iv).map_err(bad_iv)?)
            }
            (Mode::Cbc, Dir::Decrypt) => {
                State::CbcDec(cbc::Decryptor::inner_iv_slice_init(c, iv).map_err(bad_iv)?)
            }
            (Mode::Cfb, Dir::Encrypt) => {
                State::CfbEnc(cfb_mode::BufEncryptor::inner_iv_slice_init(c, iv).map_err(bad_iv)?)
            }
            (Mode::Cfb, Dir::Decrypt) => {
                State::CfbDec(cfb_mode::BufDecryptor::inner_iv_slice_init(c, iv).map_err(bad_iv)?)
            }
            (Mode::Ofb, _) => State::Stream((self.streams.ofb)(c, iv)?),
            (Mode::Ctr, _) => match self.streams.ctr {
                Some(build) => State::Stream(build(c, iv)?),
                None => {
                    return Err(CipherError::Unavailable(
                        "CTR is offered for 128-bit blocks only".into(),
                    ))
                }
            },
            (mode, _) => {
                return Err(CipherError::Unavailable(format!(
                    "mode {} not offered by RustCrypto here",
                    mode.name()
                )))
            }
        })
    }
}

fn as_blocks<C: BlockSizeUser>(
    buf: &mut [u8],
) -> Result<&mut [Array<u8, C::BlockSize>], CipherError> {
    let (blocks, rest) = Array::<u8, C::BlockSize>::slice_as_chunks_mut(buf);
    if rest.is_empty() {
        Ok(blocks)
    } else {
        Err(CipherError::MessageRejected(format!(
            "message length is not a multiple of the {}-byte block",
            C::block_size()
        )))
    }
}

impl<C> Engine for BlockEngine<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + Clone + Send + 'static,
{
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError> {
        self.state = self.state(iv)?;
        Ok(())
    }
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        self.cipher = rekey_cipher::<C>(&self.cipher, key)?;
        self.set_iv(iv)
    }
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError> {
        let n = input.len();
        let buf = out.get_mut(..n).ok_or(CipherError::OutputTooSmall)?;
        match &mut self.state {
            State::Stream(s) => s
                .try_apply_keystream_b2b(input, buf)
                .map_err(|_| CipherError::KeystreamExhausted)?,
            State::CfbEnc(s) => {
                buf.copy_from_slice(input);
                s.encrypt(buf);
            }
            State::CfbDec(s) => {
                buf.copy_from_slice(input);
                s.decrypt(buf);
            }
            state => {
                buf.copy_from_slice(input);
                let blocks = as_blocks::<C>(buf)?;
                match state {
                    State::EcbEnc(m) => m.encrypt_blocks(blocks),
                    State::EcbDec(m) => m.decrypt_blocks(blocks),
                    State::CbcEnc(m) => m.encrypt_blocks(blocks),
                    State::CbcDec(m) => m.decrypt_blocks(blocks),
                    _ => unreachable!("stream and CFB states handled above"),
                }
            }
        }
        Ok(n)
    }
}

/// Keys a new cipher of the same type (the generic engine does not know
/// the type's constructor otherwise).
fn rekey_cipher<C: 'static>(_old: &C, key: &[u8]) -> Result<C, CipherError> {
    let any: Box<dyn std::any::Any> = keyed_any::<C>(key)?;
    any.downcast::<C>()
        .map(|b| *b)
        .map_err(|_| CipherError::Library("internal: cipher type mismatch".into()))
}

fn keyed_any<C: 'static>(key: &[u8]) -> Result<Box<dyn std::any::Any>, CipherError> {
    use std::any::TypeId;
    fn k<T: KeyInit + 'static>(key: &[u8]) -> Result<Box<dyn std::any::Any>, CipherError> {
        T::new_from_slice(key)
            .map(|c| Box::new(c) as Box<dyn std::any::Any>)
            .map_err(|_| CipherError::KeyRejected(format!("key of {} bytes refused", key.len())))
    }
    let t = TypeId::of::<C>();
    macro_rules! try_type {
        ($($ty:ty),*) => {$(
            if t == TypeId::of::<$ty>() { return k::<$ty>(key); }
        )*};
    }
    try_type!(
        aes::Aes128,
        aes::Aes192,
        aes::Aes256,
        camellia::Camellia128,
        camellia::Camellia192,
        camellia::Camellia256,
        des::TdesEde3,
        des::Des,
        blowfish::Blowfish,
        blowfish::BlowfishLE,
        cast5::Cast5
    );
    Err(CipherError::Library("internal: unknown cipher type".into()))
}

/// The engine of a block cipher; `ctr` is the CTR builder where the block
/// size has one here (128-bit blocks).
fn block_engine<C>(
    desc: &CipherDesc,
    dir: Dir,
    key: &[u8],
    iv: &[u8],
    ctr: Option<StreamBuilder<C>>,
) -> Result<Box<dyn Engine>, CipherError>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + KeyInit + Clone + Send + 'static,
    C::BlockSize: IsLess<U256, Output = True> + NonZero,
{
    let streams = StreamModes { ofb: ofb::<C>, ctr };
    let cipher = C::new_from_slice(key)
        .map_err(|_| CipherError::KeyRejected(format!("key of {} bytes refused", key.len())))?;
    let mut engine = BlockEngine {
        cipher,
        mode: desc.mode,
        dir,
        // Replaced by set_iv below; ECB needs no IV.
        state: State::Stream(Box::new(NoStream)),
        streams,
    };
    engine.set_iv(iv)?;
    Ok(Box::new(engine))
}

/// A placeholder keystream that is never used (replaced at construction).
struct NoStream;

impl cipher::StreamCipher for NoStream {
    fn check_remaining(&self, _len: usize) -> Result<(), cipher::StreamCipherError> {
        Err(cipher::StreamCipherError)
    }
    fn unchecked_apply_keystream_inout(&mut self, _buf: cipher::InOutBuf<'_, '_, u8>) {}
    fn unchecked_write_keystream(&mut self, _buf: &mut [u8]) {}
}

/// ChaCha20 with OpenSSL's 16-byte IV: a 32-bit little-endian block counter
/// followed by the 96-bit RFC 8439 nonce.
struct ChaChaEngine {
    key: [u8; 32],
    stream: chacha20::ChaCha20,
}

fn chacha(key: &[u8], iv: &[u8]) -> Result<chacha20::ChaCha20, CipherError> {
    if key.len() != 32 || iv.len() != 16 {
        return Err(CipherError::KeyRejected(
            "ChaCha20 takes a 32-byte key and a 16-byte IV (counter || nonce)".into(),
        ));
    }
    let counter = u32::from_le_bytes([iv[0], iv[1], iv[2], iv[3]]);
    let mut s = chacha20::ChaCha20::new_from_slices(key, &iv[4..])
        .map_err(|e| CipherError::KeyRejected(e.to_string()))?;
    s.try_seek(u64::from(counter) * 64)
        .map_err(|e| CipherError::Library(e.to_string()))?;
    Ok(s)
}

impl Engine for ChaChaEngine {
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError> {
        self.stream = chacha(&self.key, iv)?;
        Ok(())
    }
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        self.stream = chacha(key, iv)?;
        self.key.copy_from_slice(key);
        Ok(())
    }
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError> {
        let buf = out
            .get_mut(..input.len())
            .ok_or(CipherError::OutputTooSmall)?;
        self.stream
            .try_apply_keystream_b2b(input, buf)
            .map_err(|_| CipherError::KeystreamExhausted)?;
        Ok(input.len())
    }
}

/// The RustCrypto block and stream cipher crates.
pub const RUST_CRYPTO: RustCrypto = RustCrypto::new(&CRATES);

impl CipherBackend for RustCrypto {
    fn ciphers(&self) -> Vec<CipherDesc> {
        ciphers()
    }

    fn engine(&self, request: EngineRequest<'_>) -> Result<Box<dyn Engine>, CipherError> {
        let EngineRequest { desc, dir, key, iv } = request;
        match (desc.family.as_str(), key.len()) {
            ("CHACHA20", _) => {
                let stream = chacha(key, iv)?;
                let mut k = [0u8; 32];
                k.copy_from_slice(key);
                Ok(Box::new(ChaChaEngine { key: k, stream }))
            }
            ("AES", 16) => block_engine::<aes::Aes128>(desc, dir, key, iv, Some(ctr128)),
            ("AES", 24) => block_engine::<aes::Aes192>(desc, dir, key, iv, Some(ctr128)),
            ("AES", 32) => block_engine::<aes::Aes256>(desc, dir, key, iv, Some(ctr128)),
            ("CAMELLIA", 16) => {
                block_engine::<camellia::Camellia128>(desc, dir, key, iv, Some(ctr128))
            }
            ("CAMELLIA", 24) => {
                block_engine::<camellia::Camellia192>(desc, dir, key, iv, Some(ctr128))
            }
            ("CAMELLIA", 32) => {
                block_engine::<camellia::Camellia256>(desc, dir, key, iv, Some(ctr128))
            }
            ("DES-EDE3", _) => block_engine::<des::TdesEde3>(desc, dir, key, iv, None),
            ("DES", _) => block_engine::<des::Des>(desc, dir, key, iv, None),
            ("BF-LE", _) => block_engine::<blowfish::BlowfishLE>(desc, dir, key, iv, None),
            ("BF", _) => block_engine::<blowfish::Blowfish>(desc, dir, key, iv, None),
            ("CAST5", _) => block_engine::<cast5::Cast5>(desc, dir, key, iv, None),
            (family, n) => Err(CipherError::Unavailable(format!(
                "RustCrypto {family} with a {n}-byte key is not offered here"
            ))),
        }
    }
}
