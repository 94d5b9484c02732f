//! The rules a schema change is judged by: one [`Rule`] per kind of
//! change, each with a stable kebab-case code, its verdict and whom it
//! breaks. The sentences quoted are from capnproto.org's schema language
//! page, section "Evolving Your Protocol".

use core::fmt;

/// What a change does to programs that were built on the other schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Old and new programs exchange messages and calls as before.
    Compatible,
    /// The binary encoding is unchanged, but the text format, JSON or
    /// generated source (names) change.
    BinaryOnly,
    /// Messages or calls change meaning or fail between old and new
    /// programs.
    Incompatible,
}

impl Verdict {
    /// `"compatible"`, `"binary-only"` or `"incompatible"`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Compatible => "compatible",
            Verdict::BinaryOnly => "binary-only",
            Verdict::Incompatible => "incompatible",
        }
    }
}

/// Which programs a change breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Breaks {
    /// New programs reading old messages (for interfaces: new clients of
    /// old servers, new servers of old clients' parameters).
    pub new_reading_old: bool,
    /// Old programs reading new messages (for interfaces: old clients of
    /// new servers).
    pub old_reading_new: bool,
}

macro_rules! rules {
    ($($(#[doc = $doc:literal])* $name:ident = $code:literal, $verdict:ident, $new_old:literal, $old_new:literal;)*) => {
        /// A kind of schema change. [`code`](Rule::code) is its stable name,
        /// as `--allow` takes it and as JSON output spells it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $($(#[doc = $doc])* $name,)*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name,)*];

            /// The stable kebab-case code (`"field-removed"`).
            pub fn code(self) -> &'static str {
                match self { $(Rule::$name => $code,)* }
            }

            /// What the change does.
            pub fn verdict(self) -> Verdict {
                match self { $(Rule::$name => Verdict::$verdict,)* }
            }

            /// Whom the change breaks on the wire (nobody for compatible
            /// and binary-only changes).
            pub fn breaks(self) -> Breaks {
                match self {
                    $(Rule::$name => Breaks { new_reading_old: $new_old, old_reading_new: $old_new },)*
                }
            }

            /// The rule whose code is `code`.
            pub fn from_code(code: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.code() == code)
            }
        }
    };
}

