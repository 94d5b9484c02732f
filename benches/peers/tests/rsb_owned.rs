//! The owned-value columns of the data-set suite compare equal data: the
//! capnarena `Value` decoded from the suite's framed message, mapped field
//! by field onto the prost message shapes, equals the prost message filled
//! from the same seeded generator, and prost's bytes decode back to it.

#[path = "../benches/prost_sets/mod.rs"]
mod prost_sets;

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use capnarena_peers::AlignedBytes;
use capnarena_peers::rsb::ours::{log_capnp, mesh_capnp, minecraft_savedata_capnp, mk48_capnp};
use capnarena_peers::rsb::steps::{SETS, framed};
use capnarena_peers::rsb::{self, SEED};
use prost::Message as _;
use prost_sets::{log, mesh, minecraft, mk48};

fn text(s: &Option<String>) -> String {
    s.clone().expect("the generator sets every text")
}

fn log_from_value(v: &log_capnp::logs::Value) -> log::Logs {
    log::Logs {
        logs: v
            .logs
            .as_ref()
            .unwrap()
            .iter()
            .map(|l| log::Log {
                address: l.address.as_ref().map(|a| log::Address {
                    x0: a.x0.into(),
                    x1: a.x1.into(),
                    x2: a.x2.into(),
                    x3: a.x3.into(),
                }),
                identity: text(&l.identity),
                userid: text(&l.userid),
                date: text(&l.date),
                request: text(&l.request),
                code: l.code.into(),
                size: l.size,
            })
            .collect(),
    }
}

fn mesh_from_value(v: &mesh_capnp::mesh::Value) -> mesh::Mesh {
    let p = |v: &Option<mesh_capnp::vector3::Value>| {
        v.as_ref().map(|v| mesh::Vector3 {
            x: v.x,
            y: v.y,
            z: v.z,
        })
    };
    mesh::Mesh {
        triangles: v
            .triangles
            .as_ref()
            .unwrap()
            .iter()
            .map(|t| mesh::Triangle {
                v0: p(&t.v0),
                v1: p(&t.v1),
                v2: p(&t.v2),
                normal: p(&t.normal),
            })
            .collect(),
    }
}

