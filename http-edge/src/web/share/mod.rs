//! End-to-end encrypted shares in the browser (issue 37, docs/sharing.md): the sender's page
//! (`/share`, logged in) and the recipient's (`/s/{token}`, public). The pages are shells for
//! their scripts (`web/src/share-send.js`, `share-receive.js`): everything that touches the
//! plaintext or the key runs in the browser, and the server only ever sees ciphertext, through
//! the tus upload and the `/s/{token}/…` JSON routes.

mod receive;
mod send;
mod texts;

pub use receive::page as receive_page;
pub use send::page as send_page;
pub use texts::texts;
