//! Soak: many agents editing a few shared files at once, through stdio
//! servers and HTTP sessions, while servers are killed (SIGKILL) at random
//! and started again.
//!
//! ```sh
//! cargo bench --bench soak -- --agents 4 --edits 100
//! ```
//!
//! Every agent adds one line per edit that no other edit adds: TextPatch
//! `appendToSection`, TextReplace with `expectedHash` (re-read and retried
//! while the hash is stale), or edit_code. Each stdio agent has its own
//! server process; HTTP agents each have a session on one of a few HTTP
//! servers. Every server has its own `HOME` and `TMPDIR`, as separate agent
//! hosts would give it. At the end the run checks that every edit reported as
//! a success is in its file, that no file is torn (each is its initial lines
//! plus whole agent lines where they are added) and that nothing else is left
//! in the root, prints the counts, and exits with status 1 if a check failed.
//!
//! Options: `--agents N` (stdio and HTTP agents each, default 4), `--stdio N`,
//! `--http N`, `--http-servers N` (default 2), `--edits M` (per agent,
//! default 100), `--kill-ms MIN-MAX` (pause between kills, default 30-200),
//! `--no-kills`, `--shared-env` (one `HOME` and `TMPDIR` for all servers),
//! `--seed S`, `--keep` (keep the folders and print where).

#[path = "../../tests/corpus/rng.rs"]
#[allow(dead_code)]
mod rng;

mod agents;
mod files;
mod servers;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use agents::{Outcome, Route};
use servers::Server;

