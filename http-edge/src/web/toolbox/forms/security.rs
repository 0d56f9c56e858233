//! The Security group's forms: protect, unlock, sanitize, sign.

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
