//! The data-set suite: the four data sets of djkoloski's
//! rust_serialization_benchmark (`log`, `mesh`, `minecraft_savedata`,
//! `mk48`) on their own `.capnp` schemas (`schema/rsb/`, provenance in
//! `schema/rsb/PROVENANCE.md`), capnarena against capnp in that benchmark's
//! columns: serialize, access, read, packed serialize, packed read (and
//! access through each side's one-segment or no-alloc open).
//!
//! The data are plain Rust values made here from a seed, with the sizes and
//! shapes that benchmark uses (10,000 logs, 125,000 triangles, 500 players,
//! 1,000 updates; the same value ranges, list lengths and probabilities),
//! drawn from this crate's own generator, so the values are not that
//! benchmark's. The capnp side ([`peer`]) does what that benchmark's capnp
//! harness does (a `ScratchSpaceHeapAllocator` over 1,000,000 kept words, a
//! new `Builder` on it per iteration, `write_message` into a kept `Vec`;
//! `read_message_from_flat_slice` then one field per list element;
//! `serialize_packed::read_message`); the capnarena side ([`ours`]) is
//! written as a user would: generated code, bulk setters, one kept message.
//!
//! [`steps::step`] makes one iteration of one side of one scenario, for the
//! criterion bench (`benches/rsb.rs`), the callgrind driver and the tests.
//!
//! # Columns
//!
//! | column | what one iteration does |
//! |---|---|
//! | serialize | capnarena: `reset()` a kept `Message<SingleSegmentArena>`, build the set with the generated builders (bulk setters: `set_*_from_slice`, `set_*_from_iter`), `append_to` a kept `Vec`. capnp, as that benchmark's harness: a new `Builder` over one kept `ScratchSpaceHeapAllocator` of 1,000,000 words, setters one by one (lists element by element), `serialize::write_message` into a kept `Vec` |
//! | serialize_multi | (mesh only) the same on a kept `Message<MultiSegmentArena>` (default policy); capnp as in serialize (its scratch space overflows into heap segments for the mesh) |
//! | access | open the framed message in place and fetch the typed root: `MessageReader::from_bytes` + `get_root`; capnp `read_message_from_flat_slice` + `get_root` |
//! | read | access, then one field per element of the root's list, as that benchmark reads: each log's `address` (a struct pointer), `code` and `size`; each triangle's `normal` (a struct pointer); each player's game type; each update's score |
//! | packed_serialize | serialize, packed (`append_packed_to`; capnp `serialize_packed::write_message`) |
//! | packed_read | unpack, then the read column's loop. capnarena: `read_packed_from_bytes` into a kept message; capnp, as that benchmark: `serialize_packed::read_message` (new memory each time) |

pub mod floor;
pub mod json_steps;
pub mod ours;
pub mod peer;
pub mod steps;
pub mod write_floor;

/// Seed of every data set (each set starts its own generator from it).
pub const SEED: u64 = 0x5eed_0000_0000_0a5b;
/// Entries of the log set.
pub const LOGS: usize = 10_000;
/// Triangles of the mesh set.
pub const TRIANGLES: usize = 125_000;
/// Players of the minecraft set.
pub const PLAYERS: usize = 500;
/// Updates of the mk48 set.
pub const UPDATES: usize = 1_000;
/// Words of capnp's kept scratch space, as in that benchmark
/// (`BUFFER_LEN`): every set but the mesh (1.5 M words) fits in it.
pub const SCRATCH_WORDS: usize = 1_000_000;

/// A deterministic generator (splitmix64) with the draws the data sets use.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A value in `lo..hi` (`lo < hi`).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo) as u64) as i64
    }
    /// An index below `n`.
    pub fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// A float in `[0, 1)` with 24 random bits.
    pub fn f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u32 << 24) as f32
    }
    /// A float in `[0, 1)` with 53 random bits.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }
    /// A fair coin.
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
    /// Random bits of the width of `T`.
    pub fn bits<T: FromBits>(&mut self) -> T {
        T::from_bits(self.next_u64())
    }
}

/// A primitive made from the low bits of a random word.
pub trait FromBits {
    /// The value of the low bits of `v`.
    fn from_bits(v: u64) -> Self;
}

