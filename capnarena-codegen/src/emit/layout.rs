//! Laying out one line of generated code the way rustfmt does (its
//! default configuration, edition 2024), so that the generator's output is
//! rustfmt-clean without rustfmt or a parser on the build machine.
//!
//! A line the emitters write (a statement, a signature, a field) is read
//! as text and bracket groups: `(...)`, `[...]`, `{...}` and `<...>`, each
//! holding comma-separated items. When the line fits in [`WIDTH`] columns
//! (and each group within rustfmt's narrower limits for call arguments,
//! arrays and struct literals), it is written as it is. Otherwise groups
//! are broken from the left, as rustfmt breaks them: a group that does
//! not fit puts each item on a line of its own, one level deeper, with a
//! trailing comma; a call whose only argument is itself a call, array or
//! struct literal keeps the two openings together (`Ok(Some(`); a
//! qualified path `<T as Trait>` breaks inside `T`; an array of short
//! literals fills its lines; a closure whose body does not fit gets a
//! block.
//!
//! Only what the generator writes is understood: `<` always opens a
//! generic or qualified-path group (generated code compares with `==`
//! only), and strings are plain string literals.

/// rustfmt's `max_width`.
pub(super) const WIDTH: usize = 100;
/// Columns of one level of indentation.
pub(super) const INDENT: usize = 4;
/// rustfmt's `fn_call_width`: the widest arguments of a call on one line.
const CALL_WIDTH: usize = 60;
/// rustfmt's `chain_width`: the widest chain of more than one link on
/// one line.
const CHAIN_WIDTH: usize = 60;
/// rustfmt's `array_width`.
const ARRAY_WIDTH: usize = 60;
/// rustfmt's `struct_lit_width`: the widest fields of a struct literal
/// on one line.
const STRUCT_LITERAL_WIDTH: usize = 18;
/// rustfmt's `short_array_element_width_threshold`: arrays whose elements
/// are literals no wider than this fill their lines.
const SHORT_ARRAY_ELEMENT: usize = 10;

/// How parentheses are read: in expressions, a parenthesis after a name
/// is a call (at most [`CALL_WIDTH`] of arguments on one line); in types
/// and signatures, they hold parameters or tuple fields, with no limit of
/// their own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    Expression,
    Type,
}

/// A piece of a line: text that is never broken, or a bracket group.
#[derive(Clone, Debug)]
enum Element {
    Text(String),
    Group(Group),
}

/// What a bracket group is, which decides how it may be laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Arguments of a call (expression mode).
    Call,
    /// Other parentheses: parameters, tuples, tuple fields.
    Parentheses,
    /// Generic arguments or parameters.
    Generic,
    /// `<T as Trait>`.
    QualifiedSelf,
    Array,
    /// `Name { field, field: value }`.
    StructLiteral,
}

#[derive(Clone, Debug)]
struct Group {
    kind: Kind,
    /// The items between the commas, trimmed.
    items: Vec<Vec<Element>>,
    /// A comma after the last item in the source (`(T,)`).
    trailing_comma: bool,
}

impl Group {
    /// The opening and closing brackets.
    fn brackets(&self) -> (&'static str, &'static str) {
        match self.kind {
            Kind::Call | Kind::Parentheses => ("(", ")"),
            Kind::Generic | Kind::QualifiedSelf => ("<", ">"),
            Kind::Array => ("[", "]"),
            Kind::StructLiteral => ("{", "}"),
        }
    }