fn players_from_value(v: &minecraft_savedata_capnp::players::Value) -> minecraft::Players {
    use minecraft_savedata_capnp as m;
    use minecraft_savedata_capnp::player::{
        entered_nether_position as enp, root_vehicle as rv, shoulder_entity_left as sel,
        shoulder_entity_right as ser, spawn_dimension as sd, spawn_forced as sf,
    };
    let item = |i: &m::item::Value| minecraft::Item {
        count: i.count.into(),
        slot: i.slot.into(),
        id: text(&i.id),
    };
    let uuid = |u: &m::entity::uuid::Value| minecraft::Uuid {
        x0: u.x0,
        x1: u.x1,
        x2: u.x2,
        x3: u.x3,
    };
    let entity = |e: &m::entity::Value| minecraft::Entity {
        id: text(&e.id),
        pos: Some(minecraft::Vector3d {
            x: e.pos.x,
            y: e.pos.y,
            z: e.pos.z,
        }),
        motion: Some(minecraft::Vector3d {
            x: e.motion.x,
            y: e.motion.y,
            z: e.motion.z,
        }),
        rotation: Some(minecraft::Vector2f {
            x: e.rotation.x,
            y: e.rotation.y,
        }),
        fall_distance: e.fall_distance,
        fire: e.fire.into(),
        air: e.air.into(),
        on_ground: e.on_ground,
        no_gravity: e.no_gravity,
        invulnerable: e.invulnerable,
        portal_cooldown: e.portal_cooldown,
        uuid: Some(uuid(&e.uuid)),
        custom_name: e.custom_name.clone(),
        custom_name_visible: e.custom_name_visible,
        silent: e.silent,
        glowing: e.glowing,
    };
    let texts = |v: &Option<Vec<Option<String>>>| v.as_ref().unwrap().iter().map(text).collect();
    minecraft::Players {
        players: v
            .players
            .as_ref()
            .unwrap()
            .iter()
            .map(|p| {
                let a = p.abilities.as_ref().unwrap();
                let b = p.recipe_book.as_ref().unwrap();
                minecraft::Player {
                    game_type: p.game_type as i32,
                    previous_game_type: p.previous_game_type as i32,
                    score: p.score,
                    dimension: text(&p.dimension),
                    selected_item_slot: p.selected_item_slot,
                    selected_item: p.selected_item.as_ref().map(item),
                    spawn_dimension: match &p.spawn_dimension.union {
                        sd::WhichValue::None => None,
                        sd::WhichValue::Some(s) => Some(text(s)),
                    },
                    spawn_x: p.spawn.x,
                    spawn_y: p.spawn.y,
                    spawn_z: p.spawn.z,
                    spawn_forced: match p.spawn_forced.union {
                        sf::WhichValue::None => None,
                        sf::WhichValue::Some(b) => Some(b),
                    },
                    sleep_timer: p.sleep_timer.into(),
                    food_exhaustion_level: p.food_exhaustion_level,
                    food_saturation_level: p.food_saturation_level,
                    food_tick_timer: p.food_tick_timer,
                    xp_level: p.xp_level,
                    xp_p: p.xp_p,
                    xp_total: p.xp_total,
                    xp_seed: p.xp_seed,
                    inventory: p.inventory.as_ref().unwrap().iter().map(item).collect(),
                    ender_items: p.ender_items.as_ref().unwrap().iter().map(item).collect(),
                    abilities: Some(minecraft::Abilities {
                        walk_speed: a.walk_speed,
                        fly_speed: a.fly_speed,
                        may_fly: a.may_fly,
                        flying: a.flying,
                        invulnerable: a.invulnerable,
                        may_build: a.may_build,
                        instabuild: a.instabuild,
                    }),
                    entered_nether_position: match &p.entered_nether_position.union {
                        enp::WhichValue::None => None,
                        enp::WhichValue::Some(s) => Some(minecraft::Vector3d {
                            x: s.x,
                            y: s.y,
                            z: s.z,
                        }),
                    },
                    root_vehicle: match &p.root_vehicle.union {
                        rv::WhichValue::None => None,
                        rv::WhichValue::Some(s) => Some(minecraft::Vehicle {
                            uuid: Some(minecraft::Uuid {
                                x0: s.uuid.x0,
                                x1: s.uuid.x1,
                                x2: s.uuid.x2,
                                x3: s.uuid.x3,
                            }),
                            entity: s.entity.as_ref().map(entity),
                        }),
                    },
                    shoulder_entity_left: match &p.shoulder_entity_left.union {
                        sel::WhichValue::None => None,
                        sel::WhichValue::Some(e) => Some(entity(e.as_ref().unwrap())),
                    },
                    shoulder_entity_right: match &p.shoulder_entity_right.union {
                        ser::WhichValue::None => None,
                        ser::WhichValue::Some(e) => Some(entity(e.as_ref().unwrap())),
                    },
                    seen_credits: p.seen_credits,
                    recipe_book: Some(minecraft::RecipeBook {
                        recipes: texts(&b.recipes),
                        to_be_displayed: texts(&b.to_be_displayed),
                        is_filtering_craftable: b.is_filtering_craftable,
                        is_gui_open: b.is_gui_open,
                        is_furnace_filtering_craftable: b.is_furnace_filtering_craftable,
                        is_furnace_gui_open: b.is_furnace_gui_open,
                        is_blasting_furnace_filtering_craftable: b
                            .is_blasting_furnace_filtering_craftable,
                        is_blasting_furnace_gui_open: b.is_blasting_furnace_gui_open,
                        is_smoker_filtering_craftable: b.is_smoker_filtering_craftable,
                        is_smoker_gui_open: b.is_smoker_gui_open,
                    }),
                }
            })
            .collect(),
    }
}

