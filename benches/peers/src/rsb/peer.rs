//! The capnp side of the data-set suite, on capnpc's generated code, doing
//! what rust_serialization_benchmark's capnp harness does: a new `Builder`
//! over one kept `ScratchSpaceHeapAllocator` per build, setters one by one
//! (lists element by element), `write_message` / `serialize_packed::
//! write_message` into a kept `Vec`; `read_message_from_flat_slice` and
//! `serialize_packed::read_message` to read.

use std::hint::black_box;

use capnp::message::{self, ReaderOptions, ScratchSpaceHeapAllocator};
use capnp::{serialize, serialize_packed};

use super::{Contact, Entity, Item, Log, Player, TerrainUpdate, Triangle, Update};

#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod log_capnp {
    include!(concat!(env!("OUT_DIR"), "/rsb/log_capnp.rs"));
}
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod mesh_capnp {
    include!(concat!(env!("OUT_DIR"), "/rsb/mesh_capnp.rs"));
}
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod minecraft_savedata_capnp {
    include!(concat!(env!("OUT_DIR"), "/rsb/minecraft_savedata_capnp.rs"));
}
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod mk48_capnp {
    include!(concat!(env!("OUT_DIR"), "/rsb/mk48_capnp.rs"));
}

use log_capnp::logs;
use mesh_capnp::{mesh, vector3};
use minecraft_savedata_capnp::{GameType, entity, item, player, players};
use mk48_capnp::{EntityType, contact, terrain_update, update, updates};

/// Fills a root builder from a data set.
pub trait Fill {
    /// The root's builder type.
    type Root<'b>: capnp::traits::FromPointerBuilder<'b>;
    /// Writes `self` into `root`.
    fn fill(&self, root: Self::Root<'_>);
}

/// The log set as a `Logs` root.
pub struct LogSet<'d>(pub &'d [Log]);
/// The mesh set as a `Mesh` root.
pub struct MeshSet<'d>(pub &'d [Triangle]);
/// The minecraft set as a `Players` root.
pub struct PlayerSet<'d>(pub &'d [Player]);
/// The mk48 set as an `Updates` root.
pub struct UpdateSet<'d>(pub &'d [Update]);

impl Fill for LogSet<'_> {
    type Root<'b> = logs::Builder<'b>;
    fn fill(&self, root: logs::Builder<'_>) {
        let mut list = root.init_logs(self.0.len() as u32);
        for (i, l) in self.0.iter().enumerate() {
            let mut b = list.reborrow().get(i as u32);
            let mut a = b.reborrow().init_address();
            a.set_x0(l.address[0]);
            a.set_x1(l.address[1]);
            a.set_x2(l.address[2]);
            a.set_x3(l.address[3]);
            b.set_identity(l.identity);
            b.set_userid(l.userid);
            b.set_date(&l.date[..]);
            b.set_request(&l.request[..]);
            b.set_code(l.code);
            b.set_size(l.size);
        }
    }
}

fn set_vector(mut b: vector3::Builder<'_>, v: &[f32; 3]) {
    b.set_x(v[0]);
    b.set_y(v[1]);
    b.set_z(v[2]);
}

impl Fill for MeshSet<'_> {
    type Root<'b> = mesh::Builder<'b>;
    fn fill(&self, root: mesh::Builder<'_>) {
        let mut list = root.init_triangles(self.0.len() as u32);
        for (i, t) in self.0.iter().enumerate() {
            let mut b = list.reborrow().get(i as u32);
            set_vector(b.reborrow().init_v0(), &t.v[0]);
            set_vector(b.reborrow().init_v1(), &t.v[1]);
            set_vector(b.reborrow().init_v2(), &t.v[2]);
            set_vector(b.reborrow().init_normal(), &t.v[3]);
        }
    }
}

fn game_type(v: u16) -> GameType {
    GameType::try_from(v).expect("game types are 0-3")
}

fn set_item(mut b: item::Builder<'_>, it: &Item) {
    b.set_count(it.count);
    b.set_slot(it.slot);
    b.set_id(it.id);
}

