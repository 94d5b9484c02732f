//! rkyv's side of the data-set suite: the four sets as plain Rust types with
//! rkyv's derives (written here, mirroring the `.capnp` schemas field for
//! field, as that benchmark's rkyv rows mirror them), made from the same
//! seeded generators as the capnarena and capnp rows.
//!
//! Columns: `serialize` (the set into a kept `AlignedVec`), `access` and
//! `read` validated (`rkyv::access`, which checks the whole archive before
//! handing out the root), and `access_unchecked` / `read_unchecked`
//! (`rkyv::access_unchecked`, no check at all: what flatbuffers' and rkyv's
//! fastest published rows do, and what no safe Cap'n Proto reader does).

use std::hint::black_box;

use capnarena_peers::rsb::{self, black_boxed};
use rkyv::rancor::Error;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Serialize};

/// `Address` (four bytes).
#[derive(Archive, Serialize)]
pub struct Address {
    x0: u8,
    x1: u8,
    x2: u8,
    x3: u8,
}

/// `Log`.
#[derive(Archive, Serialize)]
pub struct Log {
    address: Address,
    identity: String,
    userid: String,
    date: String,
    request: String,
    code: u16,
    size: u64,
}

/// `Logs`.
#[derive(Archive, Serialize)]
pub struct Logs {
    logs: Vec<Log>,
}

/// `Vector3`.
#[derive(Archive, Serialize)]
pub struct Vector3 {
    x: f32,
    y: f32,
    z: f32,
}

/// `Triangle`.
#[derive(Archive, Serialize)]
pub struct Triangle {
    v0: Vector3,
    v1: Vector3,
    v2: Vector3,
    normal: Vector3,
}

/// `Mesh`.
#[derive(Archive, Serialize)]
pub struct Mesh {
    triangles: Vec<Triangle>,
}

/// `GameType`.
#[derive(Archive, Serialize, Clone, Copy)]
pub enum GameType {
    Survival,
    Creative,
    Adventure,
    Spectator,
}

/// `Item`.
#[derive(Archive, Serialize)]
pub struct Item {
    count: i8,
    slot: u8,
    id: String,
}

/// `Abilities`.
#[derive(Archive, Serialize)]
pub struct Abilities {
    walk_speed: f32,
    fly_speed: f32,
    may_fly: bool,
    flying: bool,
    invulnerable: bool,
    may_build: bool,
    instabuild: bool,
}

/// `Entity`.
#[derive(Archive, Serialize)]
pub struct Entity {
    id: String,
    pos: [f64; 3],
    motion: [f64; 3],
    rotation: [f32; 2],
    fall_distance: f32,
    fire: u16,
    air: u16,
    on_ground: bool,
    no_gravity: bool,
    invulnerable: bool,
    portal_cooldown: i32,
    uuid: [u32; 4],
    custom_name: Option<String>,
    custom_name_visible: bool,
    silent: bool,
    glowing: bool,
}

/// `RecipeBook`.
#[derive(Archive, Serialize)]
pub struct RecipeBook {
    recipes: Vec<String>,
    to_be_displayed: Vec<String>,
    flags: [bool; 8],
}

/// `Vehicle`: the mount's UUID and the mount.
#[derive(Archive, Serialize)]
pub struct Vehicle {
    uuid: [u32; 4],
    entity: Entity,
}

/// `Player`.
#[derive(Archive, Serialize)]
pub struct Player {
    game_type: GameType,
    previous_game_type: GameType,
    score: i64,
    dimension: String,
    selected_item_slot: u32,
    selected_item: Item,
    spawn_dimension: Option<String>,
    spawn: [i64; 3],
    spawn_forced: Option<bool>,
    sleep_timer: u16,
    food_exhaustion_level: f32,
    food_saturation_level: f32,
    food_tick_timer: u32,
    xp_level: u32,
    xp_p: f32,
    xp_total: i32,
    xp_seed: i32,
    inventory: Vec<Item>,
    ender_items: Vec<Item>,
    abilities: Abilities,
    entered_nether_position: Option<[f64; 3]>,
    root_vehicle: Option<Vehicle>,
    shoulder_entity_left: Option<Entity>,
    shoulder_entity_right: Option<Entity>,
    seen_credits: bool,
    recipe_book: RecipeBook,
}

/// `Players`.
#[derive(Archive, Serialize)]
pub struct Players {
    players: Vec<Player>,
}

/// `Contact`.
#[derive(Archive, Serialize)]
pub struct Contact {
    damage: u8,
    entity_id: u32,
    entity_type: Option<u16>,
    guidance: (u16, bool, i16),
    player_id: Option<u16>,
    reloads: Vec<bool>,
    transform: (i8, u16, [f32; 2], i16),
    turret_angles: Vec<u16>,
}

/// `TerrainUpdate`.
#[derive(Archive, Serialize)]
pub struct TerrainUpdate {
    chunk_id: (i8, i8),
    data: Vec<u8>,
}

