//! The process-wide worker setup reaches workers created from JavaScript (alone in its test binary: it is global).
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use jsworker::{set_default_setup, Context, Error, ErrorKind, Natives, Worker, WorkerOptions};

#[test]
fn default_setup_reaches_nested_workers() {
    let dir = std::env::temp_dir().join(format!("jsworker-rust-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let child = dir.join("child.js");
    std::fs::write(&child, "postMessage(typeof hostAdd === 'function' ? hostAdd(1, 2) : 'missing')").unwrap();
    let parent = format!(
        "const w = new Worker({:?}); w.onmessage = (e) => {{ postMessage('nested ' + e.data); w.terminate(); }};
         w.onerror = (e) => postMessage('error ' + e.message);",
        child.to_str().unwrap()
    );
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    set_default_setup(Some(move |cx: &Context| {
        counted.fetch_add(1, Ordering::SeqCst);
        let f = cx.function("hostAdd", |cx, args| Ok(cx.number(args[0].to_number()? + args[1].to_number()?)))?;
        cx.global().set("hostAdd", &f)
    }));
    let ctx = Context::new().unwrap();
    let got = |w: &Worker| w.receive(&ctx, Duration::from_secs(20)).unwrap().unwrap().to_string().unwrap();

    let w = Worker::new(&parent).unwrap();
    assert_eq!(got(&w), "nested 3");
    assert_eq!(runs.load(Ordering::SeqCst), 2, "it ran for the Rust-created worker and for its JavaScript child");
    drop(w);

    // A worker with natives of its own does not run the default setup.
    let own = Natives::new().function("hostAdd", |cx, _| Ok(cx.string("own")));
    let w = Worker::with_natives("postMessage(hostAdd())", &WorkerOptions::default(), own).unwrap();
    assert_eq!(got(&w), "own");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    drop(w);

    set_default_setup(Some(|_: &Context| {
        Err(Error {
            kind: ErrorKind::Exception,
            name: "Error".into(),
            message: "no plugin for you".into(),
            stack: None,
        })
    }));
    let w = Worker::with_natives(&parent, &WorkerOptions::default(), Natives::new()).unwrap();
    let e = got(&w);
    assert!(e.starts_with("error") && e.contains("no plugin for you"), "{}", e);
    drop(w);

    set_default_setup(None::<fn(&Context) -> jsworker::Result<()>>);
    let w = Worker::new("postMessage(typeof hostAdd)").unwrap();
    assert_eq!(got(&w), "undefined");
    std::fs::remove_dir_all(&dir).unwrap();
}