fn set_entity(mut b: entity::Builder<'_>, e: &Entity) {
    b.set_id(e.id);
    let mut pos = b.reborrow().init_pos();
    pos.set_x(e.pos[0]);
    pos.set_y(e.pos[1]);
    pos.set_z(e.pos[2]);
    let mut motion = b.reborrow().init_motion();
    motion.set_x(e.motion[0]);
    motion.set_y(e.motion[1]);
    motion.set_z(e.motion[2]);
    let mut rotation = b.reborrow().init_rotation();
    rotation.set_x(e.rotation[0]);
    rotation.set_y(e.rotation[1]);
    b.set_fall_distance(e.fall_distance);
    b.set_fire(e.fire);
    b.set_air(e.air);
    b.set_on_ground(e.flags[0]);
    b.set_no_gravity(e.flags[1]);
    b.set_invulnerable(e.flags[2]);
    b.set_portal_cooldown(e.portal_cooldown);
    let mut uuid = b.reborrow().init_uuid();
    uuid.set_x0(e.uuid[0]);
    uuid.set_x1(e.uuid[1]);
    uuid.set_x2(e.uuid[2]);
    uuid.set_x3(e.uuid[3]);
    if let Some(name) = e.custom_name {
        b.set_custom_name(name);
    }
    b.set_custom_name_visible(e.flags2[0]);
    b.set_silent(e.flags2[1]);
    b.set_glowing(e.flags2[2]);
}

fn set_player(mut b: player::Builder<'_>, p: &Player) {
    b.set_game_type(game_type(p.game_type));
    b.set_previous_game_type(game_type(p.previous_game_type));
    b.set_score(p.score);
    b.set_dimension(p.dimension);
    b.set_selected_item_slot(p.selected_item_slot);
    set_item(b.reborrow().init_selected_item(), &p.selected_item);
    let mut sd = b.reborrow().init_spawn_dimension();
    match p.spawn_dimension {
        Some(d) => sd.set_some(d),
        None => sd.set_none(()),
    }
    let mut spawn = b.reborrow().init_spawn();
    spawn.set_x(p.spawn[0]);
    spawn.set_y(p.spawn[1]);
    spawn.set_z(p.spawn[2]);
    let mut sf = b.reborrow().init_spawn_forced();
    match p.spawn_forced {
        Some(v) => sf.set_some(v),
        None => sf.set_none(()),
    }
    b.set_sleep_timer(p.sleep_timer);
    b.set_food_exhaustion_level(p.food_exhaustion_level);
    b.set_food_saturation_level(p.food_saturation_level);
    b.set_food_tick_timer(p.food_tick_timer);
    b.set_xp_level(p.xp_level);
    b.set_xp_p(p.xp_p);
    b.set_xp_total(p.xp_total);
    b.set_xp_seed(p.xp_seed);
    let mut inv = b.reborrow().init_inventory(p.inventory.len() as u32);
    for (i, it) in p.inventory.iter().enumerate() {
        set_item(inv.reborrow().get(i as u32), it);
    }
    let mut ender = b.reborrow().init_ender_items(p.ender_items.len() as u32);
    for (i, it) in p.ender_items.iter().enumerate() {
        set_item(ender.reborrow().get(i as u32), it);
    }
    let mut ab = b.reborrow().init_abilities();
    ab.set_walk_speed(p.abilities.walk_speed);
    ab.set_fly_speed(p.abilities.fly_speed);
    ab.set_may_fly(p.abilities.flags[0]);
    ab.set_flying(p.abilities.flags[1]);
    ab.set_invulnerable(p.abilities.flags[2]);
    ab.set_may_build(p.abilities.flags[3]);
    ab.set_instabuild(p.abilities.flags[4]);
    let mut nether = b.reborrow().init_entered_nether_position();
    match p.entered_nether_position {
        Some(v) => {
            let mut s = nether.init_some();
            s.set_x(v[0]);
            s.set_y(v[1]);
            s.set_z(v[2]);
        }
        None => nether.set_none(()),
    }
    let mut rv = b.reborrow().init_root_vehicle();
    match &p.root_vehicle {
        Some((uuid, e)) => {
            let mut s = rv.init_some();
            let mut u = s.reborrow().init_uuid();
            u.set_x0(uuid[0]);
            u.set_x1(uuid[1]);
            u.set_x2(uuid[2]);
            u.set_x3(uuid[3]);
            set_entity(s.init_entity(), e);
        }
        None => rv.set_none(()),
    }
    let mut left = b.reborrow().init_shoulder_entity_left();
    match &p.shoulder_entity_left {
        Some(e) => set_entity(left.init_some(), e),
        None => left.set_none(()),
    }
    let mut right = b.reborrow().init_shoulder_entity_right();
    match &p.shoulder_entity_right {
        Some(e) => set_entity(right.init_some(), e),
        None => right.set_none(()),
    }
    b.set_seen_credits(p.seen_credits);
    let rb = &p.recipe_book;
    let mut book = b.init_recipe_book();
    let mut recipes = book.reborrow().init_recipes(rb.recipes.len() as u32);
    for (i, r) in rb.recipes.iter().enumerate() {
        recipes.set(i as u32, *r);
    }
    let mut shown = book
        .reborrow()
        .init_to_be_displayed(rb.to_be_displayed.len() as u32);
    for (i, r) in rb.to_be_displayed.iter().enumerate() {
        shown.set(i as u32, *r);
    }
    book.set_is_filtering_craftable(rb.flags[0]);
    book.set_is_gui_open(rb.flags[1]);
    book.set_is_furnace_filtering_craftable(rb.flags[2]);
    book.set_is_furnace_gui_open(rb.flags[3]);
    book.set_is_blasting_furnace_filtering_craftable(rb.flags[4]);
    book.set_is_blasting_furnace_gui_open(rb.flags[5]);
    book.set_is_smoker_filtering_craftable(rb.flags[6]);
    book.set_is_smoker_gui_open(rb.flags[7]);
}

