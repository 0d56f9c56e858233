//! French and English texts of the web pages. The browser's Accept-Language picks the language;
//! the switch in the header sets a cookie that overrides it.

use axum::{
    extract::{FromRequestParts, Path},
    http::{HeaderMap, header, request::Parts},
    response::{IntoResponse, Redirect, Response},
};

pub const COOKIE: &str = "quire_lang";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Fr,
    En,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    fn parse(code: &str) -> Option<Lang> {
        match code.get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some("fr") => Some(Lang::Fr),
            Some("en") => Some(Lang::En),
            _ => None,
        }
    }

    /// The cookie's choice, else the first of Accept-Language's languages we have (by q).
    pub fn of(headers: &HeaderMap) -> Lang {
        if let Some(lang) = super::session::cookie(headers, COOKIE).and_then(|c| Lang::parse(&c)) {
            return lang;
        }
        let accept = headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let mut ranked: Vec<(f32, Lang)> = accept
            .split(',')
            .filter_map(|item| {
                let mut parts = item.trim().split(';');
                let lang = Lang::parse(parts.next()?.trim())?;
                let q = parts
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.parse().ok())
                    .unwrap_or(1.0);
                Some((q, lang))
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked.first().map_or(Lang::En, |(_, lang)| *lang)
    }

    pub fn t(self) -> &'static Texts {
        match self {
            Lang::Fr => &FR,
            Lang::En => &EN,
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Lang::of(&parts.headers))
    }
}

/// GET /lang/{fr|en}: remembers the choice for a year and goes back where the user was.
pub async fn switch(Path(code): Path<String>, headers: HeaderMap) -> Response {
    let lang = Lang::parse(&code).unwrap_or(Lang::En);
    // Only a path of this site is a place to go back to.
    let back = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split_once("://").map(|(_, rest)| rest))
        .and_then(|rest| rest.find('/').map(|i| &rest[i..]))
        .and_then(super::next_path::local_path)
        .unwrap_or("/");
    (
        [(
            header::SET_COOKIE,
            format!(
                "{COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
                lang.code()
            ),
        )],
        Redirect::to(back),
    )
        .into_response()
}

