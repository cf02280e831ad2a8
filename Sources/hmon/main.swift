// The entry point of `hmon`; `HMon.launch()` says why it is not an `async` one.
HMon.launch()
