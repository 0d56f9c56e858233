//! The sign tool's steps: options and certificate checked before the document is read, the
//! appearance drawn into the page (visible signature only) or into a signature field's
//! widget, and the signature appended as an incremental update and filled in over the
//! file's final bytes.

use std::path::Path;
use std::time::SystemTime;

use lopdf::{Document, Object, dictionary, text_string};
use sha2::{Digest, Sha256};

use super::appearance::{self, Drawing};
use super::certificate::Identity;
use super::field::{self, Widget};
use super::incremental::{self, Slot};
use super::placement::{self, Spot};
use super::{Sign, Signed, signed_data};
use crate::pages::{self, Tree};
use crate::stamp::content::{self, Resource, Stamper};
use crate::stamp::geometry::matrix_cm;
use crate::{ToolError, io};

/// Room kept in /Contents beyond the CMS measured before signing: an ECDSA signature's DER
/// varies by a few bytes, and the document's own digest is the same size whatever it is.
const ROOM_SLACK: usize = 1024;

pub fn sign(input: &Path, sign: &Sign, output: &Path) -> Result<Signed, ToolError> {
    if sign.appearance.is_none() && sign.certificate.is_none() {
        return Err(ToolError::BadOptions(
            "nothing to sign with: draw, type or upload a signature, or give a certificate \
             (.p12/.pfx) for a digital signature"
                .into(),
        ));
    }
    if sign.appearance.is_some() {
        placement::check(&sign.placement)?;
    }
    let drawing = sign.appearance.as_ref().map(Drawing::new).transpose()?;
    let now = SystemTime::now();
    let identity = sign
        .certificate
        .as_ref()
        .map(|certificate| Identity::load(certificate, now))
        .transpose()?;
    let mut doc = io::open(input)?;
    let signed_before = has_signatures(&doc);
    if signed_before && doc.encryption_state.is_some() {
        return Err(ToolError::BadOptions(
            "this PDF is encrypted and already signed: adding a signature would break the \
             earlier ones"
                .into(),
        ));
    }
    let pages = crate::count(pages::walk(&doc)?.pages.len());
    if identity.is_none() && !signed_before {
        draw_and_rewrite(&mut doc, drawing.as_ref(), sign, output)?;
        return Ok(Signed {
            pages,
            signer: None,
        });
    }
    // A signed file keeps its bytes, or its signatures would break; any other is rewritten
    // first, so that the update goes onto a sound file.
    let (base, doc) = if signed_before {
        let bytes = std::fs::read(input)
            .map_err(|e| ToolError::Io(format!("cannot read the staged file: {e}")))?;
        (bytes, doc)
    } else {
        io::save(&mut doc, output)?;
        let bytes = std::fs::read(output)
            .map_err(|e| ToolError::Io(format!("cannot read the output back: {e}")))?;
        let doc = Document::load_mem(&bytes)
            .map_err(|e| ToolError::Io(format!("cannot read the output back: {e}")))?;
        (bytes, doc)
    };
    let original = doc.clone();
    let mut doc = doc;
    let tree = pages::walk(&doc)?;
    let spot = match &drawing {
        Some(drawing) => Some(placement::locate(
            &doc,
            &tree,
            &sign.placement,
            drawing.aspect,
        )?),
        None => None,
    };
    let file = match &identity {
        None => {
            if let (Some(drawing), Some(spot)) = (&drawing, &spot) {
                draw(&mut doc, &tree, drawing, spot, &mut Stamper::new());
            }
            incremental::append(&base, &original, &doc, None)?.0
        }
        Some(identity) => {
            let widget = widget(&mut doc, &tree, drawing.as_ref(), spot.as_ref());
            let signature = io::new_id(&mut doc)?;
            let dict = signature_dictionary(sign, identity, now);
            doc.objects
                .insert(signature, Object::Dictionary(dict.clone()));
            field::add(&mut doc, &widget, signature)?;
            let room = signed_data::build(identity, &[0; 32])?.len() + ROOM_SLACK;
            let (mut file, holes) = incremental::append(
                &base,
                &original,
                &doc,
                Some(Slot {
                    id: signature,
                    dict: &dict,
                    room,
                }),
            )?;
            let holes =
                holes.ok_or_else(|| ToolError::Io("the signature was not written".into()))?;
            let [_, first, second, _] = incremental::fill_range(&mut file, holes);
            let mut hasher = Sha256::new();
            hasher.update(&file[..first]);
            hasher.update(&file[second..]);
            let cms = signed_data::build(identity, &hasher.finalize())?;
            incremental::fill_contents(&mut file, holes, &cms)?;
            file
        }
    };
    std::fs::write(output, file)
        .map_err(|e| ToolError::Io(format!("cannot write the output: {e}")))?;
    Ok(Signed {
        pages,
        signer: identity.map(|identity| identity.signer),
    })
}

