package core

// Version is jsworker's version (the library's, see include/jsworker.h).
const Version = "0.2.0"
