//! Realistic scenarios: messages shaped like device telemetry and mesh
//! state (`schema/telemetry.capnp`), written with generated code on both
//! sides: capnpc's for capnp ([`peer`]), capnarena-build's for capnarena
//! ([`ours`]).
//!
//! The inputs are plain Rust values made deterministically from a seed
//! ([`report`], [`mesh`], [`samples`]); both sides build them with the same
//! calls in the same order, so on one-segment arenas both write the same
//! bytes. Every reader folds every field into a checksum in the order the
//! `checksum` methods here define, so a reader's result can be checked
//! against the input it was built from.
//!
//! [`steps::SCENARIOS`] lists every bench group; [`steps::step`] makes one iteration of one
//! side of one scenario, with its input made beforehand, for the criterion
//! bench (`benches/realistic.rs`), the callgrind driver and the allocation
//! tests alike.

use crate::{CHECKSUM_SEED, mix, mix_bytes};

pub mod ours;
pub mod peer;
pub mod steps;

/// Sensors in the report tree.
pub const SENSORS: usize = 24;
/// Nodes in the mesh list.
pub const MESH_NODES: usize = 4096;
/// Messages in the sample stream.
pub const STREAM_SAMPLES: usize = 10_000;
/// Seed of [`report`].
pub const REPORT_SEED: u64 = 0x7e1e_0000_0000_0001;
/// Seed of [`mesh`].
pub const MESH_SEED: u64 = 0x7e1e_0000_0000_0002;
/// Seed of [`samples`].
pub const SAMPLES_SEED: u64 = 0x7e1e_0000_0000_0003;
/// Scratch space (words) that holds the report in one segment on capnp's
/// side; capnarena's arenas grow as needed.
pub const REPORT_SCRATCH_WORDS: usize = 2048;
/// Scratch space (words) that holds the mesh in one segment.
pub const MESH_SCRATCH_WORDS: usize = MESH_NODES * 10 + 64;
/// Buffer (words) that holds one framed sample.
pub const SAMPLE_BUFFER_WORDS: usize = 64;

/// A deterministic generator (splitmix64).
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn f64(&mut self, scale: f64) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * scale
    }
    fn bools(&mut self, n: usize) -> Vec<bool> {
        (0..n).map(|_| self.next() & 1 == 1).collect()
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn u16s(&mut self, n: usize) -> Vec<u16> {
        (0..n).map(|_| self.next() as u16).collect()
    }
    fn position(&mut self) -> PositionData {
        PositionData {
            lat: self.f64(180.0) - 90.0,
            lon: self.f64(360.0) - 180.0,
            alt: self.f64(3000.0) as f32,
        }
    }
}

/// Folds a list of bools: its length, then the bits 64 to a word.
pub fn mix_bools(mut h: u64, len: u32, bits: impl Iterator<Item = bool>) -> u64 {
    h = mix(h, u64::from(len));
    let mut acc = 0u64;
    let mut n = 0u32;
    for b in bits {
        acc |= u64::from(b) << (n % 64);
        n += 1;
        if n.is_multiple_of(64) {
            h = mix(h, acc);
            acc = 0;
        }
    }
    if !n.is_multiple_of(64) {
        h = mix(h, acc);
    }
    h
}

/// Folds a list of `f64`: its length, then each value's bits.
pub fn mix_f64s(h: u64, values: &[f64]) -> u64 {
    values
        .iter()
        .fold(mix(h, values.len() as u64), |h, v| mix(h, v.to_bits()))
}

/// Folds a list of `f32`: its length, then each value's bits.
pub fn mix_f32s(h: u64, values: &[f32]) -> u64 {
    values.iter().fold(mix(h, values.len() as u64), |h, v| {
        mix(h, u64::from(v.to_bits()))
    })
}

/// Folds a list of `u16`: its length, then each value.
pub fn mix_u16s(h: u64, values: &[u16]) -> u64 {
    values
        .iter()
        .fold(mix(h, values.len() as u64), |h, &v| mix(h, u64::from(v)))
}

/// Folds a position: latitude, longitude, altitude (bits).
pub fn mix_position(h: u64, lat: f64, lon: f64, alt: f32) -> u64 {
    mix(
        mix(mix(h, lat.to_bits()), lon.to_bits()),
        u64::from(alt.to_bits()),
    )
}

/// `Position`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionData {
    /// `lat`.
    pub lat: f64,
    /// `lon`.
    pub lon: f64,
    /// `alt`.
    pub alt: f32,
}

impl PositionData {
    fn checksum(&self, h: u64) -> u64 {
        mix_position(h, self.lat, self.lon, self.alt)
    }
}

/// `Header.source`.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceData {
    /// `direct`.
    Direct,
    /// `relay`.
    Relay(u32),
    /// `gateway`: id, rssi, mac.
    Gateway(u32, i16, Vec<u8>),
}