macro_rules! from_bits {
    ($($t:ty),*) => {$(
        impl FromBits for $t {
            fn from_bits(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}
from_bits!(u8, u16, u32, u64, i8, i16, i32, i64);

/// One entry of an HTTP server log.
#[derive(Clone, Debug, PartialEq)]
pub struct Log {
    /// IPv4 address.
    pub address: [u8; 4],
    /// Always `-`.
    pub identity: &'static str,
    /// A user name or `-`.
    pub userid: &'static str,
    /// `day/Mon/year:hh:mm:ss +zone`.
    pub date: String,
    /// `METHOD route PROTOCOL`.
    pub request: String,
    /// HTTP status code.
    pub code: u16,
    /// Response size.
    pub size: u64,
}

/// The log set: [`LOGS`] entries.
pub fn logs(seed: u64) -> Vec<Log> {
    const USERID: [&str; 9] = [
        "-", "alice", "bob", "carmen", "david", "eric", "frank", "george", "harry",
    ];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const METHODS: [&str; 5] = ["GET", "POST", "PUT", "UPDATE", "DELETE"];
    const ROUTES: [&str; 7] = [
        "/favicon.ico",
        "/css/index.css",
        "/css/font-awsome.min.css",
        "/img/logo-full.svg",
        "/img/splash.jpg",
        "/api/login",
        "/api/logout",
    ];
    const PROTOCOLS: [&str; 4] = ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3"];
    /// The registered HTTP status codes.
    const CODES: [u16; 63] = [
        100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303,
        304, 305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412,
        413, 414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501,
        502, 503, 504, 505, 506, 507, 508, 510, 511,
    ];
    let mut r = Rng::new(seed);
    (0..LOGS)
        .map(|_| {
            let zone = r.range(-12, 13);
            let date = format!(
                "{}/{}/{}:{}:{}:{} {}{:02}00",
                r.range(1, 29),
                MONTHS[r.index(12)],
                r.range(1970, 2022),
                r.range(0, 24),
                r.range(0, 60),
                r.range(0, 60),
                if zone < 0 { '-' } else { '+' },
                zone.abs(),
            );
            let request = format!(
                "{} {} {}",
                METHODS[r.index(5)],
                ROUTES[r.index(7)],
                PROTOCOLS[r.index(4)]
            );
            Log {
                address: r.bits::<u32>().to_le_bytes(),
                identity: "-",
                userid: USERID[r.index(USERID.len())],
                date,
                request,
                code: CODES[r.index(CODES.len())],
                size: r.range(0, 100_000_000) as u64,
            }
        })
        .collect()
}

/// A triangle: three vertices and a normal, each `[x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    /// `v0`, `v1`, `v2`, `normal`.
    pub v: [[f32; 3]; 4],
}

/// The mesh set: [`TRIANGLES`] triangles of floats in `[0, 1)`.
pub fn mesh(seed: u64) -> Vec<Triangle> {
    let mut r = Rng::new(seed);
    (0..TRIANGLES)
        .map(|_| Triangle {
            v: std::array::from_fn(|_| std::array::from_fn(|_| r.f32())),
        })
        .collect()
}

/// An inventory item.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Stack size.
    pub count: i8,
    /// Slot.
    pub slot: u8,
    /// Item id.
    pub id: &'static str,
}

/// A player's abilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Abilities {
    /// Walking speed.
    pub walk_speed: f32,
    /// Flying speed.
    pub fly_speed: f32,
    /// `mayFly`, `flying`, `invulnerable`, `mayBuild`, `instabuild`.
    pub flags: [bool; 5],
}

/// An entity (a mount or a shoulder pet).
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// Entity id.
    pub id: &'static str,
    /// Position.
    pub pos: [f64; 3],
    /// Motion.
    pub motion: [f64; 3],
    /// Rotation.
    pub rotation: [f32; 2],
    /// Fall distance.
    pub fall_distance: f32,
    /// Fire ticks.
    pub fire: u16,
    /// Air ticks.
    pub air: u16,
    /// `onGround`, `noGravity`, `invulnerable`.
    pub flags: [bool; 3],
    /// Portal cooldown.
    pub portal_cooldown: i32,
    /// UUID.
    pub uuid: [u32; 4],
    /// Custom name, half the time.
    pub custom_name: Option<&'static str>,
    /// `customNameVisible`, `silent`, `glowing`.
    pub flags2: [bool; 3],
}