/// What the command line asked for.
struct Options {
    stdio: usize,
    http: usize,
    http_servers: usize,
    edits: usize,
    kill_ms: Option<(u64, u64)>,
    seed: u64,
    shared_env: bool,
    keep: bool,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        stdio: 4,
        http: 4,
        http_servers: 2,
        edits: 100,
        kill_ms: Some((30, 200)),
        seed: 1,
        shared_env: false,
        keep: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |v: String| v.parse::<usize>().map_err(|e| format!("{v}: {e}"));
        match arg.as_str() {
            // `cargo bench` passes this to every bench binary.
            "--bench" => {}
            "--agents" => {
                let n = number(value("--agents")?)?;
                (o.stdio, o.http) = (n, n);
            }
            "--stdio" => o.stdio = number(value("--stdio")?)?,
            "--http" => o.http = number(value("--http")?)?,
            "--http-servers" => o.http_servers = number(value("--http-servers")?)?.max(1),
            "--edits" => o.edits = number(value("--edits")?)?,
            "--seed" => o.seed = number(value("--seed")?)? as u64,
            "--kill-ms" => {
                let v = value("--kill-ms")?;
                let (lo, hi) = v
                    .split_once('-')
                    .ok_or("--kill-ms takes MIN-MAX, e.g. 30-200")?;
                let lo: u64 = lo.parse().map_err(|e| format!("{v}: {e}"))?;
                let hi: u64 = hi.parse().map_err(|e| format!("{v}: {e}"))?;
                o.kill_ms = Some((lo.min(hi), hi.max(lo)));
            }
            "--no-kills" => o.kill_ms = None,
            "--shared-env" => o.shared_env = true,
            "--keep" => o.keep = true,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

fn main() {
    let options = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "soak: {e}\nusage: cargo bench --bench soak -- [--agents N] [--stdio N] [--http N] [--http-servers N] [--edits M] [--kill-ms MIN-MAX | --no-kills] [--shared-env] [--seed S] [--keep]"
            );
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let passed = runtime.block_on(run(options));
    std::process::exit(if passed { 0 } else { 1 });
}

async fn run(o: Options) -> bool {
    let root_dir = tempfile::tempdir().expect("a root folder");
    let scratch = tempfile::tempdir().expect("a folder for the servers");
    let root = std::fs::canonicalize(root_dir.path()).expect("the root's real path");
    let files = Arc::new(files::shared_files());
    files::create(&root, &files);
    let token = format!("soak-{:016x}", rng::Rng::new(o.seed).next());

    let stdio: Vec<Arc<Server>> = (0..o.stdio)
        .map(|i| {
            Server::new(
                format!("stdio-{i}"),
                &root,
                scratch.path(),
                o.shared_env,
                None,
            )
        })
        .collect();
    let http: Vec<Arc<Server>> = (0..o.http_servers.min(o.http.max(1)))
        .map(|i| {
            let name = format!("http-server-{i}");
            Server::new(
                name,
                &root,
                scratch.path(),
                o.shared_env,
                Some(token.clone()),
            )
        })
        .collect();
    if o.http > 0 {
        for server in &http {
            if let Err(e) = server.start_http().await {
                eprintln!("soak: {e}");
                return false;
            }
        }
    }

    let done = Arc::new(AtomicBool::new(false));
    let kills = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let restarts = Arc::new(AtomicUsize::new(0));
    let mut targets: Vec<Arc<Server>> = stdio.clone();
    if o.http > 0 {
        targets.extend(http.iter().cloned());
    }
    let killer = o.kill_ms.map(|(lo, hi)| {
        let (done, kills, targets) = (done.clone(), kills.clone(), targets.clone());
        let mut rng = rng::Rng::new(o.seed ^ 0xC0FFEE);
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                let pause = rng.range(lo as usize, hi as usize) as u64;
                tokio::time::sleep(Duration::from_millis(pause)).await;
                let victim = &targets[rng.below(targets.len())];
                if !done.load(Ordering::Relaxed) && victim.kill().await {
                    let kind = usize::from(victim.name.starts_with("http"));
                    kills[kind].fetch_add(1, Ordering::Relaxed);
                }
            }
        })
    });
    let supervisors: Vec<_> = if o.http > 0 { http.clone() } else { Vec::new() }
        .into_iter()
        .map(|server| {
            let (done, restarts) = (done.clone(), restarts.clone());
            tokio::spawn(async move {
                while !done.load(Ordering::Relaxed) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    if server.is_down().await && !done.load(Ordering::Relaxed) {
                        restarts.fetch_add(1, Ordering::Relaxed);
                        if let Err(e) = server.start_http().await {
                            eprintln!("soak: {e}");
                        }
                    }
                }
            })
        })
        .collect();

    let started = Instant::now();
    let mut agents = tokio::task::JoinSet::new();
    for (i, server) in stdio.iter().enumerate() {
        let route = Route::Stdio(server.clone());
        agents.spawn(agents::run(
            format!("stdio-{i}"),
            route,
            files.clone(),
            o.edits,
            o.seed * 1000 + i as u64,
        ));
    }
    for i in 0..o.http {
        let route = Route::Http(http[i % http.len()].clone());
        agents.spawn(agents::run(
            format!("http-{i}"),
            route,
            files.clone(),
            o.edits,
            o.seed * 1000 + 500 + i as u64,
        ));
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    while let Some(outcome) = agents.join_next().await {
        outcomes.push(outcome.expect("an agent ran to its end"));
    }
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    if let Some(killer) = killer {
        let _ = killer.await;
    }
    for supervisor in supervisors {
        let _ = supervisor.await;
    }
    // No call is in flight any more, so stopping the servers writes nothing.
    for server in stdio.iter().chain(&http) {
        server.stop().await;
    }

    let successes: Vec<(usize, String)> =
        outcomes.iter().flat_map(|o| o.successes.clone()).collect();
    let unconfirmed: Vec<(usize, String)> = outcomes
        .iter()
        .flat_map(|o| o.unconfirmed.clone())
        .collect();
    let verdict = files::verify(&root, &files, &successes, &unconfirmed);
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    for outcome in &outcomes {
        for (kind, n) in &outcome.failures {
            *failures.entry(kind.clone()).or_default() += n;
        }
    }
    let private_files: Vec<_> = stdio
        .iter()
        .chain(&http)
        .flat_map(|s| s.folders().map(files::all_files))
        .flatten()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();

    println!(
        "soak: {} stdio agents (one server process each) + {} HTTP agents (sessions on {} server processes) x {} edits of {} shared files, {}, seed {}",
        o.stdio,
        o.http,
        if o.http > 0 { http.len() } else { 0 },
        o.edits,
        files.len(),
        match o.kill_ms {
            Some((lo, hi)) => format!("a SIGKILL every {lo}-{hi} ms"),
            None => "no kills".to_string(),
        },
        o.seed
    );
    let sum = |f: fn(&Outcome) -> usize| outcomes.iter().map(f).sum::<usize>();
    let row = |name: &str, value: String| println!("  {name:<34} {value}");
    let by_route = |f: fn(&Outcome) -> usize| {
        let of = |route| {
            outcomes
                .iter()
                .filter(|o| o.route == route)
                .map(f)
                .sum::<usize>()
        };
        format!("{:<6} (stdio {}, HTTP {})", sum(f), of("stdio"), of("HTTP"))
    };
    row("attempts", by_route(|o| o.attempts));
    row("successes", by_route(|o| o.successes.len()));
    row("failures", by_route(|o| o.unconfirmed.len()));
    for (kind, n) in &failures {
        println!("    {n:>5}  {kind}");
    }
    row(
        "retries after a stale hash",
        sum(|o| o.stale_retries).to_string(),
    );
    let (stdio_kills, http_kills) = (
        kills[0].load(Ordering::Relaxed),
        kills[1].load(Ordering::Relaxed),
    );
    row(
        "killed servers",
        format!(
            "{:<6} (stdio {stdio_kills}, HTTP {http_kills})",
            stdio_kills + http_kills
        ),
    );
    row(
        "HTTP server restarts",
        restarts.load(Ordering::Relaxed).to_string(),
    );
    row("agent reconnects", sum(|o| o.reconnects).to_string());
    row("lost successes", verdict.lost.len().to_string());
    row(
        "failed edits that landed anyway",
        verdict.landed_anyway.to_string(),
    );
    row("duplicated lines", verdict.duplicated.len().to_string());
    row("torn files", verdict.torn.len().to_string());
    row(
        "leftover files in the root",
        verdict.leftovers.len().to_string(),
    );
    row(
        "files left in servers' HOME/TMPDIR",
        private_files.len().to_string(),
    );
    row("time", format!("{:.1} s", elapsed.as_secs_f64()));
    let show = |title: &str, items: Vec<String>| {
        if !items.is_empty() {
            println!("{title}:");
            for item in items.iter().take(10) {
                println!("  {item}");
            }
            if items.len() > 10 {
                println!("  … and {} more", items.len() - 10);
            }
        }
    };
    show("lost successes", verdict.lost.clone());
    show("duplicated lines", verdict.duplicated.clone());
    show("torn files", verdict.torn.clone());
    let relative = |p: &std::path::Path, base: &std::path::Path| {
        p.strip_prefix(base).unwrap_or(p).display().to_string()
    };
    show(
        "leftover files in the root",
        verdict
            .leftovers
            .iter()
            .map(|p| relative(p, &root))
            .collect(),
    );
    show(
        "files left in servers' HOME/TMPDIR",
        private_files
            .iter()
            .map(|p| relative(p, scratch.path()))
            .collect(),
    );
    if o.keep {
        println!(
            "kept: root {} and server folders {}",
            root.display(),
            scratch.path().display()
        );
        std::mem::forget(root_dir);
        std::mem::forget(scratch);
    }
    verdict.passed()
}
