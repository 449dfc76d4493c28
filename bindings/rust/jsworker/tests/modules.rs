//! Module workers with a Rust closure loader (run on the worker's thread, hence `Send`).
#![cfg(jsworker_modules)]
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jsworker::{Context, LoadError, TargetKind, Worker, WorkerOptions};

const TEN_S: Duration = Duration::from_secs(10);

fn resolve(specifier: &str, referrer: Option<&str>) -> String {
    let base = referrer.unwrap_or("/").rsplit_once('/').map_or("", |(b, _)| b);
    let mut out: Vec<&str> = vec![];
    for part in base.split('/').chain(specifier.split('/')) {
        match part {
            ".." => {
                out.pop();
            }
            "." | "" => {}
            p => out.push(p),
        }
    }
    format!("/{}", out.join("/"))
}

#[test]
fn closure_loader_resolves_imports() {
    let files: HashMap<&str, &str> = [
        ("/app/math.js", "export const double = (x) => x * 2;"),
        ("/app/lib/label.js", "import { double } from '../math.js';\nexport const label = (x) => `x2=${double(x)}`;"),
    ]
    .into_iter()
    .collect();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    let owner = std::thread::current().id();
    let ctx = Context::new().unwrap();
    let w = Worker::module(
        "/app/main.js",
        "import { label } from './lib/label.js';\nonmessage = (e) => postMessage(label(e.data));\n",
        move |spec, referrer| {
            seen.lock().unwrap().push((spec.to_string(), referrer.map(str::to_string), std::thread::current().id()));
            let path = resolve(spec, referrer);
            files.get(path.as_str()).map(|src| (path.clone(), src.to_string())).ok_or(LoadError::NotFound)
        },
        &WorkerOptions::default(),
    )
    .unwrap();
    w.post(&ctx.number(21.0)).unwrap();
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_string().unwrap(), "x2=42");
    assert_eq!(w.info().unwrap().kind, TargetKind::Module);
    let calls = calls.lock().unwrap();
    assert!(calls.iter().any(|c| c.0 == "../math.js" && c.1.as_deref() == Some("/app/lib/label.js")), "{:?}", calls);
    assert!(calls.iter().all(|c| c.2 != owner), "the loader ran on the worker's thread");
}

#[test]
fn failed_loads_end_the_worker() {
    let ctx = Context::new().unwrap();
    let loaders: Vec<Box<dyn Fn() -> Worker>> = vec![
        Box::new(|| {
            Worker::module(
                "/m.js",
                "import './nope.js'; postMessage(1);",
                |_, _| Err(LoadError::NotFound),
                &WorkerOptions::default(),
            )
            .unwrap()
        }),
        Box::new(|| {
            Worker::module(
                "/m.js",
                "import './nope.js'; postMessage(1);",
                |_, _| Err(LoadError::Failed("disk on fire".into())),
                &WorkerOptions::default(),
            )
            .unwrap()
        }),
        Box::new(|| {
            Worker::module(
                "/m.js",
                "import './nope.js'; postMessage(1);",
                |_, _| panic!("loader panicked"),
                &WorkerOptions::default(),
            )
            .unwrap()
        }),
    ];
    for make in loaders {
        let w = make();
        assert!(w.receive(&ctx, TEN_S).unwrap().is_none(), "no module ran");
        assert!(w.is_closed());
    }
}

#[test]
fn bad_entry_path_is_an_err() {
    let e = Worker::module("", "postMessage(1)", |_, _| Err(LoadError::NotFound), &WorkerOptions::default())
        .err()
        .expect("an empty entry path is refused");
    assert!(e.message.contains("could not be created"), "{}", e);
}

#[test]
fn module_workers_get_natives() {
    let ctx = Context::new().unwrap();
    let natives = jsworker::Natives::new().function("hostTwice", |cx, args| Ok(cx.number(2.0 * args[0].to_number()?)));
    let w = Worker::module_with_natives(
        "/app/main.js",
        "import { seven } from './seven.js';\npostMessage(hostTwice(seven));\n",
        |spec, _| {
            if spec == "./seven.js" {
                Ok(("/app/seven.js".into(), "export const seven = 7;".into()))
            } else {
                Err(LoadError::NotFound)
            }
        },
        &WorkerOptions::default(),
        natives,
    )
    .unwrap();
    assert_eq!(w.receive(&ctx, TEN_S).unwrap().unwrap().to_number().unwrap(), 14.0);
}