/// A recipe book.
#[derive(Clone, Debug, PartialEq)]
pub struct RecipeBook {
    /// Up to 29 recipes.
    pub recipes: Vec<&'static str>,
    /// Up to 9 recipes.
    pub to_be_displayed: Vec<&'static str>,
    /// The eight flags in schema order.
    pub flags: [bool; 8],
}

/// One player of a minecraft save.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Game type, 0-3.
    pub game_type: u16,
    /// Previous game type, 0-3.
    pub previous_game_type: u16,
    /// Score.
    pub score: i64,
    /// Dimension.
    pub dimension: &'static str,
    /// Selected slot.
    pub selected_item_slot: u32,
    /// Selected item.
    pub selected_item: Item,
    /// Spawn dimension, half the time.
    pub spawn_dimension: Option<&'static str>,
    /// Spawn position.
    pub spawn: [i64; 3],
    /// Spawn forced, half the time.
    pub spawn_forced: Option<bool>,
    /// Sleep timer.
    pub sleep_timer: u16,
    /// Food exhaustion level.
    pub food_exhaustion_level: f32,
    /// Food saturation level.
    pub food_saturation_level: f32,
    /// Food tick timer.
    pub food_tick_timer: u32,
    /// XP level.
    pub xp_level: u32,
    /// XP progress.
    pub xp_p: f32,
    /// XP total.
    pub xp_total: i32,
    /// XP seed.
    pub xp_seed: i32,
    /// Up to 39 items.
    pub inventory: Vec<Item>,
    /// Up to 26 items.
    pub ender_items: Vec<Item>,
    /// Abilities.
    pub abilities: Abilities,
    /// Nether entry position, half the time.
    pub entered_nether_position: Option<[f64; 3]>,
    /// Mount, half the time.
    pub root_vehicle: Option<([u32; 4], Entity)>,
    /// Left shoulder pet, half the time.
    pub shoulder_entity_left: Option<Entity>,
    /// Right shoulder pet, half the time.
    pub shoulder_entity_right: Option<Entity>,
    /// Credits seen.
    pub seen_credits: bool,
    /// Recipe book.
    pub recipe_book: RecipeBook,
}

fn item(r: &mut Rng) -> Item {
    const IDS: [&str; 8] = [
        "dirt",
        "stone",
        "pickaxe",
        "sand",
        "gravel",
        "shovel",
        "chestplate",
        "steak",
    ];
    Item {
        count: r.bits(),
        slot: r.bits(),
        id: IDS[r.index(IDS.len())],
    }
}

fn entity(r: &mut Rng) -> Entity {
    const IDS: [&str; 8] = [
        "cow", "sheep", "zombie", "skeleton", "spider", "creeper", "parrot", "bee",
    ];
    const NAMES: [&str; 8] = [
        "rainbow", "princess", "steve", "johnny", "missy", "coward", "fairy", "howard",
    ];
    Entity {
        id: IDS[r.index(IDS.len())],
        pos: [r.f64(), r.f64(), r.f64()],
        motion: [r.f64(), r.f64(), r.f64()],
        rotation: [r.f32(), r.f32()],
        fall_distance: r.f32(),
        fire: r.bits(),
        air: r.bits(),
        flags: [r.bool(), r.bool(), r.bool()],
        portal_cooldown: r.bits(),
        uuid: [r.bits(), r.bits(), r.bits(), r.bits()],
        custom_name: r.bool().then(|| NAMES[r.index(NAMES.len())]),
        flags2: [r.bool(), r.bool(), r.bool()],
    }
}