fn updates_from_value(v: &mk48_capnp::updates::Value) -> mk48::Updates {
    use mk48_capnp::contact::{entity_type as et, player_id as pi};
    mk48::Updates {
        updates: v
            .updates
            .as_ref()
            .unwrap()
            .iter()
            .map(|u| mk48::Update {
                contacts: u
                    .contacts
                    .as_ref()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        let t = c.transform.as_ref().unwrap();
                        mk48::Contact {
                            damage: c.damage.into(),
                            entity_id: c.entity_id,
                            entity_type: match c.entity_type.union {
                                et::WhichValue::None => None,
                                et::WhichValue::Some(t) => Some(t as i32),
                            },
                            guidance: c.guidance.as_ref().map(|g| mk48::Guidance {
                                angle: g.angle.into(),
                                submerge: g.submerge,
                                velocity: g.velocity.into(),
                            }),
                            player_id: match c.player_id.union {
                                pi::WhichValue::None => None,
                                pi::WhichValue::Some(p) => Some(p.into()),
                            },
                            reloads: c.reloads.clone().unwrap(),
                            transform: Some(mk48::Transform {
                                altitude: t.altitude.into(),
                                angle: t.angle.into(),
                                position: Some(mk48::Vector2f {
                                    x: t.position.x,
                                    y: t.position.y,
                                }),
                                velocity: t.velocity.into(),
                            }),
                            turret_angles: c
                                .turret_angles
                                .as_ref()
                                .unwrap()
                                .iter()
                                .map(|&a| a.into())
                                .collect(),
                        }
                    })
                    .collect(),
                score: u.score,
                world_radius: u.world_radius,
                terrain_updates: u
                    .terrain_updates
                    .as_ref()
                    .unwrap()
                    .iter()
                    .map(|t| mk48::TerrainUpdate {
                        chunk_id: Some(mk48::ChunkId {
                            x: t.chunk_id.x.into(),
                            y: t.chunk_id.y.into(),
                        }),
                        data: t.data.clone().unwrap(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Per data set: capnarena's `Value` decoded from the suite's framed
/// message holds the prost message filled from the generator (every
/// field mapped), prost's bytes decode to that message, and the `Value`
/// and `ValueRef` written back with `build_root` give the framed bytes
/// they were read from.
#[test]
fn owned_values_hold_the_prost_data() {
    for set in SETS {
        let framed_bytes = framed(set).0;
        let bytes = AlignedBytes::new(&framed_bytes);
        let m = MessageReader::from_bytes(bytes.as_bytes(), ReaderOptions::default()).unwrap();
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut out = Vec::new();
        macro_rules! check {
            ($root:path, $from_value:ident, $fill:expr) => {{
                use $root as root;
                let r = m.get_root::<root::Reader<'_>>().unwrap();
                let v = root::Value::try_from(r).unwrap();
                let want = $fill;
                assert!($from_value(&v) == want, "{set}: capnarena value differs");
                let pb = want.encode_to_vec();
                assert_eq!(pb, prost_sets::prost_bytes(set), "{set}: prost bytes");
                assert!(
                    prost::Message::decode(pb.as_slice()).ok() == Some(want),
                    "{set}: prost decode"
                );
                msg.reset();
                v.build_root(&mut msg).unwrap();
                out.clear();
                msg.append_to(&mut out);
                assert!(out == framed_bytes, "{set}: Value written back");
                let vr = root::ValueRef::try_from(r).unwrap();
                msg.reset();
                vr.build_root(&mut msg).unwrap();
                out.clear();
                msg.append_to(&mut out);
                assert!(out == framed_bytes, "{set}: ValueRef written back");
            }};
        }
        match set {
            "log" => check!(
                log_capnp::logs,
                log_from_value,
                prost_sets::prost_logs(&rsb::logs(SEED))
            ),
            "mesh" => check!(
                mesh_capnp::mesh,
                mesh_from_value,
                prost_sets::prost_mesh(&rsb::mesh(SEED))
            ),
            "minecraft_savedata" => check!(
                minecraft_savedata_capnp::players,
                players_from_value,
                prost_sets::prost_players(&rsb::players(SEED))
            ),
            _ => check!(
                mk48_capnp::updates,
                updates_from_value,
                prost_sets::prost_updates(&rsb::updates(SEED))
            ),
        }
    }
}
