//! Reading one form field as the type an option needs, with the sentence a person reads when
//! it does not parse.

use quire_proto::{ErrorCode, v1::StampPosition};

use crate::{multipart::Fields, problem::Problem};

/// A form's fields, read by name; a field left out or blank is the option's default.
pub struct Form<'a>(pub &'a Fields);

impl Form<'_> {
    pub fn text(&self, name: &str) -> String {
        self.0
            .get(name)
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    }

    /// As sent, untrimmed (passwords).
    pub fn raw(&self, name: &str) -> String {
        self.0.get(name).cloned().unwrap_or_default()
    }

    /// A field the form sent, even blank (metadata edits: blank removes).
    pub fn present(&self, name: &str) -> Option<String> {
        self.0.get(name).map(|v| v.trim().to_owned())
    }

    /// A checkbox: present and not "false"/"off"/"0".
    pub fn flag(&self, name: &str) -> bool {
        self.0
            .get(name)
            .is_some_and(|v| !matches!(v.trim(), "" | "false" | "off" | "0"))
    }

    pub fn number(&self, name: &str) -> Result<u32, Problem> {
        match self.text(name).as_str() {
            "" => Ok(0),
            value => value
                .parse()
                .map_err(|_| invalid(format!("{name} takes a whole number, got {value:?}"))),
        }
    }

    pub fn decimal(&self, name: &str) -> Result<f32, Problem> {
        match self.text(name).replace(',', ".").as_str() {
            "" => Ok(0.0),
            value => value
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| invalid(format!("{name} takes a number, got {value:?}"))),
        }
    }

    pub fn position(&self, name: &str) -> Result<i32, Problem> {
        let position = match self.text(name).as_str() {
            "" => StampPosition::Unspecified,
            "top-left" => StampPosition::TopLeft,
            "top-center" => StampPosition::TopCenter,
            "top-right" => StampPosition::TopRight,
            "middle-left" => StampPosition::MiddleLeft,
            "center" => StampPosition::Center,
            "middle-right" => StampPosition::MiddleRight,
            "bottom-left" => StampPosition::BottomLeft,
            "bottom-center" => StampPosition::BottomCenter,
            "bottom-right" => StampPosition::BottomRight,
            "tiled" => StampPosition::Tiled,
            other => {
                return Err(invalid(format!(
                    "{name} must be top-left, top-center, top-right, middle-left, center, \
                     middle-right, bottom-left, bottom-center, bottom-right or tiled, got {other:?}"
                )));
            }
        };
        Ok(position as i32)
    }
}

pub fn invalid(message: String) -> Problem {
    Problem::new(ErrorCode::InvalidArgument, message)
}