/// The minecraft set: [`PLAYERS`] players.
pub fn players(seed: u64) -> Vec<Player> {
    const DIMENSIONS: [&str; 3] = ["overworld", "nether", "end"];
    const RECIPES: [&str; 8] = [
        "pickaxe",
        "torch",
        "bow",
        "crafting table",
        "furnace",
        "shears",
        "arrow",
        "tnt",
    ];
    let mut r = Rng::new(seed);
    (0..PLAYERS)
        .map(|_| {
            let r = &mut r;
            Player {
                game_type: r.index(4) as u16,
                previous_game_type: r.index(4) as u16,
                score: r.bits(),
                dimension: DIMENSIONS[r.index(3)],
                selected_item_slot: r.bits(),
                selected_item: item(r),
                spawn_dimension: r.bool().then(|| DIMENSIONS[r.index(3)]),
                spawn: [r.bits(), r.bits(), r.bits()],
                spawn_forced: r.bool().then(|| r.bool()),
                sleep_timer: r.bits(),
                food_exhaustion_level: r.f32(),
                food_saturation_level: r.f32(),
                food_tick_timer: r.bits(),
                xp_level: r.bits(),
                xp_p: r.f32(),
                xp_total: r.bits(),
                xp_seed: r.bits(),
                inventory: (0..r.index(40)).map(|_| item(r)).collect(),
                ender_items: (0..r.index(27)).map(|_| item(r)).collect(),
                abilities: Abilities {
                    walk_speed: r.f32(),
                    fly_speed: r.f32(),
                    flags: std::array::from_fn(|_| r.bool()),
                },
                entered_nether_position: r.bool().then(|| [r.f64(), r.f64(), r.f64()]),
                root_vehicle: r
                    .bool()
                    .then(|| ([r.bits(), r.bits(), r.bits(), r.bits()], entity(r))),
                shoulder_entity_left: r.bool().then(|| entity(r)),
                shoulder_entity_right: r.bool().then(|| entity(r)),
                seen_credits: r.bool(),
                recipe_book: RecipeBook {
                    recipes: (0..r.index(30)).map(|_| RECIPES[r.index(8)]).collect(),
                    to_be_displayed: (0..r.index(10)).map(|_| RECIPES[r.index(8)]).collect(),
                    flags: std::array::from_fn(|_| r.bool()),
                },
            }
        })
        .collect()
}

/// One contact of an mk48 update.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact {
    /// Damage.
    pub damage: u8,
    /// Entity id.
    pub entity_id: u32,
    /// Entity type (0-9) when visible.
    pub entity_type: Option<u16>,
    /// Guidance: angle, submerge, velocity.
    pub guidance: (u16, bool, i16),
    /// Player id when visible.
    pub player_id: Option<u16>,
    /// One bool per weapon when visible.
    pub reloads: Vec<bool>,
    /// Transform: altitude, angle, position, velocity.
    pub transform: (i8, u16, [f32; 2], i16),
    /// One angle per turret when visible.
    pub turret_angles: Vec<u16>,
}

/// One terrain update of an mk48 update.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainUpdate {
    /// Chunk id.
    pub chunk_id: (i8, i8),
    /// Terrain bytes: 3-8, or 900-1099 for a new chunk (2%).
    pub data: Vec<u8>,
}

/// One mk48 game update.
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    /// 20-39 contacts.
    pub contacts: Vec<Contact>,
    /// Score.
    pub score: u32,
    /// World radius.
    pub world_radius: f32,
    /// 3-9 terrain updates.
    pub terrain_updates: Vec<TerrainUpdate>,
}

/// Per entity type (schema order): frequency, turrets, weapons, is a sub.
const ENTITY_TYPES: [(f32, usize, usize, bool); 10] = [
    (2.14, 1, 20, false),
    (0.52, 4, 10, false),
    (0.97, 4, 16, false),
    (1.46, 4, 18, false),
    (13.16, 0, 2, false),
    (1.55, 3, 28, false),
    (0.83, 1, 15, false),
    (7.25, 2, 6, false),
    (4.06, 0, 14, true),
    (12.92, 3, 11, false),
];

fn entity_type(r: &mut Rng) -> usize {
    let total: f32 = ENTITY_TYPES.iter().map(|e| e.0).sum();
    let mut x = r.f32() * total;
    for (i, e) in ENTITY_TYPES.iter().enumerate() {
        if x < e.0 {
            return i;
        }
        x -= e.0;
    }
    ENTITY_TYPES.len() - 1
}

fn velocity(r: &mut Rng) -> i16 {
    match r.index(100) {
        0..=79 => r.range(140, 900) as i16,
        80..=89 => 0,
        _ => r.range(-900 / 4, -140 / 4) as i16,
    }
}

