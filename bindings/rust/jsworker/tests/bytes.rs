//! Bytes between Rust and JavaScript: Vec moved into ArrayBuffers and typed arrays without a copy, in-place slices
//! of JavaScript's buffers, transfers to a worker, and each Vec dropped exactly once.
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsworker::{live_buffers, Context, TypedArrayType, Worker};

const TEN_S: Duration = Duration::from_secs(10);

/// live_buffers() is process-wide: the tests of this file take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// Waits (collecting) until live_buffers() is `n`; the collector frees transferred buffers on its own time.
fn wait_live(ctx: &Context, n: usize) {
    let deadline = Instant::now() + TEN_S;
    while live_buffers() != n {
        assert!(Instant::now() < deadline, "live_buffers() stayed {} (expected {})", live_buffers(), n);
        ctx.garbage_collect();
        std::thread::yield_now();
    }
}

#[test]
fn a_vec_becomes_an_array_buffer_without_a_copy() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    wait_live(&Context::new().unwrap(), 0); // what the other tests made is given back
    let base = 0;
    {
        let ctx = Context::new().unwrap();
        let bytes: Vec<u8> = (0..=255).collect();
        let addr = bytes.as_ptr() as usize;
        let ab = ctx.array_buffer(bytes).unwrap();
        assert_eq!(live_buffers(), base + 1);
        assert_eq!(ab.typed_array_type(), Some(TypedArrayType::ArrayBuffer));
        ab.with_bytes(|b| {
            assert_eq!(b.as_ptr() as usize, addr, "JavaScript's buffer is the Vec's memory");
            assert_eq!(b.len(), 256);
        })
        .unwrap();
        ctx.global().set("ab", &ab).unwrap();
        let sum = ctx.eval("new Uint8Array(ab).reduce((a, b) => a + b, 0)").unwrap().to_number().unwrap();
        assert_eq!(sum, (0..=255).sum::<u32>() as f64);
        // JavaScript writes, Rust reads in place; Rust writes, JavaScript reads.
        ctx.eval("new Uint8Array(ab)[0] = 200").unwrap();
        ab.with_bytes_mut(|b| {
            assert_eq!(b[0], 200);
            b[1] = 77;
        })
        .unwrap();
        assert_eq!(ctx.eval("new Uint8Array(ab)[1]").unwrap().to_number().unwrap(), 77.0);
        let empty = ctx.array_buffer(Vec::new()).unwrap();
        assert_eq!(empty.to_bytes().unwrap(), Vec::<u8>::new());
    }
    assert_eq!(live_buffers(), base, "each Vec was dropped when its context was released");
}

#[test]
fn no_javascript_runs_while_bytes_are_borrowed() {
    let ctx = Context::new().unwrap();
    let ta = ctx.eval("new Uint8Array([1, 2, 3]).subarray(1)").unwrap();
    let (seen, refused) = ta
        .with_bytes(|b| {
            let refused = ctx.eval("1").is_err() && ta.get("length").is_err() && ta.with_bytes_mut(|_| ()).is_err();
            (b.to_vec(), refused)
        })
        .unwrap();
    assert_eq!(seen, vec![2, 3], "a view's bytes start at its offset");
    assert!(refused, "eval, property reads and a mutable borrow are refused while the bytes are borrowed");
    assert_eq!(ctx.eval("2").unwrap().to_number().unwrap(), 2.0, "and allowed again afterwards");
    // Nested shared borrows are fine.
    let nested = ta.with_bytes(|a| ta.with_bytes(|b| a == b).unwrap()).unwrap();
    assert!(nested);
}

