//! Workers through the safe API: round trips, JSON, errors as Result, terminate, close, owner-thread refusal.
use std::time::{Duration, Instant};

use jsworker::{Context, ErrorKind, Limits, TargetKind, TargetState, Worker, WorkerOptions, FOREVER};

const DOUBLER: &str = "onmessage = (e) => postMessage(e.data * 2);";
const TEN_S: Duration = Duration::from_secs(10);

#[test]
fn version_matches_the_header() {
    assert_eq!(jsworker::library_version(), "0.2.0");
}

#[test]
fn context_eval_and_values() {
    let ctx = Context::new().unwrap();
    assert_eq!(ctx.eval("6 * 7").unwrap().to_number().unwrap(), 42.0);
    let o = ctx.eval("({ list: [1, 'two'], nested: { ok: true } })").unwrap();
    assert_eq!(o.get("list").unwrap().get_index(1).unwrap().to_string().unwrap(), "two");
    assert!(o.get("nested").unwrap().get("ok").unwrap().to_bool());
    o.set("added", &ctx.string("héllo")).unwrap();
    assert_eq!(o.to_json(0).unwrap().unwrap(), r#"{"list":[1,"two"],"nested":{"ok":true},"added":"héllo"}"#);
    let max = ctx.eval("Math.max").unwrap();
    assert_eq!(max.call(&[&ctx.number(3.0), &ctx.number(9.0)]).unwrap().to_number().unwrap(), 9.0);
    ctx.global().set("g", &ctx.from_json("[1,2,3]").unwrap()).unwrap();
    assert_eq!(ctx.eval("g.length").unwrap().to_number().unwrap(), 3.0);
    assert!(ctx.eval("undefined").unwrap().is_undefined());
    assert_eq!(ctx.eval("10n").unwrap().js_type(), jsworker::Type::BigInt);
}

#[test]
fn js_exceptions_are_errors() {
    let ctx = Context::new().unwrap();
    let e = ctx.eval_at("function f() { throw new RangeError('too far') }\nf()", Some("script.js"), 1).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Exception);
    assert_eq!((e.name.as_str(), e.message.as_str()), ("RangeError", "too far"));
    assert!(e.stack.as_deref().unwrap_or("").contains("script.js"), "{:?}", e.stack);
    assert_eq!(e.to_string(), "RangeError: too far");
    assert_eq!(ctx.eval("let x = ;").unwrap_err().name, "SyntaxError");
    assert_eq!(ctx.eval("throw 'plain'").unwrap_err().message, "plain");
    assert_eq!(ctx.eval("1 + 1").unwrap().to_number().unwrap(), 2.0); // still usable
}

#[test]
fn worker_doubles_numbers() {
    let ctx = Context::new().unwrap();
    let w = Worker::new(DOUBLER).unwrap();
    for i in 0..100 {
        w.post(&ctx.number(i as f64)).unwrap();
    }
    for i in 0..100 {
        let v = w.receive(&ctx, TEN_S).unwrap().expect("a reply");
        assert_eq!(v.to_number().unwrap(), 2.0 * i as f64);
    }
}

#[test]
fn structured_round_trip() {
    let ctx = Context::new().unwrap();
    let opts = WorkerOptions { name: Some("echo".into()), ..Default::default() };
    let w = Worker::with_options("onmessage = (e) => postMessage({ got: e.data, from: name });", &opts).unwrap();
    w.post(&ctx.eval("({ list: [1, 'two', { three: 3 }], map: new Map([[1, 2]]) })").unwrap()).unwrap();
    let v = w.receive(&ctx, TEN_S).unwrap().unwrap();
    assert_eq!(v.get("from").unwrap().to_string().unwrap(), "echo");
    assert_eq!(v.get("got").unwrap().get("list").unwrap().to_json(0).unwrap().unwrap(), r#"[1,"two",{"three":3}]"#);
    let map = v.get("got").unwrap().get("map").unwrap();
    assert_eq!(map.get("get").unwrap().to_string().unwrap().contains("native code"), true);
}

#[test]
fn data_clone_error_is_an_err() {
    let ctx = Context::new().unwrap();
    let w = Worker::new("onmessage = (e) => postMessage(e.data);").unwrap();
    let e = w.post(&ctx.eval("({ f() {} })").unwrap()).unwrap_err();
    assert_eq!(e.name, "DataCloneError");
    assert_eq!(e.kind, ErrorKind::Exception);
    w.post(&ctx.number(1.0)).unwrap(); // nothing was queued by the failure
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_number().unwrap(), 1.0);
}

#[test]
fn syntax_error_fails_creation() {
    let e = Worker::new("onmessage = (").err().expect("a syntax error");
    assert_eq!(e.name, "SyntaxError");
    assert!(!e.message.is_empty());
}