    fn open(&self) -> &'static str {
        self.brackets().0
    }

    fn close(&self) -> &'static str {
        self.brackets().1
    }

    /// The items on one line, as the source has them.
    fn inner_flat(&self) -> String {
        let items: Vec<String> = self.items.iter().map(|item| flat(item)).collect();
        let mut text = items.join(", ");
        // rustfmt keeps the comma of a one-element tuple only.
        if self.trailing_comma && self.items.len() == 1 && self.kind == Kind::Parentheses {
            text.push(',');
        }
        text
    }

    fn flat(&self) -> String {
        let inner = self.inner_flat();
        if self.kind == Kind::StructLiteral && !inner.is_empty() {
            format!("{{ {inner} }}")
        } else {
            format!("{}{inner}{}", self.open(), self.close())
        }
    }

    /// Whether rustfmt's narrower limits let the group (and the groups in
    /// it) stand on one line.
    fn may_be_flat(&self) -> bool {
        let width = self.inner_flat().len();
        let limit = match self.kind {
            Kind::Call => CALL_WIDTH,
            // rustfmt lays a one-element array out by the line width alone.
            Kind::Array if self.items.len() == 1 => usize::MAX,
            Kind::Array => ARRAY_WIDTH,
            Kind::StructLiteral => STRUCT_LITERAL_WIDTH,
            Kind::Parentheses | Kind::Generic | Kind::QualifiedSelf => usize::MAX,
        };
        width <= limit && self.items.iter().all(|item| may_be_flat(item))
    }
}

fn flat(elements: &[Element]) -> String {
    elements
        .iter()
        .map(|element| match element {
            Element::Text(text) => text.clone(),
            Element::Group(group) => group.flat(),
        })
        .collect()
}

fn may_be_flat(elements: &[Element]) -> bool {
    let chain_fits = match chain_split(elements) {
        Some(split) if split.children > 1 => flat(elements).chars().count() <= CHAIN_WIDTH,
        _ => true,
    };
    chain_fits
        && elements.iter().all(|element| match element {
            Element::Text(_) => true,
            Element::Group(group) => group.may_be_flat(),
        })
}

/// A method chain, as rustfmt sees one: the elements before its last
/// `.method(...)`, that call, and how many `.` links the chain has.
struct ChainSplit {
    /// Index of the text element holding the last `.method`.
    last: usize,
    /// Where in that text the `.` is.
    dot: usize,
    children: usize,
}

/// The chain `elements` form, when they end with a `.method(...)` call.
fn chain_split(elements: &[Element]) -> Option<ChainSplit> {
    let Some(Element::Group(call)) = elements.last() else {
        return None;
    };
    // The method's name, before a turbofish if there is one.
    let last = match elements.iter().rev().nth(1)? {
        Element::Group(generic) if generic.kind == Kind::Generic => {
            elements.len().checked_sub(3)?
        }
        _ => elements.len() - 2,
    };
    let Element::Text(text) = &elements[last] else {
        return None;
    };
    if call.kind != Kind::Call || text.contains(' ') || text.starts_with('|') {
        return None;
    }
    let dot = text.rfind('.')?;
    let name = text[dot + 1..].trim_end_matches("::");
    if name.contains(|c: char| !(c.is_alphanumeric() || c == '_')) {
        return None;
    }
    let mut children = 0;
    for element in elements {
        if let Element::Text(text) = element {
            if text.contains(' ') {
                return None;
            }
            children += text.matches('.').count();
        }
    }
    // A root no longer than an indentation (`self`, `v`) keeps its first
    // link: `self.reader` is where such a chain starts.
    if let Some(Element::Text(first)) = elements.first() {
        let root = first.split('.').next().unwrap_or_default();
        if first.contains('.') && root.chars().count() <= INDENT && !root.contains("::") {
            let first_dot = root.len();
            if last == 0 && dot == first_dot {
                return None;
            }
        }
    }
    Some(ChainSplit {
        last,
        dot,
        children,
    })
}

