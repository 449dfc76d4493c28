//! SharedArrayBuffers as Rust atomics: Rust threads and workers use the same bytes, and notify_i32 wakes a worker
//! blocked in Atomics.wait.
use std::sync::atomic::Ordering::SeqCst;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsworker::{live_buffers, notify_i32, notify_i64, Context, SharedMemory, Worker};

const TEN_S: Duration = Duration::from_secs(10);

static SERIAL: Mutex<()> = Mutex::new(());

/// Spins (yielding) until cond holds; panics after ten seconds.
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + TEN_S;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {}", what);
        std::thread::yield_now();
    }
}

#[test]
fn rust_thread_wakes_a_worker_and_the_worker_answers_through_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    wait_released(&Context::new().unwrap()); // what the other tests made is given back
    let mem = SharedMemory::new(64);
    {
        let ctx = Context::new().unwrap();
        let w = Worker::new(
            "onmessage = (e) => {
               const a = new Int32Array(e.data);
               postMessage('waiting');
               const r = Atomics.wait(a, 0, 0, 20000);   // woken by the Rust thread
               Atomics.store(a, 2, a[1] + 1);            // answer through memory
               Atomics.notify(a, 2);
               postMessage(r);
             }",
        )
        .unwrap();
        w.post(&ctx.shared_array_buffer(&mem).unwrap()).unwrap();
        assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_string().unwrap(), "waiting");
        let a = mem.slice().as_i32();
        std::thread::scope(|s| {
            s.spawn(|| {
                a[1].store(41, SeqCst);
                // The worker may not be blocked yet: a[0] stays 0, so it blocks, and the notify that wakes it
                // counts 1.
                wait_for("the worker to be woken", || notify_i32(&a[0], None) == 1);
            });
        });
        wait_for("the worker's answer", || a[2].load(SeqCst) == 42);
        assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_string().unwrap(), "ok", "woken, not timed out");
        assert_eq!(notify_i32(&a[0], None), 0, "nobody waits any more");
        let outside = std::sync::atomic::AtomicI32::new(0);
        assert_eq!(notify_i32(&outside, Some(1)), 0, "an address in no SharedArrayBuffer wakes nobody");
    }
    // The worker and the context are gone; this SharedMemory still holds the bytes.
    assert_eq!(mem.slice().as_i32()[2].load(SeqCst), 42);
    wait_released(&Context::new().unwrap());
}

/// Waits (collecting) until every buffer over Rust memory was given back: the collector frees a buffer that was
/// posted to a worker on its own time.
fn wait_released(ctx: &Context) {
    wait_for("the SharedArrayBuffers' references to be given back", || {
        ctx.garbage_collect();
        live_buffers() == 0
    });
}

#[test]
fn a_javascript_shared_array_buffer_as_atomics() {
    let ctx = Context::new().unwrap();
    let sab = ctx.eval("globalThis.sab = new SharedArrayBuffer(24); sab").unwrap();
    let view = sab.shared_memory().unwrap();
    assert_eq!(view.len(), 24);
    view.as_i64()[1].store(-5, SeqCst);
    view.as_u8()[0].store(9, SeqCst);
    let js = ctx.eval("[new BigInt64Array(sab)[1], new Uint8Array(sab)[0]].join()").unwrap();
    assert_eq!(js.to_string().unwrap(), "-5,9");
    ctx.eval("Atomics.add(new Int32Array(sab), 4, 1000)").unwrap();
    assert_eq!(view.as_i32()[4].load(SeqCst), 1000);
    assert_eq!(notify_i64(&view.as_i64()[0], Some(1)), 0);
    let e = ctx.eval("new ArrayBuffer(8)").unwrap().shared_memory().err().expect("not shared");
    assert_eq!(e.name, "TypeError");
    let lib_made = ctx.new_shared_array_buffer(16).unwrap();
    assert_eq!(lib_made.shared_memory().unwrap().as_i32().len(), 4);
}

#[test]
fn a_worker_waits_on_a_bigint64_element() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ctx = Context::new().unwrap();
    let mem = SharedMemory::new(16);
    let w = Worker::new(
        "onmessage = (e) => { const a = new BigInt64Array(e.data); postMessage('w');
                              postMessage(Atomics.wait(a, 1, 0n, 20000) + ' ' + a[0]); }",
    )
    .unwrap();
    w.post(&ctx.shared_array_buffer(&mem).unwrap()).unwrap();
    assert!(w.receive(&ctx, TEN_S).unwrap().is_some());
    let a = mem.slice().as_i64();
    a[0].store(1 << 50, SeqCst);
    wait_for("the worker to be woken", || notify_i64(&a[1], None) == 1);
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_string().unwrap(), format!("ok {}", 1i64 << 50));
}
