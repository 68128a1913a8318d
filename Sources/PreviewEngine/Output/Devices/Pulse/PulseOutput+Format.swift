import CPulse
import PreviewCore

/// The format a PulseAudio output asks for: the sink's own rate, so the server does not resample
/// what previewd already converted once (and a 44.1 kHz sink gets the previews untouched).
extension PulseOutput {
    /// Asks the server, once at start, the rate of the sink `configuration` names (else the default
    /// sink's), waiting in libpulse's own `poll` at most `timeoutMs`. Stereo; 44.1 kHz when the server
    /// cannot be asked (it is not running yet: the output connects later, and the server converts).
    static func sinkFormat(_ configuration: Configuration, timeoutMs: Int = 2_000) -> PCMFormat {
        guard let rate = SinkProbe(configuration).run(timeoutMs: timeoutMs), (8_000...384_000).contains(rate) else {
            return .preferred
        }
        return PCMFormat(sampleRate: rate, channels: PCMFormat.preferred.channels)
    }
}

/// One question to the server on a mainloop of its own: server info (the default sink's name),
/// then that sink's info (its sample spec).
private final class SinkProbe {
    let configuration: PulseOutput.Configuration
    var rate: Int?
    var done = false

    init(_ configuration: PulseOutput.Configuration) { self.configuration = configuration }

    /// The sink's rate, or nil (no server, no such sink, no answer in time).
    func run(timeoutMs: Int) -> Int? {
        guard let mainloop = pa_mainloop_new() else { return nil }
        defer { pa_mainloop_free(mainloop) }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), "previewd") else { return nil }
        defer { pa_context_disconnect(context); pa_context_unref(context) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, { context, userdata in
            Unmanaged<SinkProbe>.fromOpaque(userdata!).takeUnretainedValue().stateChanged(context!)
        }, me)
        guard pa_context_connect(context, configuration.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else { return nil }
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
        while !done {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            guard pa_mainloop_prepare(mainloop, Int32(min((deadline - now) / 1_000, UInt64(Int32.max)))) >= 0,
                  pa_mainloop_poll(mainloop) >= 0, pa_mainloop_dispatch(mainloop) >= 0 else { break }
        }
        pa_context_set_state_callback(context, nil, nil)
        return rate
    }

    func stateChanged(_ context: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            if let sink = configuration.sink {
                askSink(context, sink)
            } else {
                release(pa_context_get_server_info(context, { context, info, userdata in
                    let probe = Unmanaged<SinkProbe>.fromOpaque(userdata!).takeUnretainedValue()
                    guard let info, let name = info.pointee.default_sink_name else {
                        probe.rate = info.map { Int($0.pointee.sample_spec.rate) }
                        probe.done = true
                        return
                    }
                    probe.askSink(context!, String(cString: name))
                }, me))
            }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: done = true
        default: break
        }
    }

    func askSink(_ context: OpaquePointer, _ name: String) {
        release(pa_context_get_sink_info_by_name(context, name, { _, info, eol, userdata in
            let probe = Unmanaged<SinkProbe>.fromOpaque(userdata!).takeUnretainedValue()
            if let info { probe.rate = Int(info.pointee.sample_spec.rate) }
            if eol != 0 { probe.done = true }
        }, Unmanaged.passUnretained(self).toOpaque()))
    }

    private func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) } else { done = true }
    }
}