/// `Update`.
#[derive(Archive, Serialize)]
pub struct Update {
    contacts: Vec<Contact>,
    score: u32,
    world_radius: f32,
    terrain_updates: Vec<TerrainUpdate>,
}

/// `Updates`.
#[derive(Archive, Serialize)]
pub struct Updates {
    updates: Vec<Update>,
}

fn vector(v: [f32; 3]) -> Vector3 {
    Vector3 {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

fn game_type(g: u16) -> GameType {
    [
        GameType::Survival,
        GameType::Creative,
        GameType::Adventure,
        GameType::Spectator,
    ][usize::from(g)]
}

fn item(i: &rsb::Item) -> Item {
    Item {
        count: i.count,
        slot: i.slot,
        id: i.id.to_owned(),
    }
}

fn entity(e: &rsb::Entity) -> Entity {
    Entity {
        id: e.id.to_owned(),
        pos: e.pos,
        motion: e.motion,
        rotation: e.rotation,
        fall_distance: e.fall_distance,
        fire: e.fire,
        air: e.air,
        on_ground: e.flags[0],
        no_gravity: e.flags[1],
        invulnerable: e.flags[2],
        portal_cooldown: e.portal_cooldown,
        uuid: e.uuid,
        custom_name: e.custom_name.map(str::to_owned),
        custom_name_visible: e.flags2[0],
        silent: e.flags2[1],
        glowing: e.flags2[2],
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// The log set from the suite's generator.
pub fn logs() -> Logs {
    Logs {
        logs: rsb::logs(rsb::SEED)
            .into_iter()
            .map(|l| Log {
                address: Address {
                    x0: l.address[0],
                    x1: l.address[1],
                    x2: l.address[2],
                    x3: l.address[3],
                },
                identity: l.identity.to_owned(),
                userid: l.userid.to_owned(),
                date: l.date,
                request: l.request,
                code: l.code,
                size: l.size,
            })
            .collect(),
    }
}

/// The mesh set from the suite's generator.
pub fn mesh() -> Mesh {
    Mesh {
        triangles: rsb::mesh(rsb::SEED)
            .into_iter()
            .map(|t| Triangle {
                v0: vector(t.v[0]),
                v1: vector(t.v[1]),
                v2: vector(t.v[2]),
                normal: vector(t.v[3]),
            })
            .collect(),
    }
}

/// The minecraft set from the suite's generator.
pub fn players() -> Players {
    Players {
        players: rsb::players(rsb::SEED)
            .iter()
            .map(|p| Player {
                game_type: game_type(p.game_type),
                previous_game_type: game_type(p.previous_game_type),
                score: p.score,
                dimension: p.dimension.to_owned(),
                selected_item_slot: p.selected_item_slot,
                selected_item: item(&p.selected_item),
                spawn_dimension: p.spawn_dimension.map(str::to_owned),
                spawn: p.spawn,
                spawn_forced: p.spawn_forced,
                sleep_timer: p.sleep_timer,
                food_exhaustion_level: p.food_exhaustion_level,
                food_saturation_level: p.food_saturation_level,
                food_tick_timer: p.food_tick_timer,
                xp_level: p.xp_level,
                xp_p: p.xp_p,
                xp_total: p.xp_total,
                xp_seed: p.xp_seed,
                inventory: p.inventory.iter().map(item).collect(),
                ender_items: p.ender_items.iter().map(item).collect(),
                abilities: Abilities {
                    walk_speed: p.abilities.walk_speed,
                    fly_speed: p.abilities.fly_speed,
                    may_fly: p.abilities.flags[0],
                    flying: p.abilities.flags[1],
                    invulnerable: p.abilities.flags[2],
                    may_build: p.abilities.flags[3],
                    instabuild: p.abilities.flags[4],
                },
                entered_nether_position: p.entered_nether_position,
                root_vehicle: p.root_vehicle.as_ref().map(|(uuid, e)| Vehicle {
                    uuid: *uuid,
                    entity: entity(e),
                }),
                shoulder_entity_left: p.shoulder_entity_left.as_ref().map(entity),
                shoulder_entity_right: p.shoulder_entity_right.as_ref().map(entity),
                seen_credits: p.seen_credits,
                recipe_book: RecipeBook {
                    recipes: strings(&p.recipe_book.recipes),
                    to_be_displayed: strings(&p.recipe_book.to_be_displayed),
                    flags: p.recipe_book.flags,
                },
            })
            .collect(),
    }
}

/// The mk48 set from the suite's generator.
pub fn updates() -> Updates {
    Updates {
        updates: rsb::updates(rsb::SEED)
            .into_iter()
            .map(|u| Update {
                contacts: u
                    .contacts
                    .into_iter()
                    .map(|c| Contact {
                        damage: c.damage,
                        entity_id: c.entity_id,
                        entity_type: c.entity_type,
                        guidance: c.guidance,
                        player_id: c.player_id,
                        reloads: c.reloads,
                        transform: c.transform,
                        turret_angles: c.turret_angles,
                    })
                    .collect(),
                score: u.score,
                world_radius: u.world_radius,
                terrain_updates: u
                    .terrain_updates
                    .into_iter()
                    .map(|t| TerrainUpdate {
                        chunk_id: t.chunk_id,
                        data: t.data,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The read column's loop over an archived set: the same fields as the
/// capnarena and capnp rows, handed to `seen` the same way; the element
/// count.
pub trait ReadLoop {
    /// Each element's field(s) to `seen`.
    fn read_loop(&self, seen: impl FnMut(u64)) -> u64;
}

impl ReadLoop for ArchivedLogs {
    fn read_loop(&self, mut seen: impl FnMut(u64)) -> u64 {
        for l in self.logs.iter() {
            black_box(&l.address);
            seen(u64::from(l.code.to_native()));
            seen(l.size.to_native());
        }
        self.logs.len() as u64
    }
}

impl ReadLoop for ArchivedMesh {
    fn read_loop(&self, _seen: impl FnMut(u64)) -> u64 {
        for t in self.triangles.iter() {
            black_box(&t.normal);
        }
        self.triangles.len() as u64
    }
}

impl ReadLoop for ArchivedPlayers {
    fn read_loop(&self, mut seen: impl FnMut(u64)) -> u64 {
        for p in self.players.iter() {
            seen(match p.game_type {
                ArchivedGameType::Survival => 0,
                ArchivedGameType::Creative => 1,
                ArchivedGameType::Adventure => 2,
                ArchivedGameType::Spectator => 3,
            });
        }
        self.players.len() as u64
    }
}

impl ReadLoop for ArchivedUpdates {
    fn read_loop(&self, mut seen: impl FnMut(u64)) -> u64 {
        for u in self.updates.iter() {
            seen(u64::from(u.score.to_native()));
        }
        self.updates.len() as u64
    }
}

/// One iteration of one rkyv row.
pub type Step = Box<dyn FnMut() -> u64>;

/// The rkyv rows of `set`'s `column`, labelled; empty where rkyv has no
/// counterpart (the packed columns, the multi-segment serialize).
pub fn rows(set: &str, column: &str) -> Vec<(&'static str, Step)> {
    match set {
        "log" => rows_of::<Logs>(logs(), set, column),
        "mesh" => rows_of::<Mesh>(mesh(), set, column),
        "minecraft_savedata" => rows_of::<Players>(players(), set, column),
        "mk48" => rows_of::<Updates>(updates(), set, column),
        _ => Vec::new(),
    }
}

fn rows_of<T>(value: T, set: &str, column: &str) -> Vec<(&'static str, Step)>
where
    T: 'static
        + for<'a> Serialize<
            rkyv::api::high::HighSerializer<
                AlignedVec,
                rkyv::ser::allocator::ArenaHandle<'a>,
                Error,
            >,
        >,
    T: Archive,
    T::Archived: ReadLoop
        + rkyv::Portable
        + for<'a> rkyv::bytecheck::CheckBytes<rkyv::api::high::HighValidator<'a, Error>>,
{
    let bytes = rkyv::to_bytes::<Error>(&value).expect("the set serializes");
    let mut seen = Vec::new();
    let n = rkyv::access::<T::Archived, Error>(&bytes)
        .expect("the set validates")
        .read_loop(|v| seen.push(v));
    assert_eq!(n, rsb::elements(set, rsb::SEED), "rkyv's element count");
    assert!(
        seen == rsb::expected_seen(set, rsb::SEED),
        "rkyv's read loop reads the generator's values"
    );
    match column {
        "serialize" => {
            let mut out = Some(AlignedVec::<16>::new());
            vec![(
                "rkyv",
                Box::new(move || {
                    let mut v = out.take().expect("the kept buffer is back");
                    v.clear();
                    let v = rkyv::api::high::to_bytes_in::<_, Error>(&value, v)
                        .expect("the set serializes");
                    let n = v.len() as u64;
                    out = Some(v);
                    n
                }) as Step,
            )]
        }
        "access" | "read" => {
            let read = column == "read";
            let checked = bytes.clone();
            let unchecked = bytes;
            vec![
                (
                    "rkyv_validated",
                    Box::new(move || {
                        let root = rkyv::access::<T::Archived, Error>(&checked)
                            .expect("the set validates");
                        if read {
                            root.read_loop(black_boxed)
                        } else {
                            black_box(root);
                            1
                        }
                    }) as Step,
                ),
                (
                    "rkyv_unchecked",
                    Box::new(move || {
                        // SAFETY: `unchecked` holds the bytes `rkyv::to_bytes`
                        // wrote for a `T` above, in rkyv's aligned buffer, and
                        // `rkyv::access` validated them as a `T::Archived`
                        // before this closure was made; they are owned by the
                        // closure and never changed.
                        let root = unsafe { rkyv::access_unchecked::<T::Archived>(&unchecked) };
                        if read {
                            root.read_loop(black_boxed)
                        } else {
                            black_box(root);
                            1
                        }
                    }),
                ),
            ]
        }
        _ => Vec::new(),
    }
}
