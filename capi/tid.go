package capi

/*
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

// jsworker_gettid returns the calling OS thread's id, asking the kernel once per thread: a thread id never changes,
// and on our VMs a system call costs about a microsecond, which was a quarter of a small message's cost.
static __thread int jsworker_tid;
extern __thread int jsw_owner; // classdef.c: a worker context's owner while the library calls the host for it
static inline int jsworker_gettid(void) {
	if (jsw_owner != 0) {
		return jsw_owner;
	}
	if (jsworker_tid == 0) {
		jsworker_tid = (int)syscall(SYS_gettid);
	}
	return jsworker_tid;
}

// A forked child's only thread inherits the forking thread's cache, but not its id.
static void jsworker_forget_tid(void) { jsworker_tid = 0; }
__attribute__((constructor)) static void jsworker_tid_init(void) {
	pthread_atfork(NULL, NULL, jsworker_forget_tid);
}
*/
import "C"

// gettid returns the calling OS thread's id, or, while the library calls the host on behalf of a worker context
// (capi.h's JSW_AS), that context's owner: a worker, not a thread. An exported function runs on the thread of the C code that called it,
// so inside an export this identifies the caller. The id is cached per thread in C thread-local storage and forgotten
// in a forked child.
func gettid() int { return int(C.jsworker_gettid()) }