impl Fill for PlayerSet<'_> {
    type Root<'b> = players::Builder<'b>;
    fn fill(&self, root: players::Builder<'_>) {
        let mut list = root.init_players(self.0.len() as u32);
        for (i, p) in self.0.iter().enumerate() {
            set_player(list.reborrow().get(i as u32), p);
        }
    }
}

fn set_contact(mut b: contact::Builder<'_>, c: &Contact) {
    b.set_damage(c.damage);
    b.set_entity_id(c.entity_id);
    let mut et = b.reborrow().init_entity_type();
    match c.entity_type {
        Some(t) => et.set_some(EntityType::try_from(t).expect("entity types are 0-9")),
        None => et.set_none(()),
    }
    let mut g = b.reborrow().init_guidance();
    g.set_angle(c.guidance.0);
    g.set_submerge(c.guidance.1);
    g.set_velocity(c.guidance.2);
    let mut pid = b.reborrow().init_player_id();
    match c.player_id {
        Some(v) => pid.set_some(v),
        None => pid.set_none(()),
    }
    let mut reloads = b.reborrow().init_reloads(c.reloads.len() as u32);
    for (i, v) in c.reloads.iter().enumerate() {
        reloads.set(i as u32, *v);
    }
    let mut t = b.reborrow().init_transform();
    t.set_altitude(c.transform.0);
    t.set_angle(c.transform.1);
    let mut pos = t.reborrow().init_position();
    pos.set_x(c.transform.2[0]);
    pos.set_y(c.transform.2[1]);
    t.set_velocity(c.transform.3);
    let mut ta = b.init_turret_angles(c.turret_angles.len() as u32);
    for (i, v) in c.turret_angles.iter().enumerate() {
        ta.set(i as u32, *v);
    }
}

fn set_terrain(mut b: terrain_update::Builder<'_>, t: &TerrainUpdate) {
    let mut id = b.reborrow().init_chunk_id();
    id.set_x(t.chunk_id.0);
    id.set_y(t.chunk_id.1);
    let mut data = b.init_data(t.data.len() as u32);
    for (i, v) in t.data.iter().enumerate() {
        data.set(i as u32, *v);
    }
}

fn set_update(mut b: update::Builder<'_>, u: &Update) {
    let mut contacts = b.reborrow().init_contacts(u.contacts.len() as u32);
    for (i, c) in u.contacts.iter().enumerate() {
        set_contact(contacts.reborrow().get(i as u32), c);
    }
    b.set_score(u.score);
    b.set_world_radius(u.world_radius);
    let mut terrain = b.init_terrain_updates(u.terrain_updates.len() as u32);
    for (i, t) in u.terrain_updates.iter().enumerate() {
        set_terrain(terrain.reborrow().get(i as u32), t);
    }
}

impl Fill for UpdateSet<'_> {
    type Root<'b> = updates::Builder<'b>;
    fn fill(&self, root: updates::Builder<'_>) {
        let mut list = root.init_updates(self.0.len() as u32);
        for (i, u) in self.0.iter().enumerate() {
            set_update(list.reborrow().get(i as u32), u);
        }
    }
}

/// The kept scratch allocator of the serialize columns.
pub struct Kept<'s> {
    alloc: ScratchSpaceHeapAllocator<'s>,
}

