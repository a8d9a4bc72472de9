//! Who may use the HTTP server: every request carries
//! `Authorization: Bearer <token>`, or gets 401 and reaches nothing else.
//!
//! The token is the operator's (`--http-token`, `MCP_TEXT_HTTP_TOKEN`) or is
//! drawn from the operating system's random source at start (256 bits) and
//! printed once on stderr. Listening on anything but loopback needs an
//! operator's token; `--http-no-auth` switches the check off, and only on
//! loopback. Tokens are compared as SHA-256 digests in constant time, so the
//! time an answer takes tells nothing about how much of a guess was right.
//!
//! ```
//! use mcp_server_text::faces::auth::{HttpAuth, decide};
//!
//! let loopback = "127.0.0.1:8080".parse().unwrap();
//! let anywhere = "0.0.0.0:8080".parse().unwrap();
//! assert!(matches!(decide(loopback, None, false), Ok(HttpAuth::Token(t)) if t.generated()));
//! assert!(decide(anywhere, None, false).is_err());
//! assert!(decide(anywhere, None, true).is_err());
//! assert!(matches!(decide(loopback, None, true), Ok(HttpAuth::Open)));
//! ```

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::incoming;

/// Shortest token an operator may set: guessing it must stay hopeless.
pub const MIN_TOKEN_LEN: usize = 16;

/// Longest token an operator may set.
pub const MAX_TOKEN_LEN: usize = 1024;

/// How HTTP requests are authenticated.
#[derive(Clone)]
pub enum HttpAuth {
    /// Every request needs this bearer token.
    Token(Token),
    /// No check (`--http-no-auth`, loopback only).
    Open,
}

/// A bearer token.
#[derive(Clone)]
pub struct Token {
    secret: String,
    digest: [u8; 32],
    generated: bool,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never in a log by accident.
        f.write_str("Token(…)")
    }
}

impl Token {
    /// A new token from the operating system's random source: 32 bytes as
    /// 64 hex digits.
    pub fn generate() -> Result<Token, String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("cannot draw a random HTTP token from the system: {e}"))?;
        let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Token::new(secret, true))
    }

    /// The operator's token, if it is one a header can carry and long enough.
    pub fn given(secret: &str) -> Result<Token, String> {
        let secret = secret.trim();
        if secret.len() < MIN_TOKEN_LEN || secret.len() > MAX_TOKEN_LEN {
            return Err(format!(
                "the HTTP token must be {MIN_TOKEN_LEN} to {MAX_TOKEN_LEN} characters long (it has {}); generate one with e.g. `openssl rand -hex 32`",
                secret.len()
            ));
        }
        if !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the HTTP token may hold only visible ASCII characters (no spaces); generate one with e.g. `openssl rand -hex 32`".into());
        }
        Ok(Token::new(secret.to_string(), false))
    }

    fn new(secret: String, generated: bool) -> Token {
        let digest = Sha256::digest(secret.as_bytes()).into();
        Token {
            secret,
            digest,
            generated,
        }
    }

    /// The token itself, for the client configuration printed at start.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Whether the server drew it at start (rather than the operator giving it).
    pub fn generated(&self) -> bool {
        self.generated
    }

    /// Whether `presented` is the token, in time that does not depend on
    /// how much of it is right.
    pub fn matches(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.digest).into()
    }
}

/// Decides how an HTTP server on `addr` authenticates, from `--http-token`
/// and `--http-no-auth`, or says why it must not start.
pub fn decide(addr: SocketAddr, token: Option<&str>, no_auth: bool) -> Result<HttpAuth, String> {
    let loopback = addr.ip().is_loopback();
    match (token, no_auth) {
        (Some(_), true) => Err(
            "--http-no-auth and --http-token (or MCP_TEXT_HTTP_TOKEN) contradict each other; give one of them".into(),
        ),
        (None, true) if !loopback => Err(format!(
            "--http-no-auth is allowed only on a loopback address (127.0.0.1 or ::1): on {addr} anyone who can reach this machine could read and change the files. Give a token with --http-token or MCP_TEXT_HTTP_TOKEN instead"
        )),
        (None, true) => Ok(HttpAuth::Open),
        (Some(secret), false) => Token::given(secret).map(HttpAuth::Token),
        (None, false) if !loopback => Err(format!(
            "listening on {addr}, which is not a loopback address, needs a token that you choose and give to the clients: set MCP_TEXT_HTTP_TOKEN (or --http-token), e.g. MCP_TEXT_HTTP_TOKEN=$(openssl rand -hex 32). A generated token is only offered on 127.0.0.1 or ::1"
        )),
        (None, false) => Token::generate().map(HttpAuth::Token),
    }
}

/// What a client needs to connect to `url` with `token`, for the start
/// banner. A generated token is shown, since nobody else knows it; the
/// operator's own is not repeated into logs.
pub fn client_setup(url: &str, token: &Token) -> String {
    let (shown, origin) = if token.generated() {
        (
            token.secret(),
            "a new token, drawn at this start; set MCP_TEXT_HTTP_TOKEN (or --http-token) to keep one across restarts",
        )
    } else {
        (
            "<your token>",
            "the token you gave in MCP_TEXT_HTTP_TOKEN / --http-token",
        )
    };
    let header = format!("Authorization: Bearer {shown}");
    let json = serde_json::json!({
        "mcpServers": {
            "notes": {"type": "http", "url": url, "headers": {"Authorization": format!("Bearer {shown}")}}
        }
    });
    format!(
        "  authentication: every request needs the header\n    {header}\n  ({origin})\n  Claude Code:\n    claude mcp add --transport http notes {url} --header \"{header}\"\n  client configuration with a headers block (.mcp.json and others):\n    {json}\n"
    )
}

