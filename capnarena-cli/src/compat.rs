//! `capnarena compat OLD NEW`: is the change from schema OLD to schema
//! NEW safe to deploy? Each side is a `.capnp` file, compiled in process,
//! or a saved CodeGeneratorRequest (`.bin`, or `-` for standard input).
//! The checking is `capnarena_dynamic::compat`'s.

use std::io::{Read, Write};
use std::process::ExitCode;

use capnarena_compiler::Compiler;
use capnarena_dynamic::compat::{self, CompatSchema, Finding, Location, Rule, Verdict};
use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::schema::ImportOptions;

/// The subcommand's arguments.
pub fn command() -> Command {
    Command::new("compat")
        .about("Check that a schema change keeps old and new programs compatible")
        .long_about(
            "Compares schema <old> with schema <new> by capnproto.org's rules for evolving a \
             protocol and prints every change, as a compiler prints diagnostics: \
             `file:line:col: error[rule]: ...` for a change that breaks the wire, `warning` for \
             one that only breaks text, JSON or generated source (a rename), `note` for a \
             compatible one.\n\
             Each side is a .capnp file, or a saved CodeGeneratorRequest (`capnp compile -o-` \
             output): a file ending in .bin, or `-` for standard input.\n\
             Exit status: 0 when the change is wire-compatible, 1 when it is not (after \
             --allow), 2 when a schema cannot be read.",
        )
        .arg(Arg::new("old").value_name("old").required(true))
        .arg(Arg::new("new").value_name("new").required(true))
        .arg(
            Arg::new("allow")
                .long("allow")
                .value_name("rule")
                .action(ArgAction::Append)
                .help("Accept changes of this rule (a code such as `field-removed`); repeatable."),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("format")
                .value_parser(["human", "json"])
                .default_value("human")
                .help("`human` (one diagnostic per change) or `json` (one object)."),
        )
}

/// Runs the command: 0 compatible, 1 incompatible, 2 unreadable input.
pub fn run(imports: &ImportOptions, m: &ArgMatches) -> ExitCode {
    match check(imports, m) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("capnarena compat: {msg}");
            ExitCode::from(2)
        }
    }
}

fn check(imports: &ImportOptions, m: &ArgMatches) -> Result<ExitCode, String> {
    let mut allowed = Vec::new();
    for code in m.get_many::<String>("allow").into_iter().flatten() {
        let rule = Rule::from_code(code).ok_or_else(|| {
            let codes: Vec<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
            format!("unknown rule {code:?}; the rules are: {}", codes.join(", "))
        })?;
        allowed.push(rule);
    }
    let old_path = m.get_one::<String>("old").map_or("", String::as_str);
    let new_path = m.get_one::<String>("new").map_or("", String::as_str);
    if old_path == "-" && new_path == "-" {
        return Err("only one side can be read from standard input".to_owned());
    }
    let old = side(old_path, imports)?;
    let new = side(new_path, imports)?;
    let report = compat::check(&old, &new);
    let json = m.get_one::<String>("format").is_some_and(|f| f == "json");
    let text = if json {
        to_json(&report.findings, &allowed)
    } else {
        to_human(&report.findings, &allowed)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing the report: {e}"))?;
    Ok(if report.is_wire_compatible(&allowed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// One side: a saved request (`-` or `*.bin`) or a schema file.
fn side(path: &str, imports: &ImportOptions) -> Result<CompatSchema, String> {
    if path == "-" || path.ends_with(".bin") {
        let mut bytes = Vec::new();
        if path == "-" {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("standard input: {e}"))?;
        } else {
            bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        }
        return CompatSchema::from_request_bytes(&bytes).map_err(|e| format!("{path}: {e}"));
    }
    let text = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut compiler = Compiler::new();
    for dir in &imports.import_paths {
        compiler = compiler.import_path(dir);
    }
    if imports.no_standard_import {
        compiler = compiler.no_standard_import();
    }
    match CompatSchema::compile_with(compiler, &[(path, text)]) {
        Ok(s) => Ok(s),
        Err(capnarena_dynamic::Error::Compile(d)) => Err(d.to_string().trim_end().to_owned()),
        Err(e) => Err(format!("{path}: {e}")),
    }
}

fn to_human(findings: &[Finding], allowed: &[Rule]) -> String {
    let mut out = String::new();
    let mut counts = [0usize; 3];
    for f in findings {
        out.push_str(&f.to_string());
        if allowed.contains(&f.rule) {
            out.push_str(" (allowed)");
        } else {
            counts[f.verdict() as usize] += 1;
        }
        out.push('\n');
    }
    let [compatible, binary_only, incompatible] = counts;
    out.push_str(&format!(
        "{incompatible} incompatible, {binary_only} binary-only, {compatible} compatible change(s)\n"
    ));
    out
}

fn to_json(findings: &[Finding], allowed: &[Rule]) -> String {
    let mut out = String::from("{\"findings\": [");
    for (i, f) in findings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let b = f.rule.breaks();
        out.push_str(&format!(
            "\n  {{\"rule\": {}, \"verdict\": {}, \"allowed\": {}, \"breaks\": {{\"new_reading_old\": {}, \"old_reading_new\": {}}}, \"message\": {}, \"old\": {}, \"new\": {}}}",
            quote(f.rule.code()),
            quote(f.verdict().code()),
            allowed.contains(&f.rule),
            b.new_reading_old,
            b.old_reading_new,
            quote(&f.message),
            location(f.old.as_ref()),
            location(f.new.as_ref()),
        ));
    }
    let incompatible = findings
        .iter()
        .filter(|f| f.verdict() == Verdict::Incompatible && !allowed.contains(&f.rule))
        .count();
    out.push_str(&format!(
        "\n], \"incompatible\": {incompatible}, \"wire_compatible\": {}}}\n",
        incompatible == 0
    ));
    out
}

fn location(at: Option<&Location>) -> String {
    let Some(at) = at else {
        return "null".to_owned();
    };
    match &at.position {
        Some(p) => format!(
            "{{\"name\": {}, \"file\": {}, \"line\": {}, \"column\": {}}}",
            quote(&at.name),
            quote(&p.file),
            p.line,
            p.column
        ),
        None => format!("{{\"name\": {}}}", quote(&at.name)),
    }
}

/// A JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn json_strings_escape_quotes_and_controls() {
        assert_eq!(quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }
}
