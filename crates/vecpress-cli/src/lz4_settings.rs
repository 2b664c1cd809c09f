//! `--level` and `--dict`: the settings of the LZ4 codecs (`lz4`, `lz4-hc`)
//! on top of an [`Engine`], for `compress`, `decompress` and `inspect`.
//!
//! Levels follow the `lz4` command: 1 is the fast compressor, 2 to 12 the
//! high-compression parsers ([`hc`]). `--codec lz4-hc` takes 2 to 12
//! (default 9); `--codec lz4` takes 1 to 12, and from 2 up it *is* lz4-hc
//! at that level (the file then records codec lz4-hc: both decode alike).
//!
//! A dictionary is a file whose last 64 KiB come before every block, as
//! [`vecpress::lz4::dict`] describes; the vecpress header records its id.
#![forbid(unsafe_code)]

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result, bail};
use vecpress::Error;
use vecpress::container::Element;
use vecpress::lz4::{block, dict, hc};

use crate::UsageError;
use crate::engine::{Engine, Scratch};

/// Name of the fast LZ4 codec in the registry.
pub const LZ4: &str = "lz4";
/// Name of the high-compression LZ4 codec in the registry.
pub const LZ4_HC: &str = "lz4-hc";

/// Where `--level` and `--dict` apply, for messages.
const WHERE: &str = "--codec lz4, --codec lz4-hc and --format lz4";

/// An LZ4 dictionary given with `--dict`: the part LZ4 uses and its id.
pub struct Dictionary {
    /// The file's last 64 KiB (all of it when shorter).
    pub bytes: Vec<u8>,
    /// Its [`dict::dictionary_id`].
    pub id: u32,
    /// The file's name, for messages.
    pub name: String,
}

impl Dictionary {
    /// Reads the dictionary file `path` (only its last 64 KiB are kept).
    /// An empty file is a usage error: it would change nothing.
    pub fn load(path: &Path) -> Result<Dictionary> {
        let name = path.display().to_string();
        let mut file = std::fs::File::open(path)
            .with_context(|| format!("{name}: cannot open the dictionary"))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let keep = dict::MAX_DICT_LEN as u64;
        if len > keep {
            file.seek(SeekFrom::Start(len - keep))
                .with_context(|| format!("{name}: cannot read the dictionary"))?;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .with_context(|| format!("{name}: cannot read the dictionary"))?;
        // Not a regular file (a pipe): keep the tail of all it gave.
        bytes.drain(..bytes.len().saturating_sub(dict::MAX_DICT_LEN));
        if bytes.is_empty() {
            return Err(UsageError(format!("{name}: the dictionary is empty")).into());
        }
        Ok(Dictionary {
            id: dict::dictionary_id(&bytes),
            bytes,
            name,
        })
    }

    /// Checks that this is the dictionary `needed` names.
    pub fn check(&self, needed: u32) -> Result<()> {
        if self.id != needed {
            bail!(
                "{} (dictionary {})",
                Error::DictionaryMismatch {
                    needed,
                    given: Some(self.id)
                },
                self.name
            );
        }
        Ok(())
    }
}

/// The error for data that needs dictionary `needed` when none was given.
pub fn missing(needed: u32) -> anyhow::Error {
    anyhow::anyhow!(
        "{} (pass it with --dict FILE)",
        Error::DictionaryMismatch {
            needed,
            given: None
        }
    )
}

/// Checks `--level` against the frame writer's range (1 to 12).
pub fn check_frame_level(level: u32) -> Result<()> {
    if !(1..=hc::MAX_LEVEL).contains(&level) {
        return Err(UsageError(format!(
            "--level {level} is out of range: LZ4 levels are 1 (fast) to {} (high compression)",
            hc::MAX_LEVEL
        ))
        .into());
    }
    Ok(())
}

/// An engine with its `--level` and `--dict`.
#[derive(Clone, Copy)]
pub struct Tuned<'a> {
    /// The codec.
    pub engine: Engine,
    /// The high-compression level (lz4-hc only; `None`: its default).
    pub level: Option<u32>,
    /// The dictionary (lz4 and lz4-hc only).
    pub dict: Option<&'a Dictionary>,
}