/// Lets a request through only with the right bearer token; answers 401
/// otherwise, before the request reaches a session or a tool.
pub async fn require_token(
    State(auth): State<Arc<HttpAuth>>,
    request: Request,
    next: Next,
) -> Response {
    let HttpAuth::Token(token) = &*auth else {
        return next.run(request).await;
    };
    let mut given = request.headers().get_all(header::AUTHORIZATION).iter();
    let problem = match (given.next(), given.next()) {
        (None, _) => Refusal::Missing,
        (Some(_), Some(_)) => Refusal::Several,
        (Some(value), None) => match bearer(value) {
            Err(scheme) => Refusal::OtherScheme(scheme),
            Ok(presented) if token.matches(presented) => return next.run(request).await,
            Ok(_) => Refusal::Wrong,
        },
    };
    tracing::warn!(
        "refused an HTTP request to {}: {}",
        crate::text::excerpt::cut(request.uri().path(), 100),
        problem.log()
    );
    problem.into_response()
}

/// The token of an `Authorization: Bearer <token>` value, or the scheme
/// used instead.
fn bearer(value: &HeaderValue) -> Result<&str, String> {
    let text = value.to_str().map_err(|_| "unreadable".to_string())?;
    let (scheme, rest) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
    if scheme.eq_ignore_ascii_case("bearer") {
        Ok(rest.trim())
    } else {
        Err(crate::text::excerpt::cut(scheme, 20))
    }
}

/// Why a request was refused.
enum Refusal {
    Missing,
    Several,
    OtherScheme(String),
    Wrong,
}

impl Refusal {
    fn log(&self) -> &'static str {
        match self {
            Refusal::Missing => "no Authorization header",
            Refusal::Several => "several Authorization headers",
            Refusal::OtherScheme(_) => "not a Bearer token",
            Refusal::Wrong => "wrong token",
        }
    }

    fn into_response(self) -> Response {
        let where_from = "The token is printed on the server's stderr when it starts, unless the operator set it with --http-token or MCP_TEXT_HTTP_TOKEN; add the header to the client's configuration";
        let message = match &self {
            Refusal::Missing => format!(
                "Unauthorized: this server needs the header 'Authorization: Bearer <token>'. {where_from}"
            ),
            Refusal::Several => {
                "Unauthorized: send exactly one Authorization header, 'Authorization: Bearer <token>'"
                    .to_string()
            }
            Refusal::OtherScheme(scheme) => format!(
                "Unauthorized: the Authorization header uses the scheme '{scheme}'; this server takes 'Authorization: Bearer <token>'. {where_from}"
            ),
            Refusal::Wrong => format!(
                "Unauthorized: the bearer token is not this server's. {where_from}"
            ),
        };
        let challenge = match self {
            Refusal::Wrong => r#"Bearer realm="mcp-server-text", error="invalid_token""#,
            _ => r#"Bearer realm="mcp-server-text""#,
        };
        let body = incoming::error_reply(serde_json::Value::Null, -32001, message);
        (
            StatusCode::UNAUTHORIZED,
            [
                (header::WWW_AUTHENTICATE, challenge),
                (header::CONTENT_TYPE, "application/json"),
            ],
            body.to_string(),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_long_and_differ() {
        let a = Token::generate().unwrap();
        let b = Token::generate().unwrap();
        assert_eq!(a.secret().len(), 64);
        assert!(a.secret().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.secret(), b.secret());
        assert!(a.generated());
    }

    #[test]
    fn only_the_exact_token_matches() {
        let token = Token::given("correct-horse-battery-staple").unwrap();
        assert!(token.matches("correct-horse-battery-staple"));
        assert!(!token.matches("correct-horse-battery-stapl"));
        assert!(!token.matches("correct-horse-battery-staple "));
        assert!(!token.matches(""));
        assert!(!token.generated());
    }

    #[test]
    fn weak_or_odd_tokens_are_refused() {
        assert!(Token::given("short").unwrap_err().contains("16 to 1024"));
        assert!(
            Token::given("has a space in the middle")
                .unwrap_err()
                .contains("no spaces")
        );
        assert!(Token::given(&"x".repeat(2000)).is_err());
    }

    #[test]
    fn where_the_server_may_listen() {
        let loopback: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let v6: SocketAddr = "[::1]:1".parse().unwrap();
        let lan: SocketAddr = "192.168.1.2:1".parse().unwrap();
        let any: SocketAddr = "0.0.0.0:1".parse().unwrap();
        let token = Some("0123456789abcdef0123");
        assert!(matches!(decide(v6, None, true), Ok(HttpAuth::Open)));
        assert!(matches!(decide(lan, token, false), Ok(HttpAuth::Token(t)) if !t.generated()));
        let refused = decide(any, None, false).err().unwrap();
        assert!(refused.contains("needs a token"), "{refused}");
        let refused = decide(lan, None, true).err().unwrap();
        assert!(refused.contains("only on a loopback address"), "{refused}");
        let refused = decide(loopback, token, true).err().unwrap();
        assert!(refused.contains("contradict"), "{refused}");
    }

    #[test]
    fn bearer_values() {
        let value = |s: &'static str| HeaderValue::from_static(s);
        assert_eq!(bearer(&value("Bearer abc")), Ok("abc"));
        assert_eq!(bearer(&value("bearer   abc ")), Ok("abc"));
        assert_eq!(bearer(&value("Basic dXNlcjpwYXNz")), Err("Basic".into()));
        assert_eq!(bearer(&value("Bearer")), Ok(""));
        assert_eq!(bearer(&value("abc")), Err("abc".into()));
    }
}
