//! Drop releases: a dropped Worker, Context or session handle is stale in the library afterwards, values are
//! released one by one, and creating and dropping many keeps the resident set flat.
use std::time::Duration;

use jsworker::{sys, Context, Worker};

fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: f64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096.0 / (1 << 20) as f64
}

fn worker_is_live(raw: sys::JSWorkerRef) -> bool {
    let mut info = sys::ZJSInspectorTargetInfo::default();
    unsafe { sys::ZJSWorkerGetInspectorTargetInfo(raw, &mut info) }
}

#[test]
fn drop_releases_handles() {
    let ctx = Context::new().unwrap();
    let w = Worker::new("onmessage = (e) => postMessage(e.data);").unwrap();
    let session = w.inspector(|_, _| {}).unwrap();
    let (raw_w, raw_s) = (w.raw(), session.raw());
    assert!(worker_is_live(raw_w));
    drop(session);
    assert_eq!(unsafe { sys::ZJSWorkerInspectorSessionPump(raw_s, 0) }, sys::kZJSWorkerInspectorPumpError);
    drop(w);
    assert!(!worker_is_live(raw_w), "the dropped worker's handle is stale");

    let v = ctx.number(1.0);
    let raw_v = v.raw();
    drop(v);
    assert_eq!(unsafe { sys::JSValueGetType(ctx.raw(), raw_v) }, sys::kJSTypeUndefined);
    assert!(!unsafe { sys::JSValueIsNumber(ctx.raw(), raw_v) }, "the dropped value's handle is stale");

    let raw_ctx = ctx.raw();
    drop(ctx);
    assert!(unsafe { sys::JSGlobalContextRetain(raw_ctx) }.is_null(), "the dropped context's handle is stale");
}

#[test]
fn repeated_create_and_drop_is_bounded() {
    let cycle = |n: usize| {
        for _ in 0..n {
            let ctx = Context::new().unwrap();
            let w = Worker::new("onmessage = (e) => postMessage(e.data.length);").unwrap();
            w.post(&ctx.eval("Array.from({ length: 100 }, (_, i) => i)").unwrap()).unwrap();
            let v = w.receive(&ctx, Duration::from_secs(10)).unwrap().unwrap();
            assert_eq!(v.to_number().unwrap(), 100.0);
            let _session = w.inspector(|_, _| {}).unwrap();
        }
    };
    cycle(50);
    let before = rss_mib();
    cycle(300);
    let grown = rss_mib() - before;
    assert!(grown < 20.0, "300 contexts + workers created and dropped grew the resident set by {:.1} MiB", grown);
}

#[test]
fn values_in_a_long_loop_stay_flat() {
    let ctx = Context::new().unwrap();
    let w = Worker::new("onmessage = (e) => postMessage(e.data * 2);").unwrap();
    let round_trips = |n: usize| {
        for i in 0..n {
            w.post(&ctx.number(i as f64)).unwrap();
            let v = w.receive(&ctx, Duration::from_secs(10)).unwrap().unwrap();
            assert_eq!(v.to_number().unwrap(), 2.0 * i as f64);
        }
    };
    round_trips(2000);
    let before = rss_mib();
    round_trips(20000);
    let grown = rss_mib() - before;
    assert!(grown < 16.0, "20000 round trips grew the resident set by {:.1} MiB", grown);
}
