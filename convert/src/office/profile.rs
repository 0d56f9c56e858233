//! A fresh LibreOffice profile per engine start, seeded with settings that keep a document
//! from running code or reaching out.

use std::fs;
use std::io;
use std::path::Path;

/// Settings written as the profile's `user/registrymodifications.xcu` (LibreOffice 7.4 keys):
/// - macros: security level 3 ("very high": only signed macros from trusted locations) and
///   macro execution disabled outright;
/// - `BlockUntrustedRefererLinks`: no linked image or resource fetched for a document from an
///   untrusted location (every upload is one);
/// - links and OLE objects never updated (Writer: 0 = never; Calc: 1 = never), formulas never
///   recalculated on load (so no WEBSERVICE() call);
/// - no auto-save, no recovery data, no update check, no lock files.
const REGISTRY: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Recovery/AutoSave"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Recovery/RecoveryInfo"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Update/Update"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseDocumentSystemFileLocking" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseDocumentOOoLockFile" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
"#;

/// Makes `profile` a fresh profile: a copy of `template` (a profile LibreOffice created and
/// never opened a document with) when there is one, else just the seeded settings, from which
/// LibreOffice builds the rest (and then asks to be restarted once: the bridge does that).
/// The settings are written in both cases, so a template never weakens them.
pub(super) fn create(profile: &Path, template: &Path) -> io::Result<()> {
    if template.is_dir() {
        copy_dir(template, profile)?;
    }
    let user = profile.join("user");
    fs::create_dir_all(&user)?;
    if !template.is_dir() {
        fs::write(user.join("registrymodifications.xcu"), REGISTRY)?;
    } else {
        reapply(&user.join("registrymodifications.xcu"))?;
    }
    Ok(())
}

/// Puts the seeded items back at the end of a template's settings (later items win).
fn reapply(path: &Path) -> io::Result<()> {
    let existing = fs::read_to_string(path).unwrap_or_default();
    let items = REGISTRY
        .lines()
        .filter(|line| line.starts_with("<item "))
        .collect::<Vec<_>>()
        .join("\n");
    let merged = match existing.rfind("</oor:items>") {
        Some(end) => format!("{}{items}\n</oor:items>\n", &existing[..end]),
        None => REGISTRY.to_owned(),
    };
    fs::write(path, merged)
}

fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), target)?;
        }
        // Symlinks (none in a new profile) are left out rather than followed.
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_keeps_the_seeded_settings_last() {
        let dir = tempfile::tempdir().expect("temp dir");
        let template = dir.path().join("template");
        fs::create_dir_all(template.join("user")).expect("mkdir");
        fs::write(
            template.join("user/registrymodifications.xcu"),
            "<oor:items>\n<item oor:path=\"/org.openoffice.Office.Common/Security/Scripting\"><prop oor:name=\"MacroSecurityLevel\" oor:op=\"fuse\"><value>0</value></prop></item>\n</oor:items>\n",
        )
        .expect("write");
        let profile = dir.path().join("profile");
        create(&profile, &template).expect("create");
        let settings =
            fs::read_to_string(profile.join("user/registrymodifications.xcu")).expect("read");
        let weak = settings
            .find("<value>0</value></prop></item>")
            .expect("kept");
        let strong = settings.rfind("MacroSecurityLevel").expect("reapplied");
        assert!(strong > weak, "{settings}");
        assert!(settings.trim_end().ends_with("</oor:items>"));
    }
}
