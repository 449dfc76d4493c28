//! The example of docs/bindings.md (built by `cargo test`): `cargo run --example doubler`.
use std::time::Duration;

use jsworker::{Context, Worker, WorkerOptions, FOREVER};

fn main() -> jsworker::Result<()> {
    let ctx = Context::new()?;
    let w = Worker::with_options(
        "onmessage = (e) => postMessage(e.data * 2);",
        &WorkerOptions { name: Some("doubler".into()), ..Default::default() },
    )?;
    w.post(&ctx.number(21.0))?;
    let reply = w.receive(&ctx, Duration::from_secs(5))?.expect("a reply"); // None: timeout, or ended
    println!("{}", reply.to_number()?); // 42

    let err = w.post(&ctx.eval("({ f() {} })")?).unwrap_err();
    println!("{} / {}", err.name, err.message); // DataCloneError / ...

    w.close();
    while let Some(v) = w.receive(&ctx, FOREVER)? {
        println!("{:?}", v); // drain, then None
    }
    Ok(())
} // Drop: release everything