/// A chain that does not fit on its line: rustfmt's layout of the last
/// link. With one link (`parent.method(..)`), the link goes on the next
/// line, one level deeper than a parent on one line, level with a broken
/// parent's last line. With more (`self.reader.get(..)`), the link stays
/// on the line and breaks inside when that takes five lines or more and
/// its first line fits the chain width; else it goes on the next line.
fn chain(
    elements: &[Element],
    indent: usize,
    column: usize,
    trailing: usize,
    limit: usize,
    out: &mut String,
) -> Option<usize> {
    let split = chain_split(elements)?;
    let Element::Text(text) = &elements[split.last] else {
        return None;
    };
    let mut parent: Vec<Element> = elements[..split.last].to_vec();
    if split.dot > 0 {
        parent.push(Element::Text(text[..split.dot].to_string()));
    }
    if parent.is_empty() {
        return None;
    }
    let mut link = vec![Element::Text(text[split.dot..].to_string())];
    link.extend(elements[split.last + 1..].iter().cloned());
    let mut parent_text = String::new();
    let parent_end = lay_out(&parent, indent, column, 0, limit, &mut parent_text);
    let link_indent = if parent_text.contains('\n') {
        indent
    } else {
        indent + INDENT
    };
    if !parent_text.contains('\n') {
        // The link on the parent's line, broken inside if need be: kept
        // when its first line fits (within the chain width for a chain of
        // more than one link) and it takes five lines or more, or no more
        // lines than on a line of its own.
        let mut same_line = String::new();
        let end = lay_out(&link, indent, parent_end, trailing, limit, &mut same_line);
        let first_line = same_line
            .split('\n')
            .next()
            .unwrap_or_default()
            .chars()
            .count();
        let budget = if split.children > 1 {
            CHAIN_WIDTH.saturating_sub(parent_text.chars().count())
        } else {
            limit.saturating_sub(parent_end)
        };
        let mut next_line = String::new();
        lay_out(
            &link,
            link_indent,
            link_indent,
            trailing,
            WIDTH,
            &mut next_line,
        );
        let lines = same_line.lines().count();
        if first_line <= budget && (lines >= 5 || next_line.lines().count() >= lines) {
            out.push_str(&parent_text);
            out.push_str(&same_line);
            return Some(end);
        }
    }
    out.push_str(&parent_text);
    out.push('\n');
    out.push_str(&" ".repeat(link_indent));
    Some(lay_out(
        &link,
        link_indent,
        link_indent,
        trailing,
        WIDTH,
        out,
    ))
}

/// Reads `code` into elements. Brackets that do not match leave the rest
/// as text (generated code always matches them).
fn parse(code: &str, mode: Mode) -> Vec<Element> {
    let chars: Vec<char> = code.chars().collect();
    let mut position = 0;
    let mut items = parse_items(&chars, &mut position, None, mode);
    let mut elements = items.0.pop().unwrap_or_default();
    if position < chars.len() {
        elements.push(Element::Text(chars[position..].iter().collect()));
    }
    elements
}

/// Reads comma-separated items up to `close` (or the end when `None`):
/// the items, and whether a comma ended the last one. One scanning loop
/// over the characters, which is why it is longer than most.
fn parse_items(
    chars: &[char],
    position: &mut usize,
    close: Option<char>,
    mode: Mode,
) -> (Vec<Vec<Element>>, bool) {
    let mut items = Vec::new();
    let mut current: Vec<Element> = Vec::new();
    let mut text = String::new();
    while *position < chars.len() {
        let c = chars[*position];
        if Some(c) == close && !(c == '>' && arrow_before(&text)) {
            break;
        }
        if c == ',' && close.is_some() {
            *position += 1;
            push_text(&mut current, &mut text);
            items.push(std::mem::take(&mut current));
            continue;
        }
        if c == '"' {
            copy_string(chars, position, &mut text);
            continue;
        }
        // A closure's `|()|` stays text.
        if c == '(' && chars.get(*position + 1) == Some(&')') && text.ends_with('|') {
            text.push_str("()");
            *position += 2;
            continue;
        }
        let kind = match c {
            '(' if mode == Mode::Expression && calls(&text, &current) => Some(Kind::Call),
            '(' => Some(Kind::Parentheses),
            '[' => Some(Kind::Array),
            '{' => Some(Kind::StructLiteral),
            '<' if chars.get(*position + 1) != Some(&'=') => {
                Some(if generic_after(&text, &current) {
                    Kind::Generic
                } else {
                    Kind::QualifiedSelf
                })
            }
            _ => None,
        };
        let Some(kind) = kind else {
            text.push(c);
            *position += 1;
            continue;
        };
        let closing = match kind {
            Kind::Call | Kind::Parentheses => ')',
            Kind::Array => ']',
            Kind::StructLiteral => '}',
            Kind::Generic | Kind::QualifiedSelf => '>',
        };
        let start = *position;
        *position += 1;
        let (inner, trailing_comma) = parse_items(chars, position, Some(closing), mode);
        if chars.get(*position) != Some(&closing) {
            // Unmatched: keep the rest as it is.
            *position = start;
            text.extend(&chars[start..]);
            *position = chars.len();
            break;
        }
        *position += 1;
        push_text(&mut current, &mut text);
        current.push(Element::Group(Group {
            kind,
            items: inner,
            trailing_comma,
        }));
    }
    push_text(&mut current, &mut text);
    let trailing_comma = current.is_empty() && !items.is_empty();
    if !current.is_empty() || items.is_empty() && close.is_none() {
        items.push(current);
    }
    for item in &mut items {
        trim(item);
    }
    // `()` holds no item.
    if items.len() == 1 && items[0].is_empty() {
        items.clear();
    }
    (items, trailing_comma)
}

