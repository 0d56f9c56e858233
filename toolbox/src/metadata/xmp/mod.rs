//! XMP packets without an XML library: a lenient scan into elements with their byte spans,
//! enough to read the few properties the Info dictionary mirrors and to replace them in place.
//!
//! Reading forgives what a strict parser would refuse (unclosed or mismatched elements, a
//! missing namespace declaration for the usual prefixes, unknown entities). Editing removes
//! the old property (an attribute of an `rdf:Description`, or a child element) by its span and
//! writes the new values in one new `rdf:Description` before `</rdf:RDF>`, so everything else
//! in the packet stays byte for byte; what it writes is escaped, so a well-formed packet stays
//! well-formed.

mod edit;
mod encoding;
mod entities;
mod read;
mod scan;

pub use edit::{Change, Value, apply, fresh};
pub use encoding::decode;
pub use read::Packet;

pub const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
pub const DC: &str = "http://purl.org/dc/elements/1.1/";
pub const PDF: &str = "http://ns.adobe.com/pdf/1.3/";
pub const XMP: &str = "http://ns.adobe.com/xap/1.0/";
const XML: &str = "http://www.w3.org/XML/1998/namespace";
