// A stand-in for the runtime library (the layer is what matters).
void probe_runtime() {}
