//! The prost side of the owned-value columns: the four data sets as
//! protobuf messages, written by hand with `#[derive(prost::Message)]` (no
//! protoc) after the `.proto` shapes of rust_serialization_benchmark
//! (field kinds and numbers: a sub-message is an `Option`, an optional
//! scalar or text an `Option`, a capnp union of `none`/`some` an optional
//! field, enums `int32`-coded enumerations), filled from the same seeded
//! generators as the capnarena side (`prost_*` below).
//!
//! Shared by `benches/rsb_owned.rs` and `tests/rsb_owned.rs` with
//! `#[path]`: prost is a dev-dependency, so the library cannot hold it.

#![allow(missing_docs, dead_code)]

use capnarena_peers::rsb;

/// `log.proto`.
pub mod log {
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Address {
        #[prost(uint32, tag = "1")]
        pub x0: u32,
        #[prost(uint32, tag = "2")]
        pub x1: u32,
        #[prost(uint32, tag = "3")]
        pub x2: u32,
        #[prost(uint32, tag = "4")]
        pub x3: u32,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Log {
        #[prost(message, optional, tag = "1")]
        pub address: Option<Address>,
        #[prost(string, tag = "2")]
        pub identity: String,
        #[prost(string, tag = "3")]
        pub userid: String,
        #[prost(string, tag = "4")]
        pub date: String,
        #[prost(string, tag = "5")]
        pub request: String,
        #[prost(uint32, tag = "6")]
        pub code: u32,
        #[prost(uint64, tag = "7")]
        pub size: u64,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Logs {
        #[prost(message, repeated, tag = "1")]
        pub logs: Vec<Log>,
    }
}

/// `mesh.proto`.
pub mod mesh {
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Vector3 {
        #[prost(float, tag = "1")]
        pub x: f32,
        #[prost(float, tag = "2")]
        pub y: f32,
        #[prost(float, tag = "3")]
        pub z: f32,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Triangle {
        #[prost(message, optional, tag = "1")]
        pub v0: Option<Vector3>,
        #[prost(message, optional, tag = "2")]
        pub v1: Option<Vector3>,
        #[prost(message, optional, tag = "3")]
        pub v2: Option<Vector3>,
        #[prost(message, optional, tag = "4")]
        pub normal: Option<Vector3>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Mesh {
        #[prost(message, repeated, tag = "1")]
        pub triangles: Vec<Triangle>,
    }
}

/// `minecraft_savedata.proto`.
pub mod minecraft {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum GameType {
        Survival = 0,
        Creative = 1,
        Adventure = 2,
        Spectator = 3,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Item {
        #[prost(int32, tag = "1")]
        pub count: i32,
        #[prost(uint32, tag = "2")]
        pub slot: u32,
        #[prost(string, tag = "3")]
        pub id: String,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Abilities {
        #[prost(float, tag = "1")]
        pub walk_speed: f32,
        #[prost(float, tag = "2")]
        pub fly_speed: f32,
        #[prost(bool, tag = "3")]
        pub may_fly: bool,
        #[prost(bool, tag = "4")]
        pub flying: bool,
        #[prost(bool, tag = "5")]
        pub invulnerable: bool,
        #[prost(bool, tag = "6")]
        pub may_build: bool,
        #[prost(bool, tag = "7")]
        pub instabuild: bool,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Vector3d {
        #[prost(double, tag = "1")]
        pub x: f64,
        #[prost(double, tag = "2")]
        pub y: f64,
        #[prost(double, tag = "3")]
        pub z: f64,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Vector2f {
        #[prost(float, tag = "1")]
        pub x: f32,
        #[prost(float, tag = "2")]
        pub y: f32,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Uuid {
        #[prost(uint32, tag = "1")]
        pub x0: u32,
        #[prost(uint32, tag = "2")]
        pub x1: u32,
        #[prost(uint32, tag = "3")]
        pub x2: u32,
        #[prost(uint32, tag = "4")]
        pub x3: u32,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Entity {
        #[prost(string, tag = "1")]
        pub id: String,
        #[prost(message, optional, tag = "2")]
        pub pos: Option<Vector3d>,
        #[prost(message, optional, tag = "3")]
        pub motion: Option<Vector3d>,
        #[prost(message, optional, tag = "4")]
        pub rotation: Option<Vector2f>,
        #[prost(float, tag = "5")]
        pub fall_distance: f32,
        #[prost(uint32, tag = "6")]
        pub fire: u32,
        #[prost(uint32, tag = "7")]
        pub air: u32,
        #[prost(bool, tag = "8")]
        pub on_ground: bool,
        #[prost(bool, tag = "9")]
        pub no_gravity: bool,
        #[prost(bool, tag = "10")]
        pub invulnerable: bool,
        #[prost(int32, tag = "11")]
        pub portal_cooldown: i32,
        #[prost(message, optional, tag = "12")]
        pub uuid: Option<Uuid>,
        #[prost(string, optional, tag = "13")]
        pub custom_name: Option<String>,
        #[prost(bool, tag = "14")]
        pub custom_name_visible: bool,
        #[prost(bool, tag = "15")]
        pub silent: bool,
        #[prost(bool, tag = "16")]
        pub glowing: bool,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct RecipeBook {
        #[prost(string, repeated, tag = "1")]
        pub recipes: Vec<String>,
        #[prost(string, repeated, tag = "2")]
        pub to_be_displayed: Vec<String>,
        #[prost(bool, tag = "3")]
        pub is_filtering_craftable: bool,
        #[prost(bool, tag = "4")]
        pub is_gui_open: bool,
        #[prost(bool, tag = "5")]
        pub is_furnace_filtering_craftable: bool,
        #[prost(bool, tag = "6")]
        pub is_furnace_gui_open: bool,
        #[prost(bool, tag = "7")]
        pub is_blasting_furnace_filtering_craftable: bool,
        #[prost(bool, tag = "8")]
        pub is_blasting_furnace_gui_open: bool,
        #[prost(bool, tag = "9")]
        pub is_smoker_filtering_craftable: bool,
        #[prost(bool, tag = "10")]
        pub is_smoker_gui_open: bool,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Vehicle {
        #[prost(message, optional, tag = "1")]
        pub uuid: Option<Uuid>,
        #[prost(message, optional, tag = "2")]
        pub entity: Option<Entity>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Player {
        #[prost(enumeration = "GameType", tag = "1")]
        pub game_type: i32,
        #[prost(enumeration = "GameType", tag = "2")]
        pub previous_game_type: i32,
        #[prost(int64, tag = "3")]
        pub score: i64,
        #[prost(string, tag = "4")]
        pub dimension: String,
        #[prost(uint32, tag = "5")]
        pub selected_item_slot: u32,
        #[prost(message, optional, tag = "6")]
        pub selected_item: Option<Item>,
        #[prost(string, optional, tag = "7")]
        pub spawn_dimension: Option<String>,
        #[prost(int64, tag = "8")]
        pub spawn_x: i64,
        #[prost(int64, tag = "9")]
        pub spawn_y: i64,
        #[prost(int64, tag = "10")]
        pub spawn_z: i64,
        #[prost(bool, optional, tag = "11")]
        pub spawn_forced: Option<bool>,
        #[prost(uint32, tag = "12")]
        pub sleep_timer: u32,
        #[prost(float, tag = "13")]
        pub food_exhaustion_level: f32,
        #[prost(float, tag = "14")]
        pub food_saturation_level: f32,
        #[prost(uint32, tag = "15")]
        pub food_tick_timer: u32,
        #[prost(uint32, tag = "16")]
        pub xp_level: u32,
        #[prost(float, tag = "17")]
        pub xp_p: f32,
        #[prost(int32, tag = "18")]
        pub xp_total: i32,
        #[prost(int32, tag = "19")]
        pub xp_seed: i32,
        #[prost(message, repeated, tag = "20")]
        pub inventory: Vec<Item>,
        #[prost(message, repeated, tag = "21")]
        pub ender_items: Vec<Item>,
        #[prost(message, optional, tag = "22")]
        pub abilities: Option<Abilities>,
        #[prost(message, optional, tag = "23")]
        pub entered_nether_position: Option<Vector3d>,
        #[prost(message, optional, tag = "24")]
        pub root_vehicle: Option<Vehicle>,
        #[prost(message, optional, tag = "25")]
        pub shoulder_entity_left: Option<Entity>,
        #[prost(message, optional, tag = "26")]
        pub shoulder_entity_right: Option<Entity>,
        #[prost(bool, tag = "27")]
        pub seen_credits: bool,
        #[prost(message, optional, tag = "28")]
        pub recipe_book: Option<RecipeBook>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Players {
        #[prost(message, repeated, tag = "1")]
        pub players: Vec<Player>,
    }
}

/// `mk48.proto`.
pub mod mk48 {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum EntityType {
        ArleighBurke = 0,
        Bismarck = 1,
        Clemenceau = 2,
        Fletcher = 3,
        G5 = 4,
        Iowa = 5,
        Kolkata = 6,
        Osa = 7,
        Yasen = 8,
        Zubr = 9,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Vector2f {
        #[prost(float, tag = "1")]
        pub x: f32,
        #[prost(float, tag = "2")]
        pub y: f32,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Transform {
        #[prost(int32, tag = "1")]
        pub altitude: i32,
        #[prost(uint32, tag = "2")]
        pub angle: u32,
        #[prost(message, optional, tag = "3")]
        pub position: Option<Vector2f>,
        #[prost(int32, tag = "4")]
        pub velocity: i32,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Guidance {
        #[prost(uint32, tag = "1")]
        pub angle: u32,
        #[prost(bool, tag = "2")]
        pub submerge: bool,
        #[prost(int32, tag = "3")]
        pub velocity: i32,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Contact {
        #[prost(uint32, tag = "1")]
        pub damage: u32,
        #[prost(uint32, tag = "2")]
        pub entity_id: u32,
        #[prost(enumeration = "EntityType", optional, tag = "3")]
        pub entity_type: Option<i32>,
        #[prost(message, optional, tag = "4")]
        pub guidance: Option<Guidance>,
        #[prost(uint32, optional, tag = "5")]
        pub player_id: Option<u32>,
        #[prost(bool, repeated, tag = "6")]
        pub reloads: Vec<bool>,
        #[prost(message, optional, tag = "7")]
        pub transform: Option<Transform>,
        #[prost(uint32, repeated, tag = "8")]
        pub turret_angles: Vec<u32>,
    }
    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct ChunkId {
        #[prost(int32, tag = "1")]
        pub x: i32,
        #[prost(int32, tag = "2")]
        pub y: i32,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct TerrainUpdate {
        #[prost(message, optional, tag = "1")]
        pub chunk_id: Option<ChunkId>,
        #[prost(bytes = "vec", tag = "2")]
        pub data: Vec<u8>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Update {
        #[prost(message, repeated, tag = "1")]
        pub contacts: Vec<Contact>,
        #[prost(uint32, tag = "2")]
        pub score: u32,
        #[prost(float, tag = "3")]
        pub world_radius: f32,
        #[prost(message, repeated, tag = "4")]
        pub terrain_updates: Vec<TerrainUpdate>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Updates {
        #[prost(message, repeated, tag = "1")]
        pub updates: Vec<Update>,
    }
}

/// The log set as a prost message.
pub fn prost_logs(d: &[rsb::Log]) -> log::Logs {
    log::Logs {
        logs: d
            .iter()
            .map(|l| log::Log {
                address: Some(log::Address {
                    x0: l.address[0].into(),
                    x1: l.address[1].into(),
                    x2: l.address[2].into(),
                    x3: l.address[3].into(),
                }),
                identity: l.identity.into(),
                userid: l.userid.into(),
                date: l.date.clone(),
                request: l.request.clone(),
                code: l.code.into(),
                size: l.size,
            })
            .collect(),
    }
}

/// The mesh set as a prost message.
pub fn prost_mesh(d: &[rsb::Triangle]) -> mesh::Mesh {
    let v = |a: [f32; 3]| {
        Some(mesh::Vector3 {
            x: a[0],
            y: a[1],
            z: a[2],
        })
    };
    mesh::Mesh {
        triangles: d
            .iter()
            .map(|t| mesh::Triangle {
                v0: v(t.v[0]),
                v1: v(t.v[1]),
                v2: v(t.v[2]),
                normal: v(t.v[3]),
            })
            .collect(),
    }
}

fn prost_item(i: &rsb::Item) -> minecraft::Item {
    minecraft::Item {
        count: i.count.into(),
        slot: i.slot.into(),
        id: i.id.into(),
    }
}

fn prost_uuid(u: [u32; 4]) -> Option<minecraft::Uuid> {
    Some(minecraft::Uuid {
        x0: u[0],
        x1: u[1],
        x2: u[2],
        x3: u[3],
    })
}

fn prost_v3d(p: [f64; 3]) -> minecraft::Vector3d {
    minecraft::Vector3d {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

fn prost_entity(e: &rsb::Entity) -> minecraft::Entity {
    minecraft::Entity {
        id: e.id.into(),
        pos: Some(prost_v3d(e.pos)),
        motion: Some(prost_v3d(e.motion)),
        rotation: Some(minecraft::Vector2f {
            x: e.rotation[0],
            y: e.rotation[1],
        }),
        fall_distance: e.fall_distance,
        fire: e.fire.into(),
        air: e.air.into(),
        on_ground: e.flags[0],
        no_gravity: e.flags[1],
        invulnerable: e.flags[2],
        portal_cooldown: e.portal_cooldown,
        uuid: prost_uuid(e.uuid),
        custom_name: e.custom_name.map(String::from),
        custom_name_visible: e.flags2[0],
        silent: e.flags2[1],
        glowing: e.flags2[2],
    }
}

/// The minecraft set as a prost message.
pub fn prost_players(d: &[rsb::Player]) -> minecraft::Players {
    let texts = |v: &[&str]| v.iter().map(|s| String::from(*s)).collect();
    minecraft::Players {
        players: d
            .iter()
            .map(|p| minecraft::Player {
                game_type: p.game_type.into(),
                previous_game_type: p.previous_game_type.into(),
                score: p.score,
                dimension: p.dimension.into(),
                selected_item_slot: p.selected_item_slot,
                selected_item: Some(prost_item(&p.selected_item)),
                spawn_dimension: p.spawn_dimension.map(String::from),
                spawn_x: p.spawn[0],
                spawn_y: p.spawn[1],
                spawn_z: p.spawn[2],
                spawn_forced: p.spawn_forced,
                sleep_timer: p.sleep_timer.into(),
                food_exhaustion_level: p.food_exhaustion_level,
                food_saturation_level: p.food_saturation_level,
                food_tick_timer: p.food_tick_timer,
                xp_level: p.xp_level,
                xp_p: p.xp_p,
                xp_total: p.xp_total,
                xp_seed: p.xp_seed,
                inventory: p.inventory.iter().map(prost_item).collect(),
                ender_items: p.ender_items.iter().map(prost_item).collect(),
                abilities: Some(minecraft::Abilities {
                    walk_speed: p.abilities.walk_speed,
                    fly_speed: p.abilities.fly_speed,
                    may_fly: p.abilities.flags[0],
                    flying: p.abilities.flags[1],
                    invulnerable: p.abilities.flags[2],
                    may_build: p.abilities.flags[3],
                    instabuild: p.abilities.flags[4],
                }),
                entered_nether_position: p.entered_nether_position.map(prost_v3d),
                root_vehicle: p.root_vehicle.as_ref().map(|(u, e)| minecraft::Vehicle {
                    uuid: prost_uuid(*u),
                    entity: Some(prost_entity(e)),
                }),
                shoulder_entity_left: p.shoulder_entity_left.as_ref().map(prost_entity),
                shoulder_entity_right: p.shoulder_entity_right.as_ref().map(prost_entity),
                seen_credits: p.seen_credits,
                recipe_book: Some(minecraft::RecipeBook {
                    recipes: texts(&p.recipe_book.recipes),
                    to_be_displayed: texts(&p.recipe_book.to_be_displayed),
                    is_filtering_craftable: p.recipe_book.flags[0],
                    is_gui_open: p.recipe_book.flags[1],
                    is_furnace_filtering_craftable: p.recipe_book.flags[2],
                    is_furnace_gui_open: p.recipe_book.flags[3],
                    is_blasting_furnace_filtering_craftable: p.recipe_book.flags[4],
                    is_blasting_furnace_gui_open: p.recipe_book.flags[5],
                    is_smoker_filtering_craftable: p.recipe_book.flags[6],
                    is_smoker_gui_open: p.recipe_book.flags[7],
                }),
            })
            .collect(),
    }
}

/// The mk48 set as a prost message.
pub fn prost_updates(d: &[rsb::Update]) -> mk48::Updates {
    mk48::Updates {
        updates: d
            .iter()
            .map(|u| mk48::Update {
                contacts: u
                    .contacts
                    .iter()
                    .map(|c| mk48::Contact {
                        damage: c.damage.into(),
                        entity_id: c.entity_id,
                        entity_type: c.entity_type.map(i32::from),
                        guidance: Some(mk48::Guidance {
                            angle: c.guidance.0.into(),
                            submerge: c.guidance.1,
                            velocity: c.guidance.2.into(),
                        }),
                        player_id: c.player_id.map(u32::from),
                        reloads: c.reloads.clone(),
                        transform: Some(mk48::Transform {
                            altitude: c.transform.0.into(),
                            angle: c.transform.1.into(),
                            position: Some(mk48::Vector2f {
                                x: c.transform.2[0],
                                y: c.transform.2[1],
                            }),
                            velocity: c.transform.3.into(),
                        }),
                        turret_angles: c.turret_angles.iter().map(|&a| a.into()).collect(),
                    })
                    .collect(),
                score: u.score,
                world_radius: u.world_radius,
                terrain_updates: u
                    .terrain_updates
                    .iter()
                    .map(|t| mk48::TerrainUpdate {
                        chunk_id: Some(mk48::ChunkId {
                            x: t.chunk_id.0.into(),
                            y: t.chunk_id.1.into(),
                        }),
                        data: t.data.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The operations of the owned-value columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Bytes to an owned value: capnarena's framed message read in place
    /// and converted with `Value::try_from(root)`; prost's `decode`.
    Decode,
    /// Bytes to a value borrowing its text and data from the bytes:
    /// capnarena's `ValueRef::try_from(root)` (prost has no borrowed form).
    DecodeRef,
    /// Owned value to bytes: capnarena's `value.build_root` on a kept,
    /// reset `Message<SingleSegmentArena>` and `append_to` a kept, cleared
    /// `Vec`; prost's `encode` into a kept, cleared `Vec`.
    Encode,
}

/// Who does the operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// capnarena's generated owned values.
    Capnarena,
    /// prost's derived messages.
    Prost,
}

/// One iteration; returns a number that depends on the work (a length).
pub type Step = Box<dyn FnMut() -> u64>;

/// The prost bytes of `set`, encoded from the generator's values.
pub fn prost_bytes(set: &str) -> Vec<u8> {
    use prost::Message as _;
    match set {
        "log" => prost_logs(&rsb::logs(rsb::SEED)).encode_to_vec(),
        "mesh" => prost_mesh(&rsb::mesh(rsb::SEED)).encode_to_vec(),
        "minecraft_savedata" => prost_players(&rsb::players(rsb::SEED)).encode_to_vec(),
        "mk48" => prost_updates(&rsb::updates(rsb::SEED)).encode_to_vec(),
        _ => panic!("unknown data set {set}"),
    }
}

/// One iteration of `op` on `set` by `who`, its input made now; `None`
/// for prost's [`Op::DecodeRef`], which it does not have.
pub fn step(set: &str, op: Op, who: Who) -> Option<Step> {
    use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
    use capnarena_peers::AlignedBytes;
    use capnarena_peers::rsb::ours::{log_capnp, mesh_capnp, minecraft_savedata_capnp, mk48_capnp};
    use capnarena_peers::rsb::steps::framed;
    use prost::Message as _;
    use std::hint::black_box;

    macro_rules! with_set {
        ($root:path, $list:ident, $prost:ty, $fill:expr) => {{
            use $root as root;
            match (op, who) {
                (Op::Decode, Who::Capnarena) => {
                    let bytes = AlignedBytes::new(&framed(set).0);
                    Box::new(move || {
                        let m =
                            MessageReader::from_bytes(bytes.as_bytes(), ReaderOptions::default())
                                .unwrap();
                        let v = root::Value::try_from(m.get_root::<root::Reader<'_>>().unwrap())
                            .unwrap();
                        black_box(&v).$list.as_ref().map_or(0, Vec::len) as u64
                    }) as Step
                }
                (Op::DecodeRef, Who::Capnarena) => {
                    let bytes = AlignedBytes::new(&framed(set).0);
                    Box::new(move || {
                        let m =
                            MessageReader::from_bytes(bytes.as_bytes(), ReaderOptions::default())
                                .unwrap();
                        let v = root::ValueRef::try_from(m.get_root::<root::Reader<'_>>().unwrap())
                            .unwrap();
                        black_box(&v).$list.as_ref().map_or(0, Vec::len) as u64
                    })
                }
                (Op::Encode, Who::Capnarena) => {
                    let bytes = AlignedBytes::new(&framed(set).0);
                    let m = MessageReader::from_bytes(bytes.as_bytes(), ReaderOptions::default())
                        .unwrap();
                    let v =
                        root::Value::try_from(m.get_root::<root::Reader<'_>>().unwrap()).unwrap();
                    let mut msg = Message::new(SingleSegmentArena::new());
                    let mut out = Vec::new();
                    Box::new(move || {
                        msg.reset();
                        v.build_root(&mut msg).unwrap();
                        out.clear();
                        msg.append_to(&mut out);
                        black_box(&out).len() as u64
                    })
                }
                (Op::Decode, Who::Prost) => {
                    let bytes = prost_bytes(set);
                    Box::new(move || {
                        let v = <$prost>::decode(bytes.as_slice()).unwrap();
                        black_box(&v).$list.len() as u64
                    })
                }
                (Op::DecodeRef, Who::Prost) => return None,
                (Op::Encode, Who::Prost) => {
                    let v: $prost = $fill;
                    let mut out = Vec::new();
                    Box::new(move || {
                        out.clear();
                        v.encode(&mut out).unwrap();
                        black_box(&out).len() as u64
                    })
                }
            }
        }};
    }
    Some(match set {
        "log" => with_set!(
            log_capnp::logs,
            logs,
            log::Logs,
            prost_logs(&rsb::logs(rsb::SEED))
        ),
        "mesh" => with_set!(
            mesh_capnp::mesh,
            triangles,
            mesh::Mesh,
            prost_mesh(&rsb::mesh(rsb::SEED))
        ),
        "minecraft_savedata" => with_set!(
            minecraft_savedata_capnp::players,
            players,
            minecraft::Players,
            prost_players(&rsb::players(rsb::SEED))
        ),
        "mk48" => with_set!(
            mk48_capnp::updates,
            updates,
            mk48::Updates,
            prost_updates(&rsb::updates(rsb::SEED))
        ),
        _ => return None,
    })
}