/// `Header`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderData {
    /// `version`.
    pub version: u16,
    /// `kind`, as its ordinal (0..4).
    pub kind: u16,
    /// `origin`.
    pub origin: PositionData,
    /// `source`.
    pub source: SourceData,
}

/// `Sensor.reading`.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadingData {
    /// `temperature`.
    Temperature(f32),
    /// `position`.
    Position(PositionData),
    /// `raw`.
    Raw(Vec<u8>),
    /// `status`: code, ok.
    Status(u16, bool),
}

/// `Sensor`.
#[derive(Clone, Debug, PartialEq)]
pub struct SensorData {
    /// `id`.
    pub id: u16,
    /// `quality`.
    pub quality: u8,
    /// `flags`.
    pub flags: Vec<bool>,
    /// `samples`.
    pub samples: Vec<f64>,
    /// `reading`.
    pub reading: ReadingData,
    /// `calibration.offset`.
    pub offset: f32,
    /// `calibration.scale`.
    pub scale: f32,
    /// `calibration.hops`.
    pub hops: Vec<Vec<u16>>,
}

/// `Report`: the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportData {
    /// `deviceId`.
    pub device_id: u64,
    /// `seq`.
    pub seq: u32,
    /// `timestamp`.
    pub timestamp: i64,
    /// `flags`.
    pub flags: Vec<bool>,
    /// `header`.
    pub header: HeaderData,
    /// `sensors`.
    pub sensors: Vec<SensorData>,
    /// `firmware`.
    pub firmware: Vec<u8>,
    /// `routes`.
    pub routes: Vec<Vec<u16>>,
}

/// Discriminants of `Header.source` and `Sensor.reading`, as the schema
/// numbers them.
pub mod which {
    /// `direct`, `relay`, `gateway`.
    pub const DIRECT: u64 = 0;
    /// `relay`.
    pub const RELAY: u64 = 1;
    /// `gateway`.
    pub const GATEWAY: u64 = 2;
    /// `temperature`.
    pub const TEMPERATURE: u64 = 0;
    /// `position`.
    pub const POSITION: u64 = 1;
    /// `raw`.
    pub const RAW: u64 = 2;
    /// `status`.
    pub const STATUS: u64 = 3;
}

impl ReportData {
    /// The checksum every report reader returns for this report: in schema
    /// order, each scalar (floats as bits), each list's length then its
    /// elements, each union's discriminant then its member, each blob with
    /// [`mix_bytes`].
    pub fn checksum(&self) -> u64 {
        let mut h = CHECKSUM_SEED;
        h = mix(h, self.device_id);
        h = mix(h, u64::from(self.seq));
        h = mix(h, self.timestamp as u64);
        h = mix_bools(h, self.flags.len() as u32, self.flags.iter().copied());
        let hd = &self.header;
        h = mix(h, u64::from(hd.version));
        h = mix(h, u64::from(hd.kind));
        h = hd.origin.checksum(h);
        h = match &hd.source {
            SourceData::Direct => mix(h, which::DIRECT),
            SourceData::Relay(r) => mix(mix(h, which::RELAY), u64::from(*r)),
            SourceData::Gateway(id, rssi, mac) => mix_bytes(
                mix(mix(mix(h, which::GATEWAY), u64::from(*id)), *rssi as u64),
                mac,
            ),
        };
        h = mix(h, self.sensors.len() as u64);
        for s in &self.sensors {
            h = mix(h, u64::from(s.id));
            h = mix(h, u64::from(s.quality));
            h = mix_bools(h, s.flags.len() as u32, s.flags.iter().copied());
            h = mix_f64s(h, &s.samples);
            h = match &s.reading {
                ReadingData::Temperature(t) => {
                    mix(mix(h, which::TEMPERATURE), u64::from(t.to_bits()))
                }
                ReadingData::Position(p) => p.checksum(mix(h, which::POSITION)),
                ReadingData::Raw(b) => mix_bytes(mix(h, which::RAW), b),
                ReadingData::Status(code, ok) => {
                    mix(mix(mix(h, which::STATUS), u64::from(*code)), u64::from(*ok))
                }
            };
            h = mix(h, u64::from(s.offset.to_bits()));
            h = mix(h, u64::from(s.scale.to_bits()));
            h = mix(h, s.hops.len() as u64);
            for l in &s.hops {
                h = mix_u16s(h, l);
            }
        }
        h = mix_bytes(h, &self.firmware);
        h = mix(h, self.routes.len() as u64);
        for l in &self.routes {
            h = mix_u16s(h, l);
        }
        h
    }
}

