//! The browser-local tools and their groups. Each has its script `web/src/local-{slug}.js`
//! (bundled by build.rs) served at `/assets/local-{slug}.js`.

use crate::web::i18n::Lang;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LocalGroup {
    Social,
    Web,
}

impl LocalGroup {
    pub const ALL: [LocalGroup; 2] = [LocalGroup::Social, LocalGroup::Web];

    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (LocalGroup::Social, Lang::En) => "Social media",
            (LocalGroup::Social, Lang::Fr) => "Réseaux sociaux",
            (LocalGroup::Web, Lang::En) => "Web publishing",
            (LocalGroup::Web, Lang::Fr) => "Publication web",
        }
    }
}

/// A browser-local tool: its slug, group, names and whether it runs WebAssembly (its page's
/// CSP then allows compiling it).
pub struct LocalTool {
    pub slug: &'static str,
    pub group: LocalGroup,
    pub wasm: bool,
    en: (&'static str, &'static str),
    fr: (&'static str, &'static str),
}

impl LocalTool {
    pub fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en.0,
            Lang::Fr => self.fr.0,
        }
    }

    pub fn blurb(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en.1,
            Lang::Fr => self.fr.1,
        }
    }
}

pub const LOCAL_TOOLS: &[LocalTool] = &[
    LocalTool {
        slug: "social-resize",
        group: LocalGroup::Social,
        wasm: false,
        en: (
            "Resize for social media",
            "One image cropped to every network's formats around a focal point you drag; a ZIP.",
        ),
        fr: (
            "Redimensionner pour les réseaux",
            "Une image recadrée aux formats de chaque réseau autour d'un point que vous placez ; un ZIP.",
        ),
    },
    LocalTool {
        slug: "og-preview",
        group: LocalGroup::Social,
        wasm: false,
        en: (
            "Link preview",
            "How a link's card will look on the main networks, and the <meta> tags to paste.",
        ),
        fr: (
            "Aperçu de lien",
            "L'allure de la carte d'un lien sur les principaux réseaux, et les balises <meta> à coller.",
        ),
    },
    LocalTool {
        slug: "text-on-image",
        group: LocalGroup::Social,
        wasm: false,
        en: (
            "Text on an image",
            "A title and subtitle over a photo or a colour, with each network's safe areas; PNG or JPEG.",
        ),
        fr: (
            "Texte sur une image",
            "Un titre et un sous-titre sur une photo ou une couleur, avec les zones sûres de chaque réseau ; PNG ou JPEG.",
        ),
    },
    LocalTool {
        slug: "qr",
        group: LocalGroup::Social,
        wasm: false,
        en: (
            "QR code",
            "A QR code for a link, a Wi-Fi network or a contact card, as SVG and PNG.",
        ),
        fr: (
            "QR code",
            "Un QR code pour un lien, un réseau Wi-Fi ou une carte de visite, en SVG et PNG.",
        ),
    },
    LocalTool {
        slug: "image-optimize",
        group: LocalGroup::Web,
        wasm: true,
        en: (
            "Optimize images",
            "Photos and images converted to WebP, AVIF or JPEG at the quality and size you choose, with the savings and a before/after view.",
        ),
        fr: (
            "Optimiser des images",
            "Photos et images converties en WebP, AVIF ou JPEG à la qualité et à la taille choisies, avec le gain et une vue avant/après.",
        ),
    },
    LocalTool {
        slug: "favicon",
        group: LocalGroup::Web,
        wasm: false,
        en: (
            "Favicon set",
            "From one image or SVG: the ICO, the PNG icons, the web manifest and the tags; a ZIP.",
        ),
        fr: (
            "Jeu de favicons",
            "D'une image ou d'un SVG : l'ICO, les icônes PNG, le manifeste web et les balises ; un ZIP.",
        ),
    },
    LocalTool {
        slug: "exif-strip",
        group: LocalGroup::Web,
        wasm: false,
        en: (
            "Remove photo metadata",
            "EXIF, GPS position, camera and comments removed without re-encoding, showing what was there.",
        ),
        fr: (
            "Retirer les métadonnées",
            "EXIF, position GPS, appareil et commentaires retirés sans réencoder, en montrant ce qu'il y avait.",
        ),
    },
    LocalTool {
        slug: "minify",
        group: LocalGroup::Web,
        wasm: false,
        en: (
            "Minify HTML, CSS, JS",
            "HTML, CSS and JavaScript minified, with the sizes before and after, plain and gzipped.",
        ),
        fr: (
            "Minifier HTML, CSS, JS",
            "HTML, CSS et JavaScript minifiés, avec les tailles avant et après, brutes et compressées.",
        ),
    },
];
