//! Reading the peer's address from the command line.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// Reads `--peer`'s value: `IP:PORT`, `[IPv6]:PORT`, `HOST:PORT` (looked
/// up, the first IPv4 address preferred), or `IP`, `[IPv6]` or `HOST`
/// alone on `default_port`. Errors are one line naming the text.
pub fn parse_peer(text: &str, default_port: u16) -> Result<SocketAddr, String> {
    let bad = || format!("--peer needs ADDR[:PORT] (a port from 1 to 65535), got {text:?}");
    let t = text.trim();
    let valid = |addr: SocketAddr| if addr.port() == 0 { Err(bad()) } else { Ok(addr) };
    if let Ok(addr) = t.parse::<SocketAddr>() {
        return valid(addr);
    }
    let bare_ip = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')).unwrap_or(t);
    if let Ok(ip) = bare_ip.parse::<IpAddr>() {
        return valid(SocketAddr::new(ip, default_port));
    }
    let (host, port) = match t.rsplit_once(':') {
        Some((host, port)) => (host, port.parse::<u16>().map_err(|_| bad())?),
        None => (t, default_port),
    };
    // An address with a port that is still not IP:PORT ("1.2.3:80",
    // "[::1:80") is not a host name either.
    let looks_like_ip =
        host.starts_with('[') || host.contains(':') || host.chars().all(|c| c.is_ascii_digit() || c == '.');
    if host.is_empty() || looks_like_ip || host.chars().any(char::is_whitespace) {
        return Err(bad());
    }
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("--peer {text:?}: cannot find the host {host:?} ({e})"))?
        .collect();
    let addr = addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("--peer {text:?}: the host {host:?} has no address"))?;
    valid(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_with_and_without_ports() {
        let ok = |t: &str| parse_peer(t, 7000).unwrap().to_string();
        assert_eq!(ok("127.0.0.1:7001"), "127.0.0.1:7001");
        assert_eq!(ok("192.168.1.20"), "192.168.1.20:7000");
        assert_eq!(ok(" 10.0.0.1 "), "10.0.0.1:7000");
        assert_eq!(ok("[::1]:7002"), "[::1]:7002");
        assert_eq!(ok("[::1]"), "[::1]:7000");
        assert_eq!(ok("::1"), "[::1]:7000");
        assert_eq!(ok("localhost:7003"), "127.0.0.1:7003");
        assert_eq!(ok("localhost"), "127.0.0.1:7000");
    }

    #[test]
    fn bad_addresses_are_one_line_naming_the_text() {
        for t in [
            "127.0.0.1:99999",
            "127.0.0.1:0",
            "127.0.0.1:",
            "",
            ":7000",
            "1.2.3:80",
            "[::1:80",
            "a b:1",
        ] {
            let e = parse_peer(t, 7000).unwrap_err();
            assert!(e.starts_with("--peer needs ADDR[:PORT]"), "{t}: {e}");
            assert!(e.contains(&format!("{t:?}")), "{t}: {e}");
        }
        let e = parse_peer("no-such-host.invalid:7000", 7000).unwrap_err();
        assert!(
            e.starts_with(r#"--peer "no-such-host.invalid:7000": cannot find the host"#),
            "{e}"
        );
        assert!(!e.contains('\n'));
    }
}
