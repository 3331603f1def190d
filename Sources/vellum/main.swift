import Foundation

// A blocked signal mask is inherited through exec: a parent that blocked SIGTERM
// (a service manager, a test runner's worker thread) would make `kill` and Ctrl-C
// do nothing. Unblock the signals vellum relies on before any thread starts, so
// every thread created later inherits the open mask.
var handledSignals = sigset_t()
sigemptyset(&handledSignals)
for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGCONT, SIGWINCH] { sigaddset(&handledSignals, signal) }
pthread_sigmask(SIG_UNBLOCK, &handledSignals, nil)

// Top-level `await`: async commands run here; the main queue keeps being serviced.
exit(await VellumCLI.main(Array(CommandLine.arguments.dropFirst())))