/// Whether `text` ends with `-` or `=` (so that a `>` after it is an
/// arrow, not a closing bracket).
fn arrow_before(text: &str) -> bool {
    text.ends_with('-') || text.ends_with('=')
}

fn push_text(current: &mut Vec<Element>, text: &mut String) {
    if !text.is_empty() {
        current.push(Element::Text(std::mem::take(text)));
    }
}

/// Copies the string literal at `position` (with its escapes) to `text`.
fn copy_string(chars: &[char], position: &mut usize, text: &mut String) {
    text.push('"');
    *position += 1;
    while *position < chars.len() {
        let c = chars[*position];
        text.push(c);
        *position += 1;
        if c == '\\' {
            if let Some(&next) = chars.get(*position) {
                text.push(next);
                *position += 1;
            }
        } else if c == '"' {
            break;
        }
    }
}

/// Removes the spaces around an item.
fn trim(item: &mut Vec<Element>) {
    if let Some(Element::Text(text)) = item.first_mut() {
        *text = text.trim_start().to_string();
    }
    if let Some(Element::Text(text)) = item.last_mut() {
        *text = text.trim_end().to_string();
    }
    item.retain(|element| !matches!(element, Element::Text(text) if text.is_empty()));
}

/// Whether a `(` after `text` (or after the group ending `current`) calls
/// something: it follows a name, a `>` or a `)`.
fn calls(text: &str, current: &[Element]) -> bool {
    match text.chars().last() {
        Some(c) => c.is_alphanumeric() || c == '_',
        None => matches!(current.last(), Some(Element::Group(_))),
    }
}

/// Whether a `<` after `text` opens generic arguments (after a name or
/// `::`) rather than a qualified path.
fn generic_after(text: &str, current: &[Element]) -> bool {
    match text.chars().last() {
        Some(c) => c.is_alphanumeric() || c == '_' || c == ':' || c == '\'',
        None => matches!(current.last(), Some(Element::Group(_))),
    }
}

/// Lays out `code`, whose first line starts at column `column` of a line
/// indented `indent` columns, with `trailing` columns of text to follow
/// its last line. Lines after the first carry their own indentation.
pub(super) fn layout(
    code: &str,
    mode: Mode,
    indent: usize,
    column: usize,
    trailing: usize,
) -> String {
    let elements = parse(code, mode);
    let mut out = String::new();
    lay_out(&elements, indent, column, trailing, WIDTH, &mut out);
    out
}

/// Whether every line of `text` (the first starting at `column`) fits.
pub(super) fn fits(text: &str, column: usize, trailing: usize) -> bool {
    let mut lines = text.split('\n').peekable();
    let mut first = true;
    while let Some(line) = lines.next() {
        let start = if first { column } else { 0 };
        let end = if lines.peek().is_none() { trailing } else { 0 };
        if start + line.chars().count() + end > WIDTH {
            return false;
        }
        first = false;
    }
    true
}

