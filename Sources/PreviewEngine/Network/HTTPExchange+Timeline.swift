import CCurl

/// What an exchange tells `StartTimeline` when its connection is ready: for a search, when the API
/// was connected and its TLS done; for the preview the timeline follows, which connection it got
/// (new, with its TCP and TLS times, or a warm one) and when the request went out. From libcurl's
/// own timings (CURLINFO_*_TIME_T, from the transfer's start; CURLINFO_NUM_CONNECTS: 0 when the
/// connection was reused).
extension HTTPExchange {
    /// The connection is ready (TCP and TLS done, or reused) and the request about to go out, at `now`.
    func connectionReady(at now: UInt64) {
        connectedAt = now
        guard let easy, request.purpose == .search || request.purpose == .preview else { return }
        let timeline = StartTimeline.shared
        if request.purpose == .preview, !timeline.follows(self) { return }
        let reused = ccurl_info_long(easy, CURLINFO_NUM_CONNECTS) == 0
        let connectUs = UInt64(max(0, ccurl_info_offset(easy, CURLINFO_CONNECT_TIME_T)))
        let tlsUs = UInt64(max(0, ccurl_info_offset(easy, CURLINFO_APPCONNECT_TIME_T)))
        let connected = reused ? now : startedAt + connectUs * 1000
        let secured = reused || tlsUs == 0 ? connected : startedAt + tlsUs * 1000
        switch request.purpose {
        case .search:
            timeline.mark(.apiConnected, at: connected, detail: reused ? "warm: a kept connection" : "new connection")
            if !reused, tlsUs > 0 { timeline.mark(.apiTLS, at: secured) }
        default:
            let which = reused
                ? (movedToWarm ? "warm: the pre-connect's, taken when its probe ended" : "warm: a kept connection (a pre-connect's or an earlier one)")
                : "new: TCP \(StartTimeline.ms(Int64(connectUs * 1000))) ms" + (tlsUs > 0 ? ", TLS \(StartTimeline.ms(Int64((tlsUs - min(tlsUs, connectUs)) * 1000))) ms" : "")
            timeline.mark(.cdnConnection, at: secured, detail: which, preview: self)
            timeline.mark(.previewSent, at: now, preview: self)
        }
    }
}