rules! {
    /// A struct, enum or interface was added. "New types, constants, and
    /// aliases can be added anywhere, since they obviously don't affect
    /// the encoding of any existing type."
    TypeAdded = "type-added", Compatible, false, false;
    /// A field was added with a new number. "New fields, enumerants, and
    /// methods may be added to structs, enums, and interfaces,
    /// respectively, as long as each new member's number is larger than
    /// all previous members. Similarly, new fields may be added to
    /// existing groups and unions." Old readers ignore it; new readers of
    /// old messages see its default.
    FieldAdded = "field-added", Compatible, false, false;
    /// An enumerant was added with a new number (same sentence as
    /// [`Rule::FieldAdded`]). Old readers see an unknown value for it.
    EnumerantAdded = "enumerant-added", Compatible, false, false;
    /// A method was added with a new number (same sentence as
    /// [`Rule::FieldAdded`]). New clients calling it on old servers get
    /// "unimplemented".
    MethodAdded = "method-added", Compatible, false, false;
    /// A struct's data or pointer section grew: new fields took new room.
    SectionGrown = "section-grown", Compatible, false, false;
    /// `List(T)` became `List(U)` where `U`'s `@0` field has type `T`.
    /// "A field of type `List(T)`, where `T` is a primitive type, blob, or
    /// list, may be changed to type `List(U)`, where `U` is a struct type
    /// whose `@0` field is of type `T`." It "may change the canonical
    /// encoding of a message".
    ListUpgradedToStruct = "list-upgraded-to-struct", Compatible, false, false;
    /// A type became generic, or got new parameters, or a type in its
    /// body was replaced by a parameter. "A non-generic type can be made
    /// generic, and new generic parameters may be added to an existing
    /// generic type. Other types used inside the body of the
    /// newly-generic type can be replaced with the new generic parameter
    /// so long as all existing users of the type are updated to bind that
    /// generic parameter to the type it replaced."
    MadeGeneric = "made-generic", Compatible, false, false;
    /// A field moved into a new union. "A field can be moved into a group
    /// or a union, as long as the group/union and all other fields within
    /// it are new."
    FieldMovedIntoNewUnion = "field-moved-into-new-union", Compatible, false, false;
    /// A field, group or union got another name or moved into a new group.
    /// "Any symbolic name can be changed, as long as the type ID / ordinal
    /// numbers stay the same." The text format, JSON and generated source
    /// use the name: "field names cannot change in JSON".
    FieldRenamed = "field-renamed", BinaryOnly, false, false;
    /// An enumerant got another name (see [`Rule::FieldRenamed`]).
    EnumerantRenamed = "enumerant-renamed", BinaryOnly, false, false;
    /// A method got another name (see [`Rule::FieldRenamed`]).
    MethodRenamed = "method-renamed", BinaryOnly, false, false;
    /// A type kept its id and got another name or scope. "Type
    /// definitions can be moved to different scopes, as long as the type
    /// ID is declared explicitly." Generated source names change.
    TypeRenamed = "type-renamed", BinaryOnly, false, false;
    /// A constant or annotation was removed: no message changes, source
    /// that names it no longer builds.
    DeclarationRemoved = "declaration-removed", BinaryOnly, false, false;
    /// A struct, enum or interface is gone, and no type of the same name
    /// took its place. "Any change not listed above should be assumed NOT
    /// to be safe."
    TypeRemoved = "type-removed", Incompatible, true, true;
    /// A type of the same name has another id. "You cannot change a
    /// type's ID." "You cannot change the name of a type that doesn't
    /// have an explicit ID, as the implicit ID is generated based in part
    /// on the type name."
    TypeIdChanged = "type-id-changed", Incompatible, true, true;
    /// The node with this id is of another kind (a struct became an
    /// interface). "You cannot change a type's ID."
    NodeKindChanged = "node-kind-changed", Incompatible, true, true;
    /// A field is gone. "You cannot change a field, method, or
    /// enumerant's number." Old readers of new messages see its default.
    FieldRemoved = "field-removed", Incompatible, false, true;
    /// An enumerant is gone (see [`Rule::FieldRemoved`]). New readers of
    /// old messages get an unknown value.
    EnumerantRemoved = "enumerant-removed", Incompatible, true, false;
    /// A method is gone (see [`Rule::FieldRemoved`]). Old clients calling
    /// it get "unimplemented".
    MethodRemoved = "method-removed", Incompatible, false, true;
    /// A name now belongs to a member with another number: two fields or
    /// enumerants swapped numbers, or a member was renumbered. "You
    /// cannot change a field, method, or enumerant's number."
    NameMoved = "name-moved", Incompatible, true, true;
    /// A field's type changed. "You cannot change a field or method
    /// parameter's type or default value."
    FieldTypeChanged = "field-type-changed", Incompatible, true, true;
    /// A list field's element type changed to one of another encoding
    /// (see [`Rule::FieldTypeChanged`]).
    ListElementChanged = "list-element-changed", Incompatible, true, true;
    /// A field's place in its struct changed (see [`Rule::NameMoved`]).
    FieldOffsetChanged = "field-offset-changed", Incompatible, true, true;
    /// A field's default value changed (see [`Rule::FieldTypeChanged`]).
    /// Readers apply their own default to what the writer stored.
    DefaultChanged = "default-changed", Incompatible, true, true;
    /// A field moved into or out of an existing union, or a new union
    /// holds more than one existing field. "You cannot move an existing
    /// field into or out of an existing union, nor can you form a new
    /// union containing more than one existing field."
    UnionMembershipChanged = "union-membership-changed", Incompatible, true, true;
    /// A union member's discriminant value or its union's discriminant
    /// place changed (see [`Rule::UnionMembershipChanged`]).
    UnionDiscriminantChanged = "union-discriminant-changed", Incompatible, true, true;
    /// A struct's data or pointer section shrank: old readers of new
    /// messages read defaults where fields were.
    SectionShrunk = "section-shrunk", Incompatible, false, true;
    /// A generic type's binding at a use changed, or a parameter was
    /// removed. The binding must stay "the type it replaced".
    GenericBindingChanged = "generic-binding-changed", Incompatible, true, true;
    /// An interface no longer extends one it extended: old clients calling
    /// the superclass's methods get "unimplemented".
    SuperclassRemoved = "superclass-removed", Incompatible, false, true;
    /// A type the two sides exchange (a root of [`check_reachable`](super::check_reachable)
    /// or [`check_peer`](super::check_peer)) is not in the old side's
    /// schema: that side cannot read or build it.
    RootMissing = "root-missing", Incompatible, true, true;
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