/// Writes `elements` to `out` (see [`layout`]), what stays on the first
/// line within column `limit`; returns the column where the last line
/// ends.
fn lay_out(
    elements: &[Element],
    indent: usize,
    mut column: usize,
    trailing: usize,
    limit: usize,
    out: &mut String,
) -> usize {
    let whole = flat(elements);
    if column + whole.chars().count() + trailing <= limit && may_be_flat(elements) {
        out.push_str(&whole);
        return column + whole.chars().count();
    }
    if let Some(end) = closure_block(elements, indent, out) {
        return end;
    }
    if let Some(end) = chain(elements, indent, column, trailing, limit, out) {
        return end;
    }
    let (start, entry) = (column, out.len());
    for (index, element) in elements.iter().enumerate() {
        match element {
            Element::Text(text) => {
                out.push_str(text);
                column += text.chars().count();
            }
            Element::Group(group) if out[entry..].contains('\n') => {
                // After a broken part, rustfmt measures the room left on
                // the line from the shape's first column, counting the
                // line's indentation again: arguments that do not fit
                // there go on the next lines, with no trailing comma.
                let room = limit.saturating_sub(start).saturating_sub(column + 1);
                let whole = group.flat();
                // One column for the opening bracket, one for the closing.
                if group.inner_flat().chars().count() < room && group.may_be_flat() {
                    out.push_str(&whole);
                    column += whole.chars().count();
                } else if group.kind == Kind::Call && group.items.len() == 1 && limit == WIDTH {
                    // A single argument: on the line when it fits there.
                    let rest = room_after(elements, index, trailing);
                    column = lay_out_group(group, indent, column, rest, WIDTH, out);
                } else if group.kind == Kind::Call {
                    column = tall_arguments(group, indent, out);
                } else {
                    column = vertical(group, indent, true, out);
                }
            }
            Element::Group(group) => {
                let rest = room_after(elements, index, trailing);
                column = lay_out_group(group, indent, column, rest, limit, out);
            }
        }
    }
    column
}

/// The columns that must fit after element `index` on its line: the
/// text up to the next group, or the text to the end and `trailing`.
fn room_after(elements: &[Element], index: usize, trailing: usize) -> usize {
    let mut room = 0;
    for element in &elements[index + 1..] {
        match element {
            Element::Text(text) => room += text.chars().count(),
            Element::Group(_) => return room,
        }
    }
    room + trailing
}

/// Writes one group: on one line when it fits, else broken.
fn lay_out_group(
    group: &Group,
    indent: usize,
    column: usize,
    rest: usize,
    limit: usize,
    out: &mut String,
) -> usize {
    let whole = group.flat();
    // rustfmt does not break a turbofish (`::<T>`).
    let turbofish = group.kind == Kind::Generic && out.ends_with("::");
    if column + whole.chars().count() + rest <= limit && group.may_be_flat() || turbofish {
        out.push_str(&whole);
        return column + whole.chars().count();
    }
    if group.kind == Kind::QualifiedSelf {
        out.push('<');
        let inner = group.items.first().map(Vec::as_slice).unwrap_or_default();
        let end = lay_out(inner, indent, column + 1, rest + 1, limit, out);
        out.push('>');
        return end + 1;
    }
    if let Some(end) = overflow(group, indent, column, rest, limit, out) {
        return end;
    }
    vertical(group, indent, true, out)
}