impl<'s> Kept<'s> {
    /// A scratch allocator over `scratch` (zeroed, 8-byte aligned).
    pub fn new(scratch: &'s mut [u8]) -> Self {
        Kept {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// Builds `d` in a new `Builder` on the kept allocator and frames it
    /// into `out` (cleared first), packed or not; returns the segment count.
    pub fn serialize<D: Fill>(&mut self, d: &D, out: &mut Vec<u8>, packed: bool) -> usize {
        out.clear();
        let mut b = message::Builder::new(&mut self.alloc);
        d.fill(b.init_root::<D::Root<'_>>());
        if packed {
            serialize_packed::write_message(&mut *out, &b).expect("writing to a Vec");
        } else {
            serialize::write_message(&mut *out, &b).expect("writing to a Vec");
        }
        b.get_segments_for_output().len()
    }
}

/// The root type of a data set's message.
pub trait Root {
    /// The reader.
    type Reader<'r>: capnp::traits::FromPointerReader<'r>;
    /// The read column's loop, as that benchmark writes it: each element's
    /// field(s) handed to `seen` (the benchmark's `black_box`; a test's
    /// collector), the element count returned.
    fn read(r: Self::Reader<'_>, seen: impl FnMut(u64)) -> capnp::Result<u64>;
}

/// `Logs`.
pub struct LogRoot;
/// `Mesh`.
pub struct MeshRoot;
/// `Players`.
pub struct PlayerRoot;
/// `Updates`.
pub struct UpdateRoot;

impl Root for LogRoot {
    type Reader<'r> = logs::Reader<'r>;
    fn read(r: logs::Reader<'_>, mut seen: impl FnMut(u64)) -> capnp::Result<u64> {
        let logs = r.get_logs()?;
        for l in logs.iter() {
            black_box(l.get_address()?);
            seen(u64::from(l.get_code()));
            seen(l.get_size());
        }
        Ok(u64::from(logs.len()))
    }
}

impl Root for MeshRoot {
    type Reader<'r> = mesh::Reader<'r>;
    fn read(r: mesh::Reader<'_>, _seen: impl FnMut(u64)) -> capnp::Result<u64> {
        let triangles = r.get_triangles()?;
        for t in triangles.iter() {
            black_box(t.get_normal()?);
        }
        Ok(u64::from(triangles.len()))
    }
}

impl Root for PlayerRoot {
    type Reader<'r> = players::Reader<'r>;
    fn read(r: players::Reader<'_>, mut seen: impl FnMut(u64)) -> capnp::Result<u64> {
        let players = r.get_players()?;
        for p in players.iter() {
            seen(p.get_game_type()? as u64);
        }
        Ok(u64::from(players.len()))
    }
}

impl Root for UpdateRoot {
    type Reader<'r> = updates::Reader<'r>;
    fn read(r: updates::Reader<'_>, mut seen: impl FnMut(u64)) -> capnp::Result<u64> {
        let updates = r.get_updates()?;
        for u in updates.iter() {
            seen(u64::from(u.get_score()));
        }
        Ok(u64::from(updates.len()))
    }
}

/// The access column: frame read in place, typed root fetched.
pub fn access<R: Root>(bytes: &[u8]) -> capnp::Result<u64> {
    let m = serialize::read_message_from_flat_slice(&mut &bytes[..], ReaderOptions::new())?;
    black_box(m.get_root::<R::Reader<'_>>()?);
    Ok(1)
}

/// The access_single column: [`access`] through capnp's no-alloc flat
/// slice reader (any number of segments, none allocated).
pub fn access_single<R: Root>(bytes: &[u8]) -> capnp::Result<u64> {
    let m =
        serialize::read_message_from_flat_slice_no_alloc(&mut &bytes[..], ReaderOptions::new())?;
    black_box(m.get_root::<R::Reader<'_>>()?);
    Ok(1)
}

/// The read column: [`access`], then the data set's read loop, each field
/// black-boxed.
pub fn read<R: Root>(bytes: &[u8]) -> capnp::Result<u64> {
    read_with::<R>(bytes, super::black_boxed)
}

/// [`read`] with each field handed to `seen`.
pub fn read_with<R: Root>(bytes: &[u8], seen: impl FnMut(u64)) -> capnp::Result<u64> {
    let m = serialize::read_message_from_flat_slice(&mut &bytes[..], ReaderOptions::new())?;
    R::read(m.get_root::<R::Reader<'_>>()?, seen)
}

/// The packed read column: unpacked into new memory, then the read loop,
/// each field black-boxed.
pub fn packed_read<R: Root>(bytes: &[u8]) -> capnp::Result<u64> {
    packed_read_with::<R>(bytes, super::black_boxed)
}

/// [`packed_read`] with each field handed to `seen`.
pub fn packed_read_with<R: Root>(bytes: &[u8], seen: impl FnMut(u64)) -> capnp::Result<u64> {
    let m = serialize_packed::read_message(&mut &bytes[..], ReaderOptions::new())?;
    R::read(m.get_root::<R::Reader<'_>>()?, seen)
}
