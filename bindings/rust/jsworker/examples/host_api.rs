//! The host API from Rust (docs/bindings.md): a worker gets native closures (`host.log`, `host.readAsset` returning
//! an ArrayBuffer over a Rust Vec without a copy), and a Rust producer thread feeds it through a SharedArrayBuffer
//! ring buffer, waking it with `notify_i32`. `cargo run --example host_api`.
use std::sync::atomic::Ordering::SeqCst;
use std::time::Duration;

use jsworker::{notify_i32, Context, Natives, SharedMemory, Worker, WorkerOptions};

const SLOTS: usize = 64; // ring capacity; Int32Array layout: [head, tail, done, slot0, slot1, ...]

const CONSUMER: &str = r#"
onmessage = (e) => {
  const ring = new Int32Array(e.data);
  const asset = new Uint8Array(host.readAsset('greeting.txt'));
  host.log('asset: ' + String.fromCharCode(...asset));
  let sum = 0, n = 0;
  for (;;) {
    const head = Atomics.load(ring, 0), tail = Atomics.load(ring, 1);
    if (head === tail) {
      if (Atomics.load(ring, 2)) break;          // the producer is done and the ring is empty
      Atomics.wait(ring, 1, tail, 1000);         // sleep until the producer moves the tail
      continue;
    }
    sum += ring[3 + (head % 64)]; n++;
    Atomics.store(ring, 0, head + 1);
    Atomics.notify(ring, 0);
  }
  postMessage({ n, sum });
};
"#;

fn main() -> jsworker::Result<()> {
    let natives = Natives::new()
        .setup(|cx| {
            let host = cx.eval("({})")?;
            host.set(
                "log",
                &cx.function("log", |cx, args| {
                    println!("[worker] {}", args.first().map(|a| a.to_string()).transpose()?.unwrap_or_default());
                    Ok(cx.undefined())
                })?,
            )?;
            host.set(
                "readAsset",
                &cx.function("readAsset", |cx, args| {
                    let name = args[0].to_string()?;
                    let bytes: Vec<u8> = format!("hello from {}", name).into_bytes(); // e.g. read from a pack file
                    cx.array_buffer(bytes) // moved in, no copy; dropped when JavaScript lets it go
                })?,
            )?;
            cx.global().set("host", &host)
        })
        .console(|level, line| println!("[console {:?}] {}", level, line));
    let worker = Worker::with_natives(CONSUMER, &WorkerOptions::default(), natives)?;

    let ctx = Context::new()?;
    let mem = SharedMemory::new((3 + SLOTS) * 4);
    worker.post(&ctx.shared_array_buffer(&mem)?)?;

    const ITEMS: i32 = 100_000;
    let ring = mem.slice().as_i32();
    std::thread::scope(|s| {
        s.spawn(|| {
            for item in 1..=ITEMS {
                let tail = ring[1].load(SeqCst);
                while tail - ring[0].load(SeqCst) >= SLOTS as i32 {
                    std::thread::yield_now(); // full: wait for the consumer
                }
                ring[3 + tail as usize % SLOTS].store(item, SeqCst);
                ring[1].store(tail + 1, SeqCst);
                notify_i32(&ring[1], Some(1));
            }
            ring[2].store(1, SeqCst);
            notify_i32(&ring[1], None);
        });
    });
    let result = worker.receive(&ctx, Duration::from_secs(60))?.expect("the consumer's result");
    println!("consumed {}", result.to_json(0)?.unwrap_or_default()); // {"n":100000,"sum":5000050000}
    Ok(())
}