/// The single item of a call (or array) laid out from the opening
/// bracket on, at the same indentation, when it is itself a call, array,
/// struct literal or closure (`Ok(Some(`, `new(&[&[`): rustfmt's overflow
/// of the last item. A method call is overflowed only when it stays on
/// one line, and the item's first line must fit in the call's width.
/// `None` when that does not apply or does not fit.
fn overflow(
    group: &Group,
    indent: usize,
    column: usize,
    rest: usize,
    limit: usize,
    out: &mut String,
) -> Option<usize> {
    if !matches!(group.kind, Kind::Call | Kind::Array)
        || group.items.len() != 1
        || group.trailing_comma
    {
        return None;
    }
    let item = &group.items[0];
    let closure = matches!(item.first(), Some(Element::Text(text)) if text.starts_with('|'));
    // The item's last group, before a `?` (rustfmt overflows through it).
    let last_group = match item.as_slice() {
        [.., Element::Group(last), Element::Text(question)] if question == "?" => Some(last),
        [.., Element::Group(last)] => Some(last),
        _ => None,
    };
    let overflowable = closure
        || last_group.is_some_and(|last| {
            matches!(last.kind, Kind::Call | Kind::Array | Kind::StructLiteral)
        });
    if !overflowable {
        return None;
    }
    // A call in a call is laid out within the call width (rustfmt's
    // shape for a nested call).
    let nested_call = last_group.is_some_and(|last| last.kind == Kind::Call);
    // rustfmt's one-line shape after the bracket keeps a column for the
    // closing one.
    let limit = if nested_call {
        limit.saturating_sub(1).min(column + 1 + CALL_WIDTH)
    } else {
        limit
    };
    let mut text = String::from(group.open());
    let end = lay_out(item, indent, column + 1, rest + 1, limit, &mut text);
    text.push_str(group.close());
    let first_line = text.split('\n').next().unwrap_or_default().chars().count() - 1;
    let method_call = !closure && is_method_call(item);
    if !fits(&text, column, rest)
        || first_line > CALL_WIDTH
        || column + first_line + 1 > limit
        || method_call && text.contains('\n') && text.lines().count() < 5
    {
        return None;
    }
    out.push_str(&text);
    Some(end + 1)
}

/// Whether `item` is a method call (`a.b(...)`, `a.b::<T>(...)`): a `.`
/// in the text before its final call (and turbofish).
fn is_method_call(item: &[Element]) -> bool {
    item.iter()
        .rev()
        .skip(1)
        .find_map(|element| match element {
            Element::Text(text) if text != "::" => Some(text.contains('.')),
            _ => None,
        })
        .unwrap_or(false)
}

/// A closure (`|x| body`) whose body does not fit: the body in a block.
fn closure_block(elements: &[Element], indent: usize, out: &mut String) -> Option<usize> {
    let Some(Element::Text(first)) = elements.first() else {
        return None;
    };
    if !first.starts_with('|') {
        return None;
    }
    let end = first[1..].find('|')? + 2;
    let (head, body_start) = first.split_at(end);
    let mut body: Vec<Element> = Vec::new();
    if !body_start.trim().is_empty() {
        body.push(Element::Text(body_start.trim_start().to_string()));
    }
    body.extend(elements[1..].iter().cloned());
    let inner = indent + INDENT;
    out.push_str(head);
    out.push_str(" {\n");
    out.push_str(&" ".repeat(inner));
    lay_out(&body, inner, inner, 0, WIDTH, out);
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push('}');
    Some(indent + 1)
}

