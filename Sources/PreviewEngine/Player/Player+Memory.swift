import PreviewCore

/// The `memory` command: the loads alive against the prefetch window, and every store that grows
/// with use against its bound.
extension Player {
    func memoryReport() -> MemoryReport {
        var stores = [StoreReport(name: "queue", entries: core.queue.count, maxEntries: PlayQueue.maxCount),
                      catalog.cacheReport,
                      catalog.memory.report,
                      loudness.report,
                      StoreReport(name: "loudness-waiting", entries: measureQueue.count, maxEntries: window)]
        if let artwork { stores.append(artwork.report) }
        let plan = core.policy.heads
        let headBytes = core.heads.keys.reduce(0) { $0 + (downloads[$1]?.bytes.receivedCount ?? 0) }
        stores.append(StoreReport(name: "heads", entries: core.heads.count, maxEntries: plan.capacity,
                                  bytes: headBytes, maxBytes: plan.reservedBytes))
        var report = MemoryReport(live: LiveObjects.report, window: window, stores: stores,
                                  anonymousBytes: ProcessMemory.anonymousBytes())
        report.heads = plan.capacity
        report.catalogCalls = catalog.callCount
        return report
    }

    /// Loads the prefetch window holds at most: the current track and its prefetched neighbours.
    var window: Int { policy.window }
}
