//! Rust closures as native functions inside workers and host contexts, worker setups, console callbacks.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jsworker::{ConsoleLevel, Context, Error, Natives, Worker, WorkerOptions};

const TEN_S: Duration = Duration::from_secs(10);

/// Counts its drops: captured by a closure, it tells how often the closure's box was freed.
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn receive_string(w: &Worker, ctx: &Context) -> String {
    w.receive(ctx, TEN_S).unwrap().expect("a message").to_string().unwrap()
}

#[test]
fn worker_calls_rust_closures_on_its_thread() {
    let threads = Arc::new(Mutex::new(Vec::new()));
    let seen = threads.clone();
    let natives = Natives::new()
        .function("add", move |cx, args| {
            seen.lock().unwrap().push(std::thread::current().id());
            let mut sum = 0.0;
            for a in args {
                sum += a.to_number()?;
            }
            Ok(cx.number(sum))
        })
        .function("shout", |cx, args| Ok(cx.string(&args[0].to_string()?.to_uppercase())));
    let w = Worker::with_natives(
        "postMessage(JSON.stringify([add(40, 2), add(), shout('hi'), typeof add, add.name, add.call(null, 1, 2),
                                     add instanceof Function]))",
        &WorkerOptions::default(),
        natives,
    )
    .unwrap();
    let ctx = Context::new().unwrap();
    assert_eq!(receive_string(&w, &ctx), r#"[42,0,"HI","function","add",3,true]"#);
    let threads = threads.lock().unwrap();
    assert_eq!(threads.len(), 3);
    assert!(threads.iter().all(|t| *t != std::thread::current().id()), "natives run on the worker's thread");
}

#[test]
fn errors_and_panics_are_thrown_in_javascript() {
    let natives = Natives::new()
        .function("fail", |_, _| {
            Err(Error {
                kind: jsworker::ErrorKind::Exception,
                name: "RangeError".into(),
                message: "too far".into(),
                stack: None,
            })
        })
        .function("boom", |_, _| panic!("kaboom"))
        .function("notNumber", |cx, _| {
            cx.eval("({ valueOf() { throw new TypeError('inner') } })")?.to_number().map(|d| cx.number(d))
        });
    let src = "const r = []; for (const f of [fail, boom, notNumber]) { try { f(); r.push('no throw') }
               catch (e) { r.push(e instanceof Error ? e.name + ': ' + e.message : String(e)) } }
               postMessage(r.join('|'))";
    let w = Worker::with_natives(src, &WorkerOptions::default(), natives).unwrap();
    let ctx = Context::new().unwrap();
    assert_eq!(
        receive_string(&w, &ctx),
        "RangeError: too far|Error: the native function panicked: kaboom|TypeError: inner"
    );
}