/// Each item on a line of its own, one level deeper, with a trailing
/// comma; or, for an array of short literals, as many to a line as fit.
fn vertical(group: &Group, indent: usize, comma: bool, out: &mut String) -> usize {
    let inner = indent + INDENT;
    out.push_str(group.open());
    if group.kind == Kind::Array && short_literals(group) {
        fill(group, inner, out);
    } else {
        for (item_index, item) in group.items.iter().enumerate() {
            out.push('\n');
            out.push_str(&" ".repeat(inner));
            lay_out(item, inner, inner, 1, WIDTH, out);
            if comma || item_index + 1 < group.items.len() {
                out.push(',');
            }
        }
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push_str(group.close());
    indent + 1
}

/// Call arguments on the lines after the callee, one level deeper, on
/// one line when they fit, with no trailing comma (rustfmt's arguments
/// when no width is left on the callee's line in an overflowed item).
fn tall_arguments(group: &Group, indent: usize, out: &mut String) -> usize {
    let inner = indent + INDENT;
    let items: Vec<String> = group.items.iter().map(|item| flat(item)).collect();
    let one_line = items.join(", ");
    let separator = if inner + one_line.chars().count() <= WIDTH {
        ", ".to_string()
    } else {
        format!(",\n{}", " ".repeat(inner))
    };
    out.push('(');
    out.push('\n');
    out.push_str(&" ".repeat(inner));
    out.push_str(&items.join(&separator));
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push(')');
    indent + 1
}

/// Whether every item of an array is a literal of at most
/// [`SHORT_ARRAY_ELEMENT`] columns.
fn short_literals(group: &Group) -> bool {
    group.items.iter().all(|item| match item.as_slice() {
        [Element::Text(text)] => {
            text.chars().count() <= SHORT_ARRAY_ELEMENT
                && (text.starts_with('"')
                    || text
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'))
        }
        _ => false,
    })
}

/// The items of `group` filling lines indented `inner`.
fn fill(group: &Group, inner: usize, out: &mut String) {
    let mut column = WIDTH;
    for item in &group.items {
        let text = flat(item);
        let width = text.chars().count() + 1;
        // A space before an item that is not first on its line.
        if column + 1 + width > WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(inner));
            column = inner;
        } else {
            out.push(' ');
            column += 1;
        }
        out.push_str(&text);
        out.push(',');
        column += width;
    }
}

