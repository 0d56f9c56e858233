//! Support-ticket workflow: anonymize a log (this part is done), then classify, summarize and
//! draft a reply (next). SupportService.AutoReply answers 501 until all of it is there.

pub mod anonymize;