/// Whether the document holds a signature already: a dictionary with a /ByteRange and its
/// /Contents (a signature or a document timestamp).
fn has_signatures(doc: &Document) -> bool {
    doc.objects.values().any(|object| {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &stream.dict,
            _ => return false,
        };
        dict.has(b"ByteRange") && dict.has(b"Contents")
    })
}

/// A visible signature without a certificate on an unsigned file: drawn into the page and
/// the file written as every tool writes it.
fn draw_and_rewrite(
    doc: &mut Document,
    drawing: Option<&Drawing>,
    sign: &Sign,
    output: &Path,
) -> Result<(), ToolError> {
    let mut tree = pages::walk(doc)?;
    content::flatten(doc, &mut tree)?;
    if let Some(drawing) = drawing {
        let spot = placement::locate(doc, &tree, &sign.placement, drawing.aspect)?;
        draw(doc, &tree, drawing, &spot, &mut Stamper::new());
    }
    io::save(doc, output)
}

/// Draws the appearance over the page's content.
fn draw(doc: &mut Document, tree: &Tree, drawing: &Drawing, spot: &Spot, stamper: &mut Stamper) {
    let form = drawing.add_form(doc, (spot.width, spot.height), crate::geometry::IDENTITY);
    let page = &tree.pages[spot.index];
    let names = stamper.add_resources(
        doc,
        page,
        &[Resource {
            category: b"XObject",
            name: "QuireSignature",
            object: form,
        }],
    );
    let name = names
        .first()
        .map(|name| content::name(name))
        .unwrap_or_default();
    let stream = format!("q\n{}{name} Do\nQ\n", matrix_cm(spot.to_user));
    stamper.add_content(doc, page.id, stream, false);
}

/// The widget of the signature field: the appearance at its spot, or nothing on page 1.
fn widget(
    doc: &mut Document,
    tree: &Tree,
    drawing: Option<&Drawing>,
    spot: Option<&Spot>,
) -> Widget {
    match (drawing, spot) {
        (Some(drawing), Some(spot)) => Widget {
            page: tree.pages[spot.index].id,
            rect: spot.rect,
            appearance: drawing.add_form(doc, (spot.width, spot.height), spot.turn),
        },
        _ => Widget {
            page: tree.pages[0].id,
            rect: [0.0; 4],
            appearance: appearance::empty_form(doc),
        },
    }
}

/// The signature dictionary but its /ByteRange and /Contents, which the update writes.
fn signature_dictionary(sign: &Sign, identity: &Identity, now: SystemTime) -> lopdf::Dictionary {
    let mut dict = dictionary! {
        "Type" => "Sig", "Filter" => "Adobe.PPKLite", "SubFilter" => "ETSI.CAdES.detached",
        "M" => Object::string_literal(pdf_date(now)),
        "Name" => text_string(&identity.signer.subject),
    };
    for (key, value) in [
        (b"Reason".as_slice(), &sign.reason),
        (b"Location", &sign.location),
        (b"ContactInfo", &sign.contact),
    ] {
        if let Some(value) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            dict.set(key, text_string(value));
        }
    }
    dict
}

/// `D:YYYYMMDDHHmmSSZ` in UTC.
fn pdf_date(now: SystemTime) -> String {
    match der::DateTime::from_system_time(now) {
        Ok(t) => format!(
            "D:{:04}{:02}{:02}{:02}{:02}{:02}Z",
            t.year(),
            t.month(),
            t.day(),
            t.hour(),
            t.minutes(),
            t.seconds()
        ),
        Err(_) => "D:19700101000000Z".into(),
    }
}
