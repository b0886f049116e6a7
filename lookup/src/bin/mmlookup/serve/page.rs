//! The hint board's page: HTML, script and style compiled into the binary, so the
//! board works offline and with no files beside the program.

/// A file of the page.
pub struct Asset {
    pub content_type: &'static str,
    pub body: &'static str,
}

/// The file of the page at `path`, if it is one.
pub fn asset(path: &str) -> Option<Asset> {
    let (content_type, body) = match path {
        "/" | "/index.html" => ("text/html; charset=utf-8", include_str!("page/index.html")),
        "/app.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/app.js"),
        ),
        "/style.css" => ("text/css; charset=utf-8", include_str!("page/style.css")),
        _ => return None,
    };
    Some(Asset { content_type, body })
}