fn contact(r: &mut Rng, player_count: u16) -> Contact {
    let t = entity_type(r);
    let (_, turrets, weapons, sub) = ENTITY_TYPES[t];
    let visible = r.chance(0.7);
    let damage = if visible && r.chance(0.6) {
        0
    } else {
        r.range(0, 200) as u8
    };
    let entity_id = r.range(0, i64::from(player_count) * 20) as u32;
    let guidance = (r.bits(), sub && r.chance(0.9), velocity(r));
    let player_id = visible.then(|| r.range(0, i64::from(player_count)) as u16);
    let reloads = if visible {
        let p = r.f64();
        (0..weapons).map(|_| r.chance(p)).collect()
    } else {
        Vec::new()
    };
    let altitude = if sub && r.chance(0.9) {
        r.range(-120, -35) as i8
    } else {
        0
    };
    let transform = (
        altitude,
        r.bits(),
        [r.f32() * 1500.0 - 750.0, r.f32() * 1500.0 - 750.0],
        velocity(r),
    );
    let turret_angles = if visible {
        let base: u16 = r.bits();
        (0..turrets)
            .map(|_| {
                if r.chance(0.75) {
                    (base as i16).wrapping_add(r.range(-200, 200) as i16) as u16
                } else {
                    r.bits()
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    Contact {
        damage,
        entity_id,
        entity_type: visible.then_some(t as u16),
        guidance,
        player_id,
        reloads,
        transform,
        turret_angles,
    }
}

/// The mk48 set: [`UPDATES`] updates.
pub fn updates(seed: u64) -> Vec<Update> {
    let mut r = Rng::new(seed);
    (0..UPDATES)
        .map(|_| {
            let r = &mut r;
            let player_count = r.range(200, 400) as u16;
            let world_radius = (f32::from(player_count) * 15000.0).sqrt() + r.f32() * 100.0 - 50.0;
            let radius = (world_radius / 1600.0).ceil() as i64;
            let contacts = (0..r.range(20, 40))
                .map(|_| contact(r, player_count))
                .collect();
            let f = r.f32();
            let score = (f.powi(4) * 5000.0) as u32 + r.range(0, 50) as u32;
            let terrain_updates = (0..r.range(3, 10))
                .map(|_| {
                    let chunk_id = (
                        r.range(-radius, radius) as i8,
                        r.range(-radius, radius) as i8,
                    );
                    let len = if r.chance(0.02) {
                        r.range(900, 1100)
                    } else {
                        r.range(3, 9)
                    };
                    TerrainUpdate {
                        chunk_id,
                        data: (0..len).map(|_| r.bits()).collect(),
                    }
                })
                .collect();
            Update {
                contacts,
                score,
                world_radius,
                terrain_updates,
            }
        })
        .collect()
}

/// What the *read* column's loop reads from each element, in order, as
/// that benchmark's loop black-boxes it: a log entry's `code` and `size`
/// (its `address` reader is only fetched), nothing from a triangle (its
/// `normal` reader is only fetched), a player's game type, an update's
/// score. Computed from the input, for the tests.
pub fn expected_seen(set: &str, seed: u64) -> Vec<u64> {
    match set {
        "log" => logs(seed)
            .iter()
            .flat_map(|l| [u64::from(l.code), l.size])
            .collect(),
        "mesh" => Vec::new(),
        "minecraft_savedata" => players(seed)
            .iter()
            .map(|p| u64::from(p.game_type))
            .collect(),
        "mk48" => updates(seed).iter().map(|u| u64::from(u.score)).collect(),
        _ => panic!("unknown data set {set}"),
    }
}

/// What the read columns do with each field they read, as that benchmark
/// does: hand it to `black_box`.
#[inline(always)]
pub fn black_boxed(v: u64) {
    std::hint::black_box(v);
}

/// The elements of the root's list in `set`: what the read columns return.
pub fn elements(set: &str, seed: u64) -> u64 {
    let n = match set {
        "log" => logs(seed).len(),
        "mesh" => mesh(seed).len(),
        "minecraft_savedata" => players(seed).len(),
        "mk48" => updates(seed).len(),
        _ => panic!("unknown data set {set}"),
    };
    n as u64
}
