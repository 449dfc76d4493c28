package capi

// The Debugger domain of a main context (JSGlobalContextSetInspectable) is its core.HostRealm's: scripts evaluated
// while the context is inspectable are compiled instrumented (HostRealm.RunScript), and a pause happens inside the
// library call that runs the JavaScript, on the owner thread. The context then serves its sessions until one of
// them resumes: the messages of the pause reach the session callbacks on the owner thread (HostRealmOptions.
// OnInspectorIdle is flushSessions), and a callback may dispatch Debugger.resume (or a step) right there. While
// paused, ZJSInspectorSessionDispatch is also accepted from any other thread (dispatchToPaused): the command is
// queued, and the paused owner thread runs it and delivers the answer through the callback.
