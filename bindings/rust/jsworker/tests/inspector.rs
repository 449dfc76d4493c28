//! Inspector sessions with closure callbacks: pause at `debugger;` and resume from the callback; the synchronous
//! main-context session; callback panics resumed on the caller's side.
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use jsworker::{Context, PumpResult, Worker, WorkerOptions};

const TEN_S: Duration = Duration::from_secs(10);
const PAUSER: &str = "var secret = 41;\nonmessage = function (e) {\n  debugger;\n  postMessage(e.data + secret);\n};\n";

fn has(msgs: &RefCell<Vec<String>>, needle: &str) -> bool {
    msgs.borrow().iter().any(|m| m.contains(needle))
}

#[test]
fn pause_at_debugger_and_resume_from_the_callback() {
    let ctx = Context::new().unwrap();
    let w = Worker::with_options(PAUSER, &WorkerOptions { inspectable: true, ..Default::default() }).unwrap();
    let msgs = Rc::new(RefCell::new(Vec::new()));
    let seen = msgs.clone();
    let session = w
        .inspector(move |d, m| {
            seen.borrow_mut().push(m.to_string());
            if m.contains("\"method\":\"Debugger.paused\"") {
                assert!(d.dispatch(r#"{"id":3,"method":"Debugger.resume"}"#));
            }
        })
        .unwrap();
    assert_eq!(session.pump(TEN_S).unwrap(), PumpResult::Message);
    assert!(has(&msgs, "Runtime.executionContextsCleared"));
    session.dispatch(r#"{"id":1,"method":"Debugger.enable"}"#).unwrap();
    session.pump_until(TEN_S, || has(&msgs, "\"id\":1,")).unwrap();
    w.post(&ctx.number(1.0)).unwrap();
    session.pump_until(TEN_S, || has(&msgs, "\"id\":3,")).unwrap();
    let paused = msgs.borrow().iter().find(|m| m.contains("Debugger.paused")).cloned().unwrap();
    assert!(paused.contains("\"lineNumber\":2"), "paused at the debugger statement: {}", paused);
    let reply = w.receive(&ctx, TEN_S).unwrap().expect("the handler finished after the resume");
    assert_eq!(reply.to_number().unwrap(), 42.0);
}

#[test]
fn protocol_errors_and_the_end_of_the_worker() {
    let w = Worker::new("onmessage = () => {}").unwrap();
    let msgs = Rc::new(RefCell::new(Vec::new()));
    let seen = msgs.clone();
    let session = w.inspector(move |_, m| seen.borrow_mut().push(m.to_string())).unwrap();
    session.dispatch(r#"{"id":7,"method":"Nope.nothing"}"#).unwrap();
    session.dispatch(r#"{"id":8,"method":"Runtime.evaluate","params":{"expression":"6*7"}}"#).unwrap();
    session.pump_until(TEN_S, || has(&msgs, "\"id\":8,")).unwrap();
    assert!(msgs.borrow().iter().any(|m| m.contains("\"id\":7,") && m.contains("-32601")));
    assert!(msgs.borrow().iter().any(|m| m.contains("\"id\":8,") && m.contains("\"value\":42")));
    drop(w); // the session outlives its worker: its last messages, then Closed
    let mut last = PumpResult::Message;
    while last == PumpResult::Message {
        last = session.pump(TEN_S).unwrap();
    }
    assert_eq!(last, PumpResult::Closed);
    assert!(msgs.borrow().last().unwrap().contains("Inspector.detached"));
    assert!(session.dispatch(r#"{"id":9,"method":"Schema.getDomains"}"#).is_err());
}

#[test]
fn callback_panics_resume_after_pump() {
    let w = Worker::new("onmessage = () => {}").unwrap();
    let session = w.inspector(|_, _| panic!("callback failed")).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.pump(TEN_S)));
    let payload = caught.expect_err("the panic is resumed by pump");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"callback failed"));
    session.dispatch(r#"{"id":1,"method":"Schema.getDomains"}"#).unwrap(); // the session still works
}

#[test]
fn main_context_session_is_synchronous() {
    let ctx = Context::new().unwrap();
    assert!(ctx.inspector(|_, _| {}).is_err(), "not inspectable yet");
    ctx.set_inspectable(true);
    assert!(ctx.is_inspectable());
    let msgs = Rc::new(RefCell::new(Vec::new()));
    let seen = msgs.clone();
    let session = ctx.inspector(move |_, m| seen.borrow_mut().push(m.to_string())).unwrap();
    assert!(has(&msgs, "Runtime.executionContextsCleared"), "the first message came inside inspector()");
    session.dispatch(r#"{"id":1,"method":"Runtime.enable"}"#).unwrap();
    assert!(has(&msgs, "\"id\":1,"), "answered before dispatch returned");
    session.dispatch(r#"{"id":2,"method":"Runtime.evaluate","params":{"expression":"[1,2].length"}}"#).unwrap();
    assert!(msgs.borrow().iter().any(|m| m.contains("\"id\":2,") && m.contains("\"value\":2")));
    ctx.eval("console.log('from rust')").unwrap();
    assert!(has(&msgs, "Runtime.consoleAPICalled") && has(&msgs, "from rust"));
}