/// Every text of the pages, in one language.
pub struct Texts {
    pub tagline: &'static str,
    pub pitch: &'static str,
    pub features: [&'static str; 5],
    pub sign_up: &'static str,
    pub log_in: &'static str,
    pub log_out: &'static str,
    pub api_docs: &'static str,
    pub email: &'static str,
    pub password: &'static str,
    pub password_hint: &'static str,
    pub have_account: &'static str,
    pub no_account: &'static str,
    pub dashboard: &'static str,
    pub api_keys: &'static str,
    pub files: &'static str,
    pub tools: &'static str,
    pub plan: &'static str,
    pub calls_today: &'static str,
    pub calls_left: &'static str,
    pub unlimited: &'static str,
    pub storage: &'static str,
    pub of: &'static str,
    pub name: &'static str,
    pub prefix: &'static str,
    pub scopes: &'static str,
    pub created: &'static str,
    pub last_used: &'static str,
    pub never: &'static str,
    pub status: &'static str,
    pub active: &'static str,
    pub revoked: &'static str,
    pub revoke: &'static str,
    pub revoke_confirm: &'static str,
    pub create_key: &'static str,
    pub scope_help: &'static str,
    pub new_key_title: &'static str,
    pub new_key_warning: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub no_keys: &'static str,
    pub size: &'static str,
    pub kind: &'static str,
    pub link: &'static str,
    pub expires: &'static str,
    pub downloads: &'static str,
    pub delete: &'static str,
    pub delete_confirm: &'static str,
    pub no_files: &'static str,
    pub language: &'static str,
    pub skip: &'static str,
    pub tool_names: [&'static str; 5],
    pub account: &'static str,
    pub change_password: &'static str,
    pub current_password: &'static str,
    pub new_password: &'static str,
    pub password_changed: &'static str,
    pub sessions_end: &'static str,
    /// The answer to every sign-up, new address or known one.
    pub signed_up: &'static str,
}

pub static EN: Texts = Texts {
    tagline: "Files in, results out.",
    pitch: "Quire is a self-hosted file service for scripts, CI pipelines and people: upload a file and \
            get a share link, extract text from images and PDFs, compress PDFs, turn PDFs into PNG \
            pages, and anonymize support logs with a summary and a draft reply. Every upload is \
            scanned by an antivirus.",
    features: [
        "Upload and share, scanned by ClamAV",
        "OCR of images and PDFs (French and English)",
        "PDF compression, four presets",
        "PDF pages as PNG images in a ZIP",
        "Support logs: anonymized, summarized, answered",
    ],
    sign_up: "Sign up",
    log_in: "Log in",
    log_out: "Log out",
    api_docs: "API documentation",
    email: "E-mail",
    password: "Password",
    password_hint: "At least 10 characters.",
    have_account: "Already have an account?",
    no_account: "No account yet?",
    dashboard: "Dashboard",
    api_keys: "API keys",
    files: "Files",
    tools: "Tools",
    plan: "Plan",
    calls_today: "Calls today",
    calls_left: "left today",
    unlimited: "no daily limit",
    storage: "Storage",
    of: "of",
    name: "Name",
    prefix: "Key",
    scopes: "Scopes",
    created: "Created",
    last_used: "Last used",
    never: "never",
    status: "Status",
    active: "active",
    revoked: "revoked",
    revoke: "Revoke",
    revoke_confirm: "Revoke this key? Calls made with it will be refused at once.",
    create_key: "Create a key",
    scope_help: "Pick at least one scope: upload (upload and processing), read, process.",
    new_key_title: "Your new API key",
    new_key_warning: "Copy it now: it will not be shown again. Only a fingerprint of it is stored.",
    copy: "Copy",
    copied: "Copied",
    no_keys: "No API key yet.",
    size: "Size",
    kind: "Type",
    link: "Share link",
    expires: "Expires",
    downloads: "Downloads",
    delete: "Delete",
    delete_confirm: "Delete this file? Its share link stops working.",
    no_files: "No file yet.",
    language: "Language",
    skip: "Skip to content",
    tool_names: [
        "Upload and share",
        "Text from images and PDFs (OCR)",
        "Compress a PDF",
        "PDF to PNG pages",
        "Support log: anonymize and answer",
    ],
    account: "Account",
    change_password: "Change the password",
    current_password: "Current password",
    new_password: "New password",
    password_changed: "Password changed. Every other session of this account was logged out.",
    sessions_end: "Changing the password logs you out everywhere else; this browser stays logged in.",
    signed_up: "If this address had no account, it has one now: log in with your password.",
};

pub static FR: Texts = Texts {
    tagline: "Des fichiers en entrée, des résultats en sortie.",
    pitch: "Quire est un service de fichiers auto-hébergé pour les scripts, les pipelines CI et les \
            personnes : déposez un fichier et obtenez un lien de partage, extrayez le texte des images \
            et des PDF, compressez des PDF, transformez des PDF en pages PNG, et anonymisez des \
            journaux de support avec un résumé et un brouillon de réponse. Chaque dépôt passe par un \
            antivirus.",
    features: [
        "Dépôt et partage, analysés par ClamAV",
        "OCR des images et des PDF (français et anglais)",
        "Compression de PDF, quatre réglages",
        "Pages de PDF en images PNG dans un ZIP",
        "Journaux de support : anonymisés, résumés, réponse proposée",
    ],
    sign_up: "Créer un compte",
    log_in: "Se connecter",
    log_out: "Se déconnecter",
    api_docs: "Documentation de l'API",
    email: "Adresse e-mail",
    password: "Mot de passe",
    password_hint: "Au moins 10 caractères.",
    have_account: "Déjà un compte ?",
    no_account: "Pas encore de compte ?",
    dashboard: "Tableau de bord",
    api_keys: "Clés d'API",
    files: "Fichiers",
    tools: "Outils",
    plan: "Offre",
    calls_today: "Appels aujourd'hui",
    calls_left: "restants aujourd'hui",
    unlimited: "pas de limite quotidienne",
    storage: "Stockage",
    of: "sur",
    name: "Nom",
    prefix: "Clé",
    scopes: "Droits",
    created: "Créée le",
    last_used: "Dernier usage",
    never: "jamais",
    status: "État",
    active: "active",
    revoked: "révoquée",
    revoke: "Révoquer",
    revoke_confirm: "Révoquer cette clé ? Les appels faits avec elle seront refusés aussitôt.",
    create_key: "Créer une clé",
    scope_help: "Choisissez au moins un droit : upload (dépôt et traitements), read, process.",
    new_key_title: "Votre nouvelle clé d'API",
    new_key_warning: "Copiez-la maintenant : elle ne sera plus affichée. Seule son empreinte est conservée.",
    copy: "Copier",
    copied: "Copié",
    no_keys: "Aucune clé d'API pour l'instant.",
    size: "Taille",
    kind: "Type",
    link: "Lien de partage",
    expires: "Expire le",
    downloads: "Téléchargements",
    delete: "Supprimer",
    delete_confirm: "Supprimer ce fichier ? Son lien de partage cessera de fonctionner.",
    no_files: "Aucun fichier pour l'instant.",
    language: "Langue",
    skip: "Aller au contenu",
    tool_names: [
        "Déposer et partager",
        "Texte des images et PDF (OCR)",
        "Compresser un PDF",
        "PDF en pages PNG",
        "Journal de support : anonymiser et répondre",
    ],
    account: "Compte",
    change_password: "Changer le mot de passe",
    current_password: "Mot de passe actuel",
    new_password: "Nouveau mot de passe",
    password_changed: "Mot de passe changé. Toutes les autres sessions de ce compte sont fermées.",
    sessions_end: "Changer le mot de passe vous déconnecte partout ailleurs ; ce navigateur reste connecté.",
    signed_up: "Si cette adresse n'avait pas de compte, elle en a un : connectez-vous avec votre mot de passe.",
};

/// For a refusal that says when to try again (`Retry-After`, in seconds): the sentence with the
/// wait in it.
pub fn retry_message(
    lang: Lang,
    code: quire_proto::ErrorCode,
    retry_after: Option<&axum::http::HeaderValue>,
) -> Option<String> {
    let seconds: u64 = retry_after?.to_str().ok()?.parse().ok()?;
    let fr = lang == Lang::Fr;
    let wait = if seconds <= 90 {
        format!("{seconds} s")
    } else {
        format!("{} min", seconds.div_ceil(60))
    };
    match code {
        quire_proto::ErrorCode::TooManyLoginAttempts if fr => Some(format!(
            "Trop de mots de passe incorrects : réessayez dans {wait} (chaque nouvel échec double l'attente)."
        )),
        quire_proto::ErrorCode::TooManyLoginAttempts => Some(format!(
            "Too many wrong passwords: try again in {wait} (each further failure doubles the wait)."
        )),
        _ => None,
    }
}

/// A sentence for an error code, in the page's language; the core's English detail otherwise.
pub fn error_message(lang: Lang, code: &str, detail: &str) -> String {
    let fr = lang == Lang::Fr;
    let text = match code {
        "invalid-key-form" if fr => {
            "Donnez un nom à la clé (1 à 100 caractères) et cochez au moins un droit."
        }
        "invalid-key-form" => {
            "Give the key a name (1 to 100 characters) and tick at least one scope."
        }
        "wrong-current-password" if fr => "Le mot de passe actuel est incorrect : rien n'a changé.",
        "wrong-current-password" => "The current password is wrong: nothing was changed.",
        "weak-password" if fr => "Le mot de passe doit compter de 10 à 256 caractères.",
        "weak-password" => "The password needs 10 to 256 characters.",
        "invalid-credentials" if fr => "Adresse e-mail ou mot de passe incorrect.",
        "invalid-credentials" => "Wrong e-mail or password.",
        "email-taken" if fr => "Un compte existe déjà pour cette adresse : connectez-vous.",
        "email-taken" => "An account already exists for this address: log in instead.",
        "too-many-login-attempts" if fr => {
            "Trop de tentatives échouées : réessayez dans quelques minutes."
        }
        "too-many-login-attempts" => "Too many failed attempts: try again in a few minutes.",
        "too-many-sign-ups" if fr => {
            "Trop de comptes créés depuis cette adresse : réessayez dans quelques minutes."
        }
        "too-many-sign-ups" => {
            "Too many accounts were created from this address: try again in a few minutes."
        }
        "csrf-rejected" if fr => {
            "Le formulaire a expiré ou vient d'ailleurs : rechargez la page et réessayez."
        }
        "csrf-rejected" => {
            "The form expired or came from elsewhere: reload the page and try again."
        }
        "web-only-tool" if fr => "Cet outil ne s'utilise que depuis l'interface web.",
        "web-only-tool" => "This tool is only available from the web interface.",
        _ => return detail.to_owned(),
    };
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(pairs: &[(header::HeaderName, &str)]) -> Lang {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(name.clone(), value.parse().unwrap());
        }
        Lang::of(&headers)
    }

    #[test]
    fn accept_language_picks_and_the_cookie_overrides() {
        assert_eq!(
            lang(&[(header::ACCEPT_LANGUAGE, "fr-FR,fr;q=0.9,en;q=0.8")]),
            Lang::Fr
        );
        assert_eq!(
            lang(&[(header::ACCEPT_LANGUAGE, "de-DE, en;q=0.5, fr;q=0.7")]),
            Lang::Fr
        );
        assert_eq!(
            lang(&[(header::ACCEPT_LANGUAGE, "de-DE, en-GB;q=0.5")]),
            Lang::En
        );
        assert_eq!(lang(&[]), Lang::En);
        assert_eq!(
            lang(&[
                (header::ACCEPT_LANGUAGE, "fr"),
                (header::COOKIE, "quire_lang=en")
            ]),
            Lang::En
        );
    }
}