/// A function signature (`pub fn name<G>(params) -> Type`, no brace) at
/// indentation `indent`: on one line when it fits with ` {` after it;
/// else the parameters one a line, then `) -> Type`, the type broken only
/// when it does not fit on that line.
pub(super) fn signature(code: &str, indent: usize) -> String {
    let elements = parse(code, Mode::Type);
    let whole = flat(&elements);
    if indent + whole.chars().count() + 2 <= WIDTH {
        return whole;
    }
    let Some(parameters) = elements
        .iter()
        .position(|e| matches!(e, Element::Group(g) if g.kind == Kind::Parentheses))
    else {
        let mut out = String::new();
        lay_out(&elements, indent, indent, 2, WIDTH, &mut out);
        return out;
    };
    let mut out = String::new();
    lay_out(&elements[..parameters], indent, indent, 1, WIDTH, &mut out);
    if let Element::Group(group) = &elements[parameters] {
        vertical(group, indent, true, &mut out);
    }
    // rustfmt gives the return type (` -> Type`) the width after the
    // indentation, not counting the `)` before it.
    let rest = &elements[parameters + 1..];
    let rest_flat = flat(rest);
    if indent + rest_flat.trim_start().chars().count() <= WIDTH {
        out.push_str(&rest_flat);
    } else {
        lay_out(rest, indent, indent + 1, 2, WIDTH, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::writer::Writer;

    /// Lines the writer lays out as rustfmt 1.9 (edition 2024) formats
    /// them: each expected text is rustfmt's output for the same code.
    #[test]
    fn lines_are_laid_out_as_rustfmt_lays_them_out() {
        let numbers: Vec<String> = (1..=36).map(|n| n.to_string()).collect();
        let cases: [(&str, &str, &str); 3] = [
            (
                "pub const DATA: &[u8]",
                &format!("&[{}]", numbers.join(", ")),
                "pub const DATA: &[u8] = &[\n    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,\n    27, 28, 29, 30, 31, 32, 33, 34, 35, 36,\n];\n",
            ),
            (
                "pub const NAMES: &'static [&'static str]",
                r#"&["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda"]"#,
                "pub const NAMES: &'static [&'static str] = &[\n    \"alpha\", \"beta\", \"gamma\", \"delta\", \"epsilon\", \"zeta\", \"eta\", \"theta\", \"iota\", \"kappa\", \"lambda\",\n];\n",
            ),
            (
                "pub const LONG: &'static [&'static str]",
                r#"&["alphabetical", "beta", "gamma"]"#,
                "pub const LONG: &'static [&'static str] = &[\"alphabetical\", \"beta\", \"gamma\"];\n",
            ),
        ];
        for (left, right, want) in cases {
            let mut writer = Writer::new(0);
            writer.assign(left, right, ";");
            assert_eq!(writer.text(), want, "{left}");
        }
        let mut writer = Writer::new(0);
        writer.assign(
            "pub const LONG: &'static [&'static str]",
            r#"&["alphabetical", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]"#,
            ";",
        );
        assert_eq!(
            writer.text(),
            "pub const LONG: &'static [&'static str] = &[\n    \"alphabetical\",\n    \"beta\",\n    \"gamma\",\n    \"delta\",\n    \"epsilon\",\n    \"zeta\",\n    \"eta\",\n    \"theta\",\n];\n",
            "an element over 10 columns puts every element on a line of its own"
        );
    }

    /// A one-element array is not held to `array_width` (60 columns): it
    /// stays on one line wherever the line fits, here on the line after
    /// the `=` (rustfmt's output for the same code).
    #[test]
    fn one_element_array_is_laid_out_by_the_line_width() {
        let mut writer = Writer::new(3);
        writer.assign(
            "static DEPENDENCIES: &[fn() -> &'static ::capnarena::typed::SchemaNode]",
            "&[<super::point::Owned as ::capnarena::typed::HasSchema>::schema_node]",
            ";",
        );
        assert_eq!(
            writer.text(),
            "            static DEPENDENCIES: &[fn() -> &'static ::capnarena::typed::SchemaNode] =\n                &[<super::point::Owned as ::capnarena::typed::HasSchema>::schema_node];\n"
        );
        // On the next line it must leave a column free: at 100 columns
        // there, rustfmt opens the array on the `=` line instead.
        let mut writer = Writer::new(4);
        writer.assign(
            "static DEPENDENCIES: &[fn() -> &'static ::capnarena::typed::SchemaNode]",
            "&[<super::super::counter::Owned as ::capnarena::typed::HasSchema>::schema_node]",
            ";",
        );
        assert_eq!(
            writer.text(),
            "                static DEPENDENCIES: &[fn() -> &'static ::capnarena::typed::SchemaNode] = &[\n                    <super::super::counter::Owned as ::capnarena::typed::HasSchema>::schema_node,\n                ];\n"
        );
    }

    /// A call on the line after the `=` may end at the last column (unlike
    /// an array, above): rustfmt keeps this 100-column line whole.
    #[test]
    fn call_after_assignment_may_end_at_the_last_column() {
        let mut writer = Writer::new(3);
        writer.assign(
            "let client",
            "::capnarena_rpc::Client::from_dispatch(server, dispatch::<Client_, Server_, S_, S>)",
            ";",
        );
        assert_eq!(
            writer.text(),
            "            let client =\n                ::capnarena_rpc::Client::from_dispatch(server, dispatch::<Client_, Server_, S_, S>);\n"
        );
    }

    /// Calls: arguments over 60 columns go one a line even when the line
    /// would fit; a sole call argument stays on the line of its caller
    /// (`Ok(Some(`) when its first line fits.
    #[test]
    fn calls_break_as_rustfmt_breaks_them() {
        let mut writer = Writer::new(1);
        writer
            .line("let x = foo(aaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb);");
        assert_eq!(
            writer.text(),
            "    let x = foo(\n        aaaaaaaaaaaaaaaaaaaaaaa,\n        bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,\n    );\n"
        );
        let mut writer = Writer::new(4);
        writer.arm(
            "1",
            "Ok(WhichBuilder::Employer(<::capnarena::typed::Text as ::capnarena::typed::Owned>::get(self.builder.pointer(3))))",
        );
        assert_eq!(
            writer.text(),
            "                1 => Ok(WhichBuilder::Employer(\n                    <::capnarena::typed::Text as ::capnarena::typed::Owned>::get(\n                        self.builder.pointer(3),\n                    ),\n                )),\n"
        );
    }
}