/// The report tree from `seed`: [`SENSORS`] sensors cycling through the four
/// readings, 8 to 16 flags and 2 to 6 samples each, 1 to 3 hop lists of 2 to
/// 5 entries; a 16-flag header, a 192-byte firmware blob, 6 routes.
pub fn report(seed: u64) -> ReportData {
    let mut rng = Rng(seed);
    let sensors = (0..SENSORS)
        .map(|i| SensorData {
            id: rng.next() as u16,
            quality: rng.next() as u8,
            flags: rng.bools(8 + i % 9),
            samples: (0..2 + i % 5).map(|_| rng.f64(100.0) - 50.0).collect(),
            reading: match i % 4 {
                0 => ReadingData::Temperature(rng.f64(80.0) as f32 - 20.0),
                1 => ReadingData::Position(rng.position()),
                2 => ReadingData::Raw(rng.bytes(12 + i % 10)),
                _ => ReadingData::Status(rng.next() as u16, rng.next() & 1 == 1),
            },
            offset: rng.f64(1.0) as f32,
            scale: rng.f64(2.0) as f32,
            hops: (0..1 + i % 3).map(|j| rng.u16s(2 + (i + j) % 4)).collect(),
        })
        .collect();
    ReportData {
        device_id: rng.next(),
        seq: rng.next() as u32,
        timestamp: rng.next() as i64 >> 1,
        flags: rng.bools(16),
        header: HeaderData {
            version: 3,
            kind: rng.below(4) as u16,
            origin: rng.position(),
            source: SourceData::Gateway(rng.next() as u32, rng.next() as i16, rng.bytes(6)),
        },
        sensors,
        firmware: rng.bytes(192),
        routes: (0..6).map(|i| rng.u16s(3 + i)).collect(),
    }
}

/// `Node` of the mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeData {
    /// `id`.
    pub id: u32,
    /// `parent`.
    pub parent: u32,
    /// `battery`.
    pub battery: f32,
    /// `up`.
    pub up: bool,
    /// `position`.
    pub position: PositionData,
    /// `link`: peer, rssi, snr.
    pub link: (u32, i16, f32),
}

/// The mesh from `seed`: `n` nodes, each pointing at a position and a link.
pub fn mesh(n: usize, seed: u64) -> Vec<NodeData> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| NodeData {
            id: i as u32,
            parent: rng.below(i.max(1) as u64) as u32,
            battery: rng.f64(100.0) as f32,
            up: rng.next() & 7 != 0,
            position: rng.position(),
            link: (
                rng.below(n as u64) as u32,
                -(rng.below(120) as i16),
                rng.f64(30.0) as f32,
            ),
        })
        .collect()
}

/// Checksum every mesh reader returns: node count, then per node id,
/// parent, battery bits, up, position, link peer, rssi, snr bits.
pub fn mesh_checksum(nodes: &[NodeData]) -> u64 {
    nodes
        .iter()
        .fold(mix(CHECKSUM_SEED, nodes.len() as u64), |h, n| {
            let h = mix(
                mix(mix(h, u64::from(n.id)), u64::from(n.parent)),
                u64::from(n.battery.to_bits()),
            );
            let h = n.position.checksum(mix(h, u64::from(n.up)));
            mix(
                mix(mix(h, u64::from(n.link.0)), n.link.1 as u64),
                u64::from(n.link.2.to_bits()),
            )
        })
}

/// `Sample`: one message of the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleData {
    /// `deviceId`.
    pub device_id: u64,
    /// `timestamp`.
    pub timestamp: i64,
    /// `value`.
    pub value: f64,
    /// `sensor`.
    pub sensor: u16,
    /// `alarm`.
    pub alarm: bool,
    /// `position`.
    pub position: PositionData,
    /// `unit` (9 to 15 bytes: two words with its NUL).
    pub unit: &'static str,
    /// `recent` (6 values).
    pub recent: [f32; 6],
}

const UNITS: [&str; 4] = ["degC/probe", "hPa/barometer", "percent/rh", "lux/ambient-1"];

impl SampleData {
    /// Checksum of one sample: every field in schema order, `recent` as
    /// [`mix_f32s`].
    pub fn checksum(&self) -> u64 {
        let mut h = CHECKSUM_SEED;
        h = mix(h, self.device_id);
        h = mix(h, self.timestamp as u64);
        h = mix(h, self.value.to_bits());
        h = mix(h, u64::from(self.sensor));
        h = mix(h, u64::from(self.alarm));
        h = self.position.checksum(h);
        h = mix_bytes(h, self.unit.as_bytes());
        mix_f32s(h, &self.recent)
    }
}

/// `n` samples from `seed` (136 bytes each, framed).
pub fn samples(n: usize, seed: u64) -> Vec<SampleData> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| SampleData {
            device_id: rng.below(64),
            timestamp: 1_700_000_000_000 + i as i64 * 250,
            value: rng.f64(1000.0),
            sensor: rng.next() as u16,
            alarm: rng.below(50) == 0,
            position: rng.position(),
            unit: UNITS[i % UNITS.len()],
            recent: std::array::from_fn(|_| rng.f64(10.0) as f32),
        })
        .collect()
}

/// Checksum every stream reader returns: the samples' checksums folded in
/// order.
pub fn stream_checksum(samples: &[SampleData]) -> u64 {
    samples
        .iter()
        .fold(CHECKSUM_SEED, |h, s| mix(h, s.checksum()))
}
