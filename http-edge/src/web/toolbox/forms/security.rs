//! The Security group's forms: protect, unlock, sanitize, sign, redact.

use maud::{Markup, html};

use super::inputs::{Say, check, number, pdf, radio, text};

pub fn fields(say: Say, slug: &str) -> Option<Markup> {
    let t = |en, french| say.t(en, french);
    Some(match slug {
        "protect" => html! {
            (pdf(say))
            label for="userPassword" { (t("Password to open", "Mot de passe d'ouverture")) }
            input #userPassword type="password" name="userPassword" autocomplete="new-password";
            label for="ownerPassword" { (t("Owner password (to change the permissions)", "Mot de passe propriétaire (pour changer les droits)")) }
            input #ownerPassword type="password" name="ownerPassword" autocomplete="new-password";
            fieldset {
                legend { (t("Allowed", "Autorisé")) }
                (check("allowPrint", t("print", "imprimer"), true))
                (check("allowCopy", t("copy text", "copier le texte"), false))
                (check("allowModify", t("modify", "modifier"), false))
            }
        },
        "unlock" => html! {
            (pdf(say))
            label for="password" { (t("The PDF's password", "Le mot de passe du PDF")) }
            input #password type="password" name="password" required autocomplete="off";
        },
        "sanitize" => html! {
            (pdf(say))
            fieldset {
                legend { (t("Keep", "Garder")) }
                (check("keepJavascript", "JavaScript", false))
                (check("keepEmbeddedFiles", t("embedded files", "fichiers joints"), false))
                (check("keepLinks", t("external links", "liens externes"), false))
                (check("keepMetadata", t("metadata", "métadonnées"), false))
                (check("keepHiddenLayers", t("hidden layers", "calques masqués"), false))
            }
        },
        "sign" => sign(say),
        "redact" => redact(say),
        _ => return None,
    })
}

/// Sign's form, driven by sign.js: the page drawn in the browser to place the box on (the
/// numbers stay as the keyboard's way), the signature pad or an image or a typed name, and the
/// certificate. Sections that do not apply are hidden and disabled, so their files are not
/// sent and their inputs are not required; the files go in the order the edge reads them: the
/// PDF, the signature image, the certificate.
fn sign(say: Say) -> Markup {
    let t = |en, french| say.t(en, french);
    html! {
        (pdf(say))
        fieldset #sign-where.sign-where {
            legend { (t("Where", "Où")) }
            div #sign-place.sign-place hidden {
                div #sign-page.sign-page {
                    div #sign-box.sign-box tabindex="0" role="img" aria-label=(t("Signature box: arrow keys move it", "Cadre de la signature : les flèches le déplacent")) {}
                }
                small { (t("Click or drag on the page to place the signature box.", "Cliquez ou faites glisser sur la page pour placer le cadre de la signature.")) }
            }
            div.numbers {
                div.stack { (number("page", t("Page (0: the last one)", "Page (0 : la dernière)"), "1", "0", "", "1")) }
                div.stack { (number("x", t("From the left (share of the width)", "Depuis la gauche (part de la largeur)"), "0.6", "0", "1", "0.001")) }
                div.stack { (number("y", t("From the top (share of the height)", "Depuis le haut (part de la hauteur)"), "0.8", "0", "1", "0.001")) }
                div.stack { (number("width", t("Width (share of the page width)", "Largeur (part de la largeur de page)"), "0.3", "0", "1", "0.001")) }
            }
        }
        fieldset {
            legend { (t("Visible signature", "Signature visible")) }
            (radio("appearance", "image", t("drawn, or an image", "dessinée, ou une image"), true))
            (radio("appearance", "text", t("typed name", "nom tapé"), false))
            (radio("appearance", "none", t("none (certificate only)", "aucune (certificat seulement)"), false))
        }
        fieldset #sign-image.stack data-appearance="image" {
            legend { (t("Draw your signature", "Dessinez votre signature")) }
            div #signature-pad.file-source.stack {
                canvas #signature-canvas.signature-canvas width="600" height="200" role="img" aria-label=(t("Signature pad: draw with a mouse, a finger or a pen", "Zone de signature : dessinez à la souris, au doigt ou au stylet")) {}
                div.actions {
                    button #signature-clear.button.secondary type="button" { (t("Clear", "Effacer")) }
                }
                label for="signatureImage" { (t("…or choose an image of it (PNG or JPEG)", "…ou choisissez-en une image (PNG ou JPEG)")) }
                input #signatureImage type="file" accept="image/png,image/jpeg";
            }
        }
        fieldset #sign-text.stack data-appearance="text" hidden disabled {
            legend { (t("Typed name", "Nom tapé")) }
            (text("text", t("Your name as it should appear", "Votre nom tel qu'il doit apparaître"), "Ada Lovelace"))
        }
        (check("certificate", t("Also sign digitally with my certificate (.p12 or .pfx)", "Signer aussi numériquement avec mon certificat (.p12 ou .pfx)"), false))
        fieldset #sign-certificate.stack hidden disabled {
            legend { (t("Certificate", "Certificat")) }
            div.drop data-drop="file" {
                label for="certificateFile" { (t("Certificate file (PKCS#12: .p12 or .pfx)", "Fichier du certificat (PKCS#12 : .p12 ou .pfx)")) }
                input #certificateFile type="file" name="file" required accept=".p12,.pfx,application/x-pkcs12";
            }
            label for="certificatePassword" { (t("Its password", "Son mot de passe")) }
            input #certificatePassword type="password" name="certificatePassword" autocomplete="off";
            (text("reason", t("Reason (optional)", "Motif (facultatif)"), ""))
            (text("location", t("Place (optional)", "Lieu (facultatif)"), ""))
            (text("contact", t("Contact (optional)", "Contact (facultatif)"), ""))
        }
    }
}