#[test]
fn closures_are_dropped_exactly_once_when_the_worker_ends() {
    let drops = Arc::new(AtomicUsize::new(0));
    let ctx = Context::new().unwrap();
    for _ in 0..3 {
        let guard = DropCount(drops.clone());
        let natives = Natives::new().function("ping", move |cx, _| {
            let _keep = &guard;
            Ok(cx.string("pong"))
        });
        let w =
            Worker::with_natives("onmessage = () => postMessage(ping())", &WorkerOptions::default(), natives).unwrap();
        w.post(&ctx.number(1.0)).unwrap();
        assert_eq!(receive_string(&w, &ctx), "pong");
        drop(w); // JSWorkerRelease: the worker's thread ends, its realm's finalizers have run
    }
    assert_eq!(drops.load(Ordering::SeqCst), 3);

    // A worker terminated in the middle of a loop calling the closure.
    let guard = DropCount(drops.clone());
    let natives = Natives::new().function("tick", move |cx, _| {
        let _keep = &guard;
        Ok(cx.undefined())
    });
    let w = Worker::with_natives("postMessage('go'); for (;;) tick();", &WorkerOptions::default(), natives).unwrap();
    assert_eq!(receive_string(&w, &ctx), "go");
    w.terminate();
    drop(w);
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

#[test]
fn host_context_functions_are_dropped_with_the_context() {
    let drops = Arc::new(AtomicUsize::new(0));
    {
        let ctx = Context::new().unwrap();
        let guard = DropCount(drops.clone());
        let f = ctx
            .function("twice", move |cx, args| {
                let _keep = &guard;
                Ok(cx.number(2.0 * args.first().map_or(Ok(0.0), |a| a.to_number())?))
            })
            .unwrap();
        ctx.global().set("twice", &f).unwrap();
        assert_eq!(ctx.eval("[1, 2, 3].map(twice).join()").unwrap().to_string().unwrap(), "2,4,6");
        assert_eq!(drops.load(Ordering::SeqCst), 0);
    }
    assert_eq!(drops.load(Ordering::SeqCst), 1, "the closure is freed exactly once, when the context is released");
}

#[test]
fn setup_installs_values_and_its_failure_fails_creation() {
    let natives = Natives::new().setup(|cx| {
        let config = cx.eval("({ retries: 3 })")?;
        cx.global().set("config", &config)?;
        let half = cx.function("half", |cx, args| Ok(cx.number(args[0].to_number()? / 2.0)))?;
        config.set("half", &half)
    });
    let w = Worker::with_natives("postMessage(config.half(config.retries * 2))", &WorkerOptions::default(), natives)
        .unwrap();
    let ctx = Context::new().unwrap();
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_number().unwrap(), 3.0);

    let failing = Natives::new().setup(|_| {
        Err(Error {
            kind: jsworker::ErrorKind::Library,
            name: "Error".into(),
            message: "no license".into(),
            stack: None,
        })
    });
    let e = Worker::with_natives("postMessage(1)", &WorkerOptions::default(), failing).err().expect("refused");
    assert_eq!(e.message, "no license");

    let panicking = Natives::new().setup(|_| panic!("setup exploded"));
    let e = Worker::with_natives("postMessage(1)", &WorkerOptions::default(), panicking).err().expect("refused");
    assert!(e.message.contains("setup exploded"), "{}", e);

    let e = Worker::with_natives("postMessage(", &WorkerOptions::default(), Natives::new()).err().expect("syntax");
    assert_eq!(e.name, "SyntaxError");
}

#[test]
fn a_lent_context_refuses_set_console() {
    let natives = Natives::new().setup(|cx| {
        let refused = cx.set_console(Some(|_: ConsoleLevel, _: &str| {})).is_err();
        cx.global().set("refused", &cx.boolean(refused))
    });
    let w = Worker::with_natives("postMessage(refused)", &WorkerOptions::default(), natives).unwrap();
    let ctx = Context::new().unwrap();
    assert!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_bool());
}

#[test]
fn console_lines_reach_rust() {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let natives = Natives::new().console(move |level, line| sink.lock().unwrap().push((level, line.to_string())));
    let w = Worker::with_natives(
        "console.log('a %d', 5); console.warn('w'); console.error(new Error('bad').message); postMessage('done')",
        &WorkerOptions::default(),
        natives,
    )
    .unwrap();
    let ctx = Context::new().unwrap();
    assert_eq!(receive_string(&w, &ctx), "done");
    assert_eq!(
        *lines.lock().unwrap(),
        vec![
            (ConsoleLevel::Log, "a 5".to_string()),
            (ConsoleLevel::Warn, "w".into()),
            (ConsoleLevel::Error, "bad".into())
        ]
    );

    let host_lines = Arc::new(Mutex::new(Vec::new()));
    let sink = host_lines.clone();
    ctx.set_console(Some(move |level, line: &str| sink.lock().unwrap().push((level, line.to_string())))).unwrap();
    ctx.eval("console.info({ a: 1 }); console.debug('d')").unwrap();
    ctx.set_console(None::<fn(ConsoleLevel, &str)>).unwrap();
    ctx.eval("console.log('to stdout again')").unwrap();
    assert_eq!(
        *host_lines.lock().unwrap(),
        vec![(ConsoleLevel::Info, "{ a: 1 }".to_string()), (ConsoleLevel::Debug, "d".into())]
    );
}