impl<'a> Tuned<'a> {
    /// `engine` as it is, without level or dictionary.
    pub fn plain(engine: Engine) -> Tuned<'a> {
        Tuned {
            engine,
            level: None,
            dict: None,
        }
    }

    /// `engine` (named by `--codec`) with `--level` and `--dict`: a usage
    /// error for a level out of range or either option on a codec other than
    /// lz4 and lz4-hc. `--codec lz4` at a level from 2 up becomes lz4-hc.
    pub fn new(engine: Engine, level: Option<u32>, dict: Option<&'a Dictionary>) -> Result<Self> {
        let name = engine.name();
        let is_lz4 = matches!(name, LZ4 | LZ4_HC);
        if level.is_some() && !is_lz4 {
            return Err(UsageError(format!(
                "--level applies to {WHERE} only; codec {name} has no levels"
            ))
            .into());
        }
        if dict.is_some() && !is_lz4 {
            return Err(UsageError(format!(
                "--dict applies to {WHERE} only; codec {name} takes no dictionary"
            ))
            .into());
        }
        let (engine, level) = match (name, level) {
            (_, None) => (engine, None),
            (LZ4_HC, Some(l)) if !(hc::MIN_LEVEL..=hc::MAX_LEVEL).contains(&l) => {
                return Err(UsageError(format!(
                    "--level {l} is out of range: lz4-hc levels are {} to {} (level 1 is --codec lz4)",
                    hc::MIN_LEVEL,
                    hc::MAX_LEVEL
                ))
                .into());
            }
            (LZ4_HC, Some(l)) => (engine, Some(l)),
            (_, Some(l)) => {
                check_frame_level(l)?;
                if l >= hc::MIN_LEVEL {
                    let Some(hc_engine) = Engine::by_name(LZ4_HC) else {
                        bail!("this build lacks codec {LZ4_HC}");
                    };
                    (hc_engine, Some(l))
                } else {
                    (engine, None)
                }
            }
        };
        Ok(Tuned {
            engine,
            level,
            dict,
        })
    }

    /// The engine for a file whose header names dictionary `dict_id`, given
    /// `dict` (from `--dict`; ignored when the file names none).
    pub fn for_file(
        engine: Engine,
        dict_id: Option<u32>,
        dict: Option<&'a Dictionary>,
    ) -> Result<Self> {
        let Some(needed) = dict_id else {
            return Ok(Tuned::plain(engine));
        };
        if !matches!(engine.name(), LZ4 | LZ4_HC) {
            bail!(
                "codec {} takes no dictionary, yet the header names dictionary {needed:#010x}",
                engine.name()
            );
        }
        let dict = dict.ok_or_else(|| missing(needed))?;
        dict.check(needed)?;
        Ok(Tuned {
            engine,
            level: None,
            dict: Some(dict),
        })
    }

    /// Encodes a block as [`Engine::encode`] does, at the level and with
    /// the dictionary set.
    pub fn encode(
        &self,
        element: Element,
        raw: &[u8],
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
    ) -> Result<()> {
        if self.level.is_none() && self.dict.is_none() {
            return self.engine.encode(element, raw, out, scratch);
        }
        out.clear();
        out.resize(block::max_compressed_len(raw.len()), 0);
        let opts = hc::HcOptions::new().level(self.level.unwrap_or(hc::DEFAULT_LEVEL));
        let hc = self.engine.name() == LZ4_HC;
        let len = match (self.dict, hc) {
            (Some(d), true) => hc::compress_with_dict(raw, &d.bytes, out, &opts)?,
            (Some(d), false) => block::compress_with_dict(raw, &d.bytes, out)?,
            (None, _) => hc::compress_into_with(raw, out, &opts)?,
        };
        out.truncate(len);
        Ok(())
    }

    /// Decodes a block as [`Engine::decode`] does, with the dictionary set.
    pub fn decode(
        &self,
        element: Element,
        payload: &[u8],
        count: usize,
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
    ) -> Result<()> {
        let Some(d) = self.dict else {
            return self.engine.decode(element, payload, count, out, scratch);
        };
        out.clear();
        out.resize(count * element.width(), 0);
        let written = block::decompress_with_dict(payload, &d.bytes, out)?;
        if written != out.len() {
            bail!(Error::Corrupt {
                offset: payload.len(),
                what: "block decodes to fewer bytes than its count"
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dictionary(bytes: &[u8]) -> Dictionary {
        Dictionary {
            bytes: bytes.to_vec(),
            id: dict::dictionary_id(bytes),
            name: "d".into(),
        }
    }

    #[test]
    fn levels_select_the_parser_and_round_trip() {
        let lz4 = Engine::by_name(LZ4).unwrap();
        let raw = b"a row of text, a row of text with a twist, and again a row\n".repeat(40);
        let d = dictionary(b"a row of text with a twist, and again");
        let mut s = Scratch::default();
        for level in [None, Some(1), Some(2), Some(9), Some(12)] {
            for dict in [None, Some(&d)] {
                let t = Tuned::new(lz4, level, dict).unwrap();
                let hc = level.is_some_and(|l| l >= 2);
                assert_eq!(t.engine.name(), if hc { LZ4_HC } else { LZ4 });
                let (mut enc, mut dec) = (Vec::new(), Vec::new());
                t.encode(Element::Bytes, &raw, &mut enc, &mut s).unwrap();
                let back = Tuned::for_file(t.engine, dict.map(|d| d.id), dict).unwrap();
                back.decode(Element::Bytes, &enc, raw.len(), &mut dec, &mut s)
                    .unwrap();
                assert_eq!(dec, raw, "level {level:?} dict {}", dict.is_some());
            }
        }
    }

    #[test]
    fn bad_settings_are_usage_errors() {
        let hc = Engine::by_name(LZ4_HC).unwrap();
        let vbyte = Engine::by_name("vbyte").unwrap();
        let d = dictionary(b"dictionary");
        for (engine, level, dict) in [
            (hc, Some(1), None),
            (hc, Some(13), None),
            (Engine::by_name(LZ4).unwrap(), Some(0), None),
            (vbyte, Some(9), None),
            (vbyte, None, Some(&d)),
        ] {
            let e = Tuned::new(engine, level, dict).err().unwrap();
            assert!(e.downcast_ref::<UsageError>().is_some(), "{e}");
        }
    }
}
