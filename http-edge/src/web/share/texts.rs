//! French and English texts of the encrypted share pages (the scripts carry their own status
//! lines), kept apart from i18n.rs's so that each file stays readable.

use super::super::i18n::Lang;

pub struct ShareTexts {
    /// The navigation entry and the sender page's title.
    pub nav: &'static str,
    pub send_title: &'static str,
    pub send_lead: &'static str,
    /// Encrypted content cannot be scanned: the recipient has to trust the sender.
    pub send_trust: &'static str,
    pub what: &'static str,
    pub a_file: &'static str,
    pub a_text: &'static str,
    pub file: &'static str,
    pub drop: &'static str,
    pub text: &'static str,
    pub expires: &'static str,
    pub lifetimes: [&'static str; 3],
    pub downloads: &'static str,
    pub downloads_hint: &'static str,
    pub password: &'static str,
    pub password_hint: &'static str,
    pub delivery: &'static str,
    pub in_link: &'static str,
    pub in_link_hint: &'static str,
    pub separate: &'static str,
    pub separate_hint: &'static str,
    pub send: &'static str,
    pub progress: &'static str,
    pub receive_title: &'static str,
    pub receive_lead: &'static str,
    pub receive_trust: &'static str,
    pub needs_script: &'static str,
    pub secret: &'static str,
    pub secret_hint: &'static str,
    pub open: &'static str,
    pub download: &'static str,
    pub memory_notice: &'static str,
    /// The dashboard's name for an encrypted share, and its count of downloads left.
    pub encrypted_share: &'static str,
    pub left: &'static str,
    pub revoke: &'static str,
    pub revoke_confirm: &'static str,
    pub no_key_kept: &'static str,
}

/// The lifetimes the sender page offers, in seconds, in the order of `lifetimes`; the second
/// (a day) is chosen first. The server caps them at its longest.
pub const LIFETIMES: [u64; 3] = [3600, 24 * 3600, 7 * 24 * 3600];

pub fn texts(lang: Lang) -> &'static ShareTexts {
    match lang {
        Lang::En => &EN,
        Lang::Fr => &FR,
    }
}

static EN: ShareTexts = ShareTexts {
    nav: "Share",
    send_title: "Share a file or a text, encrypted end to end",
    send_lead: "Your browser encrypts it before anything leaves it: the server stores only ciphertext \
                and never sees the key, which travels in the link (or apart from it). It is deleted \
                after its last download or when it expires.",
    send_trust: "Encrypted files cannot be scanned by the antivirus. Tell the recipient to expect it: \
                 they should open only what they know comes from you.",
    what: "What to share",
    a_file: "A file",
    a_text: "A text (a password, a note…)",
    file: "File",
    drop: "or drop it here",
    text: "Text",
    expires: "Expires after",
    lifetimes: ["1 hour", "1 day", "7 days"],
    downloads: "Downloads allowed",
    downloads_hint: "The share is deleted after the last one.",
    password: "Password (optional)",
    password_hint: "Mixed into the key: the recipient needs it as well. Tell it to them another way.",
    delivery: "How the key travels",
    in_link: "In the link",
    in_link_hint: "One thing to send.",
    separate: "Apart from the link",
    separate_hint: "A link and a short secret, to send by two different channels.",
    send: "Encrypt and share",
    progress: "Upload",
    receive_title: "Encrypted share",
    receive_lead: "Someone shared a file or a text with you. Your browser decrypts it: the server never \
                   sees the key or the content. Opening this page uses nothing; only Download does.",
    receive_trust: "Quire cannot scan encrypted files for viruses: open it only if you trust the person \
                    who sent you the link.",
    needs_script: "This page needs JavaScript: the file is decrypted in your browser, never on the server.",
    secret: "Secret",
    secret_hint: "The sender gave it to you apart from the link (20 letters and digits).",
    open: "Open",
    download: "Download",
    memory_notice: "This browser cannot decrypt straight to disk: the file is held in memory until it \
                    is saved, which a very large file may not survive.",
    encrypted_share: "Encrypted share",
    left: "left",
    revoke: "Revoke",
    revoke_confirm: "Revoke this share? Its link stops working at once.",
    no_key_kept: "Quire keeps no key of an encrypted share: its link opens nothing without the key or \
                  the secret you sent.",
};

static FR: ShareTexts = ShareTexts {
    nav: "Partager",
    send_title: "Partager un fichier ou un texte, chiffré de bout en bout",
    send_lead: "Votre navigateur le chiffre avant que quoi que ce soit n'en sorte : le serveur ne garde \
                que du chiffré et ne voit jamais la clé, qui voyage dans le lien (ou à part). Il est \
                supprimé après son dernier téléchargement ou à son expiration.",
    send_trust: "Les fichiers chiffrés ne peuvent pas passer par l'antivirus. Prévenez le destinataire : \
                 il ne doit ouvrir que ce qu'il sait venir de vous.",
    what: "Quoi partager",
    a_file: "Un fichier",
    a_text: "Un texte (un mot de passe, une note…)",
    file: "Fichier",
    drop: "ou déposez-le ici",
    text: "Texte",
    expires: "Expire après",
    lifetimes: ["1 heure", "1 jour", "7 jours"],
    downloads: "Téléchargements permis",
    downloads_hint: "Le partage est supprimé après le dernier.",
    password: "Mot de passe (facultatif)",
    password_hint: "Mêlé à la clé : le destinataire en a besoin aussi. Donnez-le-lui par un autre moyen.",
    delivery: "Comment voyage la clé",
    in_link: "Dans le lien",
    in_link_hint: "Une seule chose à envoyer.",
    separate: "À part du lien",
    separate_hint: "Un lien et un court secret, à envoyer par deux canaux différents.",
    send: "Chiffrer et partager",
    progress: "Envoi",
    receive_title: "Partage chiffré",
    receive_lead: "Quelqu'un vous a partagé un fichier ou un texte. Votre navigateur le déchiffre : le \
                   serveur ne voit jamais la clé ni le contenu. Ouvrir cette page ne consomme rien ; \
                   seul Télécharger le fait.",
    receive_trust: "Quire ne peut pas analyser les fichiers chiffrés : ne l'ouvrez que si vous faites \
                    confiance à la personne qui vous a envoyé le lien.",
    needs_script: "Cette page a besoin de JavaScript : le fichier est déchiffré dans votre navigateur, \
                   jamais sur le serveur.",
    secret: "Secret",
    secret_hint: "L'expéditeur vous l'a donné à part du lien (20 lettres et chiffres).",
    open: "Ouvrir",
    download: "Télécharger",
    memory_notice: "Ce navigateur ne peut pas déchiffrer directement sur le disque : le fichier est gardé \
                    en mémoire jusqu'à son enregistrement, ce qu'un très gros fichier peut ne pas supporter.",
    encrypted_share: "Partage chiffré",
    left: "restant(s)",
    revoke: "Révoquer",
    revoke_confirm: "Révoquer ce partage ? Son lien cesse aussitôt de fonctionner.",
    no_key_kept: "Quire ne garde aucune clé d'un partage chiffré : son lien n'ouvre rien sans la clé ou \
                  le secret que vous avez envoyés.",
};