#[test]
fn typed_arrays_in_both_directions() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    wait_live(&Context::new().unwrap(), 0); // what the other tests made is given back
    let base = 0;
    {
        let ctx = Context::new().unwrap();
        let f = ctx.typed_array(vec![0.5f64, 1.5, 2.0]).unwrap();
        assert_eq!(f.typed_array_type(), Some(TypedArrayType::Float64));
        ctx.global().set("f", &f).unwrap();
        let js = ctx.eval("[f.constructor.name, f.length, f.reduce((a, b) => a + b)].join()").unwrap();
        assert_eq!(js.to_string().unwrap(), "Float64Array,3,4");
        let big = ctx.typed_array(vec![i64::MIN, -1, 1 << 40]).unwrap();
        ctx.global().set("big", &big).unwrap();
        assert_eq!(ctx.eval("big.join()").unwrap().to_string().unwrap(), "-9223372036854775808,-1,1099511627776");

        let ints = ctx.eval("new Int32Array([10, -20, 30, 40]).subarray(1, 3)").unwrap();
        assert_eq!(ints.with_typed_array(|a: &[i32]| a.to_vec()).unwrap(), vec![-20, 30]);
        ints.with_typed_array_mut(|a: &mut [i32]| a[0] = 99).unwrap();
        ctx.global().set("ints", &ints).unwrap();
        assert_eq!(ctx.eval("ints[0]").unwrap().to_number().unwrap(), 99.0);
        let e = ints.with_typed_array(|_: &[f32]| ()).unwrap_err();
        assert_eq!(e.name, "TypeError");
        let e = ctx.eval("({})").unwrap().with_bytes(|_| ()).unwrap_err();
        assert_eq!(e.name, "TypeError");
        let e = ctx.eval("new Int32Array(new SharedArrayBuffer(8))").unwrap().with_bytes(|_| ()).unwrap_err();
        assert!(e.message.contains("SharedArrayBuffer"), "{}", e);

        let copy = ctx.typed_array_from(&[1u16, 2, 65535]).unwrap();
        ctx.global().set("copy", &copy).unwrap();
        assert_eq!(ctx.eval("copy instanceof Uint16Array && copy.join()").unwrap().to_string().unwrap(), "1,2,65535");
        let clamped = ctx.eval("new Uint8ClampedArray([300, -5])").unwrap();
        assert_eq!(clamped.with_typed_array(|a: &[u8]| a.to_vec()).unwrap(), vec![255, 0]);
    }
    assert_eq!(live_buffers(), base);
}

#[test]
fn a_vec_transferred_to_a_worker_is_dropped_once_it_is_done_with() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    wait_live(&Context::new().unwrap(), 0); // what the other tests made is given back
    let base = 0;
    let ctx = Context::new().unwrap();
    let w = Worker::new(
        "onmessage = (e) => { const u = new Uint8Array(e.data); const was = u[12345]; u[12345] = 42;
                              globalThis.keep = e.data; postMessage([e.data.byteLength, was]); }",
    )
    .unwrap();
    let mb16 = vec![7u8; 16 << 20];
    let addr = mb16.as_ptr() as usize;
    let ab = ctx.array_buffer(mb16).unwrap();
    w.post_transfer(&ab, &[&ab]).unwrap();
    assert_eq!(ab.to_bytes().unwrap().len(), 0, "the sender's buffer is detached");
    let reply = w.receive(&ctx, TEN_S).unwrap().unwrap();
    assert_eq!(reply.to_json(0).unwrap().unwrap(), "[16777216,7]");
    // The worker wrote into the Vec's own memory (it still holds the buffer, so the Vec is alive): no copy was
    // made on the way. Its write happened before its reply was posted, which we received.
    assert_eq!(unsafe { std::ptr::read_volatile((addr + 12345) as *const u8) }, 42);
    drop(reply);
    drop(ab);
    drop(w);
    wait_live(&ctx, base);

    // A worker terminated while it holds the buffer.
    let w = Worker::new("onmessage = (e) => { globalThis.keep = e.data; postMessage(1); for (;;) {} }").unwrap();
    let ab = ctx.array_buffer(vec![1u8; 4096]).unwrap();
    w.post_transfer(&ab, &[&ab]).unwrap();
    assert!(w.receive(&ctx, TEN_S).unwrap().is_some());
    w.terminate();
    drop(w);
    wait_live(&ctx, base);
}

#[test]
fn a_worker_native_reads_its_argument_in_place() {
    use jsworker::{Natives, WorkerOptions};
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner()); // asset() makes a buffer over a Vec
    let natives = Natives::new()
        .function("sum", |cx, args| {
            let total: f64 = args[0].with_typed_array(|xs: &[f64]| xs.iter().sum())?;
            Ok(cx.number(total))
        })
        .function("fill", |cx, args| {
            args[0].with_bytes_mut(|b| b.fill(9))?;
            Ok(cx.undefined())
        })
        .function("asset", |cx, _| cx.typed_array(vec![1i32, 2, 3]));
    let w = Worker::with_natives(
        "const u = new Uint8Array(4); fill(u.subarray(1, 3));
         postMessage([sum(new Float64Array([0.5, 1.5, 2])), Array.from(u), Array.from(asset())])",
        &WorkerOptions::default(),
        natives,
    )
    .unwrap();
    let ctx = Context::new().unwrap();
    let got = w.receive(&ctx, TEN_S).unwrap().unwrap();
    assert_eq!(got.to_json(0).unwrap().unwrap(), "[4,[0,9,9,0],[1,2,3]]");
}
