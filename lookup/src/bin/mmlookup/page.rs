//! The hint board's page: HTML, script and style compiled into the binary, so the
//! board works offline and with no files beside the program. One page for both
//! ways it is used: `serve` answers these files by path and the page asks its JSON
//! API; `site` writes them into a folder with a [`SITE_SCRIPT`] that carries the
//! lookup core (WebAssembly) and the trees, and the page asks the core instead.

/// A file of the page.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// The page's own files, as `site` writes them and `serve` answers them.
pub const FILES: [Asset; 3] = [
    Asset {
        name: "index.html",
        content_type: "text/html; charset=utf-8",
        body: include_str!("page/index.html"),
    },
    Asset {
        name: "app.js",
        content_type: JS,
        body: include_str!("page/app.js"),
    },
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
];

/// The script the page loads before its own: on a folder `site` wrote, it sets
/// `MMTREE_SITE` (the core and the trees); `serve` answers it with
/// [`SERVED_SITE_SCRIPT`], which sets nothing, so the page asks the server.
pub const SITE_SCRIPT: &str = "site.js";

/// What `serve` answers for [`SITE_SCRIPT`].
const SERVED_SITE_SCRIPT: &str =
    "// mmlookup serve: the page's answers come from the server's JSON API (/api/).\n";

/// The file of the page at `path` on the server, if it is one.
pub fn asset(path: &str) -> Option<Asset> {
    let name = match path {
        "/" => "index.html",
        _ => path.strip_prefix('/')?,
    };
    if name == SITE_SCRIPT {
        return Some(Asset {
            name: SITE_SCRIPT,
            content_type: JS,
            body: SERVED_SITE_SCRIPT,
        });
    }
    FILES.into_iter().find(|asset| asset.name == name)
}