#[test]
fn terminate_a_spinning_worker() {
    let ctx = Context::new().unwrap();
    let w = Worker::new("postMessage('spinning'); for (;;) {}").unwrap();
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_string().unwrap(), "spinning");
    let t0 = Instant::now();
    w.terminate();
    assert!(w.receive(&ctx, FOREVER).unwrap().is_none(), "after terminate the worker ends and drains");
    assert!(w.is_closed());
    assert!(t0.elapsed() < Duration::from_secs(5), "terminate took {:?}", t0.elapsed());
    let spinning = Worker::new("for (;;) {}").unwrap();
    let t0 = Instant::now();
    drop(spinning); // Drop interrupts the loop too
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn close_is_graceful_and_timeouts_are_none() {
    let ctx = Context::new().unwrap();
    let w = Worker::new(DOUBLER).unwrap();
    assert!(w.receive(&ctx, Duration::from_millis(30)).unwrap().is_none());
    assert!(!w.is_closed(), "a timeout, not the end");
    w.post(&ctx.number(1.0)).unwrap();
    w.post(&ctx.number(2.0)).unwrap();
    w.close();
    assert_eq!(w.post(&ctx.number(3.0)).unwrap_err().name, "InvalidStateError");
    let mut got = vec![];
    while let Some(v) = w.receive(&ctx, FOREVER).unwrap() {
        got.push(v.to_number().unwrap());
    }
    assert_eq!(got, vec![2.0, 4.0]);
    let info = w.info().unwrap();
    assert_eq!((info.kind, info.state), (TargetKind::Script, TargetState::Closed));
    assert!(info.id > 0);
}

#[test]
fn limits_are_enforced() {
    let ctx = Context::new().unwrap();
    let opts = WorkerOptions { inbox: Limits { max_message_bytes: 64, ..Default::default() }, ..Default::default() };
    let w = Worker::with_options(DOUBLER, &opts).unwrap();
    assert_eq!(w.post(&ctx.string(&"x".repeat(1000))).unwrap_err().name, "RangeError");
}

#[test]
fn another_thread_is_refused_by_the_library() {
    // Safe Rust cannot move a Worker or Context to another thread (they are !Send; see the compile_fail doc tests
    // and the unit test in lib.rs). Past the type system, with the raw handles, the library refuses too.
    let ctx = Context::new().unwrap();
    let w = Worker::new(DOUBLER).unwrap();
    let (raw_w, raw_ctx) = (w.raw() as usize, ctx.raw() as usize);
    let refused = std::thread::spawn(move || unsafe {
        use jsworker::sys;
        let other = sys::JSGlobalContextCreate(std::ptr::null_mut());
        let mut exc: sys::JSValueRef = std::ptr::null();
        let posted = sys::JSWorkerPostMessage(raw_w as _, other, sys::JSValueMakeNumber(other, 1.0), &mut exc);
        let s = sys::JSValueToStringCopy(other, exc, std::ptr::null_mut());
        let mut buf = vec![0u8; 512];
        let n = sys::JSStringGetUTF8CString(s, buf.as_mut_ptr().cast(), buf.len());
        sys::JSStringRelease(s);
        sys::JSWorkerTerminate(raw_w as _); // silently refused
        let evaluated = sys::JSContextGetGlobalObject(raw_ctx as _);
        sys::JSGlobalContextRelease(other);
        (posted, String::from_utf8_lossy(&buf[..n.saturating_sub(1)]).into_owned(), evaluated.is_null())
    })
    .join()
    .unwrap();
    assert!(!refused.0, "a post from another thread is refused");
    assert!(refused.1.contains("another thread"), "the exception says why: {}", refused.1);
    assert!(refused.2, "another thread's use of the context is refused");
    w.post(&ctx.number(21.0)).unwrap(); // nothing happened to them
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_number().unwrap(), 42.0);
}

#[test]
fn each_thread_owns_its_own() {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let ctx = Context::new().unwrap();
                let w = Worker::new(DOUBLER).unwrap();
                (0..50)
                    .map(|i| {
                        w.post(&ctx.number((t * 100 + i) as f64)).unwrap();
                        w.receive(&ctx, TEN_S).unwrap().unwrap().to_number().unwrap()
                    })
                    .sum::<f64>()
            })
        })
        .collect();
    let sums: Vec<f64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for (t, s) in sums.iter().enumerate() {
        assert_eq!(*s, (0..50).map(|i| 2.0 * (t * 100 + i) as f64).sum::<f64>());
    }
}

#[test]
fn json_messages_in_order_with_values() {
    let ctx = Context::new().unwrap();
    let w = Worker::new("onmessage = (e) => postMessage({ got: e.data });").unwrap();
    w.post_json(&ctx, r#"{"i": 1, "s": "h\u00e9", "a": [1, 2.5, null]}"#).unwrap();
    w.post(&ctx.number(7.0)).unwrap();
    assert_eq!(w.receive_json(&ctx, TEN_S).unwrap().unwrap(), r#"{"got":{"i":1,"s":"hé","a":[1,2.5,null]}}"#);
    assert_eq!(w.receive_json(&ctx, TEN_S).unwrap().unwrap(), r#"{"got":7}"#);
    let err = w.post_json(&ctx, "{bad").unwrap_err();
    assert_eq!(err.name, "SyntaxError");
    assert_eq!(w.receive_json(&ctx, Duration::from_millis(20)).unwrap(), None);
}
