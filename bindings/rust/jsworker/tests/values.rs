//! Promises the host settles, symbols and BigInts.
use jsworker::{Context, PromiseState};

#[test]
fn deferred_promises_settle_and_report_their_state() {
    let ctx = Context::new().unwrap();
    let d = ctx.deferred_promise().unwrap();
    assert!(matches!(d.promise.promise_state(), Some(PromiseState::Pending)));
    ctx.global().set("p", &d.promise).unwrap();
    ctx.eval("globalThis.seen = 'nothing'; p.then((v) => { seen = 'got ' + v })").unwrap();
    d.resolve.call(&[&ctx.number(7.0)]).unwrap();
    // The reactions ran before the resolve call returned.
    assert_eq!(ctx.eval("seen").unwrap().to_string().unwrap(), "got 7");
    match d.promise.promise_state() {
        Some(PromiseState::Fulfilled(v)) => assert_eq!(v.to_number().unwrap(), 7.0),
        other => panic!("{:?}", other),
    }

    let d = ctx.deferred_promise().unwrap();
    let e = ctx.error_value(&jsworker::Error {
        kind: jsworker::ErrorKind::Exception,
        name: "RangeError".into(),
        message: "nope".into(),
        stack: None,
    });
    d.reject.call(&[&e]).unwrap();
    match d.promise.promise_state() {
        Some(PromiseState::Rejected(r)) => assert_eq!(r.to_string().unwrap(), "RangeError: nope"),
        other => panic!("{:?}", other),
    }
    assert!(ctx.number(1.0).promise_state().is_none());
    assert!(ctx.eval("({ then() {} })").unwrap().promise_state().is_none());
}

#[test]
fn symbols_and_bigints() {
    let ctx = Context::new().unwrap();
    let s = ctx.symbol(Some("tag"));
    assert_eq!(s.js_type(), jsworker::Type::Symbol);
    let f = ctx.eval("(s) => s.description").unwrap();
    assert_eq!(f.call(&[&s]).unwrap().to_string().unwrap(), "tag");
    let b = ctx.bigint(i64::MIN);
    assert_eq!(b.to_string().unwrap(), "-9223372036854775808");
    assert_eq!(ctx.bigint_u64(u64::MAX).to_string().unwrap(), "18446744073709551615");
    assert_eq!(ctx.eval("2n ** 64n + 5n").unwrap().to_i64().unwrap(), 5);
}