/// Redact's form, driven by redact.js: the pages drawn in the browser, on which a drag marks an
/// area; the search, whose hits are listed to accept or reject and drawn on the pages; the
/// boxes' look. The script keeps the hidden fields (JSON) in step with what is marked.
fn redact(say: Say) -> Markup {
    let t = |en, french| say.t(en, french);
    html! {
        (pdf(say))
        input type="hidden" name="action" value="apply";
        input #areas type="hidden" name="areas" value="[]";
        input #removedTerms type="hidden" name="removedTerms" value="[]";
        input #terms type="hidden" name="terms" value="[]";
        input #patterns type="hidden" name="patterns" value="[]";
        div #redact-pages.redact-pages hidden {}
        p #redact-status aria-live="polite" {
            (t("Choose a PDF: its pages appear here; drag on a page to mark an area.", "Choisissez un PDF : ses pages s'affichent ici ; faites glisser sur une page pour marquer une zone."))
        }
        fieldset.stack {
            legend { (t("Search", "Recherche")) }
            label for="termsList" { (t("Words or phrases, one per line", "Mots ou expressions, un par ligne")) }
            textarea #termsList data-local rows="3" {}
            label for="patternsList" { (t("Regular expressions, one per line (optional)", "Expressions régulières, une par ligne (facultatif)")) }
            textarea #patternsList data-local rows="2" {}
            div {
                (check("presetEmail", t("e-mail addresses", "adresses e-mail"), false))
                (check("presetIp", t("IP addresses (IPv4, IPv6)", "adresses IP (IPv4, IPv6)"), false))
                (check("presetAccount", t("DOMAIN\\user names", "noms DOMAINE\\utilisateur"), false))
                (check("presetHost", t("host names", "noms d'hôte"), false))
            }
            div.actions { button #redact-find.button.secondary type="button" { (t("Find", "Chercher")) } }
            div #redact-hits {}
            (check("searchAll", t("Redact every hit of the search without reviewing it", "Caviarder chaque résultat de la recherche sans le relire"), false))
        }
        fieldset.stack {
            legend { (t("Boxes", "Cadres")) }
            label for="fill" { (t("Colour", "Couleur")) }
            input #fill type="color" name="fill" value="#000000";
            (text("label", t("Text in each box (optional)", "Texte dans chaque cadre (facultatif)"), "REDACTED"))
            (check("cleanDocument", t("Also clean bookmarks, metadata and attachments that contain a removed word", "Nettoyer aussi les signets, métadonnées et pièces jointes qui contiennent un mot retiré"), true))
        }
    }
}
